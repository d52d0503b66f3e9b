// Device memory: plain (cuMemAlloc), pitched, stream-ordered (from a pool) and
// managed. Freed by dispose() or, as a safety net, after garbage collection;
// never while queued work that the library knows of still uses it.
// Stream-ordered memory can also be freed explicitly on a stream (freeAsync).
import { Context } from '../context';
import { Device, DeviceLike, placementOf } from '../device';
import {
  MemoryAdvice,
  MemoryAdviceName,
  MemoryAttach,
  MemoryLocationType,
  RangeAttribute,
} from '../generated/enums';
import { native, NativeDeviceBuffer, Slot } from '../native';
import { Stream, streamSlot } from '../stream';
import { checkDriverSize, checkEnum, checkInstance, checkObject, checkOptions, checkSize, checkViewType, nameOfValue, noOptions } from '../validate';
import { copy, fill, FillOptions } from './copy';
import { Location, locationOf } from './location';
import { Memory } from './memory';
import { MemoryPool } from './pool';

/** A typed array class (Float32Array, Uint8Array, BigInt64Array, ...), to read memory as. */
export type TypedArrayConstructor<T> = {
  new (buffer: ArrayBuffer): T;
  /** The size of one element. */
  BYTES_PER_ELEMENT: number;
};

/**
 * Device memory: plain (alloc, from), pitched (allocPitched), stream-ordered
 * from a pool (allocAsync) or managed (allocManaged). Freed by dispose(), or
 * after garbage collection, never while work the library queued still uses it;
 * stream-ordered memory also explicitly, in stream order (freeAsync).
 */
export class DeviceBuffer extends Memory<NativeDeviceBuffer> {
  /** @internal */
  constructor(handle: Slot<NativeDeviceBuffer>) {
    super(handle);
  }

