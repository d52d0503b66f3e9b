// The node kinds a graph can hold, one row each: the kind's name (the one
// users pass as `params.type` and GraphNode.type returns, the driver's
// CU_GRAPH_NODE_TYPE_* name), its CUgraphNodeType number, the Graph method
// that adds it, its look in DOT output, how its parameters are checked and
// encoded for the native layer, and what memory it reads and writes for
// data-flow building. native/graph/node_kinds.cc has the kinds' native rows;
// adding a kind is a row in each (and its parameter type in node-params.ts).
import { DeviceLike, ordinalOf } from '../device';
import { slotOf } from '../disposable';
import type { KernelArg } from '../kernel/args';
import { checkKernel, Kernel } from '../kernel/kernel';
import type { LaunchShape } from '../kernel/launch-config';
import { memorySlot } from '../memory/bytes';
import { encodeMemoryOps } from '../stream-memory-ops';
import { checkArray, checkBoolean, checkDriverSize, checkEnum, checkFlag, checkInteger, checkObject, checkSize, describeValue, noItems } from '../validate';
import type { GraphNodeKind } from './dot';
import type { EncodedKernelNode, EncodedNodeParams, NodeAccesses, NodeParams } from './node-params';

/** A row of the table: a kind whose parameters are P (never: not built by this package). */
interface NodeKindRow<P> {
  /** Its CUgraphNodeType. */
  readonly type: number;
  /** The Graph method that adds it (addNode adds every kind built here). */
  readonly method: string;
  /** How DOT output draws it. */
  readonly dot: GraphNodeKind;
  /** Checks its parameters and encodes them, with its type, for the native layer; absent for a kind not built here. */
  readonly encode?: (params: P, type: number) => EncodedNodeParams;
  /** The memory it reads and writes itself; absent: none (a kernel's are declared in its options). */
  readonly accesses?: (params: P) => NodeAccesses;
}

// Every kind: those of the parameter types, and those this package does not build.
type KindName = NodeParams['type'] | 'extSemaphoreSignal' | 'extSemaphoreWait';
// The parameters of kind K (an EventNodeParams serves two kinds).
type ParamsOf<K> = NodeParams extends infer P ? (P extends { type: infer T } ? (K extends T ? P : never) : never) : never;

