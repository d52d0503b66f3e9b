"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.encodeProperties = encodeProperties;
exports.decodeProperties = decodeProperties;
exports.allocationGranularity = allocationGranularity;
exports.roundToGranularity = roundToGranularity;
exports.deviceGranularity = deviceGranularity;
const enums_1 = require("../generated/enums");
const location_1 = require("../memory/location");
const native_1 = require("../native");
const validate_1 = require("../validate");
/** CU_MEM_CREATE_USAGE_HW_DECOMPRESS: a buffer for hardware-accelerated decompression. */
const usageHardwareDecompress = 0x2;
/** @internal The native encoding: [locationType, locationId, handleTypes, compression, gpuDirectRdma, usage]. */
function encodeProperties(options, name = 'options') {
    (0, validate_1.checkObject)(options, name);
    const { type, id } = (0, location_1.locationOf)(options.location ?? 0, `${name}.location`);
    const handleTypes = (0, validate_1.checkFlags)(options.handleTypes ?? [], enums_1.MemoryHandleType, `${name}.handleTypes`);
    const flag = (value, field) => (value === undefined ? false : (0, validate_1.checkBoolean)(value, `${name}.${field}`));
    return [
        type,
        id,
        handleTypes,
        flag(options.compression, 'compression') ? enums_1.MemoryCompression.generic : enums_1.MemoryCompression.none,
        flag(options.gpuDirectRdma, 'gpuDirectRdma') ? 1 : 0,
        flag(options.hardwareDecompress, 'hardwareDecompress') ? usageHardwareDecompress : 0,
    ];
}
/** @internal Decodes what the native layer reports. */
function decodeProperties(raw) {
    const [, locationType, locationId, handleTypes, compression, rdma, usage] = raw;
    return Object.freeze({
        locationType: (0, validate_1.nameOfValue)(enums_1.MemoryLocationType, locationType) ?? 'invalid',
        locationId: locationType === enums_1.MemoryLocationType.host ? 0 : locationId,
        handleTypes: (0, validate_1.flagNames)(handleTypes, enums_1.MemoryHandleType),
        compression: compression !== enums_1.MemoryCompression.none,
        gpuDirectRdma: rdma !== 0,
        hardwareDecompress: (usage & usageHardwareDecompress) !== 0,
    });
}
/**
 * The granularity of allocations with these properties (cuMemGetAllocationGranularity):
 * 'minimum' (default), which sizes, offsets and addresses must be multiples of,
 * or 'recommended', the one for best performance. Typically 2 MiB on current GPUs.
 */
function allocationGranularity(options = {}, kind = 'minimum') {
    const which = (0, validate_1.checkEnum)(kind, enums_1.AllocationGranularity, 'kind');
    return native_1.native.allocationGranularity(encodeProperties(options), which === enums_1.AllocationGranularity.recommended);
}
/**
 * bytes rounded up to a multiple of granularity (sizes handed to the driver's
 * virtual memory calls must be). RangeError when the result is not a safe integer.
 */
function roundToGranularity(bytes, granularity) {
    const size = (0, validate_1.checkSize)(bytes, 'bytes');
    const unit = (0, validate_1.checkInteger)(granularity, 'granularity', 1);
    const rest = size % unit;
    if (rest === 0)
        return size;
    const rounded = size + (unit - rest);
    if (rounded > Number.MAX_SAFE_INTEGER)
        throw new RangeError(`bytes (${size}) rounded up to a multiple of ${unit} is too large`);
    return rounded;
}
/** @internal The minimum granularity of plain allocations on a device. */
function deviceGranularity(device, kind = 'minimum') {
    return allocationGranularity({ location: device }, kind);
}
//# sourceMappingURL=granularity.js.map