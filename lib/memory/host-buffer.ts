// Page-locked (pinned) host memory: fast, asynchronous copies to and from the
// device, and (mapped) direct access by device code. The memory is seen from
// JavaScript through arrayBuffer, a zero-copy view that dispose() detaches, so
// a view never outlives the memory; a registered buffer is taken over by the
// registration, so JavaScript cannot free or move it while it is pinned.
import { Context } from '../context';
import { DeviceLike, placementOf } from '../device';
import { native, NativeHostBuffer, Slot } from '../native';
import { checkBoolean, checkDriverSize, checkObject, checkOptions, checkViewType, noOptions } from '../validate';
import { Memory } from './memory';

/** Options of {@link HostBuffer.alloc}. */
export interface HostAllocOptions {
  /** The device whose primary context allocates the memory (default 0). */
  device?: DeviceLike;
  /** A context of its own (Device.createContext()) to allocate in instead. Not with device. */
  context?: Context;
  /** Pinned for every context, not only the device's (CU_MEMHOSTALLOC_PORTABLE). */
  portable?: boolean;
  /** Mapped into the device's address space (CU_MEMHOSTALLOC_DEVICEMAP). */
  mapped?: boolean;
  /** Write-combined: fast for the host to write and the device to read, slow for the host to read. */
  writeCombined?: boolean;
}

/** Options of {@link HostBuffer.register}. */
export interface HostRegisterOptions {
  /** The device whose primary context registers the memory (default 0). */
  device?: DeviceLike;
  /** A context of its own (Device.createContext()) to register in instead. Not with device. */
  context?: Context;
  /** Pinned for every context, not only the device's (CU_MEMHOSTREGISTER_PORTABLE). */
  portable?: boolean;
  /** Mapped into the device's address space (CU_MEMHOSTREGISTER_DEVICEMAP). */
  mapped?: boolean;
  /** The device will only read it (CU_MEMHOSTREGISTER_READ_ONLY). */
  readOnly?: boolean;
}

function flag(value: unknown, name: string, bit: number): number {
  return value !== undefined && checkBoolean(value, name) ? bit : 0;
}

/** The flags the driver reports for allocated pinned memory (cuMemHostGetFlags). */
export interface HostAllocationFlags {
  /** Pinned for every context (CU_MEMHOSTALLOC_PORTABLE). */
  readonly portable: boolean;
  /** Mapped into the device's address space (CU_MEMHOSTALLOC_DEVICEMAP). */
  readonly deviceMap: boolean;
  /** Write-combined (CU_MEMHOSTALLOC_WRITECOMBINED). */
  readonly writeCombined: boolean;
}

/**
 * Page-locked (pinned) host memory: allocated (HostBuffer.alloc) or the memory
 * of an existing ArrayBuffer pinned in place (HostBuffer.register). Copies to
 * and from it can be asynchronous; mapped memory is reachable from device code.
 */
export class HostBuffer extends Memory<NativeHostBuffer> {
  /** @internal */
  constructor(handle: Slot<NativeHostBuffer>) {
    super(handle);
  }

  /** bytes of pinned host memory (cuMemAllocHost; cuMemHostAlloc when flags are given). */
  static alloc(bytes: number | bigint, options: HostAllocOptions = noOptions): HostBuffer {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'HostBuffer.alloc', ['device', 'context', 'portable', 'mapped', 'writeCombined']);
    const flags = flag(options.portable, 'options.portable', 0x1) | flag(options.mapped, 'options.mapped', 0x2) |
      flag(options.writeCombined, 'options.writeCombined', 0x4);
    const { ordinal, context } = placementOf(options);
    return new HostBuffer(native.allocateHost(ordinal, checkDriverSize(bytes, 'bytes'), flags, context?.slot));
  }

  /**
   * Pins the memory of an existing ArrayBuffer in place (cuMemHostRegister),
   * without copying it, and takes the memory over: the ArrayBuffer is
   * transferred to the registration, so `buffer` and every other view of that
   * ArrayBuffer are detached (length 0) from then on, also when the driver
   * refuses to register it. Use {@link view} and {@link arrayBuffer} instead.
   * For a view, its range is what is registered. A SharedArrayBuffer, a
   * resizable ArrayBuffer (or a view of either), a detached one and memory Node
   * keeps for itself (a Buffer from its pool) are refused with a TypeError.
   */
  static register(buffer: ArrayBuffer | ArrayBufferView, options: HostRegisterOptions = noOptions): HostBuffer {
    if (!(buffer instanceof ArrayBuffer) && !ArrayBuffer.isView(buffer)) {
      throw new TypeError('buffer must be an ArrayBuffer or a view of one (not a SharedArrayBuffer)');
    }
    checkObject(options, 'options');
    checkOptions(options, 'options', 'HostBuffer.register', ['device', 'context', 'portable', 'mapped', 'readOnly']);
    const flags = flag(options.portable, 'options.portable', 0x1) | flag(options.mapped, 'options.mapped', 0x2) |
      flag(options.readOnly, 'options.readOnly', 0x8);
    const { ordinal, context } = placementOf(options);
    return new HostBuffer(native.registerHost(ordinal, buffer, flags, context?.slot));
  }

  /** True for memory registered from a JavaScript ArrayBuffer. */
  get registered(): boolean {
    return native.hostBufferRegistered(this.slot);
  }

  /**
   * How the driver says allocated memory was made (cuMemHostGetFlags). With
   * unified addressing the driver reports deviceMap for every allocation.
   * Registered memory has no such flags: asking is a TypeError.
   */
  get flags(): HostAllocationFlags {
    if (this.registered) throw new TypeError('a registered HostBuffer has no allocation flags (cuMemHostGetFlags covers allocated memory only)');
    const bits = native.hostBufferAllocationFlags(this.slot);
    return Object.freeze({ portable: (bits & 0x1) !== 0, deviceMap: (bits & 0x2) !== 0, writeCombined: (bits & 0x4) !== 0 });
  }

  /** The address device code uses for this memory (cuMemHostGetDevicePointer). */
  get devicePointer(): bigint {
    return native.hostBufferDevicePointer(this.slot);
  }

  /**
   * The memory as an ArrayBuffer, without copying (for registered memory: the
   * registered range). Detached (length 0) once this is disposed.
   */
  get arrayBuffer(): ArrayBuffer {
    return native.hostBufferView(this.slot);
  }

  /** A typed view of the memory, e.g. hostBuffer.view(Float32Array). */
  view<T>(type: { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT?: number } = Uint8Array as never): T {
    checkViewType(type, 'type');
    const buffer = native.hostBufferView(this.slot);
    return new type(buffer, 0, Math.floor(buffer.byteLength / (type.BYTES_PER_ELEMENT ?? 1)));
  }

  override toString(): string {
    return this.disposed ? 'HostBuffer(disposed)' : `HostBuffer(${this.size} bytes${this.registered ? ', registered' : ''})`;
  }
}
