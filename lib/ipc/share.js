"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.shareMemory = shareMemory;
exports.openSharedMemory = openSharedMemory;
exports.receiveSharedMemory = receiveSharedMemory;
// Sharing GPU memory between processes in one call each way. shareMemory picks
// the path from the pointer's attributes: cuMemAlloc memory goes through legacy
// IPC, stream-ordered memory from a shareable pool through pool export, virtual
// memory (Mapping, GrowableBuffer) through its allocations' POSIX descriptors
// (or fabric handles); anything else is refused with what to do instead.
// openSharedMemory validates what arrives as untrusted input, receives the
// descriptors a path needs from an FdChannel, and in the exporting process
// itself gives an alias of the exported memory (the driver refuses to open its
// own exports).
const device_1 = require("../device");
const device_buffer_1 = require("../memory/device-buffer");
const host_buffer_1 = require("../memory/host-buffer");
const info_1 = require("../memory/info");
const native_1 = require("../native");
const validate_1 = require("../validate");
const growable_buffer_1 = require("../vmm/growable-buffer");
const mapping_1 = require("../vmm/mapping");
const descriptor_1 = require("./descriptor");
const errors_1 = require("./errors");
const fd_channel_1 = require("./fd-channel");
const legacy_memory_1 = require("./legacy-memory");
const pool_sharing_1 = require("./pool-sharing");
const shared_memory_1 = require("./shared-memory");
const vmm_sharing_1 = require("./vmm-sharing");
// Exports of this process, by id, for opening them here as aliases.
const exportedMemory = new Map();
const forgetExport = new FinalizationRegistry((id) => exportedMemory.delete(id));
const handleTypes = { posixFileDescriptor: 1, fabric: 8 };
function notShareable(memory) {
    if (memory instanceof host_buffer_1.HostBuffer) {
        return new errors_1.SharingUnsupportedError('host-memory', 'host memory cannot be shared through CUDA IPC', 'Share device memory instead, or put the bytes in OS shared memory and register it in each process (HostBuffer.register)');
    }
    if (memory instanceof shared_memory_1.SharedMemory) {
        return new errors_1.SharingUnsupportedError('imported-memory', 'memory opened from another process cannot be shared again from here', 'Have the exporting process share it with the others itself');
    }
    return undefined;
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
function shareMemory(memory, options = {}) {
    (0, validate_1.checkObject)(options, 'options');
    const refused = notShareable(memory);
    if (refused)
        throw refused;
    const isVirtual = memory instanceof mapping_1.Mapping || memory instanceof growable_buffer_1.GrowableBuffer;
    if (!isVirtual && !(memory instanceof device_buffer_1.DeviceBuffer)) {
        throw new TypeError('memory must be a DeviceBuffer, Mapping or GrowableBuffer');
    }
    const offset = (0, validate_1.checkSize)(options.offset ?? 0, 'options.offset');
    const bytes = options.bytes === undefined ? memory.size - offset : (0, validate_1.checkSize)(options.bytes, 'options.bytes');
    if (bytes < 1 || offset + bytes > memory.size) {
        throw new RangeError(`the shared range [${offset}, ${offset}+${bytes}) must hold at least 1 byte and lie within the memory's ${memory.size} bytes`);
    }
    const handleType = options.handleType ?? 'posixFileDescriptor';
    if (typeof handleType !== 'string')
        throw new TypeError("options.handleType must be 'posixFileDescriptor' or 'fabric'");
    (0, validate_1.checkEnum)(handleType, handleTypes, 'options.handleType');
    const attributes = (0, info_1.pointerAttributes)(memory, ['isManaged', 'isLegacyCudaIpcCapable', 'mempoolHandle'], offset);
    const device = memory.device;
    let path;
    if (attributes.isManaged) {
        throw new errors_1.SharingUnsupportedError('managed-memory', 'managed memory cannot be shared between processes', 'Copy it into memory from DeviceBuffer.alloc (legacy IPC) or Mapping.alloc(bytes, { handleTypes: [\'posixFileDescriptor\'] }) and share that');
    }
    else if (isVirtual) {
        path = (0, vmm_sharing_1.exportVmmMemory)(memory, offset, bytes, handleType);
    }
    else if (attributes.mempoolHandle !== 0n) {
        path = (0, pool_sharing_1.exportPoolMemory)(memory, attributes.mempoolHandle, offset, handleType);
    }
    else if (attributes.isLegacyCudaIpcCapable) {
        path = { fields: { kind: 'legacy', ...(0, legacy_memory_1.exportLegacy)(memory.native, offset) }, fds: [] };
    }
    else {
        throw new errors_1.SharingUnsupportedError('not-ipc-capable', 'the driver reports this memory as not shareable through legacy IPC', `Allocate with DeviceBuffer.alloc, or as virtual memory with Mapping.alloc(bytes, { handleTypes: ['posixFileDescriptor'] }); for pools: ${pool_sharing_1.exportablePoolRemedy}`);
    }
    const id = (0, descriptor_1.newExportId)();
    let descriptor;
    try {
        descriptor = (0, descriptor_1.validateMemoryDescriptor)({
            format: descriptor_1.memoryDescriptorFormat,
            version: descriptor_1.descriptorVersion,
            id,
            exporter: (0, descriptor_1.thisProcess)(),
            device: { uuid: device.uuid, ordinal: device.ordinal },
            size: bytes,
            ...path.fields,
        });
    }
    catch (error) {
        for (const fd of path.fds)
            fd.dispose();
        throw error;
    }
    exportedMemory.set(id, { source: new WeakRef(memory), offset });
    forgetExport.register(memory, id);
    return new shared_memory_1.MemoryExport(descriptor, path.fds, memory);
}
function exporterDevice(descriptor) {
    try {
        return device_1.Device.byUuid(descriptor.device.uuid);
    }
    catch {
        return undefined;
    }
}
// The descriptors a path needs: given, or received from the channel in a message
// that must carry the same export.
async function fdsFor(descriptor, options) {
    const count = (0, descriptor_1.descriptorFdCount)(descriptor);
    if (count === 0)
        return { fds: [], received: [] };
    if (options.fds !== undefined) {
        if (!Array.isArray(options.fds) || options.fds.length !== count || !options.fds.every((fd) => fd instanceof fd_channel_1.OwnedFd)) {
            throw new TypeError(`options.fds must hold the ${count} file descriptor${count === 1 ? '' : 's'} sent with the descriptor`);
        }
        return { fds: options.fds, received: [] };
    }
    if (!(options.channel instanceof fd_channel_1.FdChannel)) {
        throw new TypeError(`this descriptor (${descriptor.kind}, POSIX file descriptors) needs options.channel, where MemoryExport.send sends its descriptors, or options.fds`);
    }
    const message = await options.channel.receive({ timeoutMs: options.timeoutMs });
    let ok = false;
    try {
        const sent = (0, descriptor_1.validateMemoryDescriptor)(message.payload);
        if (sent.id !== descriptor.id)
            throw new errors_1.InvalidDescriptorError('id', `of the message received (${sent.id}) is not the descriptor's (${descriptor.id}): messages crossed`);
        if (message.fds.length !== count)
            throw new errors_1.InvalidDescriptorError('', `arrived with ${message.fds.length} file descriptors instead of ${count}`);
        ok = true;
        return { fds: message.fds, received: [...message.fds] };
    }
    finally {
        if (!ok)
            message.dispose();
    }
}
/**
 * Opens memory another process shared (the descriptor from MemoryExport, sent
 * any way): validates it as untrusted input (InvalidDescriptorError), takes the
 * file descriptors it needs from options.fds or options.channel, and maps the
 * memory into this process. In the process that exported it, the result is an
 * alias of the exported memory. Opening the same legacy or pool export twice
 * shares one opening.
 */
async function openSharedMemory(descriptor, options = {}) {
    (0, validate_1.checkObject)(options, 'options');
    const checked = (0, descriptor_1.validateMemoryDescriptor)(descriptor);
    if ((0, descriptor_1.exportedHere)(checked.exporter))
        return openAlias(checked);
    const owner = exporterDevice(checked);
    let device;
    if (options.device !== undefined) {
        device = device_1.Device.get((0, device_1.ordinalOf)(options.device, 'options.device'));
    }
    else if (owner !== undefined) {
        device = owner;
    }
    else {
        throw new errors_1.SharingUnsupportedError('device-not-visible', `the exporter's device ${checked.device.uuid} is not visible to this process`, 'Make it visible (CUDA_VISIBLE_DEVICES), or pass options.device to use the memory from a peer device');
    }
    const { fds, received } = await fdsFor(checked, options);
    try {
        let opened;
        switch (checked.kind) {
            case 'legacy':
                opened = (0, legacy_memory_1.openLegacy)(checked, device.ordinal);
                break;
            case 'pool':
                opened = (0, pool_sharing_1.openPoolMemory)(checked, device, fds);
                break;
            case 'vmm':
                opened = (0, vmm_sharing_1.openVmmMemory)(checked, device, fds);
                break;
        }
        return new shared_memory_1.SharedMemory(opened, checked);
    }
    finally {
        for (const fd of received)
            fd.dispose();
    }
}
/**
 * Receives the next message on channel (sent with MemoryExport.send) and opens
 * the memory it describes, closing the file descriptors that came with it.
 */
async function receiveSharedMemory(channel, options = {}) {
    if (!(channel instanceof fd_channel_1.FdChannel))
        throw new TypeError('channel must be an FdChannel');
    (0, validate_1.checkObject)(options, 'options');
    const message = await channel.receive({ timeoutMs: options.timeoutMs });
    try {
        return await openSharedMemory(message.payload, { fds: message.fds, device: options.device });
    }
    finally {
        message.dispose();
    }
}
function openAlias(descriptor) {
    const entry = exportedMemory.get(descriptor.id);
    const source = entry?.source.deref();
    if (!entry || !source || source.disposed) {
        throw new errors_1.SharingUnsupportedError('same-process', 'this descriptor was exported by this process, and the memory it names is gone', 'Open descriptors in other processes; in the exporting process use the exported buffer itself');
    }
    return new shared_memory_1.SharedMemory(native_1.native.memoryView(source.native, entry.offset, descriptor.size, 'alias'), descriptor);
}
//# sourceMappingURL=share.js.map