"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.prefetchBatch = prefetchBatch;
exports.discardBatch = discardBatch;
// Managed memory in batches: prefetching and discarding many ranges in one call.
const native_1 = require("../native");
const stream_1 = require("../stream");
const validate_1 = require("../validate");
const bytes_1 = require("./bytes");
const location_1 = require("./location");
function ranges(list) {
    return (0, validate_1.checkArray)(list, 'ranges').map((r, i) => {
        (0, validate_1.checkObject)(r, `ranges[${i}]`);
        const offset = (0, validate_1.checkSize)(r.offset ?? 0, `ranges[${i}].offset`);
        const size = r.buffer?.size;
        const bytes = r.bytes === undefined ? Math.max(0, size - offset) : (0, validate_1.checkSize)(r.bytes, `ranges[${i}].bytes`);
        return [(0, bytes_1.memoryNative)(r.buffer, `ranges[${i}].buffer`), offset, bytes];
    });
}
/**
 * Migrates many managed ranges toward location in one call
 * (cuMemPrefetchBatchAsync; cuMemDiscardAndPrefetchBatchAsync with discardFirst,
 * which drops the old contents instead of moving them).
 */
function prefetchBatch(list, location, stream, options = {}) {
    const { type, id } = (0, location_1.locationOf)(location);
    native_1.native.prefetchBatch(ranges(list), type, id, 0, (0, stream_1.streamNative)(stream), options.discardFirst === true);
}
/** Marks many managed ranges' contents as no longer needed (cuMemDiscardBatchAsync). */
function discardBatch(list, stream) {
    native_1.native.discardBatch(ranges(list), 0, (0, stream_1.streamNative)(stream));
}
//# sourceMappingURL=managed.js.map