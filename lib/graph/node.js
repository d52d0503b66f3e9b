"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GraphNode = void 0;
exports.setGraphWrapper = setGraphWrapper;
// Nodes of a graph. A node object stays usable while its graph lives; after
// destroy() it (and every other reference to the node) throws.
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const launch_attributes_1 = require("../launch-attributes");
const validate_1 = require("../validate");
const edge_1 = require("./edge");
const node_params_1 = require("./node-params");
const wrappers = new WeakMap();
// How a native graph becomes a Graph; graph.ts sets it (it imports this file).
let wrapGraph = (handle) => handle;
/** @internal */
function setGraphWrapper(wrap) {
    wrapGraph = wrap;
}
class GraphNode extends disposable_1.Disposable {
    /** A short name for DOT output and messages; set by the builder, or by you. */
    label;
    /** @internal Use GraphNode.of(). */
    constructor(handle) {
        super(handle);
    }
    /** @internal The one wrapper of a native node. */
    static of(handle) {
        let node = wrappers.get(handle);
        if (!node)
            wrappers.set(handle, (node = new GraphNode(handle)));
        return node;
    }
    get handle() {
        return this.native.handle;
    }
    /** The node's kind (cuGraphNodeGetType). */
    get type() {
        const type = this.native.type();
        return (0, validate_1.nameOfValue)(node_params_1.NodeType, type) ?? `type ${type}`;
    }
    /** The nodes this one runs after, with each edge's data. */
    dependencies() {
        return neighbours(this.native.dependencies());
    }
    /** The nodes that run after this one. */
    dependents() {
        return neighbours(this.native.dependents());
    }
    /** What the driver holds for this node (cuGraph*NodeGetParams), per type. */
    params() {
        const raw = native_1.native.nodeParams(this.native);
        const params = { ...raw, type: (0, validate_1.nameOfValue)(node_params_1.NodeType, raw.type) ?? 'unknown' };
        if (raw.graph)
            params.graph = wrapGraph(raw.graph);
        return params;
    }
    /**
     * New parameters for this node in its graph (not in executables made before:
     * use GraphExec.setParams for those). perTypeCall uses the per-type setter
     * (cuGraphKernelNodeSetParams, ...) instead of cuGraphNodeSetParams.
     */
    setParams(params, options = {}) {
        native_1.native.setNodeParams(this.native, (0, node_params_1.encodeNodeParams)(params), options.perTypeCall === true);
    }
    /** A launch attribute of a kernel node (cuGraphKernelNodeGetAttribute). */
    kernelAttribute(name) {
        return (0, launch_attributes_1.decodeLaunchAttribute)(name, this.native.getKernelAttribute((0, launch_attributes_1.kernelNodeAttributeId)(name)));
    }
    /** Sets a launch attribute of a kernel node (cuGraphKernelNodeSetAttribute). */
    setKernelAttribute(name, value) {
        this.native.setKernelAttribute((0, launch_attributes_1.kernelNodeAttributeId)(name), (0, launch_attributes_1.encodeLaunchAttribute)(name, value));
    }
    /** Copies every launch attribute of another kernel node onto this one (cuGraphKernelNodeCopyAttributes). */
    copyKernelAttributesFrom(source) {
        if (!(source instanceof GraphNode))
            throw new TypeError('source must be a GraphNode');
        this.native.copyKernelAttributes(source.native);
    }
    /**
     * How many external semaphores an external-semaphore node holds
     * (cuGraphExternalSemaphores{Signal,Wait}NodeGetParams); see Graph.addExternalSemaphoreNode.
     */
    externalSemaphoreCount(kind) {
        return native_1.native.externalSemaphoreCount(this.native, (0, validate_1.checkEnum)(kind, { signal: 1, wait: 0 }, 'kind') === 1);
    }
    /** Gives an external-semaphore node an empty set of semaphores (cuGraphExternalSemaphores*NodeSetParams). */
    clearExternalSemaphores(kind) {
        native_1.native.clearExternalSemaphores(this.native, (0, validate_1.checkEnum)(kind, { signal: 1, wait: 0 }, 'kind') === 1);
    }
    /** Removes the node and its edges from the graph (cuGraphDestroyNode). */
    destroy() {
        this.native.destroy();
    }
    toString() {
        return this.disposed ? 'GraphNode(disposed)' : `GraphNode(${this.label ?? this.type})`;
    }
}
exports.GraphNode = GraphNode;
function neighbours(list) {
    return list.nodes.map((n, i) => ({ node: GraphNode.of(n), edge: (0, edge_1.decodeEdge)(list.data[i]) }));
}
//# sourceMappingURL=node.js.map