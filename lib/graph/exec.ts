// Executable graphs: instantiated once, launched many times. Whole-graph
// update says why it was refused (the driver's reason and the node); per-node
// updates change one node of the executable; nodes can be disabled and re-enabled.
import { AbortError, CudaError, GraphInstantiateError, GraphInstantiateReason, GraphUpdateError } from '../errors';
import { Disposable, slotOf } from '../disposable';
import { PreparedLaunch } from '../kernel/prepared-launch';
import { native, NativeGraphExec, Slot } from '../native';
import { checkStream, Stream, streamSlot, synchronizeStream } from '../stream';
import { checkWaitOptions, WaitOptions } from '../wait-options';
import { checkBoolean, checkObject, checkOptions, nameOfValue, noOptions } from '../validate';
import type { Graph } from './graph';
import { checkGraphNode, GraphNode } from './node';
import { encodeKernelNode, encodeNodeParams, isSignal } from './node-kinds';
import type { NodeParams } from './node-params';

/** Options of {@link Graph.instantiate}. */
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

const instantiateResults = {
  success: 0, error: 1, invalidStructure: 2, nodeOperationNotSupported: 3, multipleContextsNotSupported: 4, conditionalHandleUnused: 5,
};
const updateResults = {
  success: 0, error: 1, topologyChanged: 2, nodeTypeChanged: 3, functionChanged: 4, parametersChanged: 5, notSupported: 6,
  unsupportedFunctionChange: 7, attributesChanged: 8,
};

/** @internal Graph.instantiate. */
export function instantiateGraph(graph: Graph, options: InstantiateOptions): GraphExec {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'instantiate', ['autoFreeOnLaunch', 'upload', 'deviceLaunch', 'useNodePriority']);
  let flags = 0;
  if (options.autoFreeOnLaunch !== undefined && checkBoolean(options.autoFreeOnLaunch, 'options.autoFreeOnLaunch')) flags |= 1;
  if (options.upload !== undefined) flags |= 2;
  if (options.deviceLaunch !== undefined && checkBoolean(options.deviceLaunch, 'options.deviceLaunch')) flags |= 4;
  if (options.useNodePriority !== undefined && checkBoolean(options.useNodePriority, 'options.useNodePriority')) flags |= 8;
  const upload = options.upload === undefined ? undefined : streamSlot(options.upload, 'options.upload');
  if (upload === undefined) {
    try {
      return new GraphExec(native.instantiate(graph.slot, flags, undefined, false) as Slot<NativeGraphExec>);
    } catch (error) {
      if (!(error instanceof CudaError)) throw error;
      // Ask again, through the call that says why and where.
    }
  }
  const result = native.instantiate(graph.slot, flags, upload, true);
  if (typeof result === 'number') return new GraphExec(result);
  const reason = nameOfValue(instantiateResults, result.result) ?? `result ${result.result}`;
  throw new GraphInstantiateError(result.error as CudaError, reason as GraphInstantiateReason, result.node === undefined ? undefined : graph.nodeOf(result.node));
}

/**
 * An executable graph (CUgraphExec): made once from a {@link Graph} with
 * graph.instantiate(), launched many times. It holds everything its nodes use
 * (buffers, kernels, callbacks) for as long as it or a launch of it lives.
 */
export class GraphExec extends Disposable<NativeGraphExec> {
  /** @internal */
  constructor(handle: Slot<NativeGraphExec>) {
    super(handle);
  }

  /** The CUgraphExec value, for logs and comparisons. */
  get handle(): bigint {
    return native.graphExecHandle(this.slot);
  }

  /** The flags it was instantiated with (cuGraphExecGetFlags). */
  get flags(): {
    /** Graph allocations left unfreed are freed before each launch. */
    autoFreeOnLaunch: boolean;
    /** It was uploaded while instantiated. */
    upload: boolean;
    /** It can be launched from device code. */
    deviceLaunch: boolean;
    /** Kernel nodes' priority attributes apply. */
    useNodePriority: boolean;
  } {
    const f = native.graphExecFlags(this.slot);
    return { autoFreeOnLaunch: (f & 1) !== 0, upload: (f & 2) !== 0, deviceLaunch: (f & 4) !== 0, useNodePriority: (f & 8) !== 0 };
  }

  /** Queues a launch on stream (cuGraphLaunch). */
  launch(stream: Stream): void {
    native.graphLaunch(this.slot, checkStream(stream).slot);
  }

