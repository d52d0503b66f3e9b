import { Device } from '../device';
import { Disposable } from '../disposable';
import { AllocationGranularityName } from '../generated/enums';
import { OwnedFd } from '../ipc/fd-channel';
import { PointerLike } from '../memory/info';
import { NativePhysicalAllocation } from '../native';
import { AllocationOptions, AllocationProperties } from './granularity';
/** Options of {@link PhysicalAllocation.create}. */
export interface PhysicalAllocationOptions extends AllocationOptions {
    /** Which granularity the size is rounded up to: 'minimum' (default) or 'recommended'. */
    granularity?: AllocationGranularityName;
}
/**
 * Physical memory without an address (cuMemCreate): map it into an
 * {@link AddressReservation} to use it. One reference to the allocation: disposing
 * it releases that reference (cuMemRelease); mappings keep the memory until they go.
 */
export declare class PhysicalAllocation extends Disposable<NativePhysicalAllocation> {
    /** @internal */
    constructor(handle: NativePhysicalAllocation);
    /**
     * A new allocation of at least bytes (cuMemCreate), rounded up to the
     * granularity of its properties: {@link size} reports the rounded size. It
     * has no address until mapped ({@link AddressReservation.map}).
     */
    static create(bytes: number, options?: PhysicalAllocationOptions): PhysicalAllocation;
    /**
     * The allocation mapped at an address (cuMemRetainAllocationHandle): any
     * address of a mapped range, given as library memory (plus offset) or a bigint.
     * Its size is that of the mapping the address lies in.
     */
    static retain(pointer: PointerLike, offset?: number): PhysicalAllocation;
    /**
     * An allocation another process exported (cuMemImportFromShareableHandle):
     * handle is the POSIX file descriptor it sent (a number or an OwnedFd, which
     * stays open and the caller's to close) or a fabric handle's 64 bytes. bytes is
     * the size the exporter announced. Most programs use openSharedMemory instead.
     */
    static import(handle: number | OwnedFd | Uint8Array, options: {
        bytes: number;
    }): PhysicalAllocation;
    /** The driver's CUmemGenericAllocationHandle (for logs). */
    get handle(): bigint;
    /** Bytes of the allocation (rounded to its granularity when created here). */
    get size(): number;
    /** The device whose primary context the allocation's calls use (device 0 for host memory). */
    get device(): Device;
    /** Its properties as the driver reports them (cuMemGetAllocationPropertiesFromHandle). */
    properties(): AllocationProperties;
    /**
     * Exports the allocation as a POSIX file descriptor (cuMemExportToShareableHandle),
     * for another process to import. Needs handleTypes: ['posixFileDescriptor']
     * at creation. The descriptor keeps the memory alive until it is closed: dispose it.
     */
    exportFd(): OwnedFd;
    /**
     * Exports the allocation as a fabric handle: 64 bytes that any process with
     * access to the same IMEX channel can import. Needs handleTypes: ['fabric'].
     */
    exportFabric(): Uint8Array;
    toString(): string;
}
