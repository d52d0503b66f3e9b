"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.decompressBatch = decompressBatch;
// Hardware decompression of many buffers at once (cuMemBatchDecompressAsync).
// It needs a decompression engine (NVIDIA Blackwell and later); other devices
// answer CudaNotSupportedError.
const native_1 = require("../native");
const stream_1 = require("../stream");
const validate_1 = require("../validate");
const bytes_1 = require("./bytes");
const algorithms = { deflate: 1, snappy: 2, lz4: 4 };
/** Decompresses each entry on stream. Memory must be device memory the decompression engine can reach. */
function decompressBatch(entries, stream) {
    const encoded = (0, validate_1.checkArray)(entries, 'entries').map((e, i) => {
        (0, validate_1.checkObject)(e, `entries[${i}]`);
        return [(0, bytes_1.memoryNative)(e.src, `entries[${i}].src`), (0, validate_1.checkSize)(e.srcOffset ?? 0, `entries[${i}].srcOffset`), (0, validate_1.checkSize)(e.srcBytes, `entries[${i}].srcBytes`),
            (0, bytes_1.memoryNative)(e.dst, `entries[${i}].dst`), (0, validate_1.checkSize)(e.dstOffset ?? 0, `entries[${i}].dstOffset`), (0, validate_1.checkSize)(e.dstBytes, `entries[${i}].dstBytes`),
            (0, bytes_1.memoryNative)(e.actualBytes, `entries[${i}].actualBytes`), (0, validate_1.checkSize)(e.actualBytesOffset ?? 0, `entries[${i}].actualBytesOffset`),
            (0, validate_1.checkEnum)(e.algorithm, algorithms, `entries[${i}].algorithm`)];
    });
    native_1.native.decompressBatch(encoded, (0, stream_1.streamNative)(stream));
}
//# sourceMappingURL=decompress.js.map