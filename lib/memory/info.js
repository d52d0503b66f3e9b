"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.memoryInfo = memoryInfo;
exports.addressRange = addressRange;
exports.pointerAttribute = pointerAttribute;
exports.pointerAttributes = pointerAttributes;
exports.setSyncMemops = setSyncMemops;
// Questions about memory: free and total device memory, the allocation an
// address belongs to, and pointer attributes by name.
const device_1 = require("../device");
const enums_1 = require("../generated/enums");
const errors_1 = require("../errors");
const native_1 = require("../native");
const validate_1 = require("../validate");
const bytes_1 = require("./bytes");
/** Free and total memory of a device, in bytes (cuMemGetInfo). */
function memoryInfo(device) {
    return native_1.native.memoryInfo((0, device_1.ordinalOf)(device));
}
function pointerArgs(pointer, offset) {
    if (typeof pointer === 'bigint') {
        if (pointer < 0n || pointer >= 1n << 64n)
            throw new RangeError('pointer must be a 64-bit address');
        return [pointer, undefined];
    }
    return [(0, bytes_1.memoryNative)(pointer, 'pointer'), offset === undefined ? undefined : (0, validate_1.checkSize)(offset, 'offset')];
}
/** The allocation holding an address (cuMemGetAddressRange). */
function addressRange(pointer, offset) {
    const [p, o] = pointerArgs(pointer, offset);
    return native_1.native.addressRange(p, o);
}
function decode(name, view) {
    const u32 = () => view.getUint32(0, true);
    const u64 = () => view.getBigUint64(0, true);
    const value = (() => {
        switch (name) {
            case 'memoryType': return (0, validate_1.nameOfValue)(enums_1.MemoryType, u32());
            case 'p2pTokens': return { p2pToken: u64(), vaSpaceToken: view.getUint32(8, true) };
            case 'syncMemops':
            case 'isManaged':
            case 'isLegacyCudaIpcCapable':
            case 'mapped':
            case 'isGpuDirectRdmaCapable':
            case 'isHwDecompressCapable':
                return view.getUint8(0) !== 0;
            case 'deviceOrdinal': return view.getInt32(0, true);
            case 'rangeSize':
            case 'mappingSize': return Number(u64());
            case 'allowedHandleTypes': {
                const bits = Number(u64());
                return Object.entries(enums_1.MemoryHandleType).filter(([, b]) => b !== 0 && (bits & b) === b).map(([n]) => n);
            }
            case 'accessFlags': return (0, validate_1.nameOfValue)(enums_1.MemoryAccess, u32());
            default: return u64();
        }
    })();
    return value;
}
/** One pointer attribute (cuPointerGetAttribute). */
function pointerAttribute(pointer, name, offset) {
    const [p, o] = pointerArgs(pointer, offset);
    const bytes = native_1.native.pointerAttribute(p, o, (0, validate_1.checkEnum)(name, enums_1.PointerAttribute, 'name'));
    return decode(name, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
/**
 * Several pointer attributes in one call (cuPointerGetAttributes). Without
 * names, every attribute this pointer has: the driver refuses a batch naming
 * one it cannot answer for this pointer, so those are then asked one by one
 * (cuPointerGetAttribute) and the ones it refuses are left out.
 */
function pointerAttributes(pointer, names, offset) {
    const [p, o] = pointerArgs(pointer, offset);
    if (names === undefined) {
        const all = Object.keys(enums_1.PointerAttribute);
        try {
            return batch(p, o, all);
        }
        catch (error) {
            if (!(error instanceof errors_1.CudaError))
                throw error;
            const out = {};
            for (const name of all) {
                try {
                    out[name] = pointerAttribute(pointer, name, offset);
                }
                catch (inner) {
                    if (!(inner instanceof errors_1.CudaError))
                        throw inner;
                }
            }
            return out;
        }
    }
    return batch(p, o, (0, validate_1.checkArray)(names, 'names'));
}
function batch(p, o, list) {
    const bytes = native_1.native.pointerAttributes(p, o, list.map((n) => (0, validate_1.checkEnum)(n, enums_1.PointerAttribute, 'names')));
    const out = {};
    list.forEach((name, i) => {
        out[name] = decode(name, new DataView(bytes.buffer, bytes.byteOffset + i * 64, 64));
    });
    return out;
}
/** Makes synchronous memory operations on the allocation synchronize (CU_POINTER_ATTRIBUTE_SYNC_MEMOPS). */
function setSyncMemops(buffer, enabled) {
    native_1.native.setSyncMemops((0, bytes_1.memoryNative)(buffer, 'buffer'), enabled === true);
}
//# sourceMappingURL=info.js.map