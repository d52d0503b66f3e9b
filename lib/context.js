"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Context = void 0;
// Contexts. Most programs never touch one: each device's primary context is
// retained on first use and made current for every call that needs it, on
// whichever thread (or worker_thread) makes the call.
const disposable_1 = require("./disposable");
const enums_1 = require("./generated/enums");
const native_1 = require("./native");
const validate_1 = require("./validate");
class Context extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /** The CUcontext value, for logs and comparisons. */
    get handle() {
        return this.native.handle;
    }
    /** The ordinal of the device this context belongs to. */
    get deviceOrdinal() {
        return this.native.ordinal;
    }
    /** True for a device's primary context, false for one from Device.createContext(). */
    get isPrimary() {
        return this.native.isPrimary;
    }
    /** The CUdevice the driver reports for this context (cuCtxGetDevice_v2). */
    queryDevice() {
        return this.native.device();
    }
    /** The driver's unique id of this context. */
    get id() {
        return this.native.id();
    }
    /** The context's API version (cuCtxGetApiVersion). */
    get apiVersion() {
        return this.native.apiVersion();
    }
    /** Makes this context current on the calling thread (the library does this for you per call). */
    makeCurrent() {
        this.native.makeCurrent();
    }
    /** Pushes this context on the calling thread's context stack; undo with Context.popCurrent(). */
    pushCurrent() {
        this.native.pushCurrent();
    }
    /** Blocks the calling thread until all work in this context is done. */
    synchronize() {
        this.native.synchronize();
    }
    /** The context's flags, as names. */
    get flags() {
        return (0, validate_1.flagNames)(this.native.flags(), enums_1.ContextFlag);
    }
    /** Sets the flags of this context (cuCtxSetFlags). */
    setFlags(flags) {
        this.native.setFlags((0, validate_1.checkFlags)(flags, enums_1.ContextFlag, 'flags'));
    }
    /** A resource limit of this context (stack size, printf FIFO, heap, ...), in the driver's units. */
    limit(name) {
        return this.native.getLimit((0, validate_1.checkEnum)(name, enums_1.ContextLimit, 'name'));
    }
    setLimit(name, value) {
        this.native.setLimit((0, validate_1.checkEnum)(name, enums_1.ContextLimit, 'name'), (0, validate_1.checkSize)(value, 'value'));
    }
    /** Stream priorities valid here: `greatest` is the highest priority (numerically lowest). */
    get streamPriorityRange() {
        return this.native.streamPriorityRange();
    }
    /** Resets all persisting lines in the L2 cache to normal. */
    resetPersistingL2Cache() {
        this.native.resetPersistingL2Cache();
    }
    /** Lets this context access memory of peer's context (see Device.canAccessPeer). */
    enablePeerAccess(peer) {
        this.native.enablePeerAccess((0, validate_1.checkInstance)(peer, Context, 'peer').native);
    }
    disablePeerAccess(peer) {
        this.native.disablePeerAccess((0, validate_1.checkInstance)(peer, Context, 'peer').native);
    }
    /** The calling thread's current CUcontext value (0n when none). */
    static currentHandle() {
        return native_1.native.currentContext();
    }
    /** Pops the calling thread's current context; returns its CUcontext value. */
    static popCurrent() {
        return native_1.native.popCurrentContext();
    }
    toString() {
        if (this.disposed)
            return 'Context(disposed)';
        return `Context(${this.isPrimary ? 'primary, ' : ''}device ${this.deviceOrdinal}, 0x${this.handle.toString(16)})`;
    }
}
exports.Context = Context;
//# sourceMappingURL=context.js.map