const nodeKinds = {
  /** `CU_GRAPH_NODE_TYPE_KERNEL`: a kernel launch. */
  kernel: { type: 0, method: 'addKernel', dot: 'kernel', encode: (p) => encodeKernelNode(p.kernel, p.args, p) },
  /** `CU_GRAPH_NODE_TYPE_MEMCPY`: a copy. */
  memcpy: { type: 1, method: 'addCopy', dot: 'memcpy', encode: encodeCopy, accesses: (p) => ({ reads: [p.src], writes: [p.dst] }) },
  /** `CU_GRAPH_NODE_TYPE_MEMSET`: a fill. */
  memset: { type: 2, method: 'addFill', dot: 'memset', encode: encodeFill, accesses: (p) => ({ reads: [], writes: [p.target] }) },
  /** `CU_GRAPH_NODE_TYPE_HOST`: a host callback. */
  host: {
    type: 3, method: 'addHost', dot: 'host',
    encode: (p, type) => {
      if (typeof p.callback !== 'function') throw new TypeError('params.callback must be a function');
      return { type, callback: p.callback, wait: p.wait === undefined ? true : checkBoolean(p.wait, 'params.wait') };
    },
  },
  /** `CU_GRAPH_NODE_TYPE_GRAPH`: a child graph. */
  graph: {
    type: 4, method: 'addChild', dot: 'child',
    encode: (p, type) => ({ type, graph: slotOf(p.graph, 'params.graph', 'Graph'), move: checkFlag(p.move, 'params.move') }),
  },
  /** `CU_GRAPH_NODE_TYPE_EMPTY`: no work; a join point. */
  empty: { type: 5, method: 'addEmpty', dot: 'empty', encode: (_p, type) => ({ type }) },
  /** `CU_GRAPH_NODE_TYPE_WAIT_EVENT`: waits for an event. */
  eventWait: { type: 6, method: 'addEventWait', dot: 'event-wait', encode: (p, type) => ({ type, event: slotOf(p.event, 'params.event', 'Event') }) },
  /** `CU_GRAPH_NODE_TYPE_EVENT_RECORD`: records an event. */
  eventRecord: { type: 7, method: 'addEventRecord', dot: 'event-record', encode: (p, type) => ({ type, event: slotOf(p.event, 'params.event', 'Event') }) },
  /** `CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL`: signals external semaphores (not built by this package). */
  extSemaphoreSignal: { type: 8, method: 'addExternalSemaphoreNode', dot: 'ext-semaphore-signal' },
  /** `CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT`: waits on external semaphores (not built by this package). */
  extSemaphoreWait: { type: 9, method: 'addExternalSemaphoreNode', dot: 'ext-semaphore-wait' },
  /** `CU_GRAPH_NODE_TYPE_MEM_ALLOC`: allocates memory. */
  memAlloc: {
    type: 10, method: 'addAlloc', dot: 'mem-alloc',
    encode: (p, type) => ({
      type, bytes: checkDriverSize(p.bytes, 'params.bytes'), ordinal: ordinalOf(p.device, 'params.device'),
      peers: checkArray<DeviceLike>(p.peers ?? [], 'params.peers').map((d, i) => ordinalOf(d, `params.peers[${i}]`)),
    }),
  },
  /** `CU_GRAPH_NODE_TYPE_MEM_FREE`: frees memory. */
  memFree: {
    type: 11, method: 'addFree', dot: 'mem-free',
    encode: (p, type) => ({ type, allocation: memorySlot(p.allocation, 'params.allocation') }),
    accesses: (p) => ({ reads: [], writes: [p.allocation] }),
  },
  /** `CU_GRAPH_NODE_TYPE_BATCH_MEM_OP`: stream memory operations. */
  batchMemOp: {
    type: 12, method: 'addMemoryOps', dot: 'batch-mem-op',
    encode: (p, type) => ({ type, ops: encodeMemoryOps(p.ops, 'params.ops'), ordinal: ordinalOf(p.device, 'params.device') }),
    accesses: (p) => {
      const reads: object[] = [];
      const writes: object[] = [];
      for (const o of p.ops) {
        if (o.op.startsWith('wait')) reads.push((o as { target: object }).target);
        else if (o.op.startsWith('write')) writes.push((o as { target: object }).target);
      }
      return { reads, writes };
    },
  },
  /** `CU_GRAPH_NODE_TYPE_CONDITIONAL`: an if, while or switch over body graphs. */
  conditional: {
    type: 13, method: 'addIf', dot: 'conditional',
    encode: (p, type) => ({
      type, handle: slotOf(p.handle, 'params.handle', 'ConditionalHandle'),
      kind: checkEnum(p.kind, conditionKinds, 'params.kind'), size: checkInteger(p.size, 'params.size', 1, 1024),
    }),
  },
} as const satisfies { readonly [K in KindName]: NodeKindRow<ParamsOf<K>> };

/** A node kind's name: a key of {@link NodeType}. */
export type NodeTypeName = keyof typeof nodeKinds;

/** The driver's node kinds (CUgraphNodeType) by name. */
export const NodeType = Object.fromEntries(Object.entries(nodeKinds).map(([name, kind]) => [name, kind.type])) as {
  readonly [K in keyof typeof nodeKinds]: (typeof nodeKinds)[K]['type'];
};

const names: readonly NodeTypeName[] = (Object.keys(nodeKinds) as NodeTypeName[]).sort((a, b) => nodeKinds[a].type - nodeKinds[b].type);
const byType: ReadonlyMap<number, NodeTypeName> = new Map(names.map((name) => [nodeKinds[name].type, name]));
const built = names.filter((name) => 'encode' in nodeKinds[name]).join(', ');

