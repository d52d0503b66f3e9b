import { Device } from '../device';
import { Disposable } from '../disposable';
import type { MemoryHandle } from '../memory/bytes';
import { NativeImportedMemory } from '../native';
import { SharedMemoryDescriptor } from './descriptor';
import { FdChannel, FdChannelWaitOptions, OwnedFd } from './fd-channel';
/** How an import reached the memory. */
export type SharingPath = 'legacy' | 'pool' | 'vmm' | 'alias';
/**
 * Memory another process shared (see openSharedMemory): usable in copies,
 * fills, stream memory operations and as a kernel argument, like a DeviceBuffer.
 * Disposing it closes this process's view once the GPU is done with it; the
 * memory itself belongs to the exporter.
 */
export declare class SharedMemory extends Disposable<NativeImportedMemory> {
    /** The descriptor it was opened from (undefined when opened with importPoolPointer). */
    readonly descriptor: SharedMemoryDescriptor | undefined;
    /** @internal */
    constructor(handle: NativeImportedMemory, descriptor: SharedMemoryDescriptor | undefined);
    /** The address in this process (it differs from the exporter's). */
    get address(): bigint;
    /** Bytes shared. */
    get size(): number;
    /** The device whose context this process uses for the memory. */
    get device(): Device;
    /**
     * How it was opened: 'legacy' (cuIpcOpenMemHandle), 'pool' (an imported pool
     * pointer), 'vmm' (imported allocations mapped here), or 'alias' (opened in the
     * process that exported it: the exported memory itself).
     */
    get path(): SharingPath;
    toString(): string;
}
/**
 * Memory made shareable (see shareMemory): a descriptor to send to other
 * processes, plus, for the 'pool' and 'vmm' paths with POSIX descriptors, the
 * file descriptors that must travel with it over an FdChannel ({@link send}).
 * While the export lives it keeps the exported buffer from being garbage-collected;
 * the exporter must keep the memory alive as long as importers use it (the
 * driver's rule for legacy and pool memory). Disposing it closes the
 * descriptors (importers that already opened the memory are unaffected).
 */
export declare class MemoryExport implements globalThis.Disposable {
    #private;
    /** JSON-safe: send it any way (process.send, a socket, a file); see openSharedMemory. */
    readonly descriptor: SharedMemoryDescriptor;
    /** @internal */
    constructor(descriptor: SharedMemoryDescriptor, fds: OwnedFd[], source: MemoryHandle);
    /** The exported memory. */
    get source(): MemoryHandle;
    /** The file descriptors that travel with the descriptor (none for 'legacy' and fabric handles). */
    get fds(): readonly OwnedFd[];
    get disposed(): boolean;
    /**
     * Sends the descriptor and its file descriptors as one message on channel.
     * The peer opens it with receiveSharedMemory(channel), or with
     * openSharedMemory(descriptor, { channel }) when it got the descriptor by
     * other means. May be called for several peers.
     */
    send(channel: FdChannel, options?: FdChannelWaitOptions): Promise<void>;
    /** Closes the file descriptors. Idempotent. */
    dispose(): void;
    [Symbol.dispose](): void;
    toString(): string;
}
