// A dma_buf file descriptor for a range of device memory
// (cuMemGetHandleForAddressRange), for other drivers (RDMA NICs, video, ...)
// to import. Needs a device with dma_buf support (Device.capabilities.dmaBuf).
import { OwnedFd } from '../ipc/fd-channel';
import { MemoryHandle, memorySlot } from '../memory/bytes';
import { native } from '../native';
import { checkBoolean, checkObject, checkOptions, checkSize, noOptions } from '../validate';
import { MemoryRangeFlag } from '../generated/enums';

/** Options of {@link exportDmaBuf}. */
export interface DmaBufOptions {
  /** Where the range starts in the memory (bytes, default 0). Address and size must be multiples of the host page size. */
  offset?: number | bigint;
  /** How many bytes (default: the rest of the memory). */
  bytes?: number | bigint;
  /** Map the dma_buf through the PCIe BAR1 (fails where the platform cannot). Default false. */
  pcie?: boolean;
}

/**
 * A dma_buf descriptor for device memory: cuMemAlloc memory, or a fully mapped
 * {@link Mapping} / {@link GrowableBuffer}. Close it (dispose) when the importer
 * has it. Fails with CudaNotSupportedError where the device or system has no
 * dma_buf support.
 */
export function exportDmaBuf(memory: MemoryHandle, options: DmaBufOptions = noOptions): OwnedFd {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'exportDmaBuf', ['offset', 'bytes', 'pcie']);
  const handle = memorySlot(memory, 'memory');
  const offset = checkSize(options.offset ?? 0, 'options.offset');
  const bytes = options.bytes === undefined ? Math.max(0, memory.size - offset) : checkSize(options.bytes, 'options.bytes');
  const pcie = options.pcie === undefined ? false : checkBoolean(options.pcie, 'options.pcie');
  return new OwnedFd(native.dmaBufOf(handle, offset, bytes, pcie ? MemoryRangeFlag.dmaBufMappingTypePcie : 0));
}
