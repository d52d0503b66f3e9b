import type { NativeHandle } from './native';
export declare abstract class Disposable<H extends NativeHandle = NativeHandle> implements globalThis.Disposable {
    /** The native handle; for lib/ only. */
    readonly native: H;
    protected constructor(handle: H);
    /** True once dispose() has run. */
    get disposed(): boolean;
    /**
     * Releases the handle. Idempotent. What the driver still needs (work queued on
     * the GPU, a graph that uses the resource) keeps the underlying resource alive
     * until it is done; this object is unusable from now on.
     */
    dispose(): void;
    [Symbol.dispose](): void;
}
