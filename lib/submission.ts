// What Stream.submit() asks of the items of a batch. The classes that can be
// submitted (PreparedLaunch, GraphExec) import the stream module, so the
// stream asks them through these keys instead of checking with instanceof.
// An ordinary item is one number read, without a call, in a loop of its own
// (collectSlots): the engine runs a batch's loop unoptimized for hundreds of
// batches when it sits in a larger function, and a call per item cost
// several times what the read does until it was inlined.
import type { Stream } from './stream';

/** @internal The slot of an item queued with nothing more to do; -1 for any other. */
export const submitSlot: unique symbol = Symbol('submitSlot');
/**
 * @internal For an item whose submitSlot is -1: its slot, for an item told
 * once the batch is queued (submitted); otherwise it throws why the item
 * cannot be queued (disposed, an argument unset).
 */
export const submitOther: unique symbol = Symbol('submitOther');
/** @internal Called, once the whole batch is queued on stream, on each item whose slot submitOther gave. */
export const submitted: unique symbol = Symbol('submitted');

/** @internal An item of a batch, as Stream.submit() sees it. */
export interface SubmitItem {
  readonly [submitSlot]: number;
  [submitOther](): number;
  [submitted]?(stream: Stream): void;
}

/** @internal Sets an item's submitSlot, which is read-only to everything but the item itself. */
export function setSubmitSlot(item: SubmitItem, slot: number): void {
  (item as { [submitSlot]: number })[submitSlot] = slot;
}

/**
 * @internal Writes the slots of items[from...] into slots up to the first
 * item that is not ordinary: its index, or count when there is none.
 */
export function collectSlots(items: readonly unknown[], from: number, count: number, slots: Float64Array): number {
  for (let i = from; i < count; i++) {
    const slot = (items[i] as SubmitItem | null | undefined)?.[submitSlot];
    if (typeof slot !== 'number' || slot < 0) return i;
    slots[i] = slot;
  }
  return count;
}
