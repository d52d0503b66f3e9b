"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exportLegacy = exportLegacy;
exports.openLegacy = openLegacy;
// The legacy IPC path, for cuMemAlloc memory: the allocation's 64-byte
// CUipcMemHandle plus the offset of the shared bytes in it (a handle always names
// a whole allocation, so an interior pointer travels as base handle + offset).
// Opened once per handle and context in the importer (the driver counts
// references too), closed under that context when the last view goes.
const errors_1 = require("../errors");
const enums_1 = require("../generated/enums");
const native_1 = require("../native");
const descriptor_1 = require("./descriptor");
const errors_2 = require("./errors");
/** @internal The handle and allocation offset of memory + offset. */
function exportLegacy(memory, offset) {
    const exported = native_1.native.ipcMemoryHandle(memory, offset);
    return { handle: (0, descriptor_1.encodeBytes)(exported.handle), offset: exported.offset };
}
/** @internal Opens a legacy descriptor on a device. */
function openLegacy(descriptor, ordinal) {
    try {
        return native_1.native.openIpcMemory(ordinal, (0, descriptor_1.decodeBytes)(descriptor.handle), descriptor.offset, descriptor.size);
    }
    catch (error) {
        if (error instanceof errors_1.CudaError && error.code === enums_1.CudaResult.CUDA_ERROR_INVALID_CONTEXT) {
            throw new errors_2.SharingUnsupportedError('same-process', `cuIpcOpenMemHandle refused the handle (${error.name}): the driver sees this process as the one that exported it`, 'Use the exported buffer itself in the exporting process; open the descriptor in another process');
        }
        throw error;
    }
}
//# sourceMappingURL=legacy-memory.js.map