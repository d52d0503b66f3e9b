// The operands memory functions accept, and how they reach the native layer.
import type { NativeBytes, NativeMemory } from '../native';

/** Memory the library hands out (DeviceBuffer, HostBuffer, Mapping, GrowableBuffer, SharedMemory). */
export interface MemoryHandle {
  /** @internal The native memory handle; for lib/ only. */
  readonly native: NativeMemory;
  /** @internal The number hot calls name it by (see Disposable.slot). */
  readonly slot: number;
  /** Its size in bytes. */
  readonly size: number;
}

/** Anything a copy can read or write: library memory or JavaScript bytes. */
export type Bytes = MemoryHandle | ArrayBuffer | ArrayBufferView;

/** True for library memory (anything with a native memory handle and a size). */
export function isMemoryHandle(value: unknown): value is MemoryHandle {
  return typeof value === 'object' && value !== null && 'native' in value && typeof (value as MemoryHandle).native === 'object';
}

/** The native operand of a Bytes argument, or a TypeError naming the parameter. */
export function bytesNative(value: Bytes, name: string): NativeBytes {
  if (isMemoryHandle(value)) return value.native;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    if (value instanceof ArrayBuffer && (value as { resizable?: boolean }).resizable) {
      throw new TypeError(`${name} must not be a resizable ArrayBuffer`);
    }
    return value;
  }
  throw new TypeError(`${name} must be a memory handle (DeviceBuffer, HostBuffer, Mapping, ...), ArrayBuffer, typed array, DataView or Buffer`);
}

/** The native handle of library memory, or a TypeError naming the parameter. */
export function memoryNative(value: MemoryHandle, name: string): NativeMemory {
  if (!isMemoryHandle(value)) throw new TypeError(`${name} must be a memory handle (DeviceBuffer, HostBuffer, Mapping, GrowableBuffer or SharedMemory)`);
  return value.native;
}

/** Size in bytes of a Bytes argument. */
export function sizeOf(value: Bytes): number {
  return isMemoryHandle(value) ? value.size : value.byteLength;
}
