// Analysis of a dependency graph before the driver sees it: order and cycle
// check, transitive reduction, level sets and critical path. Nodes are dense
// integer ids 0..nodeCount-1 and edges are {from, to} objects, so any graph
// (a builder's, a captured one read back) maps onto these functions cheaply.
import { checkArray, checkInteger, checkNumber, checkObject } from '../validate';

/** A dependency: `to` may start only after `from` has completed. */
export interface GraphEdge {
  /** Id of the node that runs first, in [0, nodeCount). */
  readonly from: number;
  /** Id of the node that depends on it, in [0, nodeCount). */
  readonly to: number;
}

/** A graph that should be acyclic has a cycle; {@link cycle} lists the nodes on one of them. */
export class GraphCycleError extends Error {
  /** 'ERR_CUDA_GRAPH_CYCLE'. */
  readonly code = 'ERR_CUDA_GRAPH_CYCLE';
  /** Node ids along one cycle, in edge order: each depends on the one before and the first on the last. */
  readonly cycle: readonly number[];

  /**
   * @param cycle - the node ids along the cycle, in edge order.
   * @param label - how to name a node in the message (default: its id).
   */
  constructor(cycle: readonly number[], label: (id: number) => string = String) {
    const names = cycle.map(label);
    super(`the graph has a cycle: ${[...names, names[0]].join(' → ')}`);
    this.name = 'GraphCycleError';
    this.cycle = cycle;
  }
}

/**
 * The node ids in an order where every edge goes forward. Among the valid
 * orders it is the one that always takes the smallest ready id, so ids that
 * are already in dependency order come back unchanged.
 *
 * @throws GraphCycleError when the graph has a cycle (a self-edge counts).
 */
export function topologicalOrder(nodeCount: number, edges: readonly GraphEdge[]): number[] {
  return Array.from(orderOf(readGraph(nodeCount, edges)));
}

/**
 * The fewest edges with the same reachability: the edges of `edges` that no
 * longer path implies, in their input order (duplicates kept once, the first).
 * The objects returned are the caller's, so labels attached to them survive.
 *
 * Time is O((n + m) · n / 32) word operations at worst; memory stays within
 * about 16 MiB of bitsets however large the graph (larger graphs take more
 * passes).
 *
 * @throws GraphCycleError when the graph has a cycle.
 */
export function transitiveReduction<E extends GraphEdge>(nodeCount: number, edges: readonly E[]): E[] {
  const graph = readGraph(nodeCount, edges);
  const { n } = graph;
  const order = orderOf(graph);
  const position = new Int32Array(n);
  for (let p = 0; p < n; p++) position[order[p]] = p;

  // Successor lists sorted by the target's topological position, without
  // duplicates: visiting targets in order and appending to each source's list.
  const successorEnd = graph.outStart.slice(0, n);
  const successors = new Int32Array(graph.edgeCount);
  const successorEdge = new Int32Array(graph.edgeCount);
  const kept = new Uint8Array(graph.edgeCount);
  for (let p = 0; p < n; p++) {
    const w = order[p];
    for (let i = graph.inStart[w]; i < graph.inStart[w + 1]; i++) {
      const u = graph.inFrom[i];
      const end = successorEnd[u];
      if (end > graph.outStart[u] && successors[end - 1] === w) continue; // a duplicate edge
      successors[end] = w;
      successorEdge[end] = graph.inEdge[i];
      successorEnd[u] = end + 1;
    }
  }

  // An edge v→w is redundant when w is reachable from another successor of v;
  // such a successor comes before w in topological order. Walking v's
  // successors in that order while accumulating what they reach decides each
  // edge. Reachability is kept as bitsets over topological positions, one
  // window of target positions per pass so memory stays bounded.
  const totalWords = Math.ceil(n / 32);
  const rowWords = Math.max(1, Math.min(totalWords, Math.floor(BITSET_BUDGET_WORDS / Math.max(n, 1))));
  const reach = new Uint32Array(n * rowWords);
  for (let low = 0; low < n; low += rowWords * 32) {
    const high = Math.min(n, low + rowWords * 32);
    reach.fill(0, 0, high * rowWords);
    // Nodes at positions >= high reach nothing in this window; skip them.
    for (let p = high - 1; p >= 0; p--) {
      const v = order[p];
      const row = p * rowWords;
      if (p >= low) reach[row + ((p - low) >>> 5)] |= 1 << ((p - low) & 31);
      for (let i = graph.outStart[v]; i < successorEnd[v]; i++) {
        const q = position[successors[i]];
        if (q >= high) break;
        if (q >= low) {
          const bit = q - low;
          if (reach[row + (bit >>> 5)] & (1 << (bit & 31))) continue; // reached already: redundant
          kept[successorEdge[i]] = 1;
        }
        const from = q * rowWords;
        for (let k = 0; k < rowWords; k++) reach[row + k] |= reach[from + k];
      }
    }
  }
  return edges.filter((_, i) => kept[i] === 1);
}