  /**
   * Launches on stream and resolves when it completes, without blocking the
   * event loop (stream.synchronize(options): options.signal and
   * options.timeoutMs give up the wait, not the launch; a signal aborted
   * already rejects before the launch).
   */
  async run(stream: Stream, options?: WaitOptions): Promise<void> {
    if (options === undefined) {
      this.launch(stream);
      await stream.synchronize();
      return;
    }
    const wait = checkWaitOptions(options, 'options', 'run');
    if (wait.signal?.aborted) throw new AbortError('GraphExec.run', wait.signal.reason);
    this.launch(stream);
    await synchronizeStream(stream, wait, 'GraphExec.run');
  }

  /** Uploads the executable ahead of its first launch (cuGraphUpload). */
  upload(stream: Stream): void {
    native.graphExecUpload(this.slot, streamSlot(stream));
  }

  /**
   * Updates the executable to run graph's nodes (same topology; cuGraphExecUpdate).
   * Throws GraphUpdateError with the driver's reason and the offending node when refused.
   */
  update(graph: Graph): void {
    const result = native.graphExecUpdate(this.slot, slotOf(graph, 'graph', 'Graph'));
    if (!result.error) return;
    const reason = nameOfValue(updateResults, result.result) ?? `result ${result.result}`;
    throw new GraphUpdateError(result.error as CudaError, reason, result.node === undefined ? undefined : graph.nodeOf(result.node));
  }

  /**
   * Updates from graph when the driver allows it, else instantiates graph anew
   * (disposing this executable). Returns the executable to use from now on.
   */
  updateOrReinstantiate(graph: Graph, options: InstantiateOptions = noOptions): GraphExec {
    try {
      this.update(graph);
      return this;
    } catch (error) {
      if (!(error instanceof GraphUpdateError)) throw error;
      const replacement = graph.instantiate(options);
      this.dispose();
      return replacement;
    }
  }

  /**
   * New parameters for one node of this executable only
   * (cuGraphExecNodeSetParams, or the kind's own call on drivers without it).
   * A kernel node also takes a PreparedLaunch: its kernel, launch shape and
   * arguments as they are now (not its stream), with nothing encoded per
   * call; the form for a node updated every iteration, with set() between
   * updates. Launch attributes (cluster shape, cooperative, priority) are
   * fixed at instantiation, so a prepared launch with any is refused.
   */
  setParams(node: GraphNode, params: NodeParams | PreparedLaunch): void {
    if (params instanceof PreparedLaunch) {
      native.execSetPreparedKernelNode(this.slot, checkGraphNode(node, 'node').slot, params.readySlot());
      return;
    }
    const target = checkGraphNode(node, 'node');
    if (params !== null && typeof params === 'object' && params.type === 'kernel') {
      const k = encodeKernelNode(params.kernel, params.args, params);
      native.execSetKernelNodeParams(this.slot, target.slot, k.kernel, k.record);
      return;
    }
    native.graphExecSetNodeParams(this.slot, target.slot, encodeNodeParams(params));
  }

  /** The child graph node now runs a copy of child (same topology). */
  setChildGraph(node: GraphNode, child: Graph): void {
    native.graphExecSetChildGraph(this.slot, checkGraphNode(node, 'node').slot, slotOf(child, 'child', 'Graph'));
  }

  /** Enables or disables a node of this executable (a disabled node does nothing when launched). */
  setEnabled(node: GraphNode, enabled: boolean): void {
    native.graphExecSetEnabled(this.slot, checkGraphNode(node, 'node').slot, checkBoolean(enabled, 'enabled'));
  }

  /** Gives the executable's external-semaphore node an empty set (see Graph.addExternalSemaphoreNode). */
  clearExternalSemaphores(node: GraphNode, kind: 'signal' | 'wait'): void {
    native.graphExecClearExternalSemaphores(this.slot, checkGraphNode(node, 'node').slot, isSignal(kind));
  }

  /** Whether a node of this executable is enabled (cuGraphNodeGetEnabled). */
  isEnabled(node: GraphNode): boolean {
    return native.graphExecIsEnabled(this.slot, checkGraphNode(node, 'node').slot);
  }

  override toString(): string {
    return this.disposed ? 'GraphExec(disposed)' : `GraphExec(0x${this.handle.toString(16)})`;
  }
}
