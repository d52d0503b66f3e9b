// Page-locked (pinned) host memory: fast, asynchronous copies to and from the
// device, and (mapped) direct access by device code. Allocated memory is seen
// from JavaScript through arrayBuffer, a zero-copy view that dispose() detaches,
// so a view never outlives the memory.
import { DeviceLike, ordinalOf } from '../device';
import { Disposable } from '../disposable';
import { native, NativeHostBuffer, Slot } from '../native';
import { checkBoolean, checkObject, checkSize, checkViewType, noOptions } from '../validate';

/** Options of {@link HostBuffer.alloc}. */
export interface HostAllocOptions {
  /** The device whose context allocates the memory (default 0). */
  device?: DeviceLike;
  /** Pinned for every context, not only the device's (CU_MEMHOSTALLOC_PORTABLE). */
  portable?: boolean;
  /** Mapped into the device's address space (CU_MEMHOSTALLOC_DEVICEMAP). */
  mapped?: boolean;
  /** Write-combined: fast for the host to write and the device to read, slow for the host to read. */
  writeCombined?: boolean;
}

/** Options of {@link HostBuffer.register}. */
export interface HostRegisterOptions {
  /** The device whose context registers the memory (default 0). */
  device?: DeviceLike;
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

/**
 * Page-locked (pinned) host memory: allocated (HostBuffer.alloc) or an existing
 * JavaScript buffer pinned in place (HostBuffer.register). Copies to and from it
 * can be asynchronous; mapped memory is reachable from device code.
 */
export class HostBuffer extends Disposable<NativeHostBuffer> {
  /** @internal */
  constructor(handle: Slot<NativeHostBuffer>) {
    super(handle);
  }

  /** bytes of pinned host memory (cuMemAllocHost; cuMemHostAlloc when flags are given). */
  static alloc(bytes: number, options: HostAllocOptions = noOptions): HostBuffer {
    checkObject(options, 'options');
    const flags = flag(options.portable, 'options.portable', 0x1) | flag(options.mapped, 'options.mapped', 0x2) |
      flag(options.writeCombined, 'options.writeCombined', 0x4);
    return new HostBuffer(native.allocateHost(ordinalOf(options.device, 'options.device'), checkSize(bytes, 'bytes'), flags));
  }

  /**
   * Pins the memory of an existing buffer in place (cuMemHostRegister). The
   * buffer stays referenced, and pinned, until dispose(); do not transfer it meanwhile.
   */
  static register(buffer: ArrayBuffer | ArrayBufferView, options: HostRegisterOptions = noOptions): HostBuffer {
    if (!(buffer instanceof ArrayBuffer) && !ArrayBuffer.isView(buffer)) throw new TypeError('buffer must be an ArrayBuffer or a view of one');
    if (buffer instanceof ArrayBuffer && (buffer as { resizable?: boolean }).resizable) throw new TypeError('buffer must not be resizable');
    checkObject(options, 'options');
    const flags = flag(options.portable, 'options.portable', 0x1) | flag(options.mapped, 'options.mapped', 0x2) |
      flag(options.readOnly, 'options.readOnly', 0x8);
    return new HostBuffer(native.registerHost(ordinalOf(options.device, 'options.device'), buffer, flags));
  }

  /** The host address. */
  get address(): bigint {
    return this.native.address;
  }

  /** Its size in bytes. */
  get size(): number {
    return this.native.size;
  }

  /** True for memory registered from a JavaScript buffer. */
  get registered(): boolean {
    return this.native.registered;
  }

  /** The address device code uses for this memory (cuMemHostGetDevicePointer). */
  get devicePointer(): bigint {
    return this.native.devicePointer();
  }

  /**
   * The memory as an ArrayBuffer, without copying (for registered memory: the
   * buffer that was registered). Detached (length 0) once this is disposed.
   */
  get arrayBuffer(): ArrayBuffer {
    const view = this.native.view();
    return view instanceof ArrayBuffer ? view : (view.buffer as ArrayBuffer);
  }

  /** A typed view of the memory, e.g. hostBuffer.view(Float32Array). */
  view<T>(type: { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT?: number } = Uint8Array as never): T {
    checkViewType(type, 'type');
    const view = this.native.view();
    const [buffer, offset, bytes] = view instanceof ArrayBuffer ? [view, 0, view.byteLength] : [view.buffer as ArrayBuffer, view.byteOffset, view.byteLength];
    return new type(buffer, offset, Math.floor(bytes / (type.BYTES_PER_ELEMENT ?? 1)));
  }

  override toString(): string {
    return this.disposed ? 'HostBuffer(disposed)' : `HostBuffer(${this.size} bytes${this.registered ? ', registered' : ''})`;
  }
}
