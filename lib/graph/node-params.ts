// Typed parameters of every node kind a graph can hold, checked and encoded
// for the native layer (native/graph/node_params.cc), which checks the memory
// ranges again before the driver sees a pointer.
import { DeviceLike, ordinalOf } from '../device';
import { slotOf } from '../disposable';
import { KernelCallFieldsIndex } from '../generated/layouts';
import type { Event } from '../event';
import type { KernelArg } from '../kernel/args';
import { checkKernel, Kernel } from '../kernel/kernel';
import type { LaunchShape } from '../kernel/launch-config';
import { MemoryHandle, memorySlot } from '../memory/bytes';
import type { NativeGraph } from '../native';
import { encodeMemoryOps, StreamMemoryOp } from '../stream-memory-ops';
import { checkArray, checkEnum, checkFlag, checkInteger, checkObject, checkSize, describeValue, noItems } from '../validate';
import type { ConditionalHandle } from './conditional';
import type { Graph } from './graph';

/** The driver's node kinds (CUgraphNodeType) by name. */
export const NodeType = {
  /** `CU_GRAPH_NODE_TYPE_KERNEL`: a kernel launch. */
  kernel: 0,
  /** `CU_GRAPH_NODE_TYPE_MEMCPY`: a copy. */
  memcpy: 1,
  /** `CU_GRAPH_NODE_TYPE_MEMSET`: a fill. */
  memset: 2,
  /** `CU_GRAPH_NODE_TYPE_HOST`: a host callback. */
  host: 3,
  /** `CU_GRAPH_NODE_TYPE_GRAPH`: a child graph. */
  graph: 4,
  /** `CU_GRAPH_NODE_TYPE_EMPTY`: no work; a join point. */
  empty: 5,
  /** `CU_GRAPH_NODE_TYPE_WAIT_EVENT`: waits for an event. */
  eventWait: 6,
  /** `CU_GRAPH_NODE_TYPE_EVENT_RECORD`: records an event. */
  eventRecord: 7,
  /** `CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL`: signals external semaphores (not built by this package). */
  extSemaphoreSignal: 8,
  /** `CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT`: waits on external semaphores (not built by this package). */
  extSemaphoreWait: 9,
  /** `CU_GRAPH_NODE_TYPE_MEM_ALLOC`: allocates memory. */
  memAlloc: 10,
  /** `CU_GRAPH_NODE_TYPE_MEM_FREE`: frees memory. */
  memFree: 11,
  /** `CU_GRAPH_NODE_TYPE_BATCH_MEM_OP`: stream memory operations. */
  batchMemOp: 12,
  /** `CU_GRAPH_NODE_TYPE_CONDITIONAL`: an if, while or switch over body graphs. */
  conditional: 13,
} as const;
/** A name of {@link NodeType}. */
export type NodeTypeName = keyof typeof NodeType;

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
  dstOffset?: number;
  /** Byte offset into src (default 0). */
  srcOffset?: number;
  /** Default: the rest of src. */
  bytes?: number;
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
  offset?: number;
  /** 1D: elements to write (default: to the end). */
  count?: number;
  /** 2D: elements per row. */
  width?: number;
  /** 2D: rows. */
  height?: number;
  /** 2D: bytes from one row to the next. */
  pitch?: number;
}

