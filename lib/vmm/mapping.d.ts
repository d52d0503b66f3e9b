import { Device } from '../device';
import { Disposable } from '../disposable';
import { MemoryAccessName } from '../generated/enums';
import { Location } from '../memory/location';
import { NativeVirtualMemory } from '../native';
import { AccessEntry } from './access';
import { AddressReservation } from './address-reservation';
import { AllocationProperties } from './granularity';
import { PhysicalAllocation, PhysicalAllocationOptions } from './physical-allocation';
/** Options of {@link Mapping.map} (and {@link AddressReservation.map}). */
export interface MappingOptions {
    /** Where in the reservation the mapping starts (bytes, default 0). */
    offset?: number;
    /** Where in the allocation the mapped bytes start (default 0). */
    allocationOffset?: number;
    /** How many bytes to map (default: the rest of the allocation). */
    bytes?: number;
    /** Access to grant; default read-write for the reservation's device. */
    access?: AccessEntry[];
}
/** Options of {@link Mapping.alloc}. */
export interface MappingAllocOptions extends PhysicalAllocationOptions {
    /** Access to grant; default read-write for the allocation's device. */
    access?: AccessEntry[];
}
/** One allocation mapped into a range: which, from where, how many bytes. */
export interface MappedSegment {
    /** A new handle on the allocation (dispose it when done; the mapping keeps its own). */
    readonly allocation: PhysicalAllocation;
    readonly allocationOffset: number;
    readonly bytes: number;
}
/** @internal The options that reproduce an allocation's location, for granularity queries. */
export declare function locationOfProperties(properties: AllocationProperties): Location;
/** @internal The segments of native virtual memory, with new allocation handles. */
export declare function segmentsOf(memory: NativeVirtualMemory): MappedSegment[];
/** @internal The default grant: read-write for one device. */
export declare function defaultAccess(device: Device): AccessEntry[];
/**
 * A physical allocation mapped into a reserved range with access granted: device
 * memory usable wherever a DeviceBuffer is. Made by {@link Mapping.alloc} (all in
 * one) or {@link Mapping.map} / {@link AddressReservation.map}.
 */
export declare class Mapping extends Disposable<NativeVirtualMemory> {
    /** @internal */
    constructor(handle: NativeVirtualMemory);
    /**
     * Device memory of at least bytes, made the virtual memory way: one physical
     * allocation (cuMemCreate, size rounded up to the granularity: {@link size}
     * reports it), a reservation of the same size, the map and the grant. What
     * fails part-way is undone; nothing leaks.
     */
    static alloc(bytes: number, options?: MappingAllocOptions): Mapping;
    /**
     * Maps bytes of allocation from allocationOffset at reservation + offset
     * (cuMemMap) and grants access (cuMemSetAccess), all or nothing: if the grant
     * fails the range is unmapped again. Offsets and size must be multiples of the
     * allocation's minimum granularity. The mapping holds its own references to
     * the allocation and the reservation: both may be disposed right away.
     */
    static map(reservation: AddressReservation, allocation: PhysicalAllocation, options?: MappingOptions): Mapping;
    /** The start address of the mapped range. */
    get address(): bigint;
    /** Bytes mapped (a multiple of the granularity). */
    get size(): number;
    /** The device whose primary context the mapping's calls use. */
    get device(): Device;
    /** The allocations mapped, in address order (new handles: dispose them when done). */
    segments(): MappedSegment[];
    /** Grants or revokes access to the whole range (cuMemSetAccess). */
    setAccess(entries: AccessEntry[]): void;
    /** The access location has to the range (cuMemGetAccess), at offset (default 0). */
    access(location: Location, offset?: number): MemoryAccessName;
    toString(): string;
}
