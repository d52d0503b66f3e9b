// A device buffer that grows in place: a large address range is reserved once,
// and physical memory is mapped at its end as the buffer grows, so the address
// and the contents stay as they are (no copy, unlike a realloc).
import { Device, DeviceLike, ordinalOf } from '../device';
import { MemoryAccessName, MemoryHandleTypeName } from '../generated/enums';
import { Location, locationOf } from '../memory/location';
import { native, NativeAccessEntry, NativeVirtualMemory, Slot } from '../native';
import { Memory } from '../memory/memory';
import { checkObject, checkOptions, checkSize } from '../validate';
import { AccessEntry, accessName, encodeAccess } from './access';
import { AddressReservation } from './address-reservation';
import { allocationGranularity, AllocationOptions, roundToGranularity } from './granularity';
import { defaultAccess, MappedSegment, segmentsOf } from './mapping';
import { PhysicalAllocation } from './physical-allocation';

/** Options of {@link GrowableBuffer.create}. */
export interface GrowableBufferOptions {
  /** The most the buffer can ever hold: the address range reserved up front (rounded up to the granularity). */
  maxSize: number | bigint;
  /** The initial size in bytes (default 0). */
  size?: number | bigint;
  /** The device the memory lives on (default device 0). */
  device?: DeviceLike;
  /** Handle types each piece of physical memory may be exported as, e.g. ['posixFileDescriptor'] to share it. */
  handleTypes?: MemoryHandleTypeName | MemoryHandleTypeName[] | number;
  /** Access to grant on every piece; default read-write for the buffer's device. */
  access?: AccessEntry[];
}

/**
 * Device memory that grows without moving: {@link resize} maps more physical
 * memory at the end of a range reserved up front. Usable wherever a DeviceBuffer
 * is, within {@link size} bytes.
 */
export class GrowableBuffer extends Memory<NativeVirtualMemory> {
  readonly #reserved: number;
  readonly #granularity: number;
  readonly #allocation: AllocationOptions;
  #access: NativeAccessEntry[];

  private constructor(handle: Slot<NativeVirtualMemory>, reserved: number, granularity: number, allocation: AllocationOptions,
    access: NativeAccessEntry[]) {
    super(handle);
    this.#reserved = reserved;
    this.#granularity = granularity;
    this.#allocation = allocation;
    this.#access = access;
  }

  /** Reserves options.maxSize of address space and maps options.size (if any) of it. */
  static create(options: GrowableBufferOptions): GrowableBuffer {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'GrowableBuffer.create', ['maxSize', 'size', 'device', 'handleTypes', 'access']);
    const device = Device.get(ordinalOf(options.device, 'options.device'));
    const allocation: AllocationOptions = { location: device, handleTypes: options.handleTypes };
    const granularity = allocationGranularity(allocation);
    const access = encodeAccess(options.access ?? defaultAccess(device), 'options.access');
    const maxSize = checkSize(options.maxSize, 'options.maxSize');
    const size = checkSize(options.size ?? 0, 'options.size');
    if (size > maxSize) throw new RangeError(`options.size (${size}) exceeds options.maxSize (${maxSize})`);
    const reservation = AddressReservation.reserve(maxSize, { device, alignment: granularity });
    let buffer: GrowableBuffer;
    try {
      buffer = new GrowableBuffer(native.mapMemory(reservation.slot, 0, [], access), reservation.size, granularity, allocation, access);
    } finally {
      reservation.dispose();  // the buffer's native memory holds the range
    }
    try {
      buffer.resize(size);
    } catch (error) {
      buffer.dispose();
      throw error;
    }
    return buffer;
  }

  /** Bytes of physical memory mapped (at least size, a multiple of the granularity). */
  get capacity(): number {
    return native.virtualMemoryMapped(this.slot);
  }

  /** Bytes of address space reserved: the most the buffer can grow to. */
  get maxSize(): number {
    return this.#reserved;
  }

  /**
   * Sets the size. Growing past the capacity maps new physical memory after the
   * end: at least what is missing and, to keep the number of pieces small, at
   * least the current capacity (up to maxSize), rounded to the granularity. The
   * address and the contents so far stay; new bytes are undefined. Shrinking only
   * lowers the size: the memory stays mapped until the buffer is disposed.
   * All or nothing: a failed growth leaves the buffer as it was.
   */
  resize(bytes: number | bigint): void {
    const size = checkSize(bytes, 'bytes');
    if (size > this.#reserved) throw new RangeError(`bytes (${size}) exceeds maxSize (${this.#reserved})`);
    const capacity = this.capacity;
    if (size > capacity) {
      const wanted = roundToGranularity(Math.max(size - capacity, capacity), this.#granularity);
      const piece = Math.min(wanted, this.#reserved - capacity);
      const allocation = PhysicalAllocation.create(piece, this.#allocation);
      try {
        native.virtualMemoryExtend(this.slot, [[allocation.slot, 0, piece]], this.#access);
      } finally {
        allocation.dispose();  // mapped: the buffer holds it now; failed: released
      }
    }
    native.virtualMemoryResize(this.slot, size);
  }

  /** The pieces of physical memory mapped, in address order (new handles: dispose them when done). */
  segments(): MappedSegment[] {
    return segmentsOf(this.slot);
  }

  /** Grants or revokes access to everything mapped, and to what growth maps later. */
  setAccess(entries: AccessEntry[]): void {
    const access = encodeAccess(entries, 'entries');
    if (this.capacity > 0) native.virtualMemorySetAccess(this.slot, access);
    this.#access = access;
  }

  /** The access location has to the buffer at offset (default 0). */
  access(location: Location, offset?: number | bigint): MemoryAccessName {
    const { type, id } = locationOf(location);
    return accessName(native.virtualMemoryGetAccess(this.slot, type, id, offset === undefined ? undefined : checkSize(offset, 'offset')));
  }

  override toString(): string {
    return this.disposed
      ? 'GrowableBuffer(disposed)'
      : `GrowableBuffer(${this.size} of ${this.maxSize} bytes at 0x${this.address.toString(16)})`;
  }
}
