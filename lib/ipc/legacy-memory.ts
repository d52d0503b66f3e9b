// The legacy IPC path, for cuMemAlloc memory: the allocation's 64-byte
// CUipcMemHandle plus the offset of the shared bytes in it (a handle always names
// a whole allocation, so an interior pointer travels as base handle + offset).
// Opened once per handle and context in the importer (the driver counts
// references too), closed under that context when the last view goes.
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

/** @internal Opens a legacy descriptor on a device. */
export function openLegacy(descriptor: LegacyMemoryDescriptor, ordinal: number): Slot<NativeImportedMemory> {
  try {
    return native.openIpcMemory(ordinal, decodeBytes(descriptor.handle), descriptor.offset, descriptor.size);
  } catch (error) {
    if (error instanceof CudaError && error.result === CudaResult.CUDA_ERROR_INVALID_CONTEXT) {
      throw new SharingUnsupportedError('same-process',
        `cuIpcOpenMemHandle refused the handle (${error.name}): the driver sees this process as the one that exported it`,
        'Use the exported buffer itself in the exporting process; open the descriptor in another process');
    }
    throw error;
  }
}
