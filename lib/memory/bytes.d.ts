import type { NativeBytes, NativeMemory } from '../native';
/** Memory the library hands out (DeviceBuffer, HostBuffer, Mapping, GrowableBuffer, SharedMemory). */
export interface MemoryHandle {
    readonly native: NativeMemory;
    readonly size: number;
}
/** Anything a copy can read or write: library memory or JavaScript bytes. */
export type Bytes = MemoryHandle | ArrayBuffer | ArrayBufferView;
/** True for library memory (anything with a native memory handle and a size). */
export declare function isMemoryHandle(value: unknown): value is MemoryHandle;
/** The native operand of a Bytes argument, or a TypeError naming the parameter. */
export declare function bytesNative(value: Bytes, name: string): NativeBytes;
/** The native handle of library memory, or a TypeError naming the parameter. */
export declare function memoryNative(value: MemoryHandle, name: string): NativeMemory;
/** Size in bytes of a Bytes argument. */
export declare function sizeOf(value: Bytes): number;
