// Ways out of a wait: an AbortSignal and a timeout. Giving up a wait settles
// its promise and lets go of what the JavaScript side held for it (its hold on
// the event loop included); what was waited for goes on: GPU work cannot be
// stopped once queued, and a compile runs to its end on its thread.
import { AbortError, TimeoutError } from './errors';
import { native, NativeWait } from './native';
import { checkObject, checkOptions, checkTimeout } from './validate';

/** Options of a wait that can be given up (`stream.synchronize()`, `event.synchronize()`, `exec.run()`, `compileAsync()`). */
export interface WaitOptions {
  /**
   * Gives up the wait when aborted: the promise rejects with an
   * {@link AbortError} whose cause is the signal's reason. An already aborted
   * signal rejects at once.
   */
  readonly signal?: AbortSignal;
  /**
   * Gives up the wait after this many milliseconds: the promise rejects with a
   * {@link TimeoutError}. Infinity (the default) waits until done.
   */
  readonly timeoutMs?: number;
}

/** @internal WaitOptions, checked: timeoutMs -1 for none. */
const waitKeys: readonly string[] = ['signal', 'timeoutMs'];

export interface CheckedWait {
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

/** @internal options.signal and options.timeoutMs, checked (name: how the options object is called). */
export function checkWaitOptions(options: WaitOptions, name = 'options', call?: string): CheckedWait {
  checkObject(options, name);
  // call: the options object is this call's alone (compileAsync's holds its compile options too).
  if (call !== undefined) checkOptions(options, name, call, waitKeys);
  const signal = options.signal;
  // As Node's own APIs check a signal: by shape, so that a signal of another realm passes.
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal) ||
      typeof (signal as AbortSignal).addEventListener !== 'function')) {
    throw new TypeError(`${name}.signal must be an AbortSignal`);
  }
  return { signal, timeoutMs: checkTimeout(options.timeoutMs, `${name}.timeoutMs`) };
}

/**
 * @internal A native wait that abandonWait can settle early: start() begins it
 * (not called when the signal is aborted already). The promise is the native
 * one; the listener and the timer go when it settles.
 */
export function abandonableWait(wait: CheckedWait, operation: string, start: () => NativeWait): Promise<void> {
  const { signal, timeoutMs } = wait;
  if (signal?.aborted) return Promise.reject(new AbortError(operation, signal.reason));
  const { promise, id } = start();
  const onAbort = () => native.abandonWait(id, new AbortError(operation, signal!.reason));
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = timeoutMs < 0 ? undefined : setTimeout(() => native.abandonWait(id, new TimeoutError(operation, timeoutMs)), timeoutMs);
  const settled = () => {
    signal?.removeEventListener('abort', onAbort);
    clearTimeout(timer);
  };
  promise.then(settled, settled);
  return promise;
}

/**
 * @internal For a wait nothing native can give up (a compile): the first of its
 * end, the abort and the timeout settles the promise; a result that comes
 * later is dropped. start() is not called when the signal is aborted already.
 */
export function raceWait<T>(wait: CheckedWait, operation: string, start: () => Promise<T>): Promise<T> {
  const { signal, timeoutMs } = wait;
  if (signal === undefined && timeoutMs < 0) return start();
  if (signal?.aborted) return Promise.reject(new AbortError(operation, signal.reason));
  const started = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError(operation, signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = timeoutMs < 0 ? undefined : setTimeout(() => reject(new TimeoutError(operation, timeoutMs)), timeoutMs);
    const settled = () => {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    };
    started.then(
      (value) => {
        settled();
        resolve(value);
      },
      (error: unknown) => {
        settled();
        reject(error);
      },
    );
  });
}
