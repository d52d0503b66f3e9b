"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var _a;
Object.defineProperty(exports, "__esModule", { value: true });
exports.Graph = void 0;
// Graphs: work described once and launched many times. Nodes are added with
// typed parameters, after explicit dependencies or (data-flow building) after
// whatever earlier nodes touch the memory they read and write; the edges that
// implies are pruned to the fewest needed. A graph keeps alive everything its
// nodes use, and so do the executables made from it and their launches.
const fs = __importStar(require("fs"));
const os = __importStar(require("os"));
const path = __importStar(require("path"));
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
const analysis_1 = require("./analysis");
const conditional_1 = require("./conditional");
const dataflow_1 = require("./dataflow");
const dot_1 = require("./dot");
const edge_1 = require("./edge");
const exec_1 = require("./exec");
const memory_1 = require("./memory");
const node_1 = require("./node");
const node_params_1 = require("./node-params");
const user_object_1 = require("./user-object");
const kindOf = {
    kernel: 'kernel', memcpy: 'memcpy', memset: 'memset', host: 'host', graph: 'child', empty: 'empty',
    eventWait: 'event-wait', eventRecord: 'event-record', extSemaphoreSignal: 'ext-semaphore-signal',
    extSemaphoreWait: 'ext-semaphore-wait', memAlloc: 'mem-alloc', memFree: 'mem-free', batchMemOp: 'batch-mem-op',
    conditional: 'conditional',
};
class Graph extends disposable_1.Disposable {
    #dataflow;
    /** Why each data-flow edge exists, by "from to" handle pair, for DOT labels. */
    #edgeReasons = new Map();
    /** @internal */
    constructor(handle, options = {}) {
        super(handle);
        if (options.dataflow)
            this.#dataflow = new dataflow_1.DataflowTracker({ nameOf: resourceName });
    }
    /** An empty graph (cuGraphCreate). */
    static create(options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        if (options.dataflow !== undefined)
            (0, validate_1.checkBoolean)(options.dataflow, 'options.dataflow');
        return new _a(native_1.native.createGraph(), options);
    }
    get handle() {
        return this.native.handle;
    }
    /** True for a graph that infers edges from the memory its nodes touch. */
    get dataflow() {
        return this.#dataflow !== undefined;
    }
    /** How many nodes the graph has (cuGraphGetNodes). */
    get nodeCount() {
        return this.native.nodeCount();
    }
    /** Adds a node of any kind (cuGraphAddNode, or the per-type call). */
    addNode(params, options = {}) {
        return this.#add(params, options).node;
    }
    /** A kernel launch: `graph.addKernel(kernel, { grid, block }, [arg.ptr(x), arg.u32(n)], { reads: [x] })`. */
    addKernel(kernel, shape, args = [], options = {}) {
        return this.addNode({ ...shape, type: 'kernel', kernel, args }, options);
    }
    /** A 1D copy between library memory (default: all of src). */
    addCopy(dst, src, copy = {}, options = {}) {
        return this.addNode({ type: 'memcpy', dst, src, ...copy }, options);
    }
    /** A fill of target with value in 1-, 2- or 4-byte elements (1D count, or 2D width/height/pitch). */
    addFill(target, value, fill = {}, options = {}) {
        return this.addNode({ type: 'memset', target, value, ...fill }, options);
    }
    /**
     * A JavaScript callback, run on the JavaScript thread each time a launch
     * reaches the node. The graph does not wait for it: work after the node may
     * start before it runs.
     */
    addHost(callback, options = {}) {
        return this.addNode({ type: 'host', callback }, options);
    }
    /**
     * Embeds a copy of child (later changes to child do not apply), or with
     * move the child itself, which a graph with memory nodes needs: it then
     * belongs to this graph and cannot be instantiated or embedded elsewhere.
     */
    addChild(child, options = {}) {
        return this.addNode({ type: 'graph', graph: (0, validate_1.checkInstance)(child, _a, 'child'), move: options.move }, options);
    }
    /** A node that does nothing: a join point for dependencies. */
    addEmpty(options = {}) {
        return this.addNode({ type: 'empty' }, options);
    }
    addEventRecord(event, options = {}) {
        return this.addNode({ type: 'eventRecord', event }, options);
    }
    addEventWait(event, options = {}) {
        return this.addNode({ type: 'eventWait', event }, options);
    }
    /**
     * Allocates memory when a launch reaches the node; valid for nodes after it
     * until a free node (or, with autoFreeOnLaunch, the next launch).
     */
    addAlloc(bytes, memory = {}, options = {}) {
        const { node, allocation } = this.#add({ type: 'memAlloc', bytes, ...memory }, options);
        return { node, allocation: allocation };
    }
    /** Frees memory a graph allocated. */
    addFree(allocation, options = {}) {
        return this.addNode({ type: 'memFree', allocation }, options);
    }
    /** Stream memory operations (wait/write 32/64-bit values, barriers) as one node. */
    addMemoryOps(ops, options = {}) {
        return this.addNode({ type: 'batchMemOp', ops, device: options.device }, options);
    }
    /**
     * An external-semaphore signal or wait node. External semaphores come from
     * graphics and other APIs whose import is outside this package's scope, so
     * the node can only be made with none; the driver's answer says whether it
     * accepts that.
     */
    addExternalSemaphoreNode(kind, options = {}) {
        const after = (0, validate_1.checkArray)(options.after ?? [], 'options.after').map((n, i) => (0, validate_1.checkInstance)(n, node_1.GraphNode, `options.after[${i}]`).native);
        return node_1.GraphNode.of(native_1.native.addExternalSemaphoreNode(this.native, after, (0, validate_1.checkEnum)(kind, { signal: 1, wait: 0 }, 'kind') === 1));
    }
    /**
     * A handle for conditional nodes of this graph. With defaultValue, every
     * launch starts it at that value; device code sets it with cudaGraphSetConditional.
     */
    conditionalHandle(options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const value = options.defaultValue === undefined ? undefined : (0, validate_1.checkInteger)(options.defaultValue, 'options.defaultValue', 0, 2 ** 32 - 1);
        return new conditional_1.ConditionalHandle(native_1.native.createConditionalHandle(this.native, (0, device_1.ordinalOf)(options.device, 'options.device'), value));
    }
    /** Runs `then` when the handle is non-zero, else `else` (when asked for). */
    addIf(handle, options = {}) {
        const { node, bodies } = this.#conditional(handle, 'if', options.withElse ? 2 : 1, options);
        return { node, then: bodies[0], else: bodies[1] };
    }
    /** Runs body again and again while the handle is non-zero (checked before each run). */
    addWhile(handle, options = {}) {
        const { node, bodies } = this.#conditional(handle, 'while', 1, options);
        return { node, body: bodies[0] };
    }
    /** Runs cases[handle value], or nothing when the value is out of range. */
    addSwitch(handle, cases, options = {}) {
        const { node, bodies } = this.#conditional(handle, 'switch', (0, validate_1.checkInteger)(cases, 'cases', 1, 1024), options);
        return { node, cases: bodies };
    }
    #conditional(handle, kind, size, options) {
        (0, validate_1.checkInstance)(handle, conditional_1.ConditionalHandle, 'handle');
        const { node, bodies } = this.#add({ type: 'conditional', handle, kind, size }, options);
        return { node, bodies: bodies.map((b) => new _a(b, { dataflow: this.dataflow })) };
    }
    #add(params, options) {
        (0, validate_1.checkObject)(options, 'options');
        const encoded = (0, node_params_1.encodeNodeParams)(params);
        const after = (0, validate_1.checkArray)(options.after ?? [], 'options.after').map((n, i) => (0, validate_1.checkInstance)(n, node_1.GraphNode, `options.after[${i}]`));
        const edges = options.edges === undefined ? undefined : (0, validate_1.checkArray)(options.edges, 'options.edges').map((e, i) => (0, edge_1.encodeEdge)(e, `options.edges[${i}]`));
        if (edges && edges.length !== after.length)
            throw new RangeError('options.edges must have one entry per options.after node');
        const perType = options.perTypeCall === undefined ? false : (0, validate_1.checkBoolean)(options.perTypeCall, 'options.perTypeCall');
        let dependencies = after;
        let edgeData = edges;
        const tracked = this.#dataflow;
        const placeholder = new GraphNodeSlot();
        if (tracked) {
            const own = (0, node_params_1.accessesOf)(params);
            const reads = [...own.reads, ...(0, validate_1.checkArray)(options.reads ?? [], 'options.reads')];
            const writes = [...own.writes, ...(0, validate_1.checkArray)(options.writes ?? [], 'options.writes')];
            const found = tracked.add(placeholder, { reads, writes, after: after.map((n) => slots.get(n) ?? untracked(n)) });
            dependencies = found.map((d) => d.node.node);
            // Edge data given for explicit dependencies follows them; inferred ones are plain.
            if (edges)
                edgeData = dependencies.map((d) => edges[after.indexOf(d)] ?? [0, 0, 0]);
            for (const d of found)
                placeholder.reasons.push(d.reasons.map((r) => tracked.describe(r)).join(', '));
        }
        else if (options.reads !== undefined || options.writes !== undefined) {
            throw new TypeError('options.reads/writes need a data-flow graph: Graph.create({ dataflow: true })');
        }
        let result;
        try {
            result = native_1.native.addNode(this.native, dependencies.map((d) => d.native), edgeData, encoded, perType);
        }
        catch (error) {
            // The tracker has counted this node; an empty node in its place keeps the
            // graph's order what the tracker believes it is.
            if (tracked)
                placeholder.node = node_1.GraphNode.of(native_1.native.addNode(this.native, dependencies.map((d) => d.native), undefined, { type: 5 }, false).node);
            throw error;
        }
        const node = node_1.GraphNode.of(result.node);
        node.label = options.label;
        placeholder.node = node;
        slots.set(node, placeholder);
        placeholder.reasons.forEach((reason, i) => this.#edgeReasons.set(`${dependencies[i].handle} ${node.handle}`, reason));
        return {
            node,
            allocation: result.allocation ? new memory_1.GraphAllocation(result.allocation) : undefined,
            bodies: result.bodies,
        };
    }
    /** Adds edges from[i] → to[i]; refuses one that would close a cycle, before the driver sees it. */
    addEdges(from, to, data) {
        const f = (0, validate_1.checkArray)(from, 'from').map((n, i) => (0, validate_1.checkInstance)(n, node_1.GraphNode, `from[${i}]`));
        const t = (0, validate_1.checkArray)(to, 'to').map((n, i) => (0, validate_1.checkInstance)(n, node_1.GraphNode, `to[${i}]`));
        if (f.length !== t.length)
            throw new RangeError('from and to must have the same length');
        const encoded = data === undefined ? undefined : (0, validate_1.checkArray)(data, 'data').map((e, i) => (0, edge_1.encodeEdge)(e, `data[${i}]`));
        const topology = this.topology();
        const index = new Map(topology.nodes.map((n, i) => [n, i]));
        const edges = [...topology.edges];
        f.forEach((a, i) => {
            const from = index.get(a), to = index.get(t[i]);
            if (from === undefined || to === undefined)
                throw new TypeError(`edge ${i} names a node of another graph`);
            if (from === to || (0, analysis_1.reaches)(topology.nodes.length, edges, to, from)) {
                throw new analysis_1.GraphCycleError(cycleThrough(edges, to, from), (k) => topology.nodes[k].label ?? String(k));
            }
            edges.push({ from, to });
        });
        this.native.addEdges(f.map((n) => n.native), t.map((n) => n.native), encoded);
    }
    removeEdges(from, to, data) {
        const encoded = data === undefined ? undefined : (0, validate_1.checkArray)(data, 'data').map((e, i) => (0, edge_1.encodeEdge)(e, `data[${i}]`));
        this.native.removeEdges((0, validate_1.checkArray)(from, 'from').map((n) => n.native), (0, validate_1.checkArray)(to, 'to').map((n) => n.native), encoded);
    }
    /** Every node (cuGraphGetNodes). */
    nodes() {
        return this.native.nodes().map(node_1.GraphNode.of);
    }
    /** Nodes without dependencies (cuGraphGetRootNodes). */
    rootNodes() {
        return this.native.rootNodes().map(node_1.GraphNode.of);
    }
    /** Every edge with its data (cuGraphGetEdges). */
    edges() {
        const e = this.native.edges();
        return e.from.map((f, i) => ({ from: node_1.GraphNode.of(f), to: node_1.GraphNode.of(e.to[i]), data: (0, edge_1.decodeEdge)(e.data[i]) }));
    }
    /** Nodes numbered 0..n-1 and the edges between them, for the analysis functions. */
    topology() {
        const nodes = this.nodes();
        const index = new Map(nodes.map((n, i) => [n, i]));
        const e = this.native.edges();
        return { nodes, edges: e.from.map((f, i) => ({ from: index.get(node_1.GraphNode.of(f)), to: index.get(node_1.GraphNode.of(e.to[i])) })) };
    }
    /** Groups of nodes that may run together: level k holds nodes whose longest path from a root has k edges. */
    levels() {
        const { nodes, edges } = this.topology();
        return (0, analysis_1.levelSets)(nodes.length, edges).map((level) => level.map((i) => nodes[i]));
    }
    /** The longest chain of dependent nodes, optionally weighted (e.g. by measured node time). */
    criticalPath(weight) {
        const { nodes, edges } = this.topology();
        const result = (0, analysis_1.criticalPath)(nodes.length, edges, weight ? nodes.map(weight) : undefined);
        return { path: result.path.map((i) => nodes[i]), length: result.length };
    }
    /** A copy of the graph (cuGraphClone), holding the same resources; find() maps a node to its copy. */
    clone() {
        const graph = new _a(this.native.clone());
        return { graph, find: (node) => node_1.GraphNode.of(graph.native.findInClone((0, validate_1.checkInstance)(node, node_1.GraphNode, 'node').native)) };
    }
    /** The driver's own DOT description (cuGraphDebugDotPrint); flags add detail (1: verbose). */
    debugDot(flags = 0) {
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-dot-')), 'graph.dot');
        try {
            this.native.debugDotPrint(file, (0, validate_1.checkInteger)(flags, 'flags', 0, 0xffff));
            return fs.readFileSync(file, 'utf8');
        }
        finally {
            fs.rmSync(path.dirname(file), { recursive: true, force: true });
        }
    }
    /** Our DOT: readable labels, kinds by shape and colour, data-flow edges labelled with why they exist. */
    toDot(options = {}) {
        const { nodes, edges } = this.topology();
        const dotNodes = nodes.map((n, id) => ({ id, kind: kindOf[n.type] ?? 'empty', label: n.label }));
        const dotEdges = edges.map((e) => ({
            ...e, label: this.#edgeReasons.get(`${nodes[e.from].handle} ${nodes[e.to].handle}`),
        }));
        return (0, dot_1.renderDot)({ nodes: dotNodes, edges: dotEdges }, options);
    }
    /** Makes an executable (cuGraphInstantiate, or ...WithParams with an upload stream or when it fails). */
    instantiate(options = {}) {
        return (0, exec_1.instantiateGraph)(this, options);
    }
    /** Gives the graph references to a user object (move: of the object's own). */
    retainUserObject(object, options = {}) {
        native_1.native.graphRetainUserObject(this.native, (0, validate_1.checkInstance)(object, user_object_1.UserObject, 'object').native, (0, validate_1.checkInteger)(options.count ?? 1, 'options.count', 1, 2 ** 20), options.move === true);
    }
    /** Releases references this graph took with retainUserObject. */
    releaseUserObject(object, count = 1) {
        native_1.native.graphReleaseUserObject(this.native, (0, validate_1.checkInstance)(object, user_object_1.UserObject, 'object').native, (0, validate_1.checkInteger)(count, 'count', 1, 2 ** 20));
    }
    /** How many resources (buffers, kernels, callbacks, ...) the graph keeps alive. */
    get resourceCount() {
        return this.native.resourceCount();
    }
    toString() {
        return this.disposed ? 'Graph(disposed)' : `Graph(${this.nodeCount} nodes)`;
    }
}
exports.Graph = Graph;
_a = Graph;
(0, node_1.setGraphWrapper)((handle) => new Graph(handle));
/** Where the data-flow tracker will find a node once the driver has made it. */
class GraphNodeSlot {
    node;
    reasons = [];
}
const slots = new WeakMap();
function untracked(node) {
    throw new TypeError(`${node} was not added through this data-flow graph, so it cannot be a dependency here`);
}
const names = new WeakMap();
let nextName = 0;
function resourceName(resource) {
    let name = names.get(resource);
    if (!name)
        names.set(resource, (name = `${resource.constructor?.name ?? 'buffer'}#${nextName++}`));
    return name;
}
/** One path to → … → from, which an edge from → to would close into a cycle. */
function cycleThrough(edges, to, from) {
    const next = new Map();
    for (const e of edges)
        next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const previous = new Map([[to, to]]);
    const queue = [to];
    while (queue.length) {
        const at = queue.shift();
        if (at === from)
            break;
        for (const n2 of next.get(at) ?? [])
            if (!previous.has(n2))
                previous.set(n2, at), queue.push(n2);
    }
    const path = [from];
    while (path[0] !== to)
        path.unshift(previous.get(path[0]));
    return path;
}
//# sourceMappingURL=graph.js.map