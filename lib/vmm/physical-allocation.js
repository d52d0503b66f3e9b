"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PhysicalAllocation = void 0;
// Physical memory of virtual memory management: made by cuMemCreate, imported
// from another process, or retained from an address it is mapped at. Each
// object holds one reference to the allocation, released (cuMemRelease) when it
// is disposed; the memory itself lives until it is also unmapped everywhere.
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const enums_1 = require("../generated/enums");
const fd_channel_1 = require("../ipc/fd-channel");
const bytes_1 = require("../memory/bytes");
const native_1 = require("../native");
const validate_1 = require("../validate");
const granularity_1 = require("./granularity");
/**
 * Physical memory without an address (cuMemCreate): map it into an
 * {@link AddressReservation} to use it. One reference to the allocation: disposing
 * it releases that reference (cuMemRelease); mappings keep the memory until they go.
 */
class PhysicalAllocation extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /**
     * A new allocation of at least bytes (cuMemCreate), rounded up to the
     * granularity of its properties: {@link size} reports the rounded size. It
     * has no address until mapped ({@link AddressReservation.map}).
     */
    static create(bytes, options = {}) {
        const properties = (0, granularity_1.encodeProperties)(options);
        const granularity = (0, granularity_1.allocationGranularity)(options, options.granularity ?? 'minimum');
        const size = (0, granularity_1.roundToGranularity)((0, validate_1.checkSize)(bytes, 'bytes'), granularity);
        if (size === 0)
            throw new RangeError('bytes must be at least 1');
        return new PhysicalAllocation(native_1.native.createAllocation(properties, size));
    }
    /**
     * The allocation mapped at an address (cuMemRetainAllocationHandle): any
     * address of a mapped range, given as library memory (plus offset) or a bigint.
     * Its size is that of the mapping the address lies in.
     */
    static retain(pointer, offset) {
        const p = typeof pointer === 'bigint' ? pointer : (0, bytes_1.memoryNative)(pointer, 'pointer');
        return new PhysicalAllocation(native_1.native.retainAllocation(p, offset === undefined ? undefined : (0, validate_1.checkSize)(offset, 'offset')));
    }
    /**
     * An allocation another process exported (cuMemImportFromShareableHandle):
     * handle is the POSIX file descriptor it sent (a number or an OwnedFd, which
     * stays open and the caller's to close) or a fabric handle's 64 bytes. bytes is
     * the size the exporter announced. Most programs use openSharedMemory instead.
     */
    static import(handle, options) {
        (0, validate_1.checkObject)(options, 'options');
        const bytes = (0, validate_1.checkSize)(options.bytes, 'options.bytes');
        if (handle instanceof Uint8Array)
            return new PhysicalAllocation(native_1.native.importAllocation(handle, enums_1.MemoryHandleType.fabric, bytes));
        const fd = handle instanceof fd_channel_1.OwnedFd ? handle.fd : handle;
        return new PhysicalAllocation(native_1.native.importAllocation(fd, enums_1.MemoryHandleType.posixFileDescriptor, bytes));
    }
    /** The driver's CUmemGenericAllocationHandle (for logs). */
    get handle() {
        return this.native.handle;
    }
    /** Bytes of the allocation (rounded to its granularity when created here). */
    get size() {
        return this.native.size;
    }
    /** The device whose primary context the allocation's calls use (device 0 for host memory). */
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    /** Its properties as the driver reports them (cuMemGetAllocationPropertiesFromHandle). */
    properties() {
        return (0, granularity_1.decodeProperties)(this.native.properties());
    }
    /**
     * Exports the allocation as a POSIX file descriptor (cuMemExportToShareableHandle),
     * for another process to import. Needs handleTypes: ['posixFileDescriptor']
     * at creation. The descriptor keeps the memory alive until it is closed: dispose it.
     */
    exportFd() {
        return new fd_channel_1.OwnedFd(this.native.export(enums_1.MemoryHandleType.posixFileDescriptor));
    }
    /**
     * Exports the allocation as a fabric handle: 64 bytes that any process with
     * access to the same IMEX channel can import. Needs handleTypes: ['fabric'].
     */
    exportFabric() {
        return new Uint8Array(this.native.export(enums_1.MemoryHandleType.fabric));
    }
    toString() {
        return this.disposed ? 'PhysicalAllocation(disposed)' : `PhysicalAllocation(${this.size} bytes, 0x${this.handle.toString(16)})`;
    }
}
exports.PhysicalAllocation = PhysicalAllocation;
//# sourceMappingURL=physical-allocation.js.map