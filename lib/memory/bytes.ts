// The operands memory functions accept, and how they reach the native layer:
// library memory by its slot number (native/core/slots.h), JavaScript bytes as they
// are, a SharedArrayBuffer as a view of it (the native layer reaches shared
// memory only through a view).
import { Disposable } from '../disposable';
import type { MemorySlot, NativeBytes } from '../native';

/** Memory the library hands out (DeviceBuffer, HostBuffer, Mapping, GrowableBuffer, SharedMemory). */
export interface MemoryHandle {
  /** @internal The number calls name it by (see Disposable.slot). */
  readonly slot: number;
  /** Its size in bytes. */
  readonly size: number;
}

/** Anything a copy can read or write: library memory or JavaScript bytes. */
export type Bytes = MemoryHandle | ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/**
 * True for a library handle, which memory arguments pass by slot. Whether it
 * is memory (and still alive) the native layer checks, with a TypeError (or
 * DisposedError) naming the parameter.
 */
export function isMemoryHandle(value: unknown): value is MemoryHandle {
  return value instanceof Disposable;
}

/** The native operand of a Bytes argument, or a TypeError naming the parameter. */
export function bytesOperand(value: Bytes, name: string): NativeBytes {
  if (isMemoryHandle(value)) return value.slot;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    if (value instanceof ArrayBuffer && (value as { resizable?: boolean }).resizable) {
      throw new TypeError(`${name} must not be a resizable ArrayBuffer`);
    }
    return value;
  }
  if (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer) return new Uint8Array(value);
  throw new TypeError(`${name} must be a memory handle (DeviceBuffer, HostBuffer, Mapping, ...), ArrayBuffer, SharedArrayBuffer, typed array, DataView or Buffer`);
}

/** The slot of library memory, or a TypeError naming the parameter. */
export function memorySlot(value: MemoryHandle, name: string): MemorySlot {
  if (!isMemoryHandle(value)) throw new TypeError(`${name} must be a memory handle (DeviceBuffer, HostBuffer, Mapping, GrowableBuffer or SharedMemory)`);
  return value.slot;
}
