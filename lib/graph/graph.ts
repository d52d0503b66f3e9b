// Graphs: work described once and launched many times. Nodes are added with
// typed parameters, after explicit dependencies or (data-flow building) after
// whatever earlier nodes touch the memory they read and write; the edges that
// implies are pruned to the fewest needed. A graph keeps alive everything its
// nodes use, and so do the executables made from it and their launches.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DeviceLike, ordinalOf } from '../device';
import { Disposable, SlotGroup } from '../disposable';
import type { Event } from '../event';
import type { KernelArg } from '../kernel/args';
import type { Kernel } from '../kernel/kernel';
import type { LaunchShape } from '../kernel/launch-config';
import type { MemoryHandle } from '../memory/bytes';
import { native, NativeGraph, NativeGraphNode, Slot } from '../native';
import type { StreamMemoryOp } from '../stream';
import { GraphDebugDotFlag, GraphDebugDotFlagName } from '../generated/enums';
import { checkArray, checkBoolean, checkFlag, checkFlags, checkFunction, checkInstance, checkInteger, checkObject, checkOptions, checkString, noItems, noOptions } from '../validate';
import { criticalPath, CriticalPath, GraphCycleError, levelSets, reaches } from './analysis';
import { ConditionalHandle } from './conditional';
import { DataflowTracker } from './dataflow';
import { DotEdge, DotNode, renderDot } from './dot';
import { decodeEdge, EdgeData, encodeEdge } from './edge';
import { GraphExec, InstantiateOptions, instantiateGraph } from './exec';
import { GraphAllocation } from './memory';
import { checkGraphNode, checkGraphNodes, GraphNode, setGraphWrapper, slotsOf, trackedSlots } from './node';
import { accessesOf, dotKindOf, encodeKernelNode, encodeNodeParams, isSignal, NodeType } from './node-kinds';
import type { EncodedKernelNode, EncodedNodeParams, NodeParams } from './node-params';
import { UserObject } from './user-object';

/** Where a new node goes: what it runs after, and (data-flow building) what it touches. */
export interface NodeOptions {
  /** Nodes this one runs after. */
  after?: readonly GraphNode[];
  /** Edge data for each of `after` (programmatic dependencies, ...). */
  edges?: readonly EdgeData[];
  /** Memory this node reads (whole buffers or ResourceRanges); copies and fills declare their own. */
  reads?: readonly object[];
  /** Memory this node writes. */
  writes?: readonly object[];
  /** A name for DOT output and error messages. */
  label?: string;
}

/** Options of {@link Graph.create}. */
// The keys of NodeOptions, and of the node-specific objects that come before them.
const nodeKeys: readonly string[] = ['after', 'edges', 'reads', 'writes', 'label'];
const copyKeys: readonly string[] = ['dstOffset', 'srcOffset', 'bytes'];
const fillKeys: readonly string[] = ['elementBytes', 'offset', 'count', 'width', 'height', 'pitch'];

// Unknown keys of a node method's options: the node options, and more (the
// method's own key) where it has one. The shared empty default has none to look at.
// Known keys are compared by name (a search of the list per key showed in
// builds); checkOptions names an unknown one.
function nodeOptions(options: object, call: string, more?: string): void {
  checkObject(options, 'options');
  if (options === noOptions) return;
  for (const key in options) {
    if (key !== 'after' && key !== 'reads' && key !== 'writes' && key !== 'edges' && key !== 'label' && key !== more) {
      checkOptions(options, 'options', call, more === undefined ? nodeKeys : [...nodeKeys, more]);
    }
  }
}

// Where a node option given in a node-specific object belongs.
function misplaced(form: string): Record<string, string> {
  const hint = `dependencies, edges, reads, writes and labels go in the node options, the last argument: ${form}`;
  return { after: hint, edges: hint, reads: hint, writes: hint, label: hint };
}
const addCopyMisplaced = misplaced('graph.addCopy(dst, src, copy, { after })');
const addFillMisplaced = misplaced('graph.addFill(target, value, fill, { after })');
const addAllocMisplaced = misplaced('graph.addAlloc(bytes, memory, { after })');

