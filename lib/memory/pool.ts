// Memory pools for stream-ordered allocation (DeviceBuffer.allocAsync).
import { Context } from '../context';
import { Device, DeviceLike, ordinalOf } from '../device';
import { Disposable } from '../disposable';
import {
  MemoryAccess,
  MemoryAccessName,
  MemoryAllocationType,
  MemoryHandleType,
  MemoryHandleTypeName,
  MemoryLocationType,
  PoolAttribute,
  PoolAttributeName,
} from '../generated/enums';
import { native, NativeMemoryPool, Slot } from '../native';
import { checkArray, checkDriverSize, checkEnum, checkFlag, checkFlags, checkInstance, checkObject, checkOptions, checkSize64, nameOfValue, noOptions, unlimitedSize } from '../validate';
import { Location, locationFrom, locationOf } from './location';

/** Options of {@link MemoryPool.create}. */
export interface PoolOptions {
  /** Where allocations live (default: device 0). */
  location?: Location;
  /** Handle types allocations can be exported as (for sharing with other processes). */
  handleTypes?: MemoryHandleTypeName | MemoryHandleTypeName[] | number;
  /** The most the pool may hold, in bytes (0: the system's default). */
  maxSize?: number | bigint;
  /**
   * A context of its own (Device.createContext()) to create the pool in,
   * instead of the location's device's primary context. The location defaults
   * to, and must be, that context's device.
   */
  context?: Context;
}

/**
 * A memory pool for stream-ordered allocation (DeviceBuffer.allocAsync): a
 * pool of its own (MemoryPool.create), or a handle on a device's default or
 * current pool. A pool created with handleTypes can be shared with other processes.
 */
export class MemoryPool extends Disposable<NativeMemoryPool> {
  /** @internal */
  constructor(handle: Slot<NativeMemoryPool>) {
    super(handle);
  }

