import { DeviceLike } from '../device';
import type { MemoryHandle } from '../memory/bytes';
import { FdChannel, FdChannelWaitOptions, OwnedFd } from './fd-channel';
import { ShareableHandleType } from './pool-sharing';
import { MemoryExport, SharedMemory } from './shared-memory';
/** Options of {@link shareMemory}. */
export interface ShareOptions {
    /** Where the shared bytes start in the buffer (default 0). */
    offset?: number;
    /** How many bytes to share (default: the rest of the buffer). */
    bytes?: number;
    /**
     * For pool and virtual memory: 'posixFileDescriptor' (default; processes of
     * one host, the descriptors travel over an FdChannel) or 'fabric' (needs
     * fabric support and an IMEX channel; no descriptors to pass).
     */
    handleType?: ShareableHandleType;
}
/** Options of {@link openSharedMemory}. */
export interface OpenSharedOptions extends FdChannelWaitOptions {
    /** Where the file descriptors the descriptor needs arrive (sent with MemoryExport.send). */
    channel?: FdChannel;
    /** The file descriptors themselves, if they arrived already (they stay the caller's to close). */
    fds?: readonly OwnedFd[];
    /** The device to use the memory from; default the exporter's device (found by UUID). */
    device?: DeviceLike;
}
/**
 * Makes [offset, offset + bytes) of device memory shareable with other
 * processes, by the path its pointer attributes call for:
 * - cuMemAlloc memory (DeviceBuffer.alloc, allocPitched): legacy IPC, no file descriptors;
 * - stream-ordered memory from a pool created with handleTypes: ['posixFileDescriptor']: pool export;
 * - virtual memory (Mapping, GrowableBuffer) created with handleTypes: virtual memory export.
 * Managed memory, host memory, memory from a pool that cannot be exported and
 * memory imported from elsewhere are refused with a SharingUnsupportedError
 * that says which allocation to use instead.
 */
export declare function shareMemory(memory: MemoryHandle, options?: ShareOptions): MemoryExport;
/**
 * Opens memory another process shared (the descriptor from MemoryExport, sent
 * any way): validates it as untrusted input (InvalidDescriptorError), takes the
 * file descriptors it needs from options.fds or options.channel, and maps the
 * memory into this process. In the process that exported it, the result is an
 * alias of the exported memory. Opening the same legacy or pool export twice
 * shares one opening.
 */
export declare function openSharedMemory(descriptor: unknown, options?: OpenSharedOptions): Promise<SharedMemory>;
/**
 * Receives the next message on channel (sent with MemoryExport.send) and opens
 * the memory it describes, closing the file descriptors that came with it.
 */
export declare function receiveSharedMemory(channel: FdChannel, options?: FdChannelWaitOptions & {
    device?: DeviceLike;
}): Promise<SharedMemory>;
