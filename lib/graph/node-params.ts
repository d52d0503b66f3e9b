// Typed parameters of every node kind a graph can hold; lib/graph/node-kinds.ts
// checks and encodes them for the native layer (native/graph/node_kinds.cc),
// which checks the memory ranges again before the driver sees a pointer.
import type { DeviceLike } from '../device';
import type { Event } from '../event';
import type { KernelArg } from '../kernel/args';
import type { Kernel } from '../kernel/kernel';
import type { LaunchShape } from '../kernel/launch-config';
import type { MemoryHandle } from '../memory/bytes';
import type { StreamMemoryOp } from '../stream-memory-ops';
import type { ConditionalHandle } from './conditional';
import type { Graph } from './graph';

/** A kernel launch: the kernel, its launch shape and its typed arguments. */
export interface KernelNodeParams extends LaunchShape {
  /** The node kind. */
  type: 'kernel';
  /** The kernel to launch (from a Library or a Module). */
  kernel: Kernel;
  /** Its arguments, made with {@link arg} (default none). */
  args?: readonly KernelArg[];
  /** The device a library kernel runs on (default 0; a module's function runs in its module's context). */
  device?: DeviceLike;
}

/** A 1D copy between library memory (device, pinned host, managed). */
export interface CopyNodeParams {
  /** The node kind. */
  type: 'memcpy';
  /** Where to copy to. */
  dst: MemoryHandle;
  /** Where to copy from. */
  src: MemoryHandle;
  /** Byte offset into dst (default 0). */
  dstOffset?: number | bigint;
  /** Byte offset into src (default 0). */
  srcOffset?: number | bigint;
  /** Default: the rest of src. */
  bytes?: number | bigint;
}

/** A fill of 1-, 2- or 4-byte elements, 1D (count) or 2D (width, height, pitch). */
export interface FillNodeParams {
  /** The node kind. */
  type: 'memset';
  /** The memory to fill. */
  target: MemoryHandle;
  /** The element value (an unsigned integer of elementBytes). */
  value: number;
  /** The element size: 1 (default), 2 or 4 bytes. */
  elementBytes?: 1 | 2 | 4;
  /** Byte offset into target where the fill starts (default 0). */
  offset?: number | bigint;
  /** 1D: elements to write (default: to the end). */
  count?: number | bigint;
  /** 2D: elements per row. */
  width?: number | bigint;
  /** 2D: rows. */
  height?: number | bigint;
  /** 2D: bytes from one row to the next. */
  pitch?: number | bigint;
}

/** A JavaScript callback, called on the JavaScript thread each time a launch reaches the node. */
export interface HostNodeParams {
  /** The node kind. */
  type: 'host';
  /** Called with no arguments. */
  callback: () => void;
  /** Whether the nodes after it wait until it has run (default true). */
  wait?: boolean;
}

/** A child graph: another graph run as one node. */
export interface ChildGraphNodeParams {
  /** The node kind. */
  type: 'graph';
  /** Cloned into the node: later changes to it do not affect this graph. */
  graph: Graph;
  /** Move the graph into the node instead of cloning it (needed for memory nodes). */
  move?: boolean;
}

/** A node that does nothing: a join point for dependencies. */
export interface EmptyNodeParams {
  /** The node kind. */
  type: 'empty';
}

/** Records an event, or waits for one, when a launch reaches the node. */
export interface EventNodeParams {
  /** The node kind: record or wait. */
  type: 'eventRecord' | 'eventWait';
  /** The event. */
  event: Event;
}

/** Allocates memory when a launch reaches the node (a memory node). */
export interface AllocNodeParams {
  /** The node kind. */
  type: 'memAlloc';
  /** How many bytes. */
  bytes: number | bigint;
  /** The device the memory lives on (default 0). */
  device?: DeviceLike;
  /** Other devices that may access the memory. */
  peers?: DeviceLike[];
}

/** Frees memory a graph allocated (or stream-ordered memory) when a launch reaches the node. */
export interface FreeNodeParams {
  /** The node kind. */
  type: 'memFree';
  /** A GraphAllocation of this or another graph, or stream-ordered memory. */
  allocation: MemoryHandle;
}

/** Stream memory operations (waits and writes of 32/64-bit words, barriers) as one node. */
export interface MemoryOpsNodeParams {
  /** The node kind. */
  type: 'batchMemOp';
  /** The operations, in order. */
  ops: readonly StreamMemoryOp[];
  /** The device whose context runs barrier-only batches (default 0). */
  device?: DeviceLike;
}

/** A conditional node: runs body graphs as a handle's value says. */
export interface ConditionalNodeParams {
  /** The node kind. */
  type: 'conditional';
  /** The handle whose value decides (made with graph.conditionalHandle()). */
  handle: ConditionalHandle;
  /** 'if' (body 0 when non-zero, body 1 otherwise), 'while' (body 0 while non-zero) or 'switch' (body n for value n). */
  kind: 'if' | 'while' | 'switch';
  /** Body graphs: 1 for while, 1 or 2 (else) for if, the case count for switch. */
  size: number;
}

/** The parameters of any node, told apart by `type`. */
export type NodeParams =
  | KernelNodeParams
  | CopyNodeParams
  | FillNodeParams
  | HostNodeParams
  | ChildGraphNodeParams
  | EmptyNodeParams
  | EventNodeParams
  | AllocNodeParams
  | FreeNodeParams
  | MemoryOpsNodeParams
  | ConditionalNodeParams;

/** What the native layer takes: `type` as CUgraphNodeType, handles by slot. */
export type EncodedNodeParams = Record<string, unknown> & { type: number };

/** The memory resources a node reads and writes, as the data-flow builder sees them. */
export interface NodeAccesses {
  reads: object[];
  writes: object[];
}

/**
 * A kernel node's parameters as the native layer takes them, one by one
 * (addKernelNode, execSetKernelNodeParams) or as the fields of an object
 * (encodeNodeParams): kernel and memory by slot, the arguments packed in the
 * kernel's reused buffers. One object, overwritten by each encoding: hand it
 * over at once. (A type, not an interface: it is also an EncodedNodeParams.)
 */
export type EncodedKernelNode = {
  type: number;
  kernel: number;
  /** The kernel's packed record (PackedArgs): launch shape, counts and device ordinal included. */
  record: ArrayBuffer;
};

