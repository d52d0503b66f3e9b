// The base of every handle class. dispose() is idempotent; `using` works through
// [Symbol.dispose]; a handle that is garbage-collected undisposed is released by
// its native object's finalizer, which Node-API runs as a task of its own (never
// in the middle of a call), through the same path as dispose(). Use after
// dispose throws DisposedError from the native layer, before the driver is reached.
import type { NativeHandle } from './native';

/**
 * The base of every handle class (streams, events, buffers, graphs, ...).
 *
 * `dispose()` releases the handle and is idempotent; `using handle = ...` calls
 * it at the end of the block. A handle that is garbage-collected undisposed is
 * released too, but only once nothing on the GPU can still use the resource.
 * Using a disposed handle throws {@link DisposedError}.
 */
export abstract class Disposable<H extends NativeHandle = NativeHandle> implements globalThis.Disposable {
  /** @internal The native handle; for lib/ only. */
  readonly native: H;

  // True once dispose() has run on this object: known without a call into the
  // native layer, which stays the authority (see disposed: a handle may also be
  // released from the native side).
  #released = false;

  // The native handle's slot number (native/slots.h), read from it once.
  #slot: number | undefined;

  protected constructor(handle: H) {
    this.native = handle;
  }

  /** @internal The number hot calls name the handle by (native/slots.h). */
  get slot(): number {
    return (this.#slot ??= this.native.slot);
  }

  /** True once dispose() has run on this object (known without a native call, for checks of its own). */
  protected get released(): boolean {
    return this.#released;
  }

  /** True once dispose() has run. */
  get disposed(): boolean {
    return !this.native.alive;
  }

  /**
   * Releases the handle. Idempotent. What the driver still needs (work queued on
   * the GPU, a graph that uses the resource) keeps the underlying resource alive
   * until it is done; this object is unusable from now on.
   */
  dispose(): void {
    if (this.#released) return;
    this.#released = true;
    this.native.dispose();
  }

  /** The same as dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