  /**
   * bytes of device memory (cuMemAlloc), in the device's primary context or in
   * options.context (a context of its own, from Device.createContext). Contents are undefined.
   */
  static alloc(bytes: number | bigint, options: { device?: DeviceLike; context?: Context } = noOptions): DeviceBuffer {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'DeviceBuffer.alloc', ['device', 'context']);
    const { ordinal, context } = placementOf(options);
    return new DeviceBuffer(native.allocate(ordinal, checkDriverSize(bytes, 'bytes'), context?.slot));
  }

  /** A new buffer holding a copy of data (in a device's primary context, or in options.context). */
  static from(data: ArrayBuffer | ArrayBufferView, options: { device?: DeviceLike; context?: Context } = noOptions): DeviceBuffer {
    if (!(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data)) throw new TypeError('data must be an ArrayBuffer or a view of one');
    const buffer = DeviceBuffer.alloc(data.byteLength, options);
    copy(buffer, data);
    return buffer;
  }

  /**
   * height rows of widthBytes, each row starting at a multiple of the pitch the
   * driver chooses for elementBytes-sized accesses (cuMemAllocPitch); in a
   * device's primary context, or in options.context.
   */
  static allocPitched(widthBytes: number | bigint, height: number | bigint,
    options: { elementBytes?: 4 | 8 | 16; device?: DeviceLike; context?: Context } = noOptions): DeviceBuffer {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'DeviceBuffer.allocPitched', ['elementBytes', 'device', 'context']);
    const element = options.elementBytes ?? 4;
    if (element !== 4 && element !== 8 && element !== 16) throw new RangeError('options.elementBytes must be 4, 8 or 16');
    const { ordinal, context } = placementOf(options);
    return new DeviceBuffer(native.allocatePitched(ordinal, checkDriverSize(widthBytes, 'widthBytes'),
      checkDriverSize(height, 'height'), element, context?.slot));
  }

  /**
   * Stream-ordered memory (cuMemAllocAsync, or cuMemAllocFromPoolAsync with a
   * pool): usable by work queued on stream after this call. freeAsync(stream)
   * frees it on a stream of your choice; dispose() frees it on this stream,
   * after the work queued there (docs/memory.md, "Freeing stream-ordered memory").
   */
  static allocAsync(bytes: number | bigint, stream: Stream, options: { pool?: MemoryPool } = noOptions): DeviceBuffer {
    let pool: number | undefined;
    if (options !== noOptions) {
      checkObject(options, 'options');
      checkOptions(options, 'options', 'DeviceBuffer.allocAsync', ['pool']);
      pool = options.pool === undefined ? undefined : checkInstance(options.pool, MemoryPool, 'options.pool').slot;
    }
    return new DeviceBuffer(native.allocateAsync(checkDriverSize(bytes, 'bytes'), streamSlot(stream), pool));
  }

  /**
   * Managed memory, migrated between host and device on demand
   * (cuMemAllocManaged), allocated in a device's primary context or in
   * options.context. attach: 'global' (default) or 'host'.
   */
  static allocManaged(bytes: number | bigint, options: { device?: DeviceLike; context?: Context; attach?: 'global' | 'host' } = noOptions): DeviceBuffer {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'DeviceBuffer.allocManaged', ['device', 'context', 'attach']);
    const attach = checkEnum(options.attach ?? 'global', { global: MemoryAttach.global, host: MemoryAttach.host }, 'options.attach');
    const { ordinal, context } = placementOf(options);
    return new DeviceBuffer(native.allocateManaged(ordinal, checkDriverSize(bytes, 'bytes'), attach, context?.slot));
  }

  /**
   * Frees stream-ordered memory (allocAsync) on stream, after the work queued
   * there before this call (cuMemFreeAsync): any stream the driver accepts,
   * not only the allocating one. It is a call made now, so while stream is
   * capturing it is captured, as a free node of the graph (C's rule: the memory
   * must then be a graph allocation, i.e. allocated during a capture). The
   * buffer is disposed by the call; when the driver refuses, it throws and the
   * buffer stays as it was.
   */
  freeAsync(stream: Stream): void {
    const allocation = this.allocation;
    if (allocation !== 'stream-ordered') {
      throw new TypeError(`freeAsync frees stream-ordered memory (DeviceBuffer.allocAsync); this buffer is ${allocation}: use dispose()`);
    }
    native.freeAsync(this.slot, streamSlot(stream));
    this.dispose();
  }

  /** Bytes per row of a pitched allocation; 0 otherwise. */
  get pitch(): number {
    return native.deviceBufferPitch(this.slot);
  }

  /** How it was allocated. */
  get allocation(): 'plain' | 'pitched' | 'stream-ordered' | 'managed' {
    return native.deviceBufferAllocation(this.slot);
  }

  /** Copies data into this buffer at offset (synchronously, or queued on options.stream). */
  write(data: ArrayBuffer | ArrayBufferView, options: { offset?: number | bigint; stream?: Stream } = noOptions): void {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'write', ['offset', 'stream']);
    copy(this, data, { dstOffset: options.offset, stream: options.stream });
  }

  /** Copies the buffer (or bytes of it from offset) into a new typed array, synchronously. */
  readSync<T = Uint8Array>(type?: TypedArrayConstructor<T>, options: { offset?: number | bigint; bytes?: number | bigint } = noOptions): T {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'readSync', ['offset', 'bytes']);
    if (type !== undefined) checkViewType(type, 'type');
    const offset = checkSize(options.offset ?? 0, 'options.offset');
    const bytes = options.bytes === undefined ? Math.max(0, this.size - offset) : checkSize(options.bytes, 'options.bytes');
    const element = type?.BYTES_PER_ELEMENT ?? 1;
    if (bytes % element !== 0) throw new RangeError(`bytes (${bytes}) is not a multiple of ${element}`);
    const out = new ArrayBuffer(bytes);
    copy(out, this, { srcOffset: offset, bytes });
    return type ? new type(out) : (new Uint8Array(out) as unknown as T);
  }

  /** Sets the buffer (or part of it) to value, in 1-, 2- or 4-byte elements. */
  fill(value: number, options: FillOptions = noOptions): void {
    fill(this, value, options);
  }

  /** Migrates managed memory toward location on stream (cuMemPrefetchAsync). */
  prefetch(location: Location, stream: Stream, options: { offset?: number | bigint; bytes?: number | bigint } = noOptions): void {
    const [offset, bytes] = this.#range(options);
    const { type, id } = locationOf(location);
    native.prefetch(this.slot, offset, bytes, type, id, 0, streamSlot(stream));
  }

  /** Advises the driver how managed memory will be used (cuMemAdvise). */
  advise(advice: MemoryAdviceName | number, location: Location = 'host', options: { offset?: number | bigint; bytes?: number | bigint } = noOptions): void {
    const [offset, bytes] = this.#range(options);
    const { type, id } = locationOf(location);
    native.advise(this.slot, offset, bytes, checkEnum(advice, MemoryAdvice, 'advice'), type, id);
  }

  /** What the driver knows of a managed range (cuMemRangeGetAttribute / cuMemRangeGetAttributes). */
  rangeAttributes(options: { offset?: number | bigint; bytes?: number | bigint } = noOptions): ManagedRangeAttributes {
    const [offset, bytes] = this.#range(options);
    const names = ['readMostly', 'preferredLocationType', 'preferredLocationId', 'lastPrefetchLocationType', 'lastPrefetchLocationId'] as const;
    const values = native.rangeAttributes(this.slot, offset, bytes, names.map((n) => RangeAttribute[n]));
    const accessedBy = Array.from(native.rangeAttribute(this.slot, offset, bytes, RangeAttribute.accessedBy, Math.max(1, Device.count())))
      .filter((d) => d >= 0);
    const locationName = (type: number, id: number): string => {
      const name = type === MemoryLocationType.none ? 'none' : nameOfValue(MemoryLocationType, type) ?? `location type ${type}`;
      return name === 'device' ? `device ${id}` : name;
    };
    return {
      readMostly: values[0] !== 0,
      preferredLocation: locationName(values[1], values[2]),
      lastPrefetchLocation: locationName(values[3], values[4]),
      accessedBy,
    };
  }

  #range(options: { offset?: number | bigint; bytes?: number | bigint }): [number, number] {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'prefetch, advise or rangeAttributes', ['offset', 'bytes']);
    const offset = checkSize(options.offset ?? 0, 'options.offset');
    const bytes = options.bytes === undefined ? Math.max(0, this.size - offset) : checkSize(options.bytes, 'options.bytes');
    return [offset, bytes];
  }

  override toString(): string {
    return this.disposed ? 'DeviceBuffer(disposed)' : `DeviceBuffer(${this.size} bytes at 0x${this.address.toString(16)})`;
  }
}

/** What the driver knows about a range of managed memory (cuMemRangeGetAttributes). */
export interface ManagedRangeAttributes {
  /** Whether the range is advised read-mostly (duplicated where read). */
  readMostly: boolean;
  /** 'device N', 'host', 'hostNuma', ... or 'none'. */
  preferredLocation: string;
  /** Where the range was last prefetched to, in the same form. */
  lastPrefetchLocation: string;
  /** Ordinals of devices set as accessing the range. */
  accessedBy: number[];
}
