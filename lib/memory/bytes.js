"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isMemoryHandle = isMemoryHandle;
exports.bytesNative = bytesNative;
exports.memoryNative = memoryNative;
exports.sizeOf = sizeOf;
/** True for library memory (anything with a native memory handle and a size). */
function isMemoryHandle(value) {
    return typeof value === 'object' && value !== null && 'native' in value && typeof value.native === 'object';
}
/** The native operand of a Bytes argument, or a TypeError naming the parameter. */
function bytesNative(value, name) {
    if (isMemoryHandle(value))
        return value.native;
    if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
        if (value instanceof ArrayBuffer && value.resizable) {
            throw new TypeError(`${name} must not be a resizable ArrayBuffer`);
        }
        return value;
    }
    throw new TypeError(`${name} must be a memory handle (DeviceBuffer, HostBuffer, Mapping, ...), ArrayBuffer, typed array, DataView or Buffer`);
}
/** The native handle of library memory, or a TypeError naming the parameter. */
function memoryNative(value, name) {
    if (!isMemoryHandle(value))
        throw new TypeError(`${name} must be a memory handle (DeviceBuffer, HostBuffer, Mapping, GrowableBuffer or SharedMemory)`);
    return value.native;
}
/** Size in bytes of a Bytes argument. */
function sizeOf(value) {
    return isMemoryHandle(value) ? value.size : value.byteLength;
}
//# sourceMappingURL=bytes.js.map