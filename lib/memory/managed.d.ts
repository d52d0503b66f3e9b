import { Stream } from '../stream';
import { MemoryHandle } from './bytes';
import { Location } from './location';
/** A range of managed memory (default: all of it). */
export interface ManagedRange {
    buffer: MemoryHandle;
    offset?: number;
    bytes?: number;
}
/**
 * Migrates many managed ranges toward location in one call
 * (cuMemPrefetchBatchAsync; cuMemDiscardAndPrefetchBatchAsync with discardFirst,
 * which drops the old contents instead of moving them).
 */
export declare function prefetchBatch(list: ManagedRange[], location: Location, stream: Stream, options?: {
    discardFirst?: boolean;
}): void;
/** Marks many managed ranges' contents as no longer needed (cuMemDiscardBatchAsync). */
export declare function discardBatch(list: ManagedRange[], stream: Stream): void;
