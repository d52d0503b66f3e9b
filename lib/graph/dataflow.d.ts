/**
 * A byte range of a resource (any object, compared by identity: a device
 * buffer, say). Accesses to disjoint ranges of one resource do not conflict.
 * A resource given without a range stands for all of it.
 */
export declare class ResourceRange {
    /** The object accessed. */
    readonly resource: object;
    /** First byte of the range. */
    readonly offset: number;
    /** Bytes in the range; Infinity when it runs to the end of the resource. */
    readonly size: number;
    /**
     * @param resource - the object accessed (not itself a ResourceRange).
     * @param offset - first byte (default 0).
     * @param size - number of bytes (default: up to the end of the resource).
     */
    constructor(resource: object, offset?: number | bigint, size?: number | bigint);
    /** One past the last byte (Infinity when the range runs to the end). */
    get end(): number;
}
/** The kinds of conflict that order two accesses to overlapping bytes. */
export type HazardKind = 'read-after-write' | 'write-after-read' | 'write-after-write';
/** Why a node depends on an earlier one. */
export type DependencyReason = 
/** The later node accesses `range` in a way that conflicts with the earlier node's access. */
{
    readonly kind: HazardKind;
    readonly range: ResourceRange;
}
/** The caller asked for the dependency (`after`). */
 | {
    readonly kind: 'explicit';
};
/** An earlier node that a new node must run after, as returned by {@link DataflowTracker.add}. */
export interface DataflowDependency<N> {
    /** The earlier node. */
    readonly node: N;
    /** Its position in the order nodes were added (0 for the first). */
    readonly index: number;
    /** Why the dependency exists; more than one when several accesses conflict. */
    readonly reasons: readonly DependencyReason[];
}
/** A kept dependency between two tracked nodes, by their positions in order of addition. */
export interface DataflowEdge {
    /** Index of the node that runs first. */
    readonly from: number;
    /** Index of the node that depends on it. */
    readonly to: number;
    /** Why the dependency exists. */
    readonly reasons: readonly DependencyReason[];
}
/** What a node touches, given to {@link DataflowTracker.add}. */
export interface NodeAccesses<N> {
    /** Resources (whole objects or {@link ResourceRange}s) the node reads. */
    readonly reads?: readonly object[];
    /** Resources (whole objects or {@link ResourceRange}s) the node writes. */
    readonly writes?: readonly object[];
    /** Earlier nodes this node must run after whatever it accesses. */
    readonly after?: readonly N[];
}
/** Options of a {@link DataflowTracker}. */
export interface DataflowTrackerOptions {
    /** How {@link DataflowTracker.describe} names a resource (default: its class name and a number, `DeviceBuffer#0`). */
    readonly nameOf?: (resource: object) => string;
}
/**
 * Infers the dependencies of nodes added one by one in program order from the
 * resources they read and write, keeping only those no other dependency
 * implies. The dependencies kept over all nodes are exactly the transitive
 * reduction of every hazard between them.
 *
 * Cost per node: the accesses' byte-range lookups (logarithmic in the number
 * of distinct ranges of the resource) plus, for the reduction, a bitset of the
 * node's ancestors (n/32 words, so memory grows as n²/64 words overall: about
 * 25 MB at 20,000 nodes).
 *
 * @typeParam N - what identifies a node for the caller (a builder's node object, a number).
 */
export declare class DataflowTracker<N = unknown> {
    private readonly addedNodes;
    private readonly indexByNode;
    private readonly incoming;
    private readonly ancestors;
    private readonly resources;
    private readonly nameOf?;
    constructor(options?: DataflowTrackerOptions);
    /** The nodes added so far, in order of addition. */
    get nodes(): readonly N[];
    /**
     * Adds the next node in program order and returns the earlier nodes it must
     * run after, fewest needed, in order of addition. Nothing changes when it throws.
     *
     * @param node - the new node; each node may be added once.
     * @param accesses - what it reads and writes, and explicit `after` dependencies.
     */
    add(node: N, accesses?: NodeAccesses<N>): DataflowDependency<N>[];
    /** The position of a node in order of addition (its id for the graph analysis functions), or -1. */
    indexOf(node: N): number;
    /** Every kept dependency, grouped by the dependent node in order of addition. */
    edges(): DataflowEdge[];
    /** A short readable form of a reason: `RAW DeviceBuffer#0[0, 64)`, `WAW weights`, `explicit`. */
    describe(reason: DependencyReason): string;
    private resourceName;
    private forEachSegment;
    private overwrite;
    private stateOf;
}
