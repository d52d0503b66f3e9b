// What the workers program (test/workers/main.ts) may leave unreleased, for the
// unit tier (stand-in driver) and the GPU tier alike.

/**
 * What the abandoned worker made, one of each, may stay: its stream and what its
 * queued work holds. An environment torn down with a wait or a stream release
 * pending drops that delivery and leaks what it holds, by design
 * (native/js_thread.h), rather than release it off its thread.
 */
export const abandonedMayLeave: readonly string[] = ['stream', 'library', 'device memory', 'stream-ordered memory'];

/** The entries of a report's `unreleased` that the abandoned worker does not explain ({} when all is as it should be). */
export function unexpectedUnreleased(unreleased: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(unreleased).filter(([kind, n]) => !(abandonedMayLeave.includes(kind) && n === 1)));
}
