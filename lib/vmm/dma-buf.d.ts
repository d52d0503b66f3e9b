import { OwnedFd } from '../ipc/fd-channel';
import { MemoryHandle } from '../memory/bytes';
/** Options of {@link exportDmaBuf}. */
export interface DmaBufOptions {
    /** Where the range starts in the memory (bytes, default 0). Address and size must be multiples of the host page size. */
    offset?: number;
    /** How many bytes (default: the rest of the memory). */
    bytes?: number;
    /** Map the dma_buf through the PCIe BAR1 (fails where the platform cannot). Default false. */
    pcie?: boolean;
}
/**
 * A dma_buf descriptor for device memory: cuMemAlloc memory, or a fully mapped
 * {@link Mapping} / {@link GrowableBuffer}. Close it (dispose) when the importer
 * has it. Fails with CudaNotSupportedError where the device or system has no
 * dma_buf support.
 */
export declare function exportDmaBuf(memory: MemoryHandle, options?: DmaBufOptions): OwnedFd;
