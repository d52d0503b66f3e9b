// Physical allocations mapped into a reserved address range, with access
// granted: device memory usable wherever a DeviceBuffer is (copies, fills,
// stream memory operations, kernel arguments by address). cuMemUnmap is not
// stream-ordered, so disposing it unmaps the range only once the GPU is done
// with it: streams (and graphs) that work on it was queued through keep the
// mapping alive until that work is known complete. Work the library did not see
// (a raw address handed elsewhere) must be finished by the caller first.
import { Device } from '../device';
import { MemoryAccessName } from '../generated/enums';
import { Location, locationOf } from '../memory/location';
import { native, NativeVirtualMemory, Slot } from '../native';
import { Memory } from '../memory/memory';
import { checkInstance, checkObject, checkOptions, checkSize, noOptions } from '../validate';
import { AccessEntry, accessName, encodeAccess } from './access';
import { AddressReservation } from './address-reservation';
import { allocationGranularity, AllocationProperties } from './granularity';
import { createAllocation, PhysicalAllocation, physicalAllocationKeys, PhysicalAllocationOptions } from './physical-allocation';

/** Options of {@link Mapping.map} (and {@link AddressReservation.map}). */
export interface MappingOptions {
  /** Where in the reservation the mapping starts (bytes, default 0). */
  offset?: number | bigint;
  /** Where in the allocation the mapped bytes start (default 0). */
  allocationOffset?: number | bigint;
  /** How many bytes to map (default: the rest of the allocation). */
  bytes?: number | bigint;
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
  /** Where in the allocation the mapped bytes start. */
  readonly allocationOffset: number;
  /** Bytes mapped. */
  readonly bytes: number;
}

/** @internal The options that reproduce an allocation's location, for granularity queries. */
export function locationOfProperties(properties: AllocationProperties): Location {
  if (properties.locationType === 'host') return 'host';
  if (properties.locationType === 'hostNuma') return { hostNuma: properties.locationId };
  return properties.locationId;
}

function checkMultiple(value: number, granularity: number, name: string): void {
  if (value % granularity !== 0) {
    throw new RangeError(`${name} (${value}) must be a multiple of the allocation granularity, ${granularity} bytes`);
  }
}

/** @internal The segments of native virtual memory, with new allocation handles. */
export function segmentsOf(memory: Slot<NativeVirtualMemory>): MappedSegment[] {
  return native.virtualMemorySegments(memory).map(([allocation, allocationOffset, bytes]) =>
    Object.freeze({ allocation: new PhysicalAllocation(allocation), allocationOffset, bytes }));
}

/** @internal The default grant: read-write for one device. */
export function defaultAccess(device: Device): AccessEntry[] {
  return [{ location: device, access: 'readwrite' }];
}

/**
 * A physical allocation mapped into a reserved range with access granted: device
 * memory usable wherever a DeviceBuffer is. Made by {@link Mapping.alloc} (all in
 * one) or {@link Mapping.map} / {@link AddressReservation.map}.
 */
export class Mapping extends Memory<NativeVirtualMemory> {
  /** @internal */
  constructor(handle: Slot<NativeVirtualMemory>) {
    super(handle);
  }

  /**
   * Device memory of at least bytes, made the virtual memory way: one physical
   * allocation (cuMemCreate, size rounded up to the granularity: {@link size}
   * reports it), a reservation of the same size, the map and the grant. What
   * fails part-way is undone; nothing leaks.
   */
  static alloc(bytes: number | bigint, options: MappingAllocOptions = noOptions): Mapping {
    checkOptions(checkObject(options, 'options'), 'options', 'Mapping.alloc', [...physicalAllocationKeys, 'access']);
    const allocation = createAllocation(bytes, options);
    let reservation: AddressReservation | undefined;
    try {
      const granularity = allocationGranularity({ location: locationOfProperties(allocation.properties()) });
      reservation = AddressReservation.reserve(allocation.size, { device: allocation.device, alignment: granularity });
      return Mapping.map(reservation, allocation, { access: options.access ?? defaultAccess(allocation.device) });
    } finally {
      // The mapping holds its own references; on failure these were the only ones.
      allocation.dispose();
      reservation?.dispose();
    }
  }

  /**
   * Maps bytes of allocation from allocationOffset at reservation + offset
   * (cuMemMap) and grants access (cuMemSetAccess), all or nothing: if the grant
   * fails the range is unmapped again. Offsets and size must be multiples of the
   * allocation's minimum granularity. The mapping holds its own references to
   * the allocation and the reservation: both may be disposed right away.
   */
  static map(reservation: AddressReservation, allocation: PhysicalAllocation, options: MappingOptions = noOptions): Mapping {
    checkInstance(reservation, AddressReservation, 'reservation');
    checkInstance(allocation, PhysicalAllocation, 'allocation');
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Mapping.map', ['offset', 'allocationOffset', 'bytes', 'access']);
    const offset = checkSize(options.offset ?? 0, 'options.offset');
    const allocationOffset = checkSize(options.allocationOffset ?? 0, 'options.allocationOffset');
    const bytes = options.bytes === undefined ? allocation.size - allocationOffset : checkSize(options.bytes, 'options.bytes');
    if (bytes <= 0) throw new RangeError('options.bytes must be at least 1 and the allocation must have bytes left after options.allocationOffset');
    const granularity = allocationGranularity({ location: locationOfProperties(allocation.properties()) });
    checkMultiple(offset, granularity, 'options.offset');
    checkMultiple(allocationOffset, granularity, 'options.allocationOffset');
    checkMultiple(bytes, granularity, 'options.bytes');
    if (allocationOffset + bytes > allocation.size) {
      throw new RangeError(`[${allocationOffset}, ${allocationOffset}+${bytes}) exceeds the allocation's ${allocation.size} bytes`);
    }
    if (offset + bytes > reservation.size) {
      throw new RangeError(`[${offset}, ${offset}+${bytes}) exceeds the reservation's ${reservation.size} bytes`);
    }
    const access = encodeAccess(options.access ?? defaultAccess(reservation.device), 'options.access');
    return new Mapping(native.mapMemory(reservation.slot, offset, [[allocation.slot, allocationOffset, bytes]], access));
  }

  /** The allocations mapped, in address order (new handles: dispose them when done). */
  segments(): MappedSegment[] {
    return segmentsOf(this.slot);
  }

  /** Grants or revokes access to the whole range (cuMemSetAccess). */
  setAccess(entries: AccessEntry[]): void {
    native.virtualMemorySetAccess(this.slot, encodeAccess(entries, 'entries'));
  }

  /** The access location has to the range (cuMemGetAccess), at offset (default 0). */
  access(location: Location, offset?: number | bigint): MemoryAccessName {
    const { type, id } = locationOf(location);
    return accessName(native.virtualMemoryGetAccess(this.slot, type, id, offset === undefined ? undefined : checkSize(offset, 'offset')));
  }

  override toString(): string {
    return this.disposed ? 'Mapping(disposed)' : `Mapping(${this.size} bytes at 0x${this.address.toString(16)})`;
  }
}
