"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Stream = void 0;
exports.streamNative = streamNative;
// Streams: ordered queues of GPU work. The library creates non-blocking streams
// unless asked; the legacy and per-thread default streams are reachable
// explicitly and never chosen silently; a disposed stream is never mistaken for
// the default stream (its use throws DisposedError).
const device_1 = require("./device");
const disposable_1 = require("./disposable");
const capture_1 = require("./graph/capture");
const enums_1 = require("./generated/enums");
const bytes_1 = require("./memory/bytes");
const native_1 = require("./native");
const launch_attributes_1 = require("./launch-attributes");
const validate_1 = require("./validate");
const special = new Map();
class Stream extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /** A new stream (cuStreamCreate, or cuStreamCreateWithPriority when a priority is given). */
    static create(options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const ordinal = (0, device_1.ordinalOf)(options.device, 'options.device');
        const nonBlocking = options.nonBlocking === undefined ? true : (0, validate_1.checkBoolean)(options.nonBlocking, 'options.nonBlocking');
        const flags = nonBlocking ? enums_1.StreamFlag.nonBlocking : enums_1.StreamFlag.default;
        const priority = options.priority === undefined ? undefined : (0, validate_1.checkInteger)(options.priority, 'options.priority');
        return new Stream(native_1.native.createStream(ordinal, flags, priority));
    }
    /**
     * The legacy default stream (CU_STREAM_LEGACY) of a device's primary context:
     * it synchronizes with every blocking stream. Never disposed.
     */
    static legacy(device) {
        return Stream.#special((0, device_1.ordinalOf)(device), false);
    }
    /** This thread's per-thread default stream (CU_STREAM_PER_THREAD). Never disposed. */
    static perThread(device) {
        return Stream.#special((0, device_1.ordinalOf)(device), true);
    }
    static #special(ordinal, perThread) {
        const key = `${ordinal}:${perThread}`;
        let stream = special.get(key);
        if (!stream)
            special.set(key, (stream = new SpecialStream(native_1.native.specialStream(ordinal, perThread))));
        return stream;
    }
    /** The CUstream value (1n and 2n for the legacy and per-thread streams). */
    get handle() {
        return this.native.handle;
    }
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    /** True when the stream was created non-blocking. */
    get nonBlocking() {
        return (this.native.flags() & enums_1.StreamFlag.nonBlocking) !== 0;
    }
    get priority() {
        return this.native.priority();
    }
    /** The driver's unique id of the stream. */
    get id() {
        return this.native.id();
    }
    /** The CUcontext of the stream, as the driver reports it (cuStreamGetCtx; cuStreamGetCtx_v2 with viaV2). */
    contextHandle(viaV2 = false) {
        return this.native.contextHandle((0, validate_1.checkBoolean)(viaV2, 'viaV2'));
    }
    /** The CUdevice of the stream as the driver reports it (cuStreamGetDevice). */
    queryDevice() {
        return this.native.device();
    }
    /** True when all work queued so far has completed. */
    query() {
        return this.native.query();
    }
    /**
     * Resolves when all work queued so far has completed, without blocking the
     * event loop: the wait runs on one of the library's own threads (not libuv's
     * pool), in relaxed capture mode. Rejects with the CudaError the driver reports.
     */
    synchronize() {
        return this.native.synchronizeAsync();
    }
    /** Blocks the JavaScript thread until all work queued so far has completed. */
    synchronizeSync() {
        this.native.synchronize();
    }
    /** Later work on this stream waits until event has happened (cuStreamWaitEvent). */
    waitEvent(event, options = {}) {
        const flags = options.external ? 1 /* CU_EVENT_WAIT_EXTERNAL */ : 0;
        this.native.waitEvent(eventNative(event), flags);
    }
    /** A stream attribute (cuStreamGetAttribute). */
    attribute(name) {
        return (0, launch_attributes_1.decodeLaunchAttribute)(name, this.native.getAttribute((0, launch_attributes_1.streamAttributeId)(name)));
    }
    /** Sets a stream attribute (cuStreamSetAttribute). */
    setAttribute(name, value) {
        this.native.setAttribute((0, launch_attributes_1.streamAttributeId)(name), (0, launch_attributes_1.encodeLaunchAttribute)(name, value));
    }
    /** Copies every attribute of source onto this stream (cuStreamCopyAttributes). */
    copyAttributesFrom(source) {
        if (!(source instanceof Stream))
            throw new TypeError('source must be a Stream');
        this.native.copyAttributesFrom(source.native);
    }
    /**
     * Queues callback to run on the JavaScript thread once the work queued before
     * it has completed (cuLaunchHostFunc). The stream does not wait for the
     * JavaScript to run: CUDA's callback thread only hands the call over, so work
     * queued after it may start before callback runs. An exception thrown by
     * callback is an uncaught exception, as in a timer.
     */
    launchHostFunction(callback) {
        if (typeof callback !== 'function')
            throw new TypeError('callback must be a function');
        native_1.native.launchHostFunction(this.native, callback);
    }
    /**
     * The same through cuStreamAddCallback: callback receives the CudaError of
     * the failed work, or null.
     */
    addCallback(callback) {
        if (typeof callback !== 'function')
            throw new TypeError('callback must be a function');
        native_1.native.addStreamCallback(this.native, callback);
    }
    /** Attaches managed memory to this stream (cuStreamAttachMemAsync); mode 'single' limits access to it. */
    attachMemory(buffer, mode = 'single') {
        this.native.attachMemory((0, bytes_1.memoryNative)(buffer, 'buffer'), (0, validate_1.checkEnum)(mode, enums_1.MemoryAttach, 'mode'));
    }
    /** Work queued after this waits until the 32-bit word at target+offset satisfies condition against value. */
    waitValue32(target, value, options = {}) {
        this.native.waitValue((0, bytes_1.memoryNative)(target, 'target'), (0, validate_1.checkSize)(options.offset ?? 0, 'offset'), (0, validate_1.checkInteger)(value, 'value', 0, 2 ** 32 - 1), waitFlags(options), false);
    }
    waitValue64(target, value, options = {}) {
        this.native.waitValue((0, bytes_1.memoryNative)(target, 'target'), (0, validate_1.checkSize)(options.offset ?? 0, 'offset'), checkU64(value), waitFlags(options), true);
    }
    /** Writes value to the 32-bit word at target+offset when the stream gets there. */
    writeValue32(target, value, options = {}) {
        this.native.writeValue((0, bytes_1.memoryNative)(target, 'target'), (0, validate_1.checkSize)(options.offset ?? 0, 'offset'), (0, validate_1.checkInteger)(value, 'value', 0, 2 ** 32 - 1), writeFlags(options), false);
    }
    writeValue64(target, value, options = {}) {
        this.native.writeValue((0, bytes_1.memoryNative)(target, 'target'), (0, validate_1.checkSize)(options.offset ?? 0, 'offset'), checkU64(value), writeFlags(options), true);
    }
    /** Several memory operations in one cuStreamBatchMemOp. */
    batchMemoryOps(ops) {
        const encoded = (0, validate_1.checkArray)(ops, 'ops').map((o, i) => {
            (0, validate_1.checkObject)(o, `ops[${i}]`);
            switch (o.op) {
                case 'waitValue32':
                case 'waitValue64':
                case 'writeValue32':
                case 'writeValue64': {
                    const wide = o.op.endsWith('64');
                    const value = wide ? checkU64(o.value) : (0, validate_1.checkInteger)(o.value, `ops[${i}].value`, 0, 2 ** 32 - 1);
                    const flags = o.op.startsWith('wait') ? waitFlags(o) : writeFlags(o);
                    return [enums_1.StreamMemoryOperation[o.op], (0, bytes_1.memoryNative)(o.target, `ops[${i}].target`), (0, validate_1.checkSize)(o.offset ?? 0, `ops[${i}].offset`), value, flags];
                }
                case 'barrier':
                    return [enums_1.StreamMemoryOperation.barrier, undefined, 0, 0, (0, validate_1.checkEnum)(o.scope ?? 'sys', enums_1.StreamMemoryBarrier, `ops[${i}].scope`)];
                case 'flushRemoteWrites':
                    return [enums_1.StreamMemoryOperation.flushRemoteWrites, undefined, 0, 0, 0];
                default:
                    throw new RangeError(`ops[${i}].op must be waitValue32, waitValue64, writeValue32, writeValue64, barrier or flushRemoteWrites`);
            }
        });
        this.native.batchMemoryOps(encoded, 0);
    }
    /**
     * Begins capturing this stream's work into a graph. Use with `using`, or call
     * end(): `using capture = stream.beginCapture(); ...; const graph = capture.end();`
     */
    beginCapture(options = {}) {
        return new capture_1.StreamCapture(this, options);
    }
    /**
     * Captures what fn queues on this stream into a graph. fn must be
     * synchronous; the capture ends even if fn throws.
     */
    capture(fn, options = {}) {
        return (0, capture_1.captureGraph)(this, fn, options);
    }
    /** 'none', 'active' or 'invalidated' (cuStreamIsCapturing). */
    get captureStatus() {
        return (0, validate_1.nameOfValue)(enums_1.CaptureStatus, native_1.native.captureStatus(this.native)) ?? 'none';
    }
    /** How many resources this stream keeps alive for work still in flight. */
    get pendingResources() {
        return this.native.pendingResources();
    }
    toString() {
        return this.disposed ? 'Stream(disposed)' : `Stream(device ${this.native.ordinal}, 0x${this.handle.toString(16)})`;
    }
}
exports.Stream = Stream;
/** The legacy and per-thread streams: shared and owned by nobody, so never disposed. */
class SpecialStream extends Stream {
    dispose() {
        // Deliberately nothing: these streams belong to the driver.
    }
}
/** The native handle of a Stream argument, or a TypeError naming the parameter. */
function streamNative(stream, name = 'stream') {
    if (!(stream instanceof Stream))
        throw new TypeError(`${name} must be a Stream`);
    return stream.native;
}
function eventNative(event) {
    const handle = event?.native;
    if (!handle || typeof handle !== 'object')
        throw new TypeError('event must be an Event');
    return handle;
}
const conditions = { geq: enums_1.StreamWaitValueFlag.geq, eq: enums_1.StreamWaitValueFlag.eq, and: enums_1.StreamWaitValueFlag.and, nor: enums_1.StreamWaitValueFlag.nor };
function waitFlags(options) {
    return (0, validate_1.checkEnum)(options.condition ?? 'geq', conditions, 'condition') | (options.flush ? enums_1.StreamWaitValueFlag.flush : 0);
}
function writeFlags(options) {
    return options.noMemoryBarrier ? enums_1.StreamWriteValueFlag.noMemoryBarrier : enums_1.StreamWriteValueFlag.default;
}
function checkU64(value) {
    if (typeof value !== 'bigint' || value < 0n || value >= 1n << 64n)
        throw new TypeError('value must be a bigint in [0, 2^64)');
    return value;
}
//# sourceMappingURL=stream.js.map