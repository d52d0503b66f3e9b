import { Disposable } from '../disposable';
import type { NativeGraph, NativeGraphNode } from '../native';
import { KernelNodeAttributeName, KernelNodeAttributes } from '../launch-attributes';
import { EdgeData } from './edge';
import { NodeParams, NodeTypeName } from './node-params';
/** @internal */
export declare function setGraphWrapper(wrap: (handle: NativeGraph) => unknown): void;
export declare class GraphNode extends Disposable<NativeGraphNode> {
    /** A short name for DOT output and messages; set by the builder, or by you. */
    label: string | undefined;
    /** @internal Use GraphNode.of(). */
    constructor(handle: NativeGraphNode);
    /** @internal The one wrapper of a native node. */
    static of(handle: NativeGraphNode): GraphNode;
    get handle(): bigint;
    /** The node's kind (cuGraphNodeGetType). */
    get type(): NodeTypeName;
    /** The nodes this one runs after, with each edge's data. */
    dependencies(): Array<{
        node: GraphNode;
        edge: EdgeData;
    }>;
    /** The nodes that run after this one. */
    dependents(): Array<{
        node: GraphNode;
        edge: EdgeData;
    }>;
    /** What the driver holds for this node (cuGraph*NodeGetParams), per type. */
    params(): Record<string, unknown> & {
        type: NodeTypeName;
    };
    /**
     * New parameters for this node in its graph (not in executables made before:
     * use GraphExec.setParams for those). perTypeCall uses the per-type setter
     * (cuGraphKernelNodeSetParams, ...) instead of cuGraphNodeSetParams.
     */
    setParams(params: NodeParams, options?: {
        perTypeCall?: boolean;
    }): void;
    /** A launch attribute of a kernel node (cuGraphKernelNodeGetAttribute). */
    kernelAttribute<K extends KernelNodeAttributeName>(name: K): KernelNodeAttributes[K];
    /** Sets a launch attribute of a kernel node (cuGraphKernelNodeSetAttribute). */
    setKernelAttribute<K extends KernelNodeAttributeName>(name: K, value: KernelNodeAttributes[K]): void;
    /** Copies every launch attribute of another kernel node onto this one (cuGraphKernelNodeCopyAttributes). */
    copyKernelAttributesFrom(source: GraphNode): void;
    /**
     * How many external semaphores an external-semaphore node holds
     * (cuGraphExternalSemaphores{Signal,Wait}NodeGetParams); see Graph.addExternalSemaphoreNode.
     */
    externalSemaphoreCount(kind: 'signal' | 'wait'): number;
    /** Gives an external-semaphore node an empty set of semaphores (cuGraphExternalSemaphores*NodeSetParams). */
    clearExternalSemaphores(kind: 'signal' | 'wait'): void;
    /** Removes the node and its edges from the graph (cuGraphDestroyNode). */
    destroy(): void;
    toString(): string;
}
