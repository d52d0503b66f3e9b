// What Stream.submit() asks of the items of a batch. The classes that can be
// submitted (PreparedLaunch, GraphExec) import the stream module, so the
// stream asks them through these keys instead of checking with instanceof.
import type { Stream } from './stream';

/** @internal The item's slot for a batch on stream, checked (index: its place, for errors). */
export const submitSlot: unique symbol = Symbol('submitSlot');
/** @internal Called on each item that has one, once the whole batch is queued on stream. */
export const submitted: unique symbol = Symbol('submitted');

/** @internal An item of a batch, as Stream.submit() sees it. */
export interface SubmitItem {
  [submitSlot](stream: Stream, index: number): number;
  readonly [submitted]?: ((stream: Stream) => void) | undefined;
}
