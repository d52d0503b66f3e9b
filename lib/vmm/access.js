"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.encodeAccess = encodeAccess;
exports.accessName = accessName;
exports.memoryAccess = memoryAccess;
// Who may read or write mapped virtual memory: per device (or host NUMA node)
// read-write, read-only or no access (cuMemSetAccess / cuMemGetAccess).
const enums_1 = require("../generated/enums");
const bytes_1 = require("../memory/bytes");
const location_1 = require("../memory/location");
const native_1 = require("../native");
const validate_1 = require("../validate");
/** @internal Access entries in the native encoding. */
function encodeAccess(entries, name) {
    return (0, validate_1.checkArray)(entries, name).map((entry, i) => {
        (0, validate_1.checkObject)(entry, `${name}[${i}]`);
        const { type, id } = (0, location_1.locationOf)(entry.location, `${name}[${i}].location`);
        return [type, id, (0, validate_1.checkEnum)(entry.access, enums_1.MemoryAccess, `${name}[${i}].access`)];
    });
}
/** @internal An access value as its name. */
function accessName(flags) {
    return (0, validate_1.nameOfValue)(enums_1.MemoryAccess, flags) ?? 'none';
}
/**
 * The access location has to the mapped memory at pointer (cuMemGetAccess):
 * library memory (plus offset) or any bigint address of a mapped range.
 */
function memoryAccess(pointer, location, offset) {
    const p = typeof pointer === 'bigint' ? pointer : (0, bytes_1.memoryNative)(pointer, 'pointer');
    const { type, id } = (0, location_1.locationOf)(location);
    return accessName(native_1.native.memoryAccess(p, offset === undefined ? undefined : (0, validate_1.checkSize)(offset, 'offset'), type, id));
}
//# sourceMappingURL=access.js.map