/**
 * The nodes grouped by level: a node's level is the number of edges on the
 * longest path from a root (a node with no incoming edge) to it. Nodes of one
 * level never depend on each other, so they may run together. Ids within a
 * level are ascending.
 *
 * @throws GraphCycleError when the graph has a cycle.
 */
export function levelSets(nodeCount: number, edges: readonly GraphEdge[]): number[][] {
  const graph = readGraph(nodeCount, edges);
  const level = new Int32Array(graph.n);
  for (const v of orderOf(graph)) {
    for (let i = graph.inStart[v]; i < graph.inStart[v + 1]; i++) level[v] = Math.max(level[v], level[graph.inFrom[i]] + 1);
  }
  const levels: number[][] = [];
  for (let v = 0; v < graph.n; v++) (levels[level[v]] ??= []).push(v);
  return levels;
}

/** The longest path through a graph, as returned by {@link criticalPath}. */
export interface CriticalPath {
  /** Node ids from the path's root to its end; empty for an empty graph. */
  readonly path: number[];
  /** The sum of the weights of the nodes on the path. */
  readonly length: number;
}

/**
 * The heaviest path: the chain of dependent nodes whose weights (expected
 * durations) add up to the most, which bounds how fast the graph can run
 * however many nodes run together. Ties go to the smaller ids.
 *
 * @param weights - one finite, non-negative weight per node (default 1 each, so
 *   the path with the most nodes).
 * @throws GraphCycleError when the graph has a cycle.
 */
export function criticalPath(nodeCount: number, edges: readonly GraphEdge[], weights?: readonly number[]): CriticalPath {
  const graph = readGraph(nodeCount, edges);
  const { n } = graph;
  const weight = new Float64Array(n).fill(1);
  if (weights !== undefined) {
    checkArray(weights, 'weights');
    if (weights.length !== n) throw new RangeError(`weights must have one entry per node (${n}), got ${weights.length}`);
    for (let v = 0; v < n; v++) weight[v] = checkNumber(weights[v], `weights[${v}]`, 0);
  }
  const total = new Float64Array(n);
  const previous = new Int32Array(n).fill(-1);
  for (const v of orderOf(graph)) {
    let best = -1;
    for (let i = graph.inStart[v]; i < graph.inStart[v + 1]; i++) {
      const u = graph.inFrom[i];
      if (best < 0 || total[u] > total[best] || (total[u] === total[best] && u < best)) best = u;
    }
    previous[v] = best;
    total[v] = weight[v] + (best < 0 ? 0 : total[best]);
  }
  let end = -1;
  for (let v = 0; v < n; v++) if (end < 0 || total[v] > total[end]) end = v;
  const path: number[] = [];
  for (let v = end; v >= 0; v = previous[v]) path.push(v);
  return { path: path.reverse(), length: end < 0 ? 0 : total[end] };
}

/**
 * Whether a path of zero or more edges leads from `from` to `to` (a node
 * reaches itself). Adding an edge a→b makes a cycle exactly when b reaches a.
 */
export function reaches(nodeCount: number, edges: readonly GraphEdge[], from: number, to: number): boolean {
  const graph = readGraph(nodeCount, edges);
  checkInteger(from, 'from', 0, graph.n - 1);
  checkInteger(to, 'to', 0, graph.n - 1);
  const seen = new Uint8Array(graph.n);
  const stack = [from];
  seen[from] = 1;
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === to) return true;
    for (let i = graph.outStart[v]; i < graph.outStart[v + 1]; i++) {
      const w = graph.outTo[i];
      if (!seen[w]) {
        seen[w] = 1;
        stack.push(w);
      }
    }
  }
  return false;
}

// Bitset memory one reduction pass may use (16 MiB of 32-bit words).
const BITSET_BUDGET_WORDS = 1 << 22;