/** @internal The name of a CUgraphNodeType; undefined for one this package does not know. */
export function nodeTypeName(type: number): NodeTypeName | undefined {
  return byType.get(type);
}

/** @internal How DOT output draws a kind. */
export function dotKindOf(name: NodeTypeName): GraphNodeKind {
  return nodeKinds[name].dot;
}

/** @internal The Graph method that adds a kind. */
export function builderOf(name: NodeTypeName): string {
  return nodeKinds[name].method;
}

// The row of params.type when the kind is built here (an own property: not one of Object.prototype's).
function rowOf(params: NodeParams): NodeKindRow<NodeParams> | undefined {
  const type: unknown = params.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(nodeKinds, type)) return undefined;
  return nodeKinds[type as NodeTypeName] as NodeKindRow<NodeParams>;
}

/** Checks params and encodes them for the native layer. */
export function encodeNodeParams(params: NodeParams): EncodedNodeParams {
  checkObject(params, 'params');
  const row = rowOf(params);
  if (!row?.encode) throw new RangeError(`params.type must be one of ${built}`);
  return row.encode(params, row.type);
}

/** The memory a node's parameters read and write, for data-flow building. */
export function accessesOf(params: NodeParams): NodeAccesses {
  const accesses = rowOf(params)?.accesses;
  return accesses ? accesses(params) : { reads: [], writes: [] };
}

const conditionKinds = { if: 0, while: 1, switch: 2 };

function encodeCopy(p: ParamsOf<'memcpy'>, type: number): EncodedNodeParams {
  const srcOffset = checkSize(p.srcOffset ?? 0, 'params.srcOffset');
  const src = memorySlot(p.src, 'params.src');
  const bytes = p.bytes === undefined ? Math.max(0, p.src.size - srcOffset) : checkSize(p.bytes, 'params.bytes');
  return { type, dst: memorySlot(p.dst, 'params.dst'), dstOffset: checkSize(p.dstOffset ?? 0, 'params.dstOffset'), src, srcOffset, bytes };
}

function encodeFill(p: ParamsOf<'memset'>, type: number): EncodedNodeParams {
  const element = p.elementBytes ?? 1;
  if (element !== 1 && element !== 2 && element !== 4) throw new RangeError('params.elementBytes must be 1, 2 or 4');
  const target = memorySlot(p.target, 'params.target');
  const offset = checkSize(p.offset ?? 0, 'params.offset');
  const twoD = p.height !== undefined && p.height > 1;
  const width = twoD ? checkSize(p.width, 'params.width')
    : p.count !== undefined ? checkSize(p.count, 'params.count') : Math.floor(Math.max(0, p.target.size - offset) / element);
  return {
    type, target, offset, value: checkInteger(p.value, 'params.value', 0, 2 ** (8 * element) - 1),
    elementBytes: element, width, height: twoD ? checkSize(p.height, 'params.height') : 1,
    pitch: twoD ? checkSize(p.pitch, 'params.pitch') : width * element,
  };
}

const kernelNode: EncodedKernelNode = { type: NodeType.kernel, kernel: -1, record: new ArrayBuffer(0) };

/**
 * Checks a kernel node's parameters and encodes them into the shared
 * EncodedKernelNode: the kernel, its arguments, and its launch shape with the
 * device (a KernelNodeParams serves as all three, as may a shape alone).
 */
export function encodeKernelNode(kernelValue: Kernel, args: readonly KernelArg[] | undefined, shape: LaunchShape & { device?: DeviceLike }): EncodedKernelNode {
  const kernel = checkKernel(kernelValue, 'params.kernel');
  kernelNode.record = kernel.nodeRecord(args ?? noItems, shape);
  kernelNode.kernel = kernel.slot;
  return kernelNode;
}

/** @internal An external-semaphore node's kind: true for 'signal', false for 'wait'. */
export function isSignal(kind: 'signal' | 'wait'): boolean {
  if (kind !== 'signal' && kind !== 'wait') throw new TypeError(`kind must be 'signal' or 'wait', got ${describeValue(kind)}`);
  return kind === 'signal';
}
