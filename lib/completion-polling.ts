// How the event loop waits for awaited GPU work. A wait thread finds the
// completion of `await stream.synchronize()` or `await event.synchronize()`;
// handing it to a sleeping JavaScript thread costs a wake-up. While such waits
// are pending, the loop polls for their completions instead, between its other
// work, for a bounded time: the polling window, restarted whenever a polled
// wait begins or completes. Past it the loop sleeps and a completion wakes it.
import { native } from './native';
import { checkInteger } from './validate';

/**
 * Sets how long, in microseconds, this thread's event loop keeps polling for
 * the completion of awaited GPU work (`stream.synchronize()`,
 * `event.synchronize()`) before it sleeps until the completion wakes it. The
 * window restarts whenever such a wait begins or completes. Polling keeps one
 * CPU busy while it lasts, as the driver's own wait does under its default
 * scheduling, and shortens each awaited completion by the thread's wake-up;
 * timers and I/O still run between polls, each of which waits at most 20
 * microseconds for a completion. 0 turns polling off. Waits on an
 * event made with `blockingSync` are never polled for: the driver sleeps in
 * them. Each thread (the main one, each worker) has its own window, 1000
 * microseconds unless set.
 */
export function setCompletionPolling(microseconds: number): void {
  native.setCompletionPolling(checkInteger(microseconds, 'microseconds', 0, 0xffffffff));
}

/** The polling window of this thread's event loop, in microseconds (see {@link setCompletionPolling}). */
export function completionPolling(): number {
  return native.completionPolling();
}
