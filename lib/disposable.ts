// The base of every handle class. dispose() is idempotent; `using` works through
// [Symbol.dispose]; a handle that is garbage-collected undisposed is released by
// a FinalizationRegistry callback (a normal task, never mid-call), and the
// native object's own finalizer stays behind it as the last net. Use after
// dispose throws DisposedError from the native layer, before the driver is reached.
import type { NativeHandle } from './native';

const registry = new FinalizationRegistry<NativeHandle>((handle) => handle.dispose());

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

  // finalize: register the registry's callback. A class whose objects are kept
  // in a map keyed by their native handle passes false: the registry holds its
  // handle, which would keep the map's entry, and so the object, alive for good.
  // The native object's own finalizer then releases the handle.
  protected constructor(handle: H, finalize = true) {
    this.native = handle;
    if (finalize) registry.register(this, handle, this);
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
    registry.unregister(this);
    this.native.dispose();
  }

  /** The same as dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
