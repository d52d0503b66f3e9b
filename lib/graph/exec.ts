// Executable graphs: instantiated once, launched many times. Whole-graph
// update says why it was refused (the driver's reason and the node); per-node
// updates change one node of the executable; nodes can be disabled and re-enabled.
import { AbortError, CudaError, DisposedError, GraphInstantiateError, GraphInstantiateReason, GraphUpdateError } from '../errors';
import { Disposable, slotOf } from '../disposable';
import { PreparedLaunch } from '../kernel/prepared-launch';
import { native, NativeGraphExec, Slot } from '../native';
import { checkStream, Stream, streamSlot, synchronizeStream } from '../stream';
import { setSubmitSlot, submitOther, submitSlot, submitted } from '../submission';
import { checkWaitOptions, WaitOptions } from '../wait-options';
import { checkBoolean, checkObject, checkOptions, nameOfValue, noOptions } from '../validate';
import type { Graph } from './graph';
import { checkGraphNode, GraphNode } from './node';
import { encodeKernelNode, encodeNodeParams, isSignal } from './node-kinds';
import type { NodeParams } from './node-params';
import { checkDeviceGraph, explainRefusal, GraphExecArgument } from './device-graph';

/** Options of {@link Graph.instantiate}. */
export interface InstantiateOptions {
  /** Free memory the graph allocated and did not free before each new launch. */
  autoFreeOnLaunch?: boolean;
  /** Upload the executable to the device on this stream while instantiating. */
  upload?: Stream;
  /**
   * Make it launchable from device code (a device graph): its nodes must be
   * kernel, memcpy, memset or child graph nodes, on one device. Device code
   * gets it as arg.graphExec(exec), once it is uploaded (the upload option,
   * upload(), or a launch from the host).
   */
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
  const deviceLaunch = (flags & 4) !== 0;
  if (deviceLaunch) {
    if (flags & 1) throw new RangeError('options.autoFreeOnLaunch cannot be combined with options.deviceLaunch');
    checkDeviceGraph(graph);
  }
  const upload = options.upload === undefined ? undefined : streamSlot(options.upload, 'options.upload');
  if (upload === undefined) {
    try {
      return new GraphExec(native.instantiate(graph.slot, flags, undefined, false) as Slot<NativeGraphExec>, deviceLaunch);
    } catch (error) {
      if (!(error instanceof CudaError)) throw error;
      // Ask again, through the call that says why and where.
    }
  }
  const result = native.instantiate(graph.slot, flags, upload, true);
  if (typeof result === 'number') return new GraphExec(result, deviceLaunch, options.upload);
  const reason = nameOfValue(instantiateResults, result.result) ?? `result ${result.result}`;
  const error = new GraphInstantiateError(result.error as CudaError, reason as GraphInstantiateReason, result.node === undefined ? undefined : graph.nodeOf(result.node));
  throw deviceLaunch ? explainRefusal(error) : error;
}

/**
 * An executable graph (CUgraphExec): made once from a {@link Graph} with
 * graph.instantiate(), launched many times. It holds everything its nodes use
 * (buffers, kernels, callbacks) for as long as it or a launch of it lives.
 */
export class GraphExec extends Disposable<NativeGraphExec> {
  // A device graph's: where it was last uploaded (or launched from the host,
  // which uploads it), undefined until it is; and its kernel argument, made once.
  readonly #deviceLaunch: boolean;
  #uploadedOn: Stream | undefined;
  #argument: GraphExecArgument | undefined;

