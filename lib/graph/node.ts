// Nodes of a graph. A node object stays usable while its graph lives; after
// destroy() it (and every other reference to the node) throws.
import { Disposable, SlotGroup } from '../disposable';
import { native, NativeEdgeData, NativeGraph, NativeGraphNode, Slot } from '../native';
import { decodeLaunchAttribute, encodeLaunchAttribute, kernelNodeAttributeId, KernelNodeAttributeName, KernelNodeAttributes } from '../launch-attributes';
import { checkArray, checkInstance } from '../validate';
import { EdgeData, decodeEdge } from './edge';
import type { Graph } from './graph';
import { encodeNodeParams, isSignal, NodeTypeName, nodeTypeName } from './node-kinds';
import type { NodeParams } from './node-params';

// How a native graph becomes a Graph; graph.ts sets it (it imports this file).
let wrapGraph: (handle: Slot<NativeGraph>) => unknown = (handle) => handle;
/** @internal */
export function setGraphWrapper(wrap: (handle: Slot<NativeGraph>) => unknown): void {
  wrapGraph = wrap;
}

/**
 * A node of a graph. The same node is always the same object (nodes(),
 * dependencies() and the builder's return values agree), usable while its
 * graph lives; after destroy() every reference to it throws.
 */
export class GraphNode extends Disposable<NativeGraphNode> {
  // Assigned in the constructor rather than declared as fields (see Disposable).

  /** The graph object the node belongs to (whose nodes() lists it). */
  declare readonly graph: Graph;

  /** A short name for DOT output and messages; set by the builder, or by you. */
  declare label: string | undefined;

  /** @internal The node's position in its data-flow graph's tracker; -1 outside one (the graph that built it sets it). */
  declare dataflowIndex: number;

  /** @internal Graph makes a node's one object (Graph.nodeOf); its slot joins the graph's group. */
  constructor(handle: Slot<NativeGraphNode>, graph: Graph, group: SlotGroup) {
    super(handle, group);
    (this as { graph: Graph }).graph = graph;
    this.label = undefined;
    this.dataflowIndex = -1;
  }

  /** The CUgraphNode value, for logs and comparisons. */
  get handle(): bigint {
    return native.graphNodeHandle(this.slot);
  }

  /** The node's kind (cuGraphNodeGetType). */
  get type(): NodeTypeName {
    const type = native.graphNodeType(this.slot);
    return nodeTypeName(type) ?? (`type ${type}` as NodeTypeName);
  }

  /** The nodes this one runs after, with each edge's data. */
  dependencies(): Array<{
    /** The upstream node. */
    node: GraphNode;
    /** The edge's data. */
    edge: EdgeData;
  }> {
    return neighbours(this.graph, native.graphNodeDependencies(this.slot));
  }

  /** The nodes that run after this one. */
  dependents(): Array<{
    /** The downstream node. */
    node: GraphNode;
    /** The edge's data. */
    edge: EdgeData;
  }> {
    return neighbours(this.graph, native.graphNodeDependents(this.slot));
  }

  /** What the driver holds for this node (cuGraph*NodeGetParams), per type. */
  params(): Record<string, unknown> & {
    /** The node's kind. */
    type: NodeTypeName;
  } {
    const raw = native.graphNodeParams(this.slot);
    const params: Record<string, unknown> = { ...raw, type: nodeTypeName(raw.type) ?? 'unknown' };
    if (raw.graph) params.graph = wrapGraph(raw.graph as Slot<NativeGraph>);
    return params as Record<string, unknown> & { type: NodeTypeName };
  }

  /**
   * New parameters for this node in its graph (not in executables made before:
   * use GraphExec.setParams for those).
   */
  setParams(params: NodeParams): void {
    native.setNodeParams(this.slot, encodeNodeParams(params));
  }

  /** A launch attribute of a kernel node (cuGraphKernelNodeGetAttribute). */
  kernelAttribute<K extends KernelNodeAttributeName>(name: K): KernelNodeAttributes[K] {
    return decodeLaunchAttribute(name, native.graphNodeGetKernelAttribute(this.slot, kernelNodeAttributeId(name))) as KernelNodeAttributes[K];
  }

