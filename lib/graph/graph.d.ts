import { DeviceLike } from '../device';
import { Disposable } from '../disposable';
import type { Event } from '../event';
import type { KernelArg } from '../kernel/args';
import type { Kernel } from '../kernel/kernel';
import type { LaunchShape } from '../kernel/launch-config';
import type { MemoryHandle } from '../memory/bytes';
import { NativeGraph } from '../native';
import type { StreamMemoryOp } from '../stream';
import { ConditionalHandle } from './conditional';
import { EdgeData } from './edge';
import { GraphExec, InstantiateOptions } from './exec';
import { GraphAllocation } from './memory';
import { GraphNode } from './node';
import { NodeParams } from './node-params';
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
    /**
     * Use the per-type driver call (cuGraphAddKernelNode, ...) instead of
     * cuGraphAddNode, as drivers before CUDA 12.3 need. Cannot carry edge data.
     */
    perTypeCall?: boolean;
}
export interface GraphOptions {
    /**
     * Infer each node's dependencies from the memory it reads and writes (copies
     * and fills know theirs; declare a kernel's with reads/writes), keeping only
     * the edges no other path implies.
     */
    dataflow?: boolean;
}
/** The result of adding a conditional node. */
export interface ConditionalNode {
    node: GraphNode;
    /** The body graphs, owned by the node: build into them. */
    bodies: Graph[];
}
export declare class Graph extends Disposable<NativeGraph> {
    #private;
    /** @internal */
    constructor(handle: NativeGraph, options?: GraphOptions);
    /** An empty graph (cuGraphCreate). */
    static create(options?: GraphOptions): Graph;
    get handle(): bigint;
    /** True for a graph that infers edges from the memory its nodes touch. */
    get dataflow(): boolean;
    /** How many nodes the graph has (cuGraphGetNodes). */
    get nodeCount(): number;
    /** Adds a node of any kind (cuGraphAddNode, or the per-type call). */
    addNode(params: NodeParams, options?: NodeOptions): GraphNode;
    /** A kernel launch: `graph.addKernel(kernel, { grid, block }, [arg.ptr(x), arg.u32(n)], { reads: [x] })`. */
    addKernel(kernel: Kernel, shape: LaunchShape, args?: readonly KernelArg[], options?: NodeOptions): GraphNode;
    /** A 1D copy between library memory (default: all of src). */
    addCopy(dst: MemoryHandle, src: MemoryHandle, copy?: {
        dstOffset?: number;
        srcOffset?: number;
        bytes?: number;
    }, options?: NodeOptions): GraphNode;
    /** A fill of target with value in 1-, 2- or 4-byte elements (1D count, or 2D width/height/pitch). */
    addFill(target: MemoryHandle, value: number, fill?: {
        elementBytes?: 1 | 2 | 4;
        offset?: number;
        count?: number;
        width?: number;
        height?: number;
        pitch?: number;
    }, options?: NodeOptions): GraphNode;
    /**
     * A JavaScript callback, run on the JavaScript thread each time a launch
     * reaches the node. The graph does not wait for it: work after the node may
     * start before it runs.
     */
    addHost(callback: () => void, options?: NodeOptions): GraphNode;
    /**
     * Embeds a copy of child (later changes to child do not apply), or with
     * move the child itself, which a graph with memory nodes needs: it then
     * belongs to this graph and cannot be instantiated or embedded elsewhere.
     */
    addChild(child: Graph, options?: NodeOptions & {
        move?: boolean;
    }): GraphNode;
    /** A node that does nothing: a join point for dependencies. */
    addEmpty(options?: NodeOptions): GraphNode;
    addEventRecord(event: Event, options?: NodeOptions): GraphNode;
    addEventWait(event: Event, options?: NodeOptions): GraphNode;
    /**
     * Allocates memory when a launch reaches the node; valid for nodes after it
     * until a free node (or, with autoFreeOnLaunch, the next launch).
     */
    addAlloc(bytes: number, memory?: {
        device?: DeviceLike;
        peers?: DeviceLike[];
    }, options?: NodeOptions): {
        node: GraphNode;
        allocation: GraphAllocation;
    };
    /** Frees memory a graph allocated. */
    addFree(allocation: MemoryHandle, options?: NodeOptions): GraphNode;
    /** Stream memory operations (wait/write 32/64-bit values, barriers) as one node. */
    addMemoryOps(ops: readonly StreamMemoryOp[], options?: NodeOptions & {
        device?: DeviceLike;
    }): GraphNode;
    /**
     * An external-semaphore signal or wait node. External semaphores come from
     * graphics and other APIs whose import is outside this package's scope, so
     * the node can only be made with none; the driver's answer says whether it
     * accepts that.
     */
    addExternalSemaphoreNode(kind: 'signal' | 'wait', options?: {
        after?: readonly GraphNode[];
    }): GraphNode;
    /**
     * A handle for conditional nodes of this graph. With defaultValue, every
     * launch starts it at that value; device code sets it with cudaGraphSetConditional.
     */
    conditionalHandle(options?: {
        defaultValue?: number;
        device?: DeviceLike;
    }): ConditionalHandle;
    /** Runs `then` when the handle is non-zero, else `else` (when asked for). */
    addIf(handle: ConditionalHandle, options?: NodeOptions & {
        withElse?: boolean;
    }): {
        node: GraphNode;
        then: Graph;
        else?: Graph;
    };
    /** Runs body again and again while the handle is non-zero (checked before each run). */
    addWhile(handle: ConditionalHandle, options?: NodeOptions): {
        node: GraphNode;
        body: Graph;
    };
    /** Runs cases[handle value], or nothing when the value is out of range. */
    addSwitch(handle: ConditionalHandle, cases: number, options?: NodeOptions): {
        node: GraphNode;
        cases: Graph[];
    };
    /** Adds edges from[i] → to[i]; refuses one that would close a cycle, before the driver sees it. */
    addEdges(from: readonly GraphNode[], to: readonly GraphNode[], data?: readonly EdgeData[]): void;
    removeEdges(from: readonly GraphNode[], to: readonly GraphNode[], data?: readonly EdgeData[]): void;
    /** Every node (cuGraphGetNodes). */
    nodes(): GraphNode[];
    /** Nodes without dependencies (cuGraphGetRootNodes). */
    rootNodes(): GraphNode[];
    /** Every edge with its data (cuGraphGetEdges). */
    edges(): Array<{
        from: GraphNode;
        to: GraphNode;
        data: Required<EdgeData>;
    }>;
    /** Nodes numbered 0..n-1 and the edges between them, for the analysis functions. */
    topology(): {
        nodes: GraphNode[];
        edges: Array<{
            from: number;
            to: number;
        }>;
    };
    /** Groups of nodes that may run together: level k holds nodes whose longest path from a root has k edges. */
    levels(): GraphNode[][];
    /** The longest chain of dependent nodes, optionally weighted (e.g. by measured node time). */
    criticalPath(weight?: (node: GraphNode) => number): {
        path: GraphNode[];
        length: number;
    };
    /** A copy of the graph (cuGraphClone), holding the same resources; find() maps a node to its copy. */
    clone(): {
        graph: Graph;
        find(node: GraphNode): GraphNode;
    };
    /** The driver's own DOT description (cuGraphDebugDotPrint); flags add detail (1: verbose). */
    debugDot(flags?: number): string;
    /** Our DOT: readable labels, kinds by shape and colour, data-flow edges labelled with why they exist. */
    toDot(options?: {
        name?: string;
        levels?: boolean;
        direction?: 'TB' | 'LR';
    }): string;
    /** Makes an executable (cuGraphInstantiate, or ...WithParams with an upload stream or when it fails). */
    instantiate(options?: InstantiateOptions): GraphExec;
    /** Gives the graph references to a user object (move: of the object's own). */
    retainUserObject(object: UserObject, options?: {
        count?: number;
        move?: boolean;
    }): void;
    /** Releases references this graph took with retainUserObject. */
    releaseUserObject(object: UserObject, count?: number): void;
    /** How many resources (buffers, kernels, callbacks, ...) the graph keeps alive. */
    get resourceCount(): number;
    toString(): string;
}