  /** @internal */
  constructor(handle: Slot<NativeGraphExec>, deviceLaunch = false, uploadedOn?: Stream) {
    super(handle);
    this.#deviceLaunch = deviceLaunch;
    this.#uploadedOn = deviceLaunch ? uploadedOn : undefined;
    this.#argument = undefined;
    setSubmitSlot(this, deviceLaunch ? -1 : handle);
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

  /** Queues a launch on stream (cuGraphLaunch); a device graph's launch from the host uploads it too. */
  launch(stream: Stream): void {
    native.graphLaunch(this.slot, checkStream(stream).slot);
    if (this.#deviceLaunch) this.#uploadedOn = stream;
  }

  /** @internal For Stream.submit(): the slot until dispose(); -1 for a device graph, which is told it was launched. */
  declare readonly [submitSlot]: number;

  /** @internal For Stream.submit(): a device graph's slot; a disposed executable throws. */
  [submitOther](): number {
    if (this.released) throw new DisposedError('GraphExec');
    return this.slot;
  }

  /** @internal For Stream.submit(): the batch that launched this device graph is queued on stream. */
  [submitted](stream: Stream): void {
    this.#uploadedOn = stream;
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

  /**
   * Uploads the executable ahead of its first launch (cuGraphUpload). A device
   * graph must be uploaded before device code launches it; after an update
   * (update, setParams, setChildGraph, setEnabled) it is uploaded again on
   * the stream it was last uploaded or launched on.
   */
  upload(stream: Stream): void {
    native.graphExecUpload(this.slot, streamSlot(stream));
    if (this.#deviceLaunch) this.#uploadedOn = stream;
  }

  /** True for a device graph (instantiated with deviceLaunch). */
  get deviceLaunch(): boolean {
    return this.#deviceLaunch;
  }

  /** True for a device graph uploaded (or launched from the host), so that device code may launch it. */
  get uploaded(): boolean {
    return this.#uploadedOn !== undefined;
  }

  /**
   * @internal The executable as a kernel argument (arg.graphExec): a device
   * graph, uploaded, or an error that says what to do.
   */
  deviceArgument(): GraphExecArgument {
    if (!this.#deviceLaunch) {
      throw new TypeError(`${this} was not instantiated for device launch: use graph.instantiate({ deviceLaunch: true })`);
    }
    const stream = this.#uploadedOn;
    if (stream === undefined) {
      throw new Error(`${this} must be uploaded before device code launches it: exec.upload(stream), ` +
        'graph.instantiate({ deviceLaunch: true, upload: stream }), or a launch from the host');
    }
    if (this.#argument === undefined || this.#argument.disposed) this.#argument = GraphExecArgument.of(this.slot, stream.context);
    return this.#argument;
  }

  // A device graph changed by an update runs the old version from the device until it is uploaded again.
  #reupload(): void {
    if (this.#uploadedOn !== undefined) native.graphExecUpload(this.slot, this.#uploadedOn.slot);
  }

  override dispose(): void {
    setSubmitSlot(this, -1);
    this.#argument?.dispose();
    super.dispose();
  }

  /**
   * Updates the executable to run graph's nodes (same topology; cuGraphExecUpdate).
   * Throws GraphUpdateError with the driver's reason and the offending node when refused.
   */
  update(graph: Graph): void {
    const result = native.graphExecUpdate(this.slot, slotOf(graph, 'graph', 'Graph'));
    if (result === undefined) {
      this.#reupload();
      return;
    }
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
    } else if (params !== null && typeof params === 'object' && params.type === 'kernel') {
      const k = encodeKernelNode(params.kernel, params.args, params);
      native.execSetKernelNodeParams(this.slot, checkGraphNode(node, 'node').slot, k.kernel, k.record);
    } else {
      native.graphExecSetNodeParams(this.slot, checkGraphNode(node, 'node').slot, encodeNodeParams(params));
    }
    if (this.#deviceLaunch) this.#reupload();
  }

  /** The child graph node now runs a copy of child (same topology). */
  setChildGraph(node: GraphNode, child: Graph): void {
    native.graphExecSetChildGraph(this.slot, checkGraphNode(node, 'node').slot, slotOf(child, 'child', 'Graph'));
    this.#reupload();
  }

  /** Enables or disables a node of this executable (a disabled node does nothing when launched). */
  setEnabled(node: GraphNode, enabled: boolean): void {
    native.graphExecSetEnabled(this.slot, checkGraphNode(node, 'node').slot, checkBoolean(enabled, 'enabled'));
    this.#reupload();
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
