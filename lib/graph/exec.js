"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GraphExec = void 0;
exports.instantiateGraph = instantiateGraph;
// Executable graphs: instantiated once, launched many times. Whole-graph
// update says why it was refused (the driver's reason and the node); per-node
// updates change one node of the executable; nodes can be disabled and re-enabled.
const errors_1 = require("../errors");
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const stream_1 = require("../stream");
const validate_1 = require("../validate");
const node_1 = require("./node");
const node_params_1 = require("./node-params");
const instantiateResults = {
    success: 0, error: 1, invalidStructure: 2, nodeOperationNotSupported: 3, multipleContextsNotSupported: 4, conditionalHandleUnused: 5,
};
const updateResults = {
    success: 0, error: 1, topologyChanged: 2, nodeTypeChanged: 3, functionChanged: 4, parametersChanged: 5, notSupported: 6,
    unsupportedFunctionChange: 7, attributesChanged: 8,
};
function graphNative(graph, name) {
    const handle = graph?.native;
    if (!handle || typeof handle !== 'object')
        throw new TypeError(`${name} must be a Graph`);
    return handle;
}
/** @internal Graph.instantiate. */
function instantiateGraph(graph, options) {
    (0, validate_1.checkObject)(options, 'options');
    let flags = 0;
    if (options.autoFreeOnLaunch !== undefined && (0, validate_1.checkBoolean)(options.autoFreeOnLaunch, 'options.autoFreeOnLaunch'))
        flags |= 1;
    if (options.upload !== undefined)
        flags |= 2;
    if (options.deviceLaunch !== undefined && (0, validate_1.checkBoolean)(options.deviceLaunch, 'options.deviceLaunch'))
        flags |= 4;
    if (options.useNodePriority !== undefined && (0, validate_1.checkBoolean)(options.useNodePriority, 'options.useNodePriority'))
        flags |= 8;
    const upload = options.upload === undefined ? undefined : (0, stream_1.streamNative)(options.upload, 'options.upload');
    if (upload === undefined) {
        try {
            return new GraphExec(native_1.native.instantiate(graph.native, flags, undefined, false));
        }
        catch (error) {
            if (!(error instanceof errors_1.CudaError))
                throw error;
            // Ask again, through the call that says why and where.
        }
    }
    const result = native_1.native.instantiate(graph.native, flags, upload, true);
    if (!('error' in result))
        return new GraphExec(result);
    const reason = (0, validate_1.nameOfValue)(instantiateResults, result.result) ?? `result ${result.result}`;
    throw new errors_1.GraphInstantiateError(result.error, reason, result.node ? node_1.GraphNode.of(result.node) : undefined);
}
class GraphExec extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    get handle() {
        return this.native.handle;
    }
    /** The flags it was instantiated with (cuGraphExecGetFlags). */
    get flags() {
        const f = this.native.flags();
        return { autoFreeOnLaunch: (f & 1) !== 0, upload: (f & 2) !== 0, deviceLaunch: (f & 4) !== 0, useNodePriority: (f & 8) !== 0 };
    }
    /** Queues a launch on stream (cuGraphLaunch). */
    launch(stream) {
        native_1.native.graphLaunch(this.native.slot, (0, stream_1.streamNative)(stream).slot);
    }
    /** Launches on stream and resolves when it completes, without blocking the event loop. */
    async run(stream) {
        this.launch(stream);
        await stream.synchronize();
    }
    /** Uploads the executable ahead of its first launch (cuGraphUpload). */
    upload(stream) {
        this.native.upload((0, stream_1.streamNative)(stream));
    }
    /**
     * Updates the executable to run graph's nodes (same topology; cuGraphExecUpdate).
     * Throws GraphUpdateError with the driver's reason and the offending node when refused.
     */
    update(graph) {
        const result = this.native.update(graphNative(graph, 'graph'));
        if (!result.error)
            return;
        const reason = (0, validate_1.nameOfValue)(updateResults, result.result) ?? `result ${result.result}`;
        throw new errors_1.GraphUpdateError(result.error, reason, result.node ? node_1.GraphNode.of(result.node) : undefined);
    }
    /**
     * Updates from graph when the driver allows it, else instantiates graph anew
     * (disposing this executable). Returns the executable to use from now on.
     */
    updateOrReinstantiate(graph, options = {}) {
        try {
            this.update(graph);
            return this;
        }
        catch (error) {
            if (!(error instanceof errors_1.GraphUpdateError))
                throw error;
            const replacement = graph.instantiate(options);
            this.dispose();
            return replacement;
        }
    }
    /** New parameters for one node of this executable only (perTypeCall: cuGraphExec*NodeSetParams). */
    setParams(node, params, options = {}) {
        this.native.setNodeParams((0, validate_1.checkInstance)(node, node_1.GraphNode, 'node').native, (0, node_params_1.encodeNodeParams)(params), options.perTypeCall === true);
    }
    /** The child graph node now runs a copy of child (same topology). */
    setChildGraph(node, child) {
        this.native.setChildGraph((0, validate_1.checkInstance)(node, node_1.GraphNode, 'node').native, graphNative(child, 'child'));
    }
    /** Enables or disables a node of this executable (a disabled node does nothing when launched). */
    setEnabled(node, enabled) {
        this.native.setEnabled((0, validate_1.checkInstance)(node, node_1.GraphNode, 'node').native, (0, validate_1.checkBoolean)(enabled, 'enabled'));
    }
    /** Gives the executable's external-semaphore node an empty set (see Graph.addExternalSemaphoreNode). */
    clearExternalSemaphores(node, kind) {
        this.native.clearExternalSemaphores((0, validate_1.checkInstance)(node, node_1.GraphNode, 'node').native, (0, validate_1.checkEnum)(kind, { signal: 1, wait: 0 }, 'kind') === 1);
    }
    isEnabled(node) {
        return this.native.isEnabled((0, validate_1.checkInstance)(node, node_1.GraphNode, 'node').native);
    }
    toString() {
        return this.disposed ? 'GraphExec(disposed)' : `GraphExec(0x${this.handle.toString(16)})`;
    }
}
exports.GraphExec = GraphExec;
//# sourceMappingURL=exec.js.map