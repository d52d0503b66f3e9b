import { Device, DeviceLike } from '../device';
import { Disposable } from '../disposable';
import { MemoryAccessName, MemoryHandleTypeName, PoolAttributeName } from '../generated/enums';
import { NativeMemoryPool } from '../native';
import { Location } from './location';
export interface PoolOptions {
    /** Where allocations live (default: device 0). */
    location?: Location;
    /** Handle types allocations can be exported as (for sharing with other processes). */
    handleTypes?: MemoryHandleTypeName[];
    /** The most the pool may hold, in bytes (0: the system's default). */
    maxSize?: number;
}
export declare class MemoryPool extends Disposable<NativeMemoryPool> {
    /** @internal */
    constructor(handle: NativeMemoryPool);
    /** A new pool (cuMemPoolCreate), destroyed when disposed and its allocations are freed. */
    static create(options?: PoolOptions): MemoryPool;
    /** The device's default pool (cuDeviceGetDefaultMemPool); disposing it only drops this handle. */
    static defaultFor(device?: DeviceLike): MemoryPool;
    /** The pool cuMemAllocAsync uses on the device now (cuDeviceGetMemPool). */
    static currentFor(device?: DeviceLike): MemoryPool;
    /** Makes pool the one cuMemAllocAsync uses on the device (cuDeviceSetMemPool). */
    static setCurrentFor(device: DeviceLike, pool: MemoryPool): void;
    /** The default or current pool of a location (cuMemGetDefaultMemPool / cuMemGetMemPool). */
    static forLocation(location: Location, options?: {
        current?: boolean;
    }): MemoryPool;
    /** Makes pool the current one of a location (cuMemSetMemPool). */
    static setCurrentForLocation(location: Location, pool: MemoryPool): void;
    get handle(): bigint;
    /** False for a device's default or current pool, which this handle only names. */
    get owned(): boolean;
    /** A pool attribute: reuse switches as booleans, sizes in bytes. */
    attribute(name: PoolAttributeName): number | boolean;
    setAttribute(name: PoolAttributeName, value: number | boolean): void;
    /** Bytes the pool keeps reserved when idle before releasing memory to the system. */
    get releaseThreshold(): number;
    set releaseThreshold(bytes: number);
    /** Releases memory down to minBytesToKeep (cuMemPoolTrimTo). */
    trimTo(minBytesToKeep: number): void;
    /**
     * Sets which devices may access the pool's memory. The device a device-located pool
     * lives on always has read-write access and is left out of the driver call (it rejects
     * a batch naming it); a host-located pool starts with no device access.
     */
    setAccess(entries: Array<{
        device: DeviceLike;
        access: MemoryAccessName;
    }>): void;
    /** The access a device has to the pool's memory. */
    access(device: DeviceLike): MemoryAccessName;
    /** Where the pool's memory lives. */
    get location(): Location;
    get device(): Device;
    toString(): string;
}
