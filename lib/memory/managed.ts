// Managed memory in batches: prefetching and discarding many ranges in one call.
import { MemorySlot, native } from '../native';
import { Stream, streamSlot } from '../stream';
import { checkArray, checkFlag, checkObject, checkSize, noOptions } from '../validate';
import { MemoryHandle, memorySlot } from './bytes';
import { Location, locationOf } from './location';

/** A range of managed memory (default: all of it). */
export interface ManagedRange {
  /** The managed memory. */
  buffer: MemoryHandle;
  /** Byte offset of the range (default 0). */
  offset?: number | bigint;
  /** Bytes in the range (default: the rest of the buffer). */
  bytes?: number | bigint;
}

function ranges(list: ManagedRange[]): Array<[MemorySlot, number, number]> {
  return checkArray<ManagedRange>(list, 'ranges').map((r, i) => {
    checkObject(r, `ranges[${i}]`);
    const offset = checkSize(r.offset ?? 0, `ranges[${i}].offset`);
    const size = r.buffer?.size;
    const bytes = r.bytes === undefined ? Math.max(0, size - offset) : checkSize(r.bytes, `ranges[${i}].bytes`);
    return [memorySlot(r.buffer, `ranges[${i}].buffer`), offset, bytes];
  });
}

/**
 * Migrates many managed ranges toward location in one call
 * (cuMemPrefetchBatchAsync; cuMemDiscardAndPrefetchBatchAsync with discardFirst,
 * which drops the old contents instead of moving them).
 */
export function prefetchBatch(list: ManagedRange[], location: Location, stream: Stream, options: { discardFirst?: boolean } = noOptions): void {
  checkObject(options, 'options');
  const { type, id } = locationOf(location);
  native.prefetchBatch(ranges(list), type, id, 0, streamSlot(stream), checkFlag(options.discardFirst, 'options.discardFirst'));
}

/** Marks many managed ranges' contents as no longer needed (cuMemDiscardBatchAsync). */
export function discardBatch(list: ManagedRange[], stream: Stream): void {
  native.discardBatch(ranges(list), 0, streamSlot(stream));
}
