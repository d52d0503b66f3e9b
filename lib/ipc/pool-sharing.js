"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exportablePoolRemedy = void 0;
exports.exportPool = exportPool;
exports.importPool = importPool;
exports.exportPoolPointer = exportPoolPointer;
exports.importPoolPointer = importPoolPointer;
exports.exportPoolMemory = exportPoolMemory;
exports.openPoolMemory = openPoolMemory;
// The memory-pool path, for stream-ordered allocations: the pool is exported
// once (a POSIX descriptor or a fabric handle) and each allocation as 64 bytes
// of export data. An importer imports each exporter's pool once and each
// allocation once (importing the same pointer twice would map it twice, and the
// first free would unmap both); the pool lives while its imported pointers do.
// Imported pool memory must be released in every importer before the exporter
// frees it (the driver's rule).
const device_1 = require("../device");
const errors_1 = require("../errors");
const enums_1 = require("../generated/enums");
const pool_1 = require("../memory/pool");
const native_1 = require("../native");
const validate_1 = require("../validate");
const descriptor_1 = require("./descriptor");
const errors_2 = require("./errors");
const fabric_1 = require("./fabric");
const fd_channel_1 = require("./fd-channel");
const shared_memory_1 = require("./shared-memory");
const shareableTypes = { posixFileDescriptor: enums_1.MemoryHandleType.posixFileDescriptor, fabric: enums_1.MemoryHandleType.fabric };
/** @internal The remedy when a pool cannot be exported. */
exports.exportablePoolRemedy = "Allocate from a pool created to be shared: MemoryPool.create({ handleTypes: ['posixFileDescriptor'] }) and " +
    'DeviceBuffer.allocAsync(bytes, stream, { pool }); a device\'s default pool cannot be exported';
/**
 * Exports a pool (cuMemPoolExportToShareableHandle) created with that handle
 * type: an OwnedFd to send over an FdChannel, or a fabric handle's 64 bytes.
 * pool may also be stream-ordered memory, meaning the pool it came from.
 */
function exportPool(pool, options = {}) {
    (0, validate_1.checkObject)(options, 'options');
    const type = (0, validate_1.checkEnum)(options.handleType ?? 'posixFileDescriptor', shareableTypes, 'options.handleType');
    if (type === enums_1.MemoryHandleType.fabric)
        (0, fabric_1.requireFabric)(pool.device);
    let exported;
    try {
        exported = native_1.native.exportPool(pool.native, type);
    }
    catch (error) {
        const refusals = [enums_1.CudaResult.CUDA_ERROR_INVALID_VALUE, enums_1.CudaResult.CUDA_ERROR_NOT_SUPPORTED, enums_1.CudaResult.CUDA_ERROR_NOT_PERMITTED];
        if (error instanceof errors_1.CudaError && refusals.includes(error.code)) {
            throw new errors_2.SharingUnsupportedError('pool-not-exportable', `the memory pool cannot be exported as ${options.handleType ?? 'posixFileDescriptor'} (${error.name})`, exports.exportablePoolRemedy);
        }
        throw error;
    }
    return exported instanceof Uint8Array ? new Uint8Array(exported) : new fd_channel_1.OwnedFd(exported);
}
/**
 * Imports a pool another process exported (cuMemPoolImportFromShareableHandle):
 * handle is the descriptor it sent (a number or an OwnedFd, which stays the
 * caller's to close) or its fabric handle's bytes. identity names the
 * exporter's pool: importing it again under the same identity while this
 * process still holds it returns the same pool. Imported pools cannot allocate.
 */
function importPool(handle, options) {
    (0, validate_1.checkObject)(options, 'options');
    const identity = (0, validate_1.checkString)(options.identity, 'options.identity');
    const ordinal = (0, device_1.ordinalOf)(options.device, 'options.device');
    if (handle instanceof Uint8Array)
        return new pool_1.MemoryPool(native_1.native.importPool(ordinal, handle, enums_1.MemoryHandleType.fabric, identity));
    const fd = handle instanceof fd_channel_1.OwnedFd ? handle.fd : handle;
    return new pool_1.MemoryPool(native_1.native.importPool(ordinal, fd, enums_1.MemoryHandleType.posixFileDescriptor, identity));
}
/**
 * The export data of a stream-ordered allocation (cuMemPoolExportPointer), after
 * its stream has reached the allocation (synchronized here), so that an
 * importer never touches memory not yet allocated.
 */
function exportPoolPointer(buffer) {
    return new Uint8Array(native_1.native.exportPoolPointer(buffer.native));
}
/**
 * Imports an allocation of an imported pool (cuMemPoolImportPointer), once per
 * export data: a second import returns a view of the same mapping. bytes (from
 * offset) must lie within the allocation.
 */
function importPoolPointer(pool, data, options) {
    (0, validate_1.checkInstance)(pool, pool_1.MemoryPool, 'pool');
    if (!(data instanceof Uint8Array))
        throw new TypeError('data must be a Uint8Array');
    (0, validate_1.checkObject)(options, 'options');
    const imported = native_1.native.importPoolPointer(pool.native, data, (0, validate_1.checkSize)(options.offset ?? 0, 'options.offset'), (0, validate_1.checkSize)(options.bytes, 'options.bytes'));
    return new shared_memory_1.SharedMemory(imported, undefined);
}
/** @internal The pool path's part of a descriptor, and the descriptor that travels with it. */
function exportPoolMemory(buffer, poolId, offset, handleType) {
    const poolHandle = exportPool(buffer, { handleType });
    try {
        const pointer = (0, descriptor_1.encodeBytes)(exportPoolPointer(buffer));
        const pool = poolId.toString(16);
        if (poolHandle instanceof fd_channel_1.OwnedFd)
            return { fields: { kind: 'pool', handleType, pool, pointer, offset }, fds: [poolHandle] };
        return { fields: { kind: 'pool', handleType, pool, poolHandle: (0, descriptor_1.encodeBytes)(poolHandle), pointer, offset }, fds: [] };
    }
    catch (error) {
        if (poolHandle instanceof fd_channel_1.OwnedFd)
            poolHandle.dispose();
        throw error;
    }
}
/** @internal Opens a pool descriptor on a device, given its descriptors (if any). */
function openPoolMemory(descriptor, device, fds) {
    if (descriptor.handleType === 'fabric')
        (0, fabric_1.requireFabric)(device);
    const handle = descriptor.poolHandle !== undefined ? (0, descriptor_1.decodeBytes)(descriptor.poolHandle) : fds[0];
    const pool = importPool(handle, { identity: `${descriptor.exporter.token}:${descriptor.pool}`, device });
    try {
        // Grant the device access unless it has it already (the owning device does,
        // and cuMemPoolSetAccess rejects a batch naming it), as NVIDIA's IPC sample does.
        if (pool.native.getAccess(enums_1.MemoryLocationType.device, device.ordinal) !== enums_1.MemoryAccess.readwrite) {
            pool.native.setAccess([[enums_1.MemoryLocationType.device, device.ordinal, enums_1.MemoryAccess.readwrite]]);
        }
        return native_1.native.importPoolPointer(pool.native, (0, descriptor_1.decodeBytes)(descriptor.pointer), descriptor.offset, descriptor.size);
    }
    finally {
        pool.dispose(); // the imported pointer holds the pool
    }
}
//# sourceMappingURL=pool-sharing.js.map