/** Options of {@link Graph.create}. */
export interface GraphOptions {
  /**
   * Infer each node's dependencies from the memory it reads and writes (copies
   * and fills know theirs; declare a kernel's with reads/writes), keeping only
   * the edges no other path implies.
   */
  dataflow?: boolean;
}

// What some kinds of node bring with them, for #add's callers that ask (an
// object returned by every #add cost a tenth of a node-by-node build's allocations).
type NodeExtras = { allocation?: GraphAllocation; bodies?: Slot<NativeGraph>[] };

/** The result of adding a conditional node. */
export interface ConditionalNode {
  /** The conditional node. */
  node: GraphNode;
  /** The body graphs, owned by the node: build into them. */
  bodies: Graph[];
}

/**
 * A CUDA graph: work described once as nodes and edges, instantiated into a
 * {@link GraphExec} and launched many times. Build it node by node (explicit
 * `after` dependencies, or data-flow building: `Graph.create({ dataflow: true })`
 * orders nodes by the memory they read and write), or capture it from a stream
 * (Stream.capture). The graph keeps alive every resource its nodes use.
 */
export class Graph extends Disposable<NativeGraph> {
  // A data-flow graph's tracker, whose nodes are positions in #tracked.
  readonly #isDataflow: boolean;
  #dataflow: DataflowTracker<number> | undefined;
  #tracked: GraphNode[] | undefined;
  // Each node's one object (native/graph/node_boxes.h NodeBox), for as long as
  // the graph object lives; their slots are freed with the graph's. Found by
  // slot through #bySlot, which is brought up to date when a lookup comes
  // (listings, clones): an entry per node added was a twentieth of a
  // node-by-node build, and its table's growth more of the collector's work.
  #nodes: GraphNode[];
  #bySlot: Map<number, GraphNode> | undefined;
  #indexed: number;
  readonly #slots: SlotGroup;

  /** @internal */
  constructor(handle: Slot<NativeGraph>, options: GraphOptions = noOptions) {
    const slots = new SlotGroup(handle);
    super(handle, slots);
    this.#slots = slots;
    this.#nodes = [];
    this.#bySlot = undefined;
    this.#indexed = 0;
    this.#isDataflow = options.dataflow === true;
    if (this.#isDataflow) {
      this.#dataflow = DataflowTracker.positional({ nameOf: resourceName });
      this.#tracked = [];
    }
  }

