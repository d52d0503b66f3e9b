"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.copy = copy;
exports.copy2D = copy2D;
exports.copy3D = copy3D;
exports.copyBatch = copyBatch;
exports.copy3DBatch = copy3DBatch;
exports.fill = fill;
exports.fill2D = fill2D;
// Copies and fills between any library memory and JavaScript bytes, checked
// against every operand's size before the driver sees a pointer (the native
// layer checks again). Without a stream they are synchronous; with one, they
// are queued on it and the stream keeps the library memory they touch alive.
const native_1 = require("../native");
const stream_1 = require("../stream");
const validate_1 = require("../validate");
const bytes_1 = require("./bytes");
function optionalStream(stream) {
    return stream === undefined ? undefined : (0, stream_1.streamNative)(stream, 'options.stream');
}
function checkFits(name, offset, bytes, size) {
    if (offset > size || bytes > size - offset) {
        throw new RangeError(`${name}: range [${offset}, ${offset}+${bytes}) exceeds its ${size} bytes`);
    }
}
/**
 * Copies bytes from src to dst: host↔device, device↔device (peer copies across
 * devices), managed and host memory alike. An out-of-range copy is a RangeError.
 */
function copy(dst, src, options = {}) {
    (0, validate_1.checkObject)(options, 'options');
    const d = (0, bytes_1.bytesNative)(dst, 'dst');
    const s = (0, bytes_1.bytesNative)(src, 'src');
    const dstOffset = (0, validate_1.checkSize)(options.dstOffset ?? 0, 'options.dstOffset');
    const srcOffset = (0, validate_1.checkSize)(options.srcOffset ?? 0, 'options.srcOffset');
    const srcSize = (0, bytes_1.sizeOf)(src);
    const bytes = options.bytes === undefined ? Math.max(0, srcSize - srcOffset) : (0, validate_1.checkSize)(options.bytes, 'options.bytes');
    checkFits('src', srcOffset, bytes, srcSize);
    checkFits('dst', dstOffset, bytes, (0, bytes_1.sizeOf)(dst));
    native_1.native.memcpy(d, dstOffset, s, srcOffset, bytes, optionalStream(options.stream));
}
function operand(o, name) {
    (0, validate_1.checkObject)(o, name);
    return {
        memory: (0, bytes_1.bytesNative)(o.memory, `${name}.memory`),
        offset: (0, validate_1.checkSize)(o.offset ?? 0, `${name}.offset`),
        pitch: (0, validate_1.checkSize)(o.pitch, `${name}.pitch`),
    };
}
/** Copies height rows of width bytes between pitched regions. */
function copy2D(dst, src, width, height, options = {}) {
    const d = operand(dst, 'dst');
    const s = operand(src, 'src');
    (0, validate_1.checkObject)(options, 'options');
    const unaligned = options.unaligned === undefined ? false : (0, validate_1.checkBoolean)(options.unaligned, 'options.unaligned');
    if (unaligned && options.stream)
        throw new RangeError('options.unaligned applies to synchronous copies only');
    native_1.native.memcpy2D({
        dst: d.memory, dstOffset: d.offset, dstPitch: d.pitch,
        src: s.memory, srcOffset: s.offset, srcPitch: s.pitch,
        width: (0, validate_1.checkSize)(width, 'width'), height: (0, validate_1.checkSize)(height, 'height'),
    }, optionalStream(options.stream), unaligned);
}
function params3D(dst, src, extent) {
    const d = operand(dst, 'dst');
    const s = operand(src, 'src');
    (0, validate_1.checkObject)(extent, 'extent');
    const width = (0, validate_1.checkSize)(extent.width, 'extent.width');
    const height = (0, validate_1.checkSize)(extent.height, 'extent.height');
    const depth = (0, validate_1.checkSize)(extent.depth, 'extent.depth');
    return {
        dst: d.memory, dstOffset: d.offset, dstPitch: d.pitch, dstHeight: (0, validate_1.checkSize)(dst.rowsPerSlice ?? height, 'dst.rowsPerSlice'),
        src: s.memory, srcOffset: s.offset, srcPitch: s.pitch, srcHeight: (0, validate_1.checkSize)(src.rowsPerSlice ?? height, 'src.rowsPerSlice'),
        width, height, depth,
    };
}
/** Copies a 3D region (cuMemcpy3D; cuMemcpy3DPeer between devices). */
function copy3D(dst, src, extent, options = {}) {
    native_1.native.memcpy3D(params3D(dst, src, extent), optionalStream(options.stream));
}
/** Many 1D copies between library memory in one cuMemcpyBatchAsync on stream. */
function copyBatch(copies, stream) {
    const encoded = (0, validate_1.checkArray)(copies, 'copies').map((c, i) => {
        (0, validate_1.checkObject)(c, `copies[${i}]`);
        return [(0, bytes_1.memoryNative)(c.dst, `copies[${i}].dst`), (0, validate_1.checkSize)(c.dstOffset ?? 0, `copies[${i}].dstOffset`),
            (0, bytes_1.memoryNative)(c.src, `copies[${i}].src`), (0, validate_1.checkSize)(c.srcOffset ?? 0, `copies[${i}].srcOffset`), (0, validate_1.checkSize)(c.bytes, `copies[${i}].bytes`)];
    });
    native_1.native.memcpyBatch(encoded, (0, stream_1.streamNative)(stream));
}
/** Many 3D copies between library memory in one cuMemcpy3DBatchAsync on stream. */
function copy3DBatch(copies, stream) {
    const encoded = (0, validate_1.checkArray)(copies, 'copies').map((c, i) => {
        (0, validate_1.checkObject)(c, `copies[${i}]`);
        return params3D(c.dst, c.src, c.extent);
    });
    native_1.native.memcpy3DBatch(encoded, (0, stream_1.streamNative)(stream));
}
/** Sets count elements of target to value (cuMemsetD8/D16/D32, Async with a stream). */
function fill(target, value, options = {}) {
    (0, validate_1.checkObject)(options, 'options');
    const element = checkElement(options.elementBytes ?? 1);
    const offset = (0, validate_1.checkSize)(options.offset ?? 0, 'options.offset');
    const size = target?.size;
    const count = options.count === undefined ? Math.floor(Math.max(0, size - offset) / element) : (0, validate_1.checkSize)(options.count, 'options.count');
    checkFits('target', offset, count * element, size);
    native_1.native.memset((0, bytes_1.memoryNative)(target, 'target'), offset, (0, validate_1.checkInteger)(value, 'value', 0, 2 ** (8 * element) - 1), count, element, optionalStream(options.stream));
}
/** Sets a pitched 2D region: height rows of width elements, pitch bytes apart (cuMemsetD2D*). */
function fill2D(target, value, region, options = {}) {
    (0, validate_1.checkObject)(region, 'region');
    const element = checkElement(options.elementBytes ?? 1);
    native_1.native.memset2D((0, bytes_1.memoryNative)(target, 'target'), (0, validate_1.checkSize)(region.offset ?? 0, 'region.offset'), (0, validate_1.checkSize)(region.pitch, 'region.pitch'), (0, validate_1.checkInteger)(value, 'value', 0, 2 ** (8 * element) - 1), (0, validate_1.checkSize)(region.width, 'region.width'), (0, validate_1.checkSize)(region.height, 'region.height'), element, optionalStream(options.stream));
}
function checkElement(value) {
    if (value !== 1 && value !== 2 && value !== 4)
        throw new RangeError('elementBytes must be 1, 2 or 4');
    return value;
}
//# sourceMappingURL=copy.js.map