/** A JavaScript callback, called on the JavaScript thread each time a launch reaches the node. */
export interface HostNodeParams {
  /** The node kind. */
  type: 'host';
  /** Called with no arguments; the graph does not wait for it to return. */
  callback: () => void;
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
  bytes: number;
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

/** What the native layer takes: `type` as CUgraphNodeType, handles as native objects. */
export type EncodedNodeParams = Record<string, unknown> & { type: number };

const conditionKinds = { if: 0, while: 1, switch: 2 };

function nativeOf<T>(value: unknown, name: string, what: string): T {
  const handle = (value as { native?: T } | null)?.native;
  if (!handle || typeof handle !== 'object') throw new TypeError(`${name} must be a ${what}`);
  return handle;
}

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

const kernelNode: EncodedKernelNode = { type: 0, kernel: -1, record: new ArrayBuffer(0) };

/**
 * Checks a kernel node's parameters and encodes them into the shared
 * EncodedKernelNode: the kernel, its arguments, and its launch shape with the
 * device (a KernelNodeParams serves as all three, as may a shape alone).
 */
export function encodeKernelNode(kernelValue: Kernel, args: readonly KernelArg[] | undefined, shape: LaunchShape & { device?: DeviceLike }): EncodedKernelNode {
  const kernel = checkKernel(kernelValue, 'params.kernel');
  const packed = kernel.packCall(args ?? noItems, shape, 'params.args');
  packed.fields[KernelCallFieldsIndex.ordinal] = kernel.context ? kernel.context.deviceOrdinal : ordinalOf(shape.device, 'params.device');
  kernelNode.type = NodeType.kernel;
  kernelNode.kernel = kernel.slot;
  kernelNode.record = packed.record;
  return kernelNode;
}

/** @internal An external-semaphore node's kind: true for 'signal', false for 'wait'. */
export function isSignal(kind: 'signal' | 'wait'): boolean {
  if (kind !== 'signal' && kind !== 'wait') throw new TypeError(`kind must be 'signal' or 'wait', got ${describeValue(kind)}`);
  return kind === 'signal';
}

/** Checks params and encodes them for the native layer. */
export function encodeNodeParams(params: NodeParams): EncodedNodeParams {
  checkObject(params, 'params');
  switch (params.type) {
    case 'kernel':
      return encodeKernelNode(params.kernel, params.args, params);
    case 'memcpy': {
      const srcOffset = checkSize(params.srcOffset ?? 0, 'params.srcOffset');
      const src = memorySlot(params.src, 'params.src');
      const bytes = params.bytes === undefined ? Math.max(0, params.src.size - srcOffset) : checkSize(params.bytes, 'params.bytes');
      return { type: NodeType.memcpy, dst: memorySlot(params.dst, 'params.dst'), dstOffset: checkSize(params.dstOffset ?? 0, 'params.dstOffset'), src, srcOffset, bytes };
    }
    case 'memset': {
      const element = params.elementBytes ?? 1;
      if (element !== 1 && element !== 2 && element !== 4) throw new RangeError('params.elementBytes must be 1, 2 or 4');
      const target = memorySlot(params.target, 'params.target');
      const offset = checkSize(params.offset ?? 0, 'params.offset');
      const twoD = params.height !== undefined && params.height > 1;
      const width = twoD ? checkSize(params.width, 'params.width')
        : params.count !== undefined ? checkSize(params.count, 'params.count') : Math.floor(Math.max(0, params.target.size - offset) / element);
      return {
        type: NodeType.memset, target, offset, value: checkInteger(params.value, 'params.value', 0, 2 ** (8 * element) - 1),
        elementBytes: element, width, height: twoD ? checkSize(params.height, 'params.height') : 1,
        pitch: twoD ? checkSize(params.pitch, 'params.pitch') : width * element,
      };
    }
    case 'host':
      if (typeof params.callback !== 'function') throw new TypeError('params.callback must be a function');
      return { type: NodeType.host, callback: params.callback };
    case 'graph':
      return { type: NodeType.graph, graph: nativeOf<NativeGraph>(params.graph, 'params.graph', 'Graph'), move: checkFlag(params.move, 'params.move') };
    case 'empty':
      return { type: NodeType.empty };
    case 'eventRecord':
    case 'eventWait':
      return { type: NodeType[params.type], event: slotOf(params.event, 'params.event', 'Event') };
    case 'memAlloc':
      return {
        type: NodeType.memAlloc, bytes: checkSize(params.bytes, 'params.bytes'), ordinal: ordinalOf(params.device, 'params.device'),
        peers: checkArray<DeviceLike>(params.peers ?? [], 'params.peers').map((d, i) => ordinalOf(d, `params.peers[${i}]`)),
      };
    case 'memFree':
      return { type: NodeType.memFree, allocation: memorySlot(params.allocation, 'params.allocation') };
    case 'batchMemOp':
      return { type: NodeType.batchMemOp, ops: encodeMemoryOps(params.ops, 'params.ops'), ordinal: ordinalOf(params.device, 'params.device') };
    case 'conditional':
      return {
        type: NodeType.conditional, handle: nativeOf(params.handle, 'params.handle', 'ConditionalHandle'),
        kind: checkEnum(params.kind, conditionKinds, 'params.kind'), size: checkInteger(params.size, 'params.size', 1, 1024),
      };
    default:
      throw new RangeError(`params.type must be one of kernel, memcpy, memset, host, graph, empty, eventRecord, eventWait, memAlloc, memFree, batchMemOp, conditional`);
  }
}

/** The memory a node's parameters read and write, for data-flow building. */
export function accessesOf(params: NodeParams): NodeAccesses {
  switch (params.type) {
    case 'memcpy':
      return { reads: [params.src], writes: [params.dst] };
    case 'memset':
      return { reads: [], writes: [params.target] };
    case 'memFree':
      return { reads: [], writes: [params.allocation] };
    case 'batchMemOp': {
      const reads: object[] = [];
      const writes: object[] = [];
      for (const o of params.ops) {
        if (o.op.startsWith('wait')) reads.push((o as { target: object }).target);
        else if (o.op.startsWith('write')) writes.push((o as { target: object }).target);
      }
      return { reads, writes };
    }
    default:
      return { reads: [], writes: [] };
  }
}
