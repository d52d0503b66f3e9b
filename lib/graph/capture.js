"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StreamCapture = void 0;
exports.captureGraph = captureGraph;
// Capturing stream work into a graph. A capture is a scope that always ends:
// `using capture = stream.beginCapture()` ends it when the block exits, and
// stream.capture(fn) ends it even when fn throws. A capture the driver
// invalidated becomes a typed error naming the call that broke it; its partial
// graph is destroyed exactly once and the stream is usable again.
const errors_1 = require("../errors");
const enums_1 = require("../generated/enums");
const native_1 = require("../native");
const validate_1 = require("../validate");
const edge_1 = require("./edge");
const graph_1 = require("./graph");
const node_1 = require("./node");
class StreamCapture {
    stream;
    #into;
    #failuresBefore;
    #ended = false;
    /** @internal Use stream.beginCapture(). */
    constructor(stream, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const mode = (0, validate_1.checkEnum)(options.mode ?? 'threadLocal', enums_1.CaptureMode, 'options.mode');
        this.#into = options.into === undefined ? undefined : (0, validate_1.checkInstance)(options.into, graph_1.Graph, 'options.into');
        this.stream = stream;
        this.#failuresBefore = (0, errors_1.lastCaptureFailure)().count;
        if (options.after !== undefined && !this.#into)
            throw new TypeError('options.after needs options.into');
        const after = (0, validate_1.checkArray)(options.after ?? [], 'options.after').map((n, i) => (0, validate_1.checkInstance)(n, node_1.GraphNode, `options.after[${i}]`).native);
        const edges = options.edges === undefined ? undefined : (0, validate_1.checkArray)(options.edges, 'options.edges').map((e, i) => (0, edge_1.encodeEdge)(e, `options.edges[${i}]`));
        native_1.native.beginCapture(stream.native, mode, this.#into?.native, after, edges);
    }
    /**
     * Sets (or, with add, extends) the nodes the next captured work depends on
     * (cuStreamUpdateCaptureDependencies). Needs a capture into an existing graph,
     * whose nodes these are.
     */
    setDependencies(nodes, options = {}) {
        if (!this.#into)
            throw new TypeError('setDependencies needs a capture into an existing graph (options.into)');
        const list = (0, validate_1.checkArray)(nodes, 'nodes').map((n, i) => (0, validate_1.checkInstance)(n, node_1.GraphNode, `nodes[${i}]`).native);
        const edges = options.edges === undefined ? undefined : (0, validate_1.checkArray)(options.edges, 'options.edges').map((e, i) => (0, edge_1.encodeEdge)(e, `options.edges[${i}]`));
        native_1.native.updateCaptureDependencies(this.stream.native, this.#into.native, list, edges, options.add ? 0 : 1);
    }
    /** True until end() (or disposal) ended the capture. */
    get active() {
        return !this.#ended;
    }
    /** The driver's view: 'active', 'invalidated' (an error broke it; end() will throw), or 'none'. */
    get status() {
        return this.stream.captureStatus;
    }
    /** The capture's id and how many nodes the next captured work will depend on. */
    info() {
        const i = native_1.native.captureInfo(this.stream.native);
        return { status: (0, validate_1.nameOfValue)(enums_1.CaptureStatus, i.status) ?? 'none', id: i.id, dependencies: i.dependencies };
    }
    /**
     * Ends the capture and returns the graph (the `into` graph when given). If
     * the capture was invalidated, throws CaptureInvalidatedError naming the call
     * that broke it; the stream is usable again either way.
     */
    end() {
        if (this.#ended)
            throw new Error('the capture has already ended');
        this.#ended = true;
        try {
            const graph = native_1.native.endCapture(this.stream.native, this.#into?.native);
            return this.#into ?? new graph_1.Graph(graph);
        }
        catch (error) {
            throw this.#explain(error);
        }
    }
    /** Ends the capture if it is still open, discarding what was captured. */
    [Symbol.dispose]() {
        if (this.#ended)
            return;
        try {
            const graph = this.end();
            if (graph !== this.#into)
                graph.dispose();
        }
        catch {
            // Discarding: a failed capture has nothing to keep.
        }
    }
    #explain(error) {
        if (!(error instanceof errors_1.CaptureInvalidatedError))
            return error;
        const failure = (0, errors_1.lastCaptureFailure)();
        if (failure.count > this.#failuresBefore && failure.error) {
            error.message = `${error.message} (the capture was broken by ${failure.error.message})`;
            error.cause = failure.error;
        }
        return error;
    }
}
exports.StreamCapture = StreamCapture;
/**
 * Runs fn with the stream capturing and returns the captured graph. fn must be
 * synchronous: while a promise is pending, other tasks could run on this
 * thread and break (or join) the capture, so a returned promise is refused.
 */
function captureGraph(stream, fn, options = {}) {
    if (typeof fn !== 'function')
        throw new TypeError('fn must be a function');
    const capture = new StreamCapture(stream, options);
    let result;
    try {
        result = fn(stream);
    }
    catch (error) {
        capture[Symbol.dispose]();
        throw error;
    }
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
        capture[Symbol.dispose]();
        throw new TypeError('the capture callback returned a promise: captures must be synchronous, since other tasks ' +
            'running while it is pending could break the capture; use stream.beginCapture() if you must await inside one');
    }
    return capture.end();
}
//# sourceMappingURL=capture.js.map