/** Validated edges in compressed adjacency form, both directions. */
interface CompactGraph {
  readonly n: number;
  readonly edgeCount: number;
  /** Out-edges of v: outTo[outStart[v] .. outStart[v + 1]). */
  readonly outStart: Int32Array;
  readonly outTo: Int32Array;
  /** In-edges of v: inFrom[inStart[v] .. inStart[v + 1]), with the index of each in the input. */
  readonly inStart: Int32Array;
  readonly inFrom: Int32Array;
  readonly inEdge: Int32Array;
}

function readGraph(nodeCount: number, edges: readonly GraphEdge[]): CompactGraph {
  const n = checkInteger(nodeCount, 'nodeCount', 0, 0x7fffffff);
  checkArray(edges, 'edges');
  const m = edges.length;
  const from = new Int32Array(m);
  const to = new Int32Array(m);
  const outStart = new Int32Array(n + 1);
  const inStart = new Int32Array(n + 1);
  const isNode = (id: unknown): id is number => typeof id === 'number' && Number.isInteger(id) && id >= 0 && id < n;
  for (let i = 0; i < m; i++) {
    const edge = edges[i] as GraphEdge | null | undefined;
    if (!isNode(edge?.from) || !isNode(edge?.to)) {
      // Named checks (and their message strings) only for the edge that fails.
      checkObject(edge, `edges[${i}]`);
      checkInteger(edge!.from, `edges[${i}].from`, 0, n - 1);
      checkInteger(edge!.to, `edges[${i}].to`, 0, n - 1);
    }
    from[i] = edge!.from;
    to[i] = edge!.to;
    outStart[from[i] + 1]++;
    inStart[to[i] + 1]++;
  }
  for (let v = 0; v < n; v++) {
    outStart[v + 1] += outStart[v];
    inStart[v + 1] += inStart[v];
  }
  const outTo = new Int32Array(m);
  const inFrom = new Int32Array(m);
  const inEdge = new Int32Array(m);
  const outFill = outStart.slice(0, n);
  const inFill = inStart.slice(0, n);
  for (let i = 0; i < m; i++) {
    outTo[outFill[from[i]]++] = to[i];
    const slot = inFill[to[i]]++;
    inFrom[slot] = from[i];
    inEdge[slot] = i;
  }
  return { n, edgeCount: m, outStart, outTo, inStart, inFrom, inEdge };
}

// Kahn's algorithm with a min-heap of ready nodes: the smallest-id-first order.
function orderOf(graph: CompactGraph): Int32Array {
  const { n } = graph;
  const waiting = new Int32Array(n);
  for (let v = 0; v < n; v++) waiting[v] = graph.inStart[v + 1] - graph.inStart[v];
  const heap = new Int32Array(n);
  let heapSize = 0;
  const push = (v: number): void => {
    let i = heapSize++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent] <= v) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = v;
  };
  const pop = (): number => {
    const top = heap[0];
    const last = heap[--heapSize];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= heapSize) break;
      if (child + 1 < heapSize && heap[child + 1] < heap[child]) child++;
      if (heap[child] >= last) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = last;
    return top;
  };
  for (let v = 0; v < n; v++) if (waiting[v] === 0) push(v);
  const order = new Int32Array(n);
  let count = 0;
  while (heapSize > 0) {
    const v = pop();
    order[count++] = v;
    for (let i = graph.outStart[v]; i < graph.outStart[v + 1]; i++) if (--waiting[graph.outTo[i]] === 0) push(graph.outTo[i]);
  }
  if (count < n) throw new GraphCycleError(findCycle(graph, waiting));
  return order;
}

// After Kahn's algorithm stops early, every node left waiting has a waiting
// predecessor, so walking backwards through waiting nodes must repeat one.
function findCycle(graph: CompactGraph, waiting: Int32Array): number[] {
  let start = 0;
  while (waiting[start] === 0) start++;
  const indexOnWalk = new Int32Array(graph.n).fill(-1);
  const walk: number[] = [];
  let v = start;
  while (indexOnWalk[v] < 0) {
    indexOnWalk[v] = walk.length;
    walk.push(v);
    let predecessor = -1;
    for (let i = graph.inStart[v]; i < graph.inStart[v + 1] && predecessor < 0; i++) {
      if (waiting[graph.inFrom[i]] > 0) predecessor = graph.inFrom[i];
    }
    v = predecessor;
  }
  // The walk went against the edges; the cycle runs forwards from v.
  const cycle = [v, ...walk.slice(indexOnWalk[v] + 1).reverse()];
  const first = cycle.indexOf(cycle.reduce((a, b) => Math.min(a, b)));
  return [...cycle.slice(first), ...cycle.slice(0, first)];
}
