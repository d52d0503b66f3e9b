/** The kinds of graph node, as the driver has them (CU_GRAPH_NODE_TYPE_*). */
export type GraphNodeKind = 'kernel' | 'memcpy' | 'memset' | 'host' | 'child' | 'empty' | 'event-wait' | 'event-record' | 'ext-semaphore-signal' | 'ext-semaphore-wait' | 'mem-alloc' | 'mem-free' | 'batch-mem-op' | 'conditional';
/** A node to draw. */
export interface DotNode {
    /** Its id, a non-negative integer that edges refer to; unique within the graph. */
    readonly id: number;
    /** What kind of node it is; decides shape and colour. */
    readonly kind: GraphNodeKind;
    /** Its name (a kernel's name, `copy x to host`); the kind is shown when absent. */
    readonly label?: string;
    /** More lines under the label (`grid 64×1×1, block 256`, `4096 bytes`). */
    readonly detail?: string;
}
/** An edge to draw. */
export interface DotEdge {
    /** Id of the node that runs first. */
    readonly from: number;
    /** Id of the node that depends on it. */
    readonly to: number;
    /** Text beside the edge (why it exists: `RAW x`, its edge type). */
    readonly label?: string;
    /** Line style (default solid). */
    readonly style?: 'solid' | 'dashed' | 'dotted' | 'bold';
}
/** Options of {@link renderDot}. */
export interface DotOptions {
    /** The graph's name (default `graph`). */
    readonly name?: string;
    /** Direction of the edges: top to bottom (default) or left to right. */
    readonly direction?: 'TB' | 'LR';
    /** Put the nodes of one level set, which may run together, side by side (default false; needs an acyclic graph). */
    readonly levels?: boolean;
}
/**
 * The graph as Graphviz DOT text, one statement a line, with every label
 * escaped. Nodes and edges keep the order given.
 *
 * @throws GraphCycleError when `levels` is asked for and the graph has a cycle.
 */
export declare function renderDot(graph: {
    readonly nodes: readonly DotNode[];
    readonly edges: readonly DotEdge[];
}, options?: DotOptions): string;