  /** @internal The one object of this graph's node that a native call returned by its slot. */
  nodeOf(slot: Slot<NativeGraphNode>): GraphNode {
    const bySlot = (this.#bySlot ??= new Map());
    const nodes = this.#nodes;
    for (; this.#indexed < nodes.length; this.#indexed++) bySlot.set(nodes[this.#indexed].slot, nodes[this.#indexed]);
    return bySlot.get(slot) ?? this.#newNode(slot);
  }

  // The object of a node new to JavaScript (a node just added always is).
  #newNode(slot: Slot<NativeGraphNode>): GraphNode {
    const node = new GraphNode(slot, this, this.#slots);
    this.#nodes.push(node);
    return node;
  }

  /** An empty graph (cuGraphCreate). */
  static create(options: GraphOptions = noOptions): Graph {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Graph.create', ['dataflow']);
    if (options.dataflow !== undefined) checkBoolean(options.dataflow, 'options.dataflow');
    return new Graph(native.createGraph(), options);
  }

  /** The CUgraph value, for logs and comparisons. */
  get handle(): bigint {
    return native.graphHandle(this.slot);
  }

  /** True for a graph that infers edges from the memory its nodes touch. */
  get dataflow(): boolean {
    return this.#isDataflow;
  }

  /** How many nodes the graph has (cuGraphGetNodes). */
  get nodeCount(): number {
    return native.graphNodeCount(this.slot);
  }

  /** Adds a node of any kind (cuGraphAddNode, or the kind's own call on drivers without it). */
  addNode(params: NodeParams, options: NodeOptions = noOptions): GraphNode {
    return this.#add(encodeNodeParams(params), params, options, undefined, 'addNode');
  }

  /** A kernel launch: `graph.addKernel(kernel, { grid, block }, [arg.ptr(x), arg.u32(n)], { reads: [x] })`. */
  addKernel(kernel: Kernel, shape: LaunchShape & { device?: DeviceLike }, args: readonly KernelArg[] = noItems, options: NodeOptions = noOptions): GraphNode {
    if (shape === null || typeof shape !== 'object') checkObject(shape, 'shape');
    // Encoded from the arguments as given: a params object spread from them cost a tenth of the call.
    return this.#add(encodeKernelNode(kernel, args, shape), undefined, options, undefined, 'addKernel');
  }

  /** A 1D copy between library memory (default: all of src). */
  addCopy(dst: MemoryHandle, src: MemoryHandle, copy: { dstOffset?: number | bigint; srcOffset?: number | bigint; bytes?: number | bigint } = {}, options: NodeOptions = noOptions): GraphNode {
    checkOptions(checkObject(copy, 'copy'), 'copy', 'addCopy', copyKeys, addCopyMisplaced);
    const params: NodeParams = { type: 'memcpy', dst, src, ...copy };
    nodeOptions(options, 'addCopy');
    return this.addNode(params, options);
  }

  /** A fill of target with value in 1-, 2- or 4-byte elements (1D count, or 2D width/height/pitch). */
  addFill(target: MemoryHandle, value: number,
    fill: { elementBytes?: 1 | 2 | 4; offset?: number | bigint; count?: number | bigint; width?: number | bigint; height?: number | bigint; pitch?: number | bigint } = {},
    options: NodeOptions = noOptions): GraphNode {
    checkOptions(checkObject(fill, 'fill'), 'fill', 'addFill', fillKeys, addFillMisplaced);
    const params: NodeParams = { type: 'memset', target, value, ...fill };
    nodeOptions(options, 'addFill');
    return this.addNode(params, options);
  }

  /**
   * A JavaScript callback, run on the JavaScript thread each time a launch
   * reaches the node. As in CUDA, the nodes after it wait until it has
   * returned (or thrown); while a launch waits for it, blocking waits on the
   * JavaScript thread throw (see Stream.launchHostFunction). With options.wait
   * false the graph only hands the call over: nodes after it may run first.
   */
  addHost(callback: () => void, options: NodeOptions & { wait?: boolean } = noOptions): GraphNode {
    checkObject(options, 'options');
    nodeOptions(options, 'addHost', 'wait');
    const { wait, ...node } = options;
    return this.addNode({ type: 'host', callback, wait }, node);
  }

  /**
   * Embeds a copy of child (later changes to child do not apply), or with
   * move the child itself, which a graph with memory nodes needs: it then
   * belongs to this graph and cannot be instantiated or embedded elsewhere.
   */
  addChild(child: Graph, options: NodeOptions & { move?: boolean } = noOptions): GraphNode {
    checkObject(options, 'options');
    nodeOptions(options, 'addChild', 'move');
    const { move, ...node } = options;
    return this.addNode({ type: 'graph', graph: checkInstance(child, Graph, 'child'), move }, node);
  }

  /** A node that does nothing: a join point for dependencies. */
  addEmpty(options: NodeOptions = noOptions): GraphNode {
    const params: NodeParams = { type: 'empty' };
    nodeOptions(options, 'addEmpty');
    return this.addNode(params, options);
  }

  /** Records event when a launch reaches the node. */
  addEventRecord(event: Event, options: NodeOptions = noOptions): GraphNode {
    const params: NodeParams = { type: 'eventRecord', event };
    nodeOptions(options, 'addEventRecord');
    return this.addNode(params, options);
  }

  /** Work after the node waits for event (recorded on a stream or by another graph). */
  addEventWait(event: Event, options: NodeOptions = noOptions): GraphNode {
    const params: NodeParams = { type: 'eventWait', event };
    nodeOptions(options, 'addEventWait');
    return this.addNode(params, options);
  }

  /**
   * Allocates memory when a launch reaches the node; valid for nodes after it
   * until a free node (or, with autoFreeOnLaunch, the next launch).
   */
  addAlloc(bytes: number | bigint, memory: { device?: DeviceLike; peers?: DeviceLike[] } = {}, options: NodeOptions = noOptions): {
    /** The allocation node. */
    node: GraphNode;
    /** The memory it allocates: an operand for the nodes after it. */
    allocation: GraphAllocation;
  } {
    checkOptions(checkObject(memory, 'memory'), 'memory', 'addAlloc', ['device', 'peers'], addAllocMisplaced);
    const params: NodeParams = { type: 'memAlloc', bytes, ...memory };
    const extras: NodeExtras = {};
    const node = this.#add(encodeNodeParams(params), params, options, extras, 'addAlloc');
    return { node, allocation: extras.allocation! };
  }

  /** Frees memory a graph allocated. */
  addFree(allocation: MemoryHandle, options: NodeOptions = noOptions): GraphNode {
    const params: NodeParams = { type: 'memFree', allocation };
    nodeOptions(options, 'addFree');
    return this.addNode(params, options);
  }

  /** Stream memory operations (wait/write 32/64-bit values, barriers) as one node. */
  addMemoryOps(ops: readonly StreamMemoryOp[], options: NodeOptions & { device?: DeviceLike } = noOptions): GraphNode {
    checkObject(options, 'options');
    nodeOptions(options, 'addMemoryOps', 'device');
    const { device, ...node } = options;
    return this.addNode({ type: 'batchMemOp', ops, device }, node);
  }

  /**
   * An external-semaphore signal or wait node. External semaphores come from
   * graphics and other APIs whose import is outside this package's scope, so
   * the node can only be made with none; the driver's answer says whether it
   * accepts that.
   */
  addExternalSemaphoreNode(kind: 'signal' | 'wait', options: { after?: readonly GraphNode[] } = noOptions): GraphNode {
    checkOptions(checkObject(options, 'options'), 'options', 'addExternalSemaphoreNode', ['after']);
    const after = slotsOf(checkGraphNodes(options.after ?? noItems, 'options.after'));
    return this.#newNode(native.addExternalSemaphoreNode(this.slot, after, isSignal(kind)));
  }

  /**
   * A handle for conditional nodes of this graph. With defaultValue, every
   * launch starts it at that value; device code sets it with cudaGraphSetConditional.
   */
  conditionalHandle(options: { defaultValue?: number; device?: DeviceLike } = noOptions): ConditionalHandle {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'conditionalHandle', ['defaultValue', 'device']);
    const value = options.defaultValue === undefined ? undefined : checkInteger(options.defaultValue, 'options.defaultValue', 0, 2 ** 32 - 1);
    return new ConditionalHandle(native.createConditionalHandle(this.slot, ordinalOf(options.device, 'options.device'), value));
  }

  /** Runs `then` when the handle is non-zero, else `else` (when asked for). */
  addIf(handle: ConditionalHandle, options: NodeOptions & { withElse?: boolean } = noOptions): {
    /** The conditional node. */
    node: GraphNode;
    /** The body run when the handle is non-zero: build into it. */
    then: Graph;
    /** With withElse: the body run when it is zero. */
    else?: Graph;
  } {
    checkObject(options, 'options');
    const { node, bodies } = this.#conditional(handle, 'if', checkFlag(options.withElse, 'options.withElse') ? 2 : 1, options, 'withElse');
    return { node, then: bodies[0], else: bodies[1] };
  }

  /** Runs body again and again while the handle is non-zero (checked before each run). */
  addWhile(handle: ConditionalHandle, options: NodeOptions = noOptions): {
    /** The conditional node. */
    node: GraphNode;
    /** The loop body: build into it; a kernel in it clears the handle to end the loop. */
    body: Graph;
  } {
    const { node, bodies } = this.#conditional(handle, 'while', 1, options);
    return { node, body: bodies[0] };
  }

  /** Runs cases[handle value], or nothing when the value is out of range. */
  addSwitch(handle: ConditionalHandle, cases: number, options: NodeOptions = noOptions): {
    /** The conditional node. */
    node: GraphNode;
    /** One body per value 0..cases-1: build into them. */
    cases: Graph[];
  } {
    const { node, bodies } = this.#conditional(handle, 'switch', checkInteger(cases, 'cases', 1, 1024), options);
    return { node, cases: bodies };
  }

  #conditional(handle: ConditionalHandle, kind: 'if' | 'while' | 'switch', size: number, options: NodeOptions, more?: string): ConditionalNode {
    checkInstance(handle, ConditionalHandle, 'handle');
    const params: NodeParams = { type: 'conditional', handle, kind, size };
    const extras: NodeExtras = {};
    const node = this.#add(encodeNodeParams(params), params, options, extras, kind === 'if' ? 'addIf' : kind === 'while' ? 'addWhile' : 'addSwitch', more);
    return { node, bodies: extras.bodies!.map((b) => new Graph(b, { dataflow: this.dataflow })) };
  }

