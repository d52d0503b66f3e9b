"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Disposable = void 0;
const registry = new FinalizationRegistry((handle) => handle.dispose());
class Disposable {
    /** The native handle; for lib/ only. */
    native;
    constructor(handle) {
        this.native = handle;
        registry.register(this, handle, this);
    }
    /** True once dispose() has run. */
    get disposed() {
        return !this.native.alive;
    }
    /**
     * Releases the handle. Idempotent. What the driver still needs (work queued on
     * the GPU, a graph that uses the resource) keeps the underlying resource alive
     * until it is done; this object is unusable from now on.
     */
    dispose() {
        if (!this.native.alive)
            return;
        registry.unregister(this);
        this.native.dispose();
    }
    [Symbol.dispose]() {
        this.dispose();
    }
}
exports.Disposable = Disposable;
//# sourceMappingURL=disposable.js.map