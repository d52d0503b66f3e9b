/** A dependency: `to` may start only after `from` has completed. */
export interface GraphEdge {
    /** Id of the node that runs first, in [0, nodeCount). */
    readonly from: number;
    /** Id of the node that depends on it, in [0, nodeCount). */
    readonly to: number;
}
/** A graph that should be acyclic has a cycle; {@link cycle} lists the nodes on one of them. */
export declare class GraphCycleError extends Error {
    /** Node ids along one cycle, in edge order: each depends on the one before and the first on the last. */
    readonly cycle: readonly number[];
    /**
     * @param cycle - the node ids along the cycle, in edge order.
     * @param label - how to name a node in the message (default: its id).
     */
    constructor(cycle: readonly number[], label?: (id: number) => string);
}
/**
 * The node ids in an order where every edge goes forward. Among the valid
 * orders it is the one that always takes the smallest ready id, so ids that
 * are already in dependency order come back unchanged.
 *
 * @throws GraphCycleError when the graph has a cycle (a self-edge counts).
 */
export declare function topologicalOrder(nodeCount: number, edges: readonly GraphEdge[]): number[];
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
export declare function transitiveReduction<E extends GraphEdge>(nodeCount: number, edges: readonly E[]): E[];
/**
 * The nodes grouped by level: a node's level is the number of edges on the
 * longest path from a root (a node with no incoming edge) to it. Nodes of one
 * level never depend on each other, so they may run together. Ids within a
 * level are ascending.
 *
 * @throws GraphCycleError when the graph has a cycle.
 */
export declare function levelSets(nodeCount: number, edges: readonly GraphEdge[]): number[][];
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
export declare function criticalPath(nodeCount: number, edges: readonly GraphEdge[], weights?: readonly number[]): CriticalPath;
/**
 * Whether a path of zero or more edges leads from `from` to `to` (a node
 * reaches itself). Adding an edge a→b makes a cycle exactly when b reaches a.
 */
export declare function reaches(nodeCount: number, edges: readonly GraphEdge[], from: number, to: number): boolean;
