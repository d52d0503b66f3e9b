"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exportDmaBuf = exportDmaBuf;
// A dma_buf file descriptor for a range of device memory
// (cuMemGetHandleForAddressRange), for other drivers (RDMA NICs, video, ...)
// to import. Needs a device with dma_buf support (Device.capabilities.dmaBuf).
const fd_channel_1 = require("../ipc/fd-channel");
const bytes_1 = require("../memory/bytes");
const native_1 = require("../native");
const validate_1 = require("../validate");
const enums_1 = require("../generated/enums");
/**
 * A dma_buf descriptor for device memory: cuMemAlloc memory, or a fully mapped
 * {@link Mapping} / {@link GrowableBuffer}. Close it (dispose) when the importer
 * has it. Fails with CudaNotSupportedError where the device or system has no
 * dma_buf support.
 */
function exportDmaBuf(memory, options = {}) {
    (0, validate_1.checkObject)(options, 'options');
    const handle = (0, bytes_1.memoryNative)(memory, 'memory');
    const offset = (0, validate_1.checkSize)(options.offset ?? 0, 'options.offset');
    const bytes = options.bytes === undefined ? Math.max(0, memory.size - offset) : (0, validate_1.checkSize)(options.bytes, 'options.bytes');
    const pcie = options.pcie === undefined ? false : (0, validate_1.checkBoolean)(options.pcie, 'options.pcie');
    return new fd_channel_1.OwnedFd(native_1.native.dmaBufOf(handle, offset, bytes, pcie ? enums_1.MemoryRangeFlag.dmaBufMappingTypePcie : 0));
}
//# sourceMappingURL=dma-buf.js.map