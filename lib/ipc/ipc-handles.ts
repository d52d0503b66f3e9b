// Legacy CUDA IPC with programs that are not this package (CuPy, PyTorch, C):
// the raw 64-byte CUipcMemHandle and CUipcEventHandle they exchange, with no
// descriptor around them. A raw handle says nothing of its sender, its device
// or its size, so the caller supplies what it knows; the driver validates the
// 64 bytes, and an opened handle shares the opening a descriptor of the same
// allocation would get.
import { DeviceLike, ordinalOf } from '../device';
import { Event } from '../event';
import { DeviceBuffer } from '../memory/device-buffer';
import { native } from '../native';
import { checkInstance, checkObject, checkOptions, checkSize, describeValue, noOptions } from '../validate';
import { SharingUnsupportedError } from './errors';
import { ipcEventHandle } from './event-sharing';
import { openIpcMemory } from './legacy-memory';
import { SharedMemory } from './shared-memory';

/** The size of a CUipcMemHandle or CUipcEventHandle (CU_IPC_HANDLE_SIZE). */
export const ipcHandleBytes = 64;

/** Options of {@link openIpcMemHandle}. */
export interface OpenIpcMemHandleOptions {
  /** The device whose primary context opens the memory (default device 0); the memory may live on a peer of it. */
  device?: DeviceLike;
  /** Where the view starts in the allocation (default 0), e.g. the offset a PyTorch storage has in its block. */
  offset?: number;
  /** How many bytes the view shows (default: the rest of the allocation as mapped here, which may be rounded up). */
  bytes?: number;
}

function checkHandle(value: unknown, name: string): Uint8Array {
  if (!(value instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array of ${ipcHandleBytes} bytes, got ${describeValue(value)}`);
  if (value.byteLength !== ipcHandleBytes) throw new RangeError(`${name} must be ${ipcHandleBytes} bytes, got ${value.byteLength}`);
  return value;
}

/**
 * The raw CUipcMemHandle of a buffer from DeviceBuffer.alloc or allocPitched
 * (cuIpcGetMemHandle): 64 bytes that another program opens with its own call
 * (CuPy's `cupy.cuda.runtime.ipcOpenMemHandle`, `cudaIpcOpenMemHandle` in C).
 * The handle names the buffer's whole allocation. Keep the buffer alive while
 * others use it. Stream-ordered and managed memory have no such handle
 * (SharingUnsupportedError); share them with shareMemory.
 */
export function exportIpcMemHandle(buffer: DeviceBuffer): Uint8Array {
  checkInstance(buffer, DeviceBuffer, 'buffer');
  const allocation = buffer.allocation;
  if (allocation === 'managed') {
    throw new SharingUnsupportedError('managed-memory', 'managed memory has no legacy IPC handle',
      'Copy it into memory from DeviceBuffer.alloc and export that');
  }
  if (allocation === 'stream-ordered') {
    throw new SharingUnsupportedError('not-ipc-capable', 'stream-ordered memory has no legacy IPC handle',
      'Allocate with DeviceBuffer.alloc, or share pool memory with shareMemory (the pool path)');
  }
  return new Uint8Array(native.ipcMemoryHandle(buffer.slot, 0).handle);
}

/**
 * Opens a raw CUipcMemHandle another process made (cuIpcOpenMemHandle, with
 * peer access enabled as needed): CuPy's `ipcGetMemHandle`, the last 64 bytes
 * of the handle PyTorch's storage `_share_cuda_()` gives, or
 * `cudaIpcGetMemHandle` in C. The result is a SharedMemory (path 'legacy',
 * no descriptor) viewing [offset, offset + bytes) of the allocation; dispose
 * it when done, before the exporter frees the memory. Opening the same handle
 * again in this process (or a descriptor naming it) shares one opening. The
 * driver refuses a handle this process made (SharingUnsupportedError
 * 'same-process') and 64 bytes that name no allocation (CudaError).
 */
export function openIpcMemHandle(handle: Uint8Array, options: OpenIpcMemHandleOptions = noOptions): SharedMemory {
  const bytes = checkHandle(handle, 'handle');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'openIpcMemHandle', ['device', 'offset', 'bytes']);
  const ordinal = ordinalOf(options.device, 'options.device');
  const offset = checkSize(options.offset ?? 0, 'options.offset');
  const size = options.bytes === undefined ? undefined : checkSize(options.bytes, 'options.bytes');
  return new SharedMemory(openIpcMemory(bytes, ordinal, offset, size), undefined);
}

/**
 * The raw CUipcEventHandle of an event created with
 * Event.create({ interprocess: true }) (timing off) (cuIpcGetEventHandle): 64
 * bytes another program opens with its own call (CuPy's
 * `cupy.cuda.runtime.ipcOpenEventHandle`, PyTorch's
 * `torch.cuda.Event.from_ipc_handle`). Keep the event alive while others use it.
 */
export function exportIpcEventHandle(event: Event): Uint8Array {
  return new Uint8Array(ipcEventHandle(event).handle);
}

/**
 * Opens a raw CUipcEventHandle another process made (cuIpcOpenEventHandle):
 * CuPy's `ipcGetEventHandle`, PyTorch's `Event.ipc_handle()`, or
 * `cudaIpcGetEventHandle` in C. The event behaves as one created with timing
 * off: record it, wait for it on a stream, query or synchronize it; dispose it
 * when done. 64 bytes that name no event are refused by the driver (CudaError).
 */
export function openIpcEventHandle(handle: Uint8Array, options: { device?: DeviceLike } = noOptions): Event {
  const bytes = checkHandle(handle, 'handle');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'openIpcEventHandle', ['device']);
  return new Event(native.openIpcEvent(ordinalOf(options.device, 'options.device'), bytes));
}