  // Adds the node encoded (params, when given, says what memory it touches
  // itself, for data-flow building; a kernel touches what options declare).
  // extras, when given, receives what the node brings with it.
  #add(encoded: EncodedNodeParams, params: NodeParams | undefined, options: NodeOptions, extras: NodeExtras | undefined,
    call: string, more?: string): GraphNode {
    if (options !== noOptions) nodeOptions(options, call, more);
    // Each option read once (a getter runs once), and a test for undefined before
    // any call: before the engine optimizes it (a process's first build) every call costs.
    const afterGiven = options.after;
    const after = afterGiven === undefined ? noItems : checkGraphNodes(afterGiven, 'options.after');
    const edgesGiven = options.edges;
    const edges = edgesGiven === undefined ? undefined : checkArray<EdgeData>(edgesGiven, 'options.edges').map((e, i) => encodeEdge(e, `options.edges[${i}]`));
    if (edges && edges.length !== after.length) throw new RangeError('options.edges must have one entry per options.after node');
    const labelGiven = options.label;
    const label = labelGiven === undefined ? undefined : checkString(labelGiven, 'options.label');

    let dependencySlots: number | number[] | undefined;
    let edgeData = edges;
    const tracker = this.#dataflow;
    const position = tracker ? tracker.nodes.length : -1;
    if (tracker) {
      const tracked = this.#tracked!;
      // The tracker's reasons stay as they are: DOT output formats them (formatting each edge's here cost more than the driver call).
      const own = params === undefined ? undefined : accessesOf(params);
      const reads = accessesWith(own?.reads, options.reads, 'options.reads');
      const writes = accessesWith(own?.writes, options.writes, 'options.writes');
      // addQuick: the dependencies' positions only, in an array the tracker reuses (add() makes an object per dependency and reason).
      const found = tracker.addQuick(position, reads, writes, after.length === 0 ? noItems : this.#positionsOf(after));
      dependencySlots = trackedSlots(tracked, found);
      // Edge data given for explicit dependencies follows them; inferred ones are plain.
      if (edges) edgeData = found.map((p) => edges[after.indexOf(tracked[p])] ?? [0, 0, 0]);
    } else if (!this.#isDataflow && (options.reads !== undefined || options.writes !== undefined)) {
      // (A disposed data-flow graph has no tracker: the native call says it is disposed.)
      throw new TypeError('options.reads/writes need a data-flow graph: Graph.create({ dataflow: true })');
    } else {
      // None, one node's slot (a chain's: no list to make and for the native
      // layer to read), or a list of slots.
      dependencySlots = after.length === 0 ? undefined : after.length === 1 ? after[0].slot : slotsOf(after);
    }

    let slot;
    try {
      if (encoded.type === NodeType.kernel && edgeData === undefined) {
        // The kernel form of encodeNodeParams (EncodedKernelNode), its fields given one by one; edge data takes addNode.
        const k = encoded as EncodedKernelNode;
        slot = native.addKernelNode(this.slot, dependencySlots, k.kernel, k.record);
      } else {
        const result = native.addNode(this.slot, dependencySlots, edgeData, encoded);
        slot = result.node;
        if (extras) {
          if (result.allocation !== undefined) extras.allocation = new GraphAllocation(result.allocation);
          extras.bodies = result.bodies;
        }
      }
    } catch (error) {
      // The tracker has counted this node; an empty node in its place keeps the
      // graph's order what the tracker believes it is.
      if (tracker) this.#track(this.#newNode(native.addNode(this.slot, dependencySlots, undefined, { type: NodeType.empty }).node), position);
      throw error;
    }
    const node = this.#newNode(slot);
    if (label !== undefined) node.label = label;
    if (tracker) this.#track(node, position);
    return node;
  }

  // The node at position of the tracker's order.
  #track(node: GraphNode, position: number): void {
    node.dataflowIndex = position;
    this.#tracked![position] = node;
  }

  // The tracker's positions of nodes given as dependencies.
  #positionsOf(nodes: readonly GraphNode[]): number[] {
    const tracked = this.#tracked!;
    const positions = new Array<number>(nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i];
      if (tracked[node.dataflowIndex] !== node) untracked(node);
      positions[i] = node.dataflowIndex;
    }
    return positions;
  }

  /** Adds edges from[i] → to[i]; refuses one that would close a cycle, before the driver sees it. */
  addEdges(from: readonly GraphNode[], to: readonly GraphNode[], data?: readonly EdgeData[]): void {
    const f = checkGraphNodes(from, 'from');
    const t = checkGraphNodes(to, 'to');
    if (f.length !== t.length) throw new RangeError('from and to must have the same length');
    const encoded = data === undefined ? undefined : checkArray<EdgeData>(data, 'data').map((e, i) => encodeEdge(e, `data[${i}]`));
    const topology = this.topology();
    const index = new Map(topology.nodes.map((n, i) => [n, i]));
    const edges = [...topology.edges];
    f.forEach((a, i) => {
      const from = index.get(a), to = index.get(t[i]);
      if (from === undefined || to === undefined) throw new TypeError(`edge ${i} names a node of another graph`);
      if (from === to || reaches(topology.nodes.length, edges, to, from)) {
        throw new GraphCycleError(cycleThrough(edges, to, from), (k) => topology.nodes[k].label ?? String(k));
      }
      edges.push({ from, to });
    });
    native.graphAddEdges(this.slot, slotsOf(f), slotsOf(t), encoded);
  }

  /** Removes the edges from[i] → to[i] (with that edge data, when given). */
  removeEdges(from: readonly GraphNode[], to: readonly GraphNode[], data?: readonly EdgeData[]): void {
    const encoded = data === undefined ? undefined : checkArray<EdgeData>(data, 'data').map((e, i) => encodeEdge(e, `data[${i}]`));
    native.graphRemoveEdges(this.slot, slotsOf(checkGraphNodes(from, 'from')),
      slotsOf(checkGraphNodes(to, 'to')), encoded);
  }

  /** Every node (cuGraphGetNodes). */
  nodes(): GraphNode[] {
    return this.#nodesOf(native.graphNodes(this.slot));
  }

  /** Nodes without dependencies (cuGraphGetRootNodes). */
  rootNodes(): GraphNode[] {
    return this.#nodesOf(native.graphRootNodes(this.slot));
  }

  #nodesOf(slots: readonly Slot<NativeGraphNode>[]): GraphNode[] {
    return slots.map((slot) => this.nodeOf(slot));
  }

  /** Every edge with its data (cuGraphGetEdges). */
  edges(): Array<{
    /** The upstream node. */
    from: GraphNode;
    /** The node that runs after it. */
    to: GraphNode;
    /** The edge's data. */
    data: Required<EdgeData>;
  }> {
    const e = native.graphEdges(this.slot);
    return e.data.map((d, i) => ({ from: this.nodeOf(e.from[i]), to: this.nodeOf(e.to[i]), data: decodeEdge(d) }));
  }

  /** Nodes numbered 0..n-1 and the edges between them, for the analysis functions. */
  topology(): {
    /** The nodes; an edge names them by index. */
    nodes: GraphNode[];
    /** Edges as pairs of node indices. */
    edges: Array<{
      /** Index of the upstream node. */
      from: number;
      /** Index of the node that runs after it. */
      to: number;
    }>;
  } {
    const nodes = this.nodes();
    const index = new Map(nodes.map((n, i) => [n, i]));
    return { nodes, edges: this.edges().map((e) => ({ from: index.get(e.from)!, to: index.get(e.to)! })) };
  }

  /** Groups of nodes that may run together: level k holds nodes whose longest path from a root has k edges. */
  levels(): GraphNode[][] {
    const { nodes, edges } = this.topology();
    return levelSets(nodes.length, edges).map((level) => level.map((i) => nodes[i]));
  }

  /** The longest chain of dependent nodes, optionally weighted (e.g. by measured node time). */
  criticalPath(weight?: (node: GraphNode) => number): {
    /** The nodes of the path, first to last. */
    path: GraphNode[];
    /** Its length: the sum of the weights (1 per node without weight). */
    length: number;
  } {
    const { nodes, edges } = this.topology();
    const result: CriticalPath = criticalPath(nodes.length, edges,
      weight === undefined ? undefined : nodes.map(checkFunction<(node: GraphNode) => number>(weight, 'weight')));
    return { path: result.path.map((i) => nodes[i]), length: result.length };
  }

  /** A copy of the graph (cuGraphClone), holding the same resources; find() maps a node to its copy. */
  clone(): {
    /** The copy. */
    graph: Graph;
    /** The copy's node for a node of this graph (cuGraphNodeFindInClone). */
    find(node: GraphNode): GraphNode;
  } {
    const graph = new Graph(native.graphClone(this.slot));
    return { graph, find: (node) => graph.nodeOf(native.graphFindInClone(graph.slot, checkGraphNode(node, 'node').slot)) };
  }

  /**
   * The driver's own DOT description (cuGraphDebugDotPrint); flags add detail:
   * names of {@link GraphDebugDotFlag} ('verbose' for everything) or the driver's number.
   */
  debugDot(flags: GraphDebugDotFlagName | GraphDebugDotFlagName[] | number = 0): string {
    const bits = checkFlags(flags, GraphDebugDotFlag, 'flags');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-dot-')), 'graph.dot');
    try {
      native.graphDebugDotPrint(this.slot, file, bits);
      return fs.readFileSync(file, 'utf8');
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }

  /** Our DOT: readable labels, kinds by shape and colour, data-flow edges labelled with why they exist. */
  toDot(options: { name?: string; levels?: boolean; direction?: 'TB' | 'LR' } = noOptions): string {
    const { nodes, edges } = this.topology();
    const dotNodes: DotNode[] = nodes.map((n, id) => ({ id, kind: n.type in NodeType ? dotKindOf(n.type) : 'empty', label: n.label }));
    const dotEdges: DotEdge[] = edges.map((e) => ({
      ...e, label: this.#reasonsFor(nodes[e.from], nodes[e.to]),
    }));
    return renderDot({ nodes: dotNodes, edges: dotEdges }, options);
  }

  // Why data-flow building made the edge from → to ("RAW DeviceBuffer#0, ..."); undefined for an edge it did not make.
  #reasonsFor(from: GraphNode, to: GraphNode): string | undefined {
    const tracker = this.#dataflow;
    const tracked = this.#tracked;
    if (!tracker || !tracked || tracked[to.dataflowIndex] !== to) return undefined;
    const dependency = tracker.dependenciesOf(to.dataflowIndex).find((d) => tracked[d.node] === from);
    return dependency ? dependency.reasons.map((r) => tracker.describe(r)).join(', ') : undefined;
  }

  /** Makes an executable (cuGraphInstantiate, or ...WithParams with an upload stream or when it fails). */
  instantiate(options: InstantiateOptions = noOptions): GraphExec {
    return instantiateGraph(this, options);
  }

  /** Gives the graph references to a user object (move: of the object's own). */
  retainUserObject(object: UserObject, options: { count?: number; move?: boolean } = noOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'retainUserObject', ['count', 'move']);
    native.graphRetainUserObject(this.slot, checkInstance(object, UserObject, 'object').slot,
      checkInteger(options.count ?? 1, 'options.count', 1, 2 ** 20), checkFlag(options.move, 'options.move'));
  }

  /** Releases references this graph took with retainUserObject. */
  releaseUserObject(object: UserObject, count = 1): void {
    native.graphReleaseUserObject(this.slot, checkInstance(object, UserObject, 'object').slot, checkInteger(count, 'count', 1, 2 ** 20));
  }

  /** How many resources (buffers, kernels, callbacks, ...) the graph keeps alive. */
  get resourceCount(): number {
    return native.graphResourceCount(this.slot);
  }

  /**
   * Releases the graph: the CUgraph is destroyed once no executable or launch
   * needs it, and its nodes' objects throw from now on.
   */
  override dispose(): void {
    super.dispose();
    // What only a live graph looks up goes now. The graph object stays
    // reachable until a full collection (young-generation collections keep
    // what a FinalizationRegistry watches), and through these lists every
    // node object and the tracker's arrays with it, which each collection
    // before that copied again.
    this.#nodes = [];
    this.#bySlot = undefined;
    this.#indexed = 0;
    this.#dataflow?.recycle();
    this.#dataflow = undefined;
    this.#tracked = undefined;
  }

  protected override inspectSummary(): Record<string, unknown> {
    return { nodes: this.nodeCount };
  }

  override toString(): string {
    return this.disposed ? 'Graph(disposed)' : `Graph(${this.nodeCount} nodes)`;
  }
}

