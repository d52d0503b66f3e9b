import { DeviceLike } from '../device';
import type { Event } from '../event';
import { KernelArg } from '../kernel/args';
import { Kernel } from '../kernel/kernel';
import { LaunchShape } from '../kernel/launch-config';
import { MemoryHandle } from '../memory/bytes';
import type { StreamMemoryOp } from '../stream';
import type { ConditionalHandle } from './conditional';
import type { Graph } from './graph';
/** CUgraphNodeType values. */
export declare const NodeType: {
    readonly kernel: 0;
    readonly memcpy: 1;
    readonly memset: 2;
    readonly host: 3;
    readonly graph: 4;
    readonly empty: 5;
    readonly eventWait: 6;
    readonly eventRecord: 7;
    readonly extSemaphoreSignal: 8;
    readonly extSemaphoreWait: 9;
    readonly memAlloc: 10;
    readonly memFree: 11;
    readonly batchMemOp: 12;
    readonly conditional: 13;
};
export type NodeTypeName = keyof typeof NodeType;
/** A kernel launch: the kernel, its launch shape and its typed arguments. */
export interface KernelNodeParams extends LaunchShape {
    type: 'kernel';
    kernel: Kernel;
    args?: readonly KernelArg[];
    /** The device a library kernel runs on (default 0; a module's function runs in its module's context). */
    device?: DeviceLike;
}
/** A 1D copy between library memory (device, pinned host, managed). */
export interface CopyNodeParams {
    type: 'memcpy';
    dst: MemoryHandle;
    src: MemoryHandle;
    dstOffset?: number;
    srcOffset?: number;
    /** Default: the rest of src. */
    bytes?: number;
}
/** A fill of 1-, 2- or 4-byte elements, 1D (count) or 2D (width, height, pitch). */
export interface FillNodeParams {
    type: 'memset';
    target: MemoryHandle;
    value: number;
    elementBytes?: 1 | 2 | 4;
    offset?: number;
    /** 1D: elements to write (default: to the end). */
    count?: number;
    /** 2D: elements per row, rows, and bytes between rows. */
    width?: number;
    height?: number;
    pitch?: number;
}
/** A JavaScript callback, called on the JavaScript thread each time a launch reaches the node. */
export interface HostNodeParams {
    type: 'host';
    callback: () => void;
}
export interface ChildGraphNodeParams {
    type: 'graph';
    /** Cloned into the node: later changes to it do not affect this graph. */
    graph: Graph;
    /** Move the graph into the node instead of cloning it (needed for memory nodes). */
    move?: boolean;
}
export interface EmptyNodeParams {
    type: 'empty';
}
export interface EventNodeParams {
    type: 'eventRecord' | 'eventWait';
    event: Event;
}
export interface AllocNodeParams {
    type: 'memAlloc';
    bytes: number;
    device?: DeviceLike;
    /** Other devices that may access the memory. */
    peers?: DeviceLike[];
}
export interface FreeNodeParams {
    type: 'memFree';
    /** A GraphAllocation of this or another graph, or stream-ordered memory. */
    allocation: MemoryHandle;
}
export interface MemoryOpsNodeParams {
    type: 'batchMemOp';
    ops: readonly StreamMemoryOp[];
    /** The device whose context runs barrier-only batches (default 0). */
    device?: DeviceLike;
}
export interface ConditionalNodeParams {
    type: 'conditional';
    handle: ConditionalHandle;
    kind: 'if' | 'while' | 'switch';
    /** Body graphs: 1 for while, 1 or 2 (else) for if, the case count for switch. */
    size: number;
}
export type NodeParams = KernelNodeParams | CopyNodeParams | FillNodeParams | HostNodeParams | ChildGraphNodeParams | EmptyNodeParams | EventNodeParams | AllocNodeParams | FreeNodeParams | MemoryOpsNodeParams | ConditionalNodeParams;
/** What the native layer takes: `type` as CUgraphNodeType, handles as native objects. */
export type EncodedNodeParams = Record<string, unknown> & {
    type: number;
};
/** The memory resources a node reads and writes, as the data-flow builder sees them. */
export interface NodeAccesses {
    reads: object[];
    writes: object[];
}
export declare function encodeKernel(p: KernelNodeParams): EncodedNodeParams;
/** Checks params and encodes them for the native layer. */
export declare function encodeNodeParams(params: NodeParams): EncodedNodeParams;
/** The memory a node's parameters read and write, for data-flow building. */
export declare function accessesOf(params: NodeParams): NodeAccesses;
