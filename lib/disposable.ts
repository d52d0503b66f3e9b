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
  // These three are assigned in the constructor, not declared as class fields:
  // a field is defined on the object (DefineOwnProperty), and that site in this
  // base constructor sees every handle class's shape, so V8 went to its runtime
  // for each definition: ~250 ns per handle made, more than the native call.
  // A plain assignment is served from V8's store cache.

  /** @internal The native handle; for lib/ only. */
  declare readonly native: H;

  // True once dispose() has run on this object: known without a call into the
  // native layer, which stays the authority (see disposed: a handle may also be
  // released from the native side).
  private declare releasedFlag: boolean;

  // The native handle's slot number (native/slots.h), read from it once; -1 until then.
  private declare slotNumber: number;

  protected constructor(handle: H) {
    this.native = handle;
    this.releasedFlag = false;
    this.slotNumber = -1;
  }

  /** @internal The number hot calls name the handle by (native/slots.h). */
  get slot(): number {
    if (this.slotNumber < 0) this.slotNumber = this.native.slot;
    return this.slotNumber;
  }

  /** True once dispose() has run on this object (known without a native call, for checks of its own). */
  protected get released(): boolean {
    return this.releasedFlag;
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
    if (this.releasedFlag) return;
    this.releasedFlag = true;
    this.native.dispose();
  }

  /** The same as dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