setGraphWrapper((handle) => new Graph(handle));

// A node's own accesses and those its options declare: a new list only when both have some.
function accessesWith(own: readonly object[] | undefined, declared: readonly object[] | undefined, name: string): readonly object[] {
  const list = declared === undefined ? noItems : checkArray<object>(declared, name);
  return own === undefined || own.length === 0 ? list : list.length === 0 ? own : [...own, ...list];
}

function untracked(node: GraphNode): never {
  throw new TypeError(`${node} was not added through this data-flow graph, so it cannot be a dependency here`);
}

const names = new WeakMap<object, string>();
let nextName = 0;
function resourceName(resource: object): string {
  let name = names.get(resource);
  if (!name) names.set(resource, (name = `${resource.constructor?.name ?? 'buffer'}#${nextName++}`));
  return name;
}

/** One path to → … → from, which an edge from → to would close into a cycle. */
function cycleThrough(edges: ReadonlyArray<{ from: number; to: number }>, to: number, from: number): number[] {
  const next = new Map<number, number[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const previous = new Map<number, number>([[to, to]]);
  const queue = [to];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === from) break;
    for (const n2 of next.get(at) ?? []) if (!previous.has(n2)) previous.set(n2, at), queue.push(n2);
  }
  const path = [from];
  while (path[0] !== to) path.unshift(previous.get(path[0])!);
  return path;
}

