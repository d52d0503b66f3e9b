import { Device, DeviceLike } from '../device';
import { Disposable } from '../disposable';
import { NativeAddressReservation } from '../native';
import { Mapping, MappingOptions } from './mapping';
import type { PhysicalAllocation } from './physical-allocation';
/** Options of {@link AddressReservation.reserve}. */
export interface ReserveOptions {
    /** The device whose primary context the calls use (default device 0). */
    device?: DeviceLike;
    /** Alignment of the start address: a power of two, or 0 (default) for the driver's choice. */
    alignment?: number;
    /** A preferred start address (a hint the driver may ignore); default: none. */
    address?: bigint;
}
/**
 * A reserved virtual address range (cuMemAddressReserve) to map physical
 * allocations into. Freed once disposed and no mapping uses it.
 */
export declare class AddressReservation extends Disposable<NativeAddressReservation> {
    /** @internal */
    constructor(handle: NativeAddressReservation);
    /**
     * Reserves at least bytes of virtual address space, rounded up to the
     * device's minimum allocation granularity: {@link size} reports the rounded size.
     */
    static reserve(bytes: number, options?: ReserveOptions): AddressReservation;
    /** The start of the range. */
    get address(): bigint;
    /** Bytes reserved (rounded to the granularity). */
    get size(): number;
    get alignment(): number;
    /** The device whose primary context the range's calls use. */
    get device(): Device;
    /**
     * Maps allocation (or part of it) into this range and grants access, all or
     * nothing (see {@link Mapping.map}).
     */
    map(allocation: PhysicalAllocation, options?: MappingOptions): Mapping;
    toString(): string;
}
