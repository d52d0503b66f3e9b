// The two ends of sharing GPU memory: what the exporting process holds
// (MemoryExport: the descriptor and the file descriptors that go with it) and
// what an importing process gets (SharedMemory: device memory usable wherever a
// DeviceBuffer is).
import { DisposedError } from '../errors';
import type { MemoryHandle } from '../memory/bytes';
import { Memory } from '../memory/memory';
import { native, NativeImportedMemory, Slot } from '../native';
import { checkObject, checkOptions, noOptions } from '../validate';
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
export class SharedMemory extends Memory<NativeImportedMemory> {
  /** The descriptor it was opened from (undefined when opened with importPoolPointer or openIpcMemHandle). */
  readonly descriptor: SharedMemoryDescriptor | undefined;

  /** @internal */
  constructor(handle: Slot<NativeImportedMemory>, descriptor: SharedMemoryDescriptor | undefined) {
    super(handle);
    this.descriptor = descriptor;
  }

  /**
   * How it was opened: 'legacy' (cuIpcOpenMemHandle), 'pool' (an imported pool
   * pointer), 'vmm' (imported allocations mapped here), or 'alias' (opened in the
   * process that exported it: the exported memory itself).
   */
  get path(): SharingPath {
    return native.importedMemoryPath(this.slot);
  }

  override toString(): string {
    return this.disposed ? 'SharedMemory(disposed)' : `SharedMemory(${this.path}, ${this.size} bytes at 0x${this.address.toString(16)})`;
  }
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
export class MemoryExport implements globalThis.Disposable {
  /** JSON-safe: send it any way (process.send, a socket, a file); see openSharedMemory. */
  readonly descriptor: SharedMemoryDescriptor;
  /**
   * How many bytes an importer can reach, whatever view the descriptor gives
   * (an importer may rewrite it): the size of the whole allocation (legacy,
   * pool), or of every physical allocation under the view (vmm). At least
   * descriptor.size; more when the view covers part of an allocation.
   */
  readonly reachableBytes: number;
  readonly #fds: OwnedFd[];
  readonly #source: MemoryHandle;
  #disposed = false;

  /** @internal */
  constructor(descriptor: SharedMemoryDescriptor, fds: OwnedFd[], source: MemoryHandle, reachableBytes: number) {
    this.descriptor = descriptor;
    this.reachableBytes = reachableBytes;
    this.#fds = fds;
    this.#source = source;
  }

  /** The exported memory. */
  get source(): MemoryHandle {
    return this.#source;
  }

  /** The file descriptors that travel with the descriptor (none for 'legacy' and fabric handles). */
  get fds(): readonly OwnedFd[] {
    if (this.#disposed) throw new DisposedError('MemoryExport');
    return this.#fds;
  }

  /** True once dispose() has run. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /**
   * Sends the descriptor and its file descriptors as one message on channel.
   * The peer opens it with receiveSharedMemory(channel), or with
   * openSharedMemory(descriptor, { channel }) when it got the descriptor by
   * other means. May be called for several peers.
   */
  send(channel: FdChannel, options: FdChannelWaitOptions = noOptions): Promise<void> {
    if (this.#disposed) throw new DisposedError('MemoryExport');
    if (!(channel instanceof FdChannel)) throw new TypeError('channel must be an FdChannel');
    checkObject(options, 'options');
    checkOptions(options, 'options', 'MemoryExport.send', ['timeoutMs', 'signal']);
    return channel.send(this.descriptor, this.#fds, options);
  }

  /** Closes the file descriptors. Idempotent. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const fd of this.#fds) fd.dispose();
  }

  /** The same as dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  toString(): string {
    return `MemoryExport(${this.descriptor.kind}, ${this.descriptor.size} bytes${this.#disposed ? ', disposed' : ''})`;
  }
}
