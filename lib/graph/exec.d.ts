import { Disposable } from '../disposable';
import { NativeGraphExec } from '../native';
import { Stream } from '../stream';
import type { Graph } from './graph';
import { GraphNode } from './node';
import { NodeParams } from './node-params';
export interface InstantiateOptions {
    /** Free memory the graph allocated and did not free before each new launch. */
    autoFreeOnLaunch?: boolean;
    /** Upload the executable to the device on this stream while instantiating. */
    upload?: Stream;
    /** Make it launchable from device code (section 4.2.6). */
    deviceLaunch?: boolean;
    /** Honour the priority launch attribute of kernel nodes. */
    useNodePriority?: boolean;
}
/** @internal Graph.instantiate. */
export declare function instantiateGraph(graph: Graph, options: InstantiateOptions): GraphExec;
export declare class GraphExec extends Disposable<NativeGraphExec> {
    /** @internal */
    constructor(handle: NativeGraphExec);
    get handle(): bigint;
    /** The flags it was instantiated with (cuGraphExecGetFlags). */
    get flags(): {
        autoFreeOnLaunch: boolean;
        upload: boolean;
        deviceLaunch: boolean;
        useNodePriority: boolean;
    };
    /** Queues a launch on stream (cuGraphLaunch). */
    launch(stream: Stream): void;
    /** Launches on stream and resolves when it completes, without blocking the event loop. */
    run(stream: Stream): Promise<void>;
    /** Uploads the executable ahead of its first launch (cuGraphUpload). */
    upload(stream: Stream): void;
    /**
     * Updates the executable to run graph's nodes (same topology; cuGraphExecUpdate).
     * Throws GraphUpdateError with the driver's reason and the offending node when refused.
     */
    update(graph: Graph): void;
    /**
     * Updates from graph when the driver allows it, else instantiates graph anew
     * (disposing this executable). Returns the executable to use from now on.
     */
    updateOrReinstantiate(graph: Graph, options?: InstantiateOptions): GraphExec;
    /** New parameters for one node of this executable only (perTypeCall: cuGraphExec*NodeSetParams). */
    setParams(node: GraphNode, params: NodeParams, options?: {
        perTypeCall?: boolean;
    }): void;
    /** The child graph node now runs a copy of child (same topology). */
    setChildGraph(node: GraphNode, child: Graph): void;
    /** Enables or disables a node of this executable (a disabled node does nothing when launched). */
    setEnabled(node: GraphNode, enabled: boolean): void;
    /** Gives the executable's external-semaphore node an empty set (see Graph.addExternalSemaphoreNode). */
    clearExternalSemaphores(node: GraphNode, kind: 'signal' | 'wait'): void;
    isEnabled(node: GraphNode): boolean;
    toString(): string;
}
