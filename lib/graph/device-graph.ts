// Device graphs: executables that device code launches with cudaGraphLaunch
// (instantiate({ deviceLaunch: true })). What a device graph may hold is
// checked before the driver is asked, so that the error names the node and
// the rule; what only the driver can tell (one context for every node, no
// dynamic parallelism in a kernel) comes back from it with the same
// explanation. The executable reaches device code as a kernel argument
// (arg.graphExec), which keeps it alive while the launch that passes it may run.
import type { Context } from '../context';
import { CudaError, GraphInstantiateError, GraphInstantiateReason } from '../errors';
import { Disposable } from '../disposable';
import { CudaResult } from '../generated/enums';
import { native, NativeGraphExecArgument, Slot } from '../native';
import type { Graph } from './graph';
import type { GraphNode } from './node';
import type { NodeTypeName } from './node-kinds';

/** A graph instantiated with deviceLaunch breaks a rule of device graphs; `node` is the node at fault. */
export class DeviceGraphError extends GraphInstantiateError {
  /** @internal */
  constructor(cause: CudaError, reason: GraphInstantiateReason, node: GraphNode | undefined, rule: string) {
    super(cause, reason, node);
    this.message = `${rule} (${cause.code}, reason: ${reason}${node ? `; node: ${node}` : ''})`;
  }
}

// The kinds of node a device graph may hold; child graphs are checked node by node.
const allowed: ReadonlySet<string> = new Set<NodeTypeName>(['kernel', 'memcpy', 'memset', 'graph']);
const work: ReadonlySet<string> = new Set<NodeTypeName>(['kernel', 'memcpy', 'memset']);

function refusal(reason: GraphInstantiateReason, node: GraphNode | undefined, rule: string): DeviceGraphError {
  return new DeviceGraphError(new CudaError(CudaResult.CUDA_ERROR_INVALID_VALUE, '', '', 'cuGraphInstantiateWithParams'), reason, node, rule);
}

/** @internal Throws DeviceGraphError unless graph may become a device graph, as far as its nodes tell. */
export function checkDeviceGraph(graph: Graph): void {
  if (!hasWork(graph, undefined)) {
    throw refusal('invalidStructure', undefined, 'a device graph must hold at least one kernel, memcpy or memset node');
  }
}

// Whether graph (or a child graph in it) holds work; throws at the first node no device graph may hold.
function hasWork(graph: Graph, within: GraphNode | undefined): boolean {
  let found = false;
  for (const node of graph.nodes()) {
    const type = node.type;
    if (!allowed.has(type)) {
      const where = within ? ` (in the child graph of ${within})` : '';
      throw refusal('nodeOperationNotSupported', within ?? node,
        `a device graph may hold only kernel, memcpy, memset and child graph nodes; ${node}${where} is a ${type} node`);
    }
    if (work.has(type)) {
      found = true;
    } else {
      const child = node.params().graph as Graph;
      try {
        if (hasWork(child, within ?? node)) found = true;
      } finally {
        child.dispose();
      }
    }
  }
  return found;
}

/** @internal The driver's refusal of a device graph, explained where the reason is one of the device graph rules. */
export function explainRefusal(error: GraphInstantiateError): GraphInstantiateError {
  const node = error.node as GraphNode | undefined;
  const cause = new CudaError(error.result, error.code, error.driverMessage, 'cuGraphInstantiateWithParams');
  if (error.reason === 'multipleContextsNotSupported') {
    return new DeviceGraphError(cause, error.reason, node, 'every node of a device graph must run on one device (one context)');
  }
  if (error.reason === 'nodeOperationNotSupported') {
    return new DeviceGraphError(cause, error.reason, node, 'a device graph may not do this: its kernels may not use dynamic ' +
      'parallelism, and its copies may reach only device memory and pinned host memory mapped for the device');
  }
  return error;
}

/**
 * @internal A device graph as a kernel argument: memory, to a launch, whose
 * address is the CUgraphExec; it holds the executable (native/graph/exec.cc).
 */
export class GraphExecArgument extends Disposable<NativeGraphExecArgument> {
  /** @internal */
  constructor(handle: Slot<NativeGraphExecArgument>) {
    super(handle);
  }

  /** 0: no bytes are read or written through it. */
  get size(): number {
    return 0;
  }

  /** @internal The argument of exec, whose device work runs in context. */
  static of(exec: number, context: Context): GraphExecArgument {
    return new GraphExecArgument(native.graphExecArgument(exec, context.slot));
  }
}
