// The legacy IPC path, for cuMemAlloc memory: the allocation's 64-byte
// CUipcMemHandle plus the offset of the shared bytes in it (a handle always names
// a whole allocation, so an interior pointer travels as base handle + offset).
// Opened once per handle and context in the importer (the driver counts
// references too), closed under that context when the last view goes.
// Descriptors and raw handles (ipc-handles.ts) share the opening.
import { CudaError } from '../errors';
import { CudaResult } from '../generated/enums';
import { MemorySlot, native, NativeImportedMemory, Slot } from '../native';
import { decodeBytes, encodeBytes, LegacyMemoryDescriptor } from './descriptor';
import { SharingUnsupportedError } from './errors';

/** @internal The handle of the allocation holding memory + offset, that point's offset in it, and the allocation's size. */
export function exportLegacy(memory: MemorySlot, offset: number): { handle: string; offset: number; allocationSize: number } {
  const exported = native.ipcMemoryHandle(memory, offset);
  return { handle: encodeBytes(exported.handle), offset: exported.offset, allocationSize: exported.allocationSize };
}

/**
 * @internal Opens a 64-byte CUipcMemHandle on a device: a view of bytes from
 * offset (undefined: to the end of the allocation). The driver refuses its own
 * process's handles; that refusal becomes a SharingUnsupportedError.
 */
export function openIpcMemory(handle: Uint8Array, ordinal: number, offset: number, bytes: number | undefined): Slot<NativeImportedMemory> {
  try {
    return native.openIpcMemory(ordinal, handle, offset, bytes);
  } catch (error) {
    if (error instanceof CudaError && error.result === CudaResult.CUDA_ERROR_INVALID_CONTEXT) {
      throw new SharingUnsupportedError('same-process',
        `cuIpcOpenMemHandle refused the handle (${error.name}): the driver sees this process as the one that exported it`,
        'Use the exported buffer itself in the exporting process; open the handle in another process');
    }
    throw error;
  }
}

/** @internal Opens a legacy descriptor on a device. */
export function openLegacy(descriptor: LegacyMemoryDescriptor, ordinal: number): Slot<NativeImportedMemory> {
  return openIpcMemory(decodeBytes(descriptor.handle), ordinal, descriptor.offset, descriptor.size);
}
