// Virtual address ranges (cuMemAddressReserve). A range is freed
// (cuMemAddressFree, with exactly the pointer and size reserved) once this
// object is disposed and every mapping into it is gone.
import { Device, DeviceLike, ordinalOf } from '../device';
import { Disposable } from '../disposable';
import { native, NativeAddressReservation, Slot } from '../native';
import { checkObject, checkOptions, checkSize, noOptions } from '../validate';
import { deviceGranularity, roundToGranularity } from './granularity';
import { Mapping, MappingOptions } from './mapping';
import type { PhysicalAllocation } from './physical-allocation';

/** Options of {@link AddressReservation.reserve}. */
export interface ReserveOptions {
  /** The device whose primary context the calls use (default device 0). */
  device?: DeviceLike;
  /** Alignment of the start address: a power of two, or 0 (default) for the driver's choice. */
  alignment?: number | bigint;
  /** A preferred start address (a hint the driver may ignore); default: none. */
  address?: bigint;
}

/**
 * A reserved virtual address range (cuMemAddressReserve) to map physical
 * allocations into. Freed once disposed and no mapping uses it.
 */
export class AddressReservation extends Disposable<NativeAddressReservation> {
  /** @internal */
  constructor(handle: Slot<NativeAddressReservation>) {
    super(handle);
  }

  /**
   * Reserves at least bytes of virtual address space, rounded up to the
   * device's minimum allocation granularity: {@link size} reports the rounded size.
   */
  static reserve(bytes: number | bigint, options: ReserveOptions = noOptions): AddressReservation {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'AddressReservation.reserve', ['device', 'alignment', 'address']);
    const ordinal = ordinalOf(options.device, 'options.device');
    const alignment = checkSize(options.alignment ?? 0, 'options.alignment');
    if (alignment !== 0 && !Number.isInteger(Math.log2(alignment))) {
      throw new RangeError(`options.alignment must be a power of two or 0, got ${alignment}`);
    }
    const hint = options.address ?? 0n;
    if (typeof hint !== 'bigint' || hint < 0n || hint >= 1n << 64n) throw new TypeError('options.address must be a 64-bit bigint address');
    const size = roundToGranularity(checkSize(bytes, 'bytes'), deviceGranularity(Device.get(ordinal)));
    if (size === 0) throw new RangeError('bytes must be at least 1');
    return new AddressReservation(native.reserveAddress(ordinal, size, alignment, hint));
  }

  /** The start of the range. */
  get address(): bigint {
    return native.addressReservationAddress(this.slot);
  }

  /** Bytes reserved (rounded to the granularity). */
  get size(): number {
    return native.addressReservationSize(this.slot);
  }

  /** The alignment asked for (0: the driver's choice). */
  get alignment(): number {
    return native.addressReservationAlignment(this.slot);
  }

  /** The device whose primary context the range's calls use. */
  get device(): Device {
    return Device.get(native.addressReservationOrdinal(this.slot));
  }

  /**
   * Maps allocation (or part of it) into this range and grants access, all or
   * nothing (see {@link Mapping.map}).
   */
  map(allocation: PhysicalAllocation, options: MappingOptions = noOptions): Mapping {
    return Mapping.map(this, allocation, options);
  }

  override toString(): string {
    return this.disposed ? 'AddressReservation(disposed)' : `AddressReservation(${this.size} bytes at 0x${this.address.toString(16)})`;
  }
}