  /** A new pool (cuMemPoolCreate), destroyed when disposed and its allocations are freed. */
  static create(options: PoolOptions = noOptions): MemoryPool {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'MemoryPool.create', ['location', 'handleTypes', 'maxSize', 'context']);
    const context = options.context === undefined ? undefined : checkInstance(options.context, Context, 'options.context');
    const { type, id } = locationOf(options.location ?? context?.deviceOrdinal ?? 0, 'options.location');
    if (context && (type !== MemoryLocationType.device || id !== context.deviceOrdinal)) {
      throw new TypeError(`options.location must be device ${context.deviceOrdinal}, the device of options.context`);
    }
    const handleTypes = checkFlags(options.handleTypes ?? [], MemoryHandleType, 'options.handleTypes');
    return new MemoryPool(native.createPool(type, id, MemoryAllocationType.pinned, handleTypes,
      checkDriverSize(options.maxSize ?? 0, 'options.maxSize'), context?.slot));
  }

  /** The device's default pool (cuDeviceGetDefaultMemPool); disposing it only drops this handle. */
  static defaultFor(device?: DeviceLike): MemoryPool {
    return new MemoryPool(native.devicePool(ordinalOf(device), false));
  }

  /** The pool cuMemAllocAsync uses on the device now (cuDeviceGetMemPool). */
  static currentFor(device?: DeviceLike): MemoryPool {
    return new MemoryPool(native.devicePool(ordinalOf(device), true));
  }

  /** Makes pool the one cuMemAllocAsync uses on the device (cuDeviceSetMemPool). */
  static setCurrentFor(device: DeviceLike, pool: MemoryPool): void {
    if (!(pool instanceof MemoryPool)) throw new TypeError('pool must be a MemoryPool');
    native.setDevicePool(ordinalOf(device), pool.slot);
  }

  /** The default or current pool of a location (cuMemGetDefaultMemPool / cuMemGetMemPool). */
  static forLocation(location: Location, options: { current?: boolean } = noOptions): MemoryPool {
    const { type, id } = locationOf(location);
    checkObject(options, 'options');
    checkOptions(options, 'options', 'MemoryPool.forLocation', ['current']);
    return new MemoryPool(native.locationPool(type, id, MemoryAllocationType.pinned, checkFlag(options.current, 'options.current')));
  }

  /** Makes pool the current one of a location (cuMemSetMemPool). */
  static setCurrentForLocation(location: Location, pool: MemoryPool): void {
    if (!(pool instanceof MemoryPool)) throw new TypeError('pool must be a MemoryPool');
    const { type, id } = locationOf(location);
    native.setLocationPool(type, id, MemoryAllocationType.pinned, pool.slot);
  }

  /** The CUmemoryPool value, for logs and comparisons. */
  get handle(): bigint {
    return native.poolHandle(this.slot);
  }

  /** False for a device's default or current pool, which this handle only names. */
  get owned(): boolean {
    return native.poolOwned(this.slot);
  }

  /**
   * `2n ** 64n - 1n` (ULONG_MAX): a releaseThreshold that never releases, as
   * NVIDIA's samples set it (`pool.releaseThreshold = MemoryPool.unlimited`).
   */
  static readonly unlimited: bigint = unlimitedSize;

  /**
   * A pool attribute: reuse switches as booleans, sizes in bytes (a number, or
   * a bigint for one beyond 2^53, such as MemoryPool.unlimited).
   */
  attribute(name: PoolAttributeName | number): number | bigint | boolean {
    const value = native.poolGetAttribute(this.slot, checkEnum(name, PoolAttribute, 'name'));
    if (typeof value !== 'bigint') return value !== 0;
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }

  /** Sets a pool attribute: reuse switches as booleans, sizes (releaseThreshold, ...) in bytes, as a number or a bigint. */
  setAttribute(name: PoolAttributeName | number, value: number | bigint | boolean): void {
    const id = checkEnum(name, PoolAttribute, 'name');
    if (id >= PoolAttribute.releaseThreshold) native.poolSetAttribute(this.slot, id, checkSize64(value, 'value'));
    else if (typeof value === 'boolean') native.poolSetAttribute(this.slot, id, value ? 1 : 0);
    else throw new TypeError(`${name} must be a boolean`);
  }

  /** Bytes the pool keeps reserved when idle before releasing memory to the system. */
  get releaseThreshold(): number | bigint {
    return this.attribute('releaseThreshold') as number | bigint;
  }

  /** Sets the bytes the pool keeps when idle (MemoryPool.unlimited: all of it). */
  set releaseThreshold(bytes: number | bigint) {
    this.setAttribute('releaseThreshold', bytes);
  }

  /** Releases memory down to minBytesToKeep (cuMemPoolTrimTo). */
  trimTo(minBytesToKeep: number | bigint): void {
    native.poolTrimTo(this.slot, checkDriverSize(minBytesToKeep, 'minBytesToKeep'));
  }

  /**
   * Sets which devices may access the pool's memory. The device a device-located pool
   * lives on always has read-write access and is left out of the driver call (it rejects
   * a batch naming it); a host-located pool starts with no device access.
   */
  setAccess(entries: Array<{
    /** A device (a device-located pool's own device always has read-write access). */
    device: DeviceLike;
    /** 'readwrite', 'read' or 'none', or the driver's number. */
    access: MemoryAccessName | number;
  }>): void {
    const [locationType, locationId] = native.poolLocation(this.slot);
    const owner = locationType === MemoryLocationType.device ? locationId : -1;
    const list = checkArray<{ device: DeviceLike; access: MemoryAccessName | number }>(entries, 'entries').map((e, i): [number, number, number] => {
      checkObject(e, `entries[${i}]`);
      return [1 /* device */, ordinalOf(e.device, `entries[${i}].device`), checkEnum(e.access, MemoryAccess, `entries[${i}].access`)];
    }).filter(([, ordinal]) => ordinal !== owner);
    if (list.length > 0) native.poolSetAccess(this.slot, list);
  }

  /** The access a device has to the pool's memory. */
  access(device: DeviceLike): MemoryAccessName {
    const flags = native.poolGetAccess(this.slot, 1, ordinalOf(device));
    return nameOfValue(MemoryAccess, flags) ?? 'none';
  }

  /** Where the pool's memory lives. */
  get location(): Location {
    const [type, id] = native.poolLocation(this.slot);
    return locationFrom(type, id);
  }

  /** The device whose context the pool's calls use (device 0 for host-located pools). */
  get device(): Device {
    return Device.get(native.poolOrdinal(this.slot));
  }

  override toString(): string {
    return this.disposed ? 'MemoryPool(disposed)' : `MemoryPool(${this.owned ? 'created' : 'device'}, 0x${this.handle.toString(16)})`;
  }
}