  /** Sets a launch attribute of a kernel node (cuGraphKernelNodeSetAttribute). */
  setKernelAttribute<K extends KernelNodeAttributeName>(name: K, value: KernelNodeAttributes[K]): void {
    native.graphNodeSetKernelAttribute(this.slot, kernelNodeAttributeId(name), encodeLaunchAttribute(name, value));
  }

  /** Copies every launch attribute of another kernel node onto this one (cuGraphKernelNodeCopyAttributes). */
  copyKernelAttributesFrom(source: GraphNode): void {
    if (!(source instanceof GraphNode)) throw new TypeError('source must be a GraphNode');
    native.graphNodeCopyKernelAttributes(this.slot, source.slot);
  }

  /**
   * How many external semaphores an external-semaphore node holds
   * (cuGraphExternalSemaphores{Signal,Wait}NodeGetParams); see Graph.addExternalSemaphoreNode.
   */
  externalSemaphoreCount(kind: 'signal' | 'wait'): number {
    return native.externalSemaphoreCount(this.slot, isSignal(kind));
  }

  /** Gives an external-semaphore node an empty set of semaphores (cuGraphExternalSemaphores*NodeSetParams). */
  clearExternalSemaphores(kind: 'signal' | 'wait'): void {
    native.clearExternalSemaphores(this.slot, isSignal(kind));
  }

  /** Removes the node and its edges from the graph (cuGraphDestroyNode). */
  destroy(): void {
    native.graphNodeDestroy(this.slot);
  }

  protected override inspectSummary(): Record<string, unknown> {
    return { type: this.type };
  }

  override toString(): string {
    return this.disposed ? 'GraphNode(disposed)' : `GraphNode(${this.label ?? this.type})`;
  }
}

function neighbours(graph: Graph, list: { nodes: Slot<NativeGraphNode>[]; data: NativeEdgeData[] }): Array<{ node: GraphNode; edge: EdgeData }> {
  return list.nodes.map((slot, i) => ({ node: graph.nodeOf(slot), edge: decodeEdge(list.data[i]) }));
}

/**
 * @internal node, checked to be a GraphNode, for the hot calls: instanceof written here
 * sees this class only and stays a map check in optimized code, where the
 * shared checkInstance, seeing every class, takes the engine's generic path.
 */
export function checkGraphNode(node: unknown, name: string): GraphNode {
  return node instanceof GraphNode ? node : checkInstance(node, GraphNode, name);
}

/**
 * @internal Dependencies given by position in tracked (a data-flow graph's
 * nodes in its tracker's order) as the native calls that add a node take
 * them: none, one node's slot, or a list of slots.
 */
export function trackedSlots(tracked: readonly GraphNode[], positions: readonly number[]): number | number[] | undefined {
  if (positions.length === 0) return undefined;
  if (positions.length === 1) return tracked[positions[0]].slot;
  const slots = new Array<number>(positions.length);
  for (let i = 0; i < positions.length; i++) slots[i] = tracked[positions[i]].slot;
  return slots;
}

/** @internal The slots of nodes, as the native calls take them (a loop: Array.prototype.map's call per node showed in node-by-node builds). */
export function slotsOf(nodes: readonly GraphNode[]): number[] {
  const slots = new Array<number>(nodes.length);
  for (let i = 0; i < nodes.length; i++) slots[i] = nodes[i].slot;
  return slots;
}

/**
 * @internal A list of GraphNodes, checked: the list itself, not a copy. An
 * element's name (`${name}[i]`) is formatted only for its error.
 */
export function checkGraphNodes(list: unknown, name: string): readonly GraphNode[] {
  const nodes = Array.isArray(list) ? list : checkArray<unknown>(list, name);
  for (let i = 0; i < nodes.length; i++) {
    if (!(nodes[i] instanceof GraphNode)) checkInstance(nodes[i], GraphNode, `${name}[${i}]`);
  }
  return nodes as readonly GraphNode[];
}
