"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryExport = exports.SharedMemory = void 0;
// The two ends of sharing GPU memory: what the exporting process holds
// (MemoryExport: the descriptor and the file descriptors that go with it) and
// what an importing process gets (SharedMemory: device memory usable wherever a
// DeviceBuffer is).
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const errors_1 = require("../errors");
const fd_channel_1 = require("./fd-channel");
/**
 * Memory another process shared (see openSharedMemory): usable in copies,
 * fills, stream memory operations and as a kernel argument, like a DeviceBuffer.
 * Disposing it closes this process's view once the GPU is done with it; the
 * memory itself belongs to the exporter.
 */
class SharedMemory extends disposable_1.Disposable {
    /** The descriptor it was opened from (undefined when opened with importPoolPointer). */
    descriptor;
    /** @internal */
    constructor(handle, descriptor) {
        super(handle);
        this.descriptor = descriptor;
    }
    /** The address in this process (it differs from the exporter's). */
    get address() {
        return this.native.address;
    }
    /** Bytes shared. */
    get size() {
        return this.native.size;
    }
    /** The device whose context this process uses for the memory. */
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    /**
     * How it was opened: 'legacy' (cuIpcOpenMemHandle), 'pool' (an imported pool
     * pointer), 'vmm' (imported allocations mapped here), or 'alias' (opened in the
     * process that exported it: the exported memory itself).
     */
    get path() {
        return this.native.path;
    }
    toString() {
        return this.disposed ? 'SharedMemory(disposed)' : `SharedMemory(${this.path}, ${this.size} bytes at 0x${this.address.toString(16)})`;
    }
}
exports.SharedMemory = SharedMemory;
/**
 * Memory made shareable (see shareMemory): a descriptor to send to other
 * processes, plus, for the 'pool' and 'vmm' paths with POSIX descriptors, the
 * file descriptors that must travel with it over an FdChannel ({@link send}).
 * While the export lives it keeps the exported buffer from being garbage-collected;
 * the exporter must keep the memory alive as long as importers use it (the
 * driver's rule for legacy and pool memory). Disposing it closes the
 * descriptors (importers that already opened the memory are unaffected).
 */
class MemoryExport {
    /** JSON-safe: send it any way (process.send, a socket, a file); see openSharedMemory. */
    descriptor;
    #fds;
    #source;
    #disposed = false;
    /** @internal */
    constructor(descriptor, fds, source) {
        this.descriptor = descriptor;
        this.#fds = fds;
        this.#source = source;
    }
    /** The exported memory. */
    get source() {
        return this.#source;
    }
    /** The file descriptors that travel with the descriptor (none for 'legacy' and fabric handles). */
    get fds() {
        if (this.#disposed)
            throw new errors_1.DisposedError('MemoryExport');
        return this.#fds;
    }
    get disposed() {
        return this.#disposed;
    }
    /**
     * Sends the descriptor and its file descriptors as one message on channel.
     * The peer opens it with receiveSharedMemory(channel), or with
     * openSharedMemory(descriptor, { channel }) when it got the descriptor by
     * other means. May be called for several peers.
     */
    send(channel, options = {}) {
        if (this.#disposed)
            throw new errors_1.DisposedError('MemoryExport');
        if (!(channel instanceof fd_channel_1.FdChannel))
            throw new TypeError('channel must be an FdChannel');
        return channel.send(this.descriptor, this.#fds, options);
    }
    /** Closes the file descriptors. Idempotent. */
    dispose() {
        if (this.#disposed)
            return;
        this.#disposed = true;
        for (const fd of this.#fds)
            fd.dispose();
    }
    [Symbol.dispose]() {
        this.dispose();
    }
    toString() {
        return `MemoryExport(${this.descriptor.kind}, ${this.descriptor.size} bytes${this.#disposed ? ', disposed' : ''})`;
    }
}
exports.MemoryExport = MemoryExport;
//# sourceMappingURL=shared-memory.js.map