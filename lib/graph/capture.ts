// Capturing stream work into a graph. A capture is a scope that always ends:
// `using capture = stream.beginCapture()` ends it when the block exits, and
// stream.capture(fn) ends it even when fn throws. A capture the driver
// invalidated becomes a typed error naming the call that broke it; its partial
// graph is destroyed exactly once and the stream is usable again.
import { CaptureInvalidatedError, lastCaptureFailure } from '../errors';
import { CaptureMode, CaptureModeName, CaptureStatus, CaptureStatusName } from '../generated/enums';
import { native } from '../native';
import { Stream } from '../stream';
import { checkArray, checkEnum, checkFlag, checkInstance, checkObject, checkOptions, nameOfValue, noItems, noOptions } from '../validate';
import { decodeEdge, EdgeData, encodeEdge } from './edge';
import { Graph } from './graph';
import { checkGraphNodes, GraphNode, slotsOf } from './node';

/** Options of {@link Stream.beginCapture} and {@link Stream.capture}. */
export interface CaptureOptions {
  /**
   * Which other calls the capture forbids (see cuStreamBeginCapture):
   * 'threadLocal' (default) forbids unsafe calls on this thread, 'global' on
   * every thread, 'relaxed' none.
   */
  mode?: CaptureModeName | number;
  /** Capture into this existing graph (cuStreamBeginCaptureToGraph) instead of a new one. */
  into?: Graph;
  /** With into: nodes of that graph the captured work runs after. */
  after?: readonly GraphNode[];
  /** Edge data for each of after. */
  edges?: readonly EdgeData[];
}

// A capture whose object is collected while it is still open is ended then:
// while any capture is open, the library defers every release in the process.
// Held: the stream and the capture's id, so that only that capture is ended.
const abandoned = new FinalizationRegistry<{ stream: number; id: bigint }>(({ stream, id }) => {
  try {
    if (!native.handleAlive(stream) || native.captureInfo(stream, false).id !== id) return;
    const graph = native.endCapture(stream, undefined);
    if (graph !== undefined) native.disposeHandle(graph);
  } catch {
    // an invalidated capture is ended by the failing end too
  }
});

/**
 * An open capture of a stream's work into a graph (stream.beginCapture()).
 * end() returns the graph; `using` ends (and discards) a capture left open,
 * even when the block throws.
 */
export class StreamCapture implements Disposable {
  /** The stream being captured. */
  readonly stream: Stream;
  readonly #into: Graph | undefined;
  // The object of the new graph being built, once info() or graph asked for it;
  // end() returns it.
  #building: Graph | undefined;
  readonly #failuresBefore: number;
  #ended = false;

  /** @internal Use stream.beginCapture(). */
  constructor(stream: Stream, options: CaptureOptions = noOptions) {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'beginCapture or capture', ['mode', 'into', 'after', 'edges']);
    const mode = checkEnum(options.mode ?? 'threadLocal', CaptureMode, 'options.mode');
    this.#into = options.into === undefined ? undefined : checkInstance(options.into, Graph, 'options.into');
    this.stream = stream;
    this.#failuresBefore = lastCaptureFailure().count;
    if (options.after !== undefined && !this.#into) throw new TypeError('options.after needs options.into');
    const after = slotsOf(checkGraphNodes(options.after ?? noItems, 'options.after'));
    const edges = options.edges === undefined ? undefined : checkArray<EdgeData>(options.edges, 'options.edges').map((e, i) => encodeEdge(e, `options.edges[${i}]`));
    native.beginCapture(stream.slot, mode, this.#into?.slot, after, edges);
    abandoned.register(this, { stream: stream.slot, id: native.captureInfo(stream.slot, false).id }, this);
  }

  /**
   * The graph the capture is building: options.into, or the new graph, which
   * the driver owns while the capture is open (disposing this object then
   * gives up only the object). Add nodes to it mid-capture, after the nodes
   * info() names, and make later captured work depend on them with
   * setDependencies. end() returns this same object, which then owns the graph;
   * if the capture fails, the graph is gone and its object throws.
   */
  get graph(): Graph {
    if (this.#ended) throw new Error('the capture has ended: use the graph end() returned');
    if (this.#into) return this.#into;
    if (!this.#building || this.#building.disposed) this.#building = new Graph(native.captureGraph(this.stream.slot));
    return this.#building;
  }

  /**
   * Sets (or, with add, extends) the nodes the next captured work depends on
   * (cuStreamUpdateCaptureDependencies): nodes of the capture's graph
   * (capture.graph, or those info() names).
   */
  setDependencies(nodes: readonly GraphNode[], options: { add?: boolean; edges?: readonly EdgeData[] } = noOptions): void {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'setDependencies', ['add', 'edges']);
    const list = slotsOf(checkGraphNodes(nodes, 'nodes'));
    const edges = options.edges === undefined ? undefined : checkArray<EdgeData>(options.edges, 'options.edges').map((e, i) => encodeEdge(e, `options.edges[${i}]`));
    const add = checkFlag(options.add, 'options.add');
    native.updateCaptureDependencies(this.stream.slot, this.graph.slot, list, edges, add ? 0 : 1);
  }

  /** True until end() (or disposal) ended the capture. */
  get active(): boolean {
    return !this.#ended;
  }

  /** The driver's view: 'active', 'invalidated' (an error broke it; end() will throw), or 'none'. */
  get status(): CaptureStatusName {
    return this.stream.captureStatus;
  }

  /**
   * What cuStreamGetCaptureInfo reports: the capture's status and id, the
   * graph being built (see {@link StreamCapture.graph}), and the nodes of that
   * graph the next captured work will depend on, with their edge data.
   */
  info(): {
    /** The capture status (see {@link StreamCapture.status}). */
    status: CaptureStatusName;
    /** The driver's unique id of the capture. */
    id: bigint;
    /** The graph being built (undefined unless the capture is active). */
    graph: Graph | undefined;
    /** The nodes the next captured work will depend on (empty unless the capture is active). */
    dependencies: GraphNode[];
    /** The edge data of each dependency. */
    edges: Required<EdgeData>[];
  } {
    const graph = this.#ended || this.stream.captureStatus !== 'active' ? undefined : this.graph;
    const i = native.captureInfo(this.stream.slot, graph !== undefined);
    const status = nameOfValue(CaptureStatus, i.status) ?? 'none';
    const dependencies = graph && i.nodes ? i.nodes.map((slot) => graph.nodeOf(slot)) : [];
    const edges = i.edges ? i.edges.map(decodeEdge) : dependencies.map(() => decodeEdge([0, 0, 0]));
    return { status, id: i.id, graph, dependencies, edges };
  }

  /**
   * Ends the capture and returns the graph (the `into` graph when given). If
   * the capture was invalidated, throws CaptureInvalidatedError naming the call
   * that broke it; the stream is usable again either way.
   */
  end(): Graph {
    if (this.#ended) throw new Error('the capture has already ended');
    this.#ended = true;
    abandoned.unregister(this);
    try {
      const graph = native.endCapture(this.stream.slot, this.#into?.slot);
      if (this.#into) return this.#into;
      const building = this.#building;
      this.#building = undefined;
      if (building && !building.disposed) {
        // The same graph, now owned by building's box: one object is enough.
        native.disposeHandle(graph!);
        return building;
      }
      return new Graph(graph!);
    } catch (error) {
      // The graph being built is gone: its object (retired natively) lets go too.
      this.#building?.dispose();
      this.#building = undefined;
      throw this.#explain(error);
    }
  }

  /** Ends the capture if it is still open, discarding what was captured. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** Ends the capture if it is still open, discarding what was captured. */
  dispose(): void {
    if (this.#ended) return;
    try {
      const graph = this.end();
      if (graph !== this.#into) graph.dispose();
    } catch {
      // Discarding: a failed capture has nothing to keep.
    }
  }

  #explain(error: unknown): unknown {
    if (!(error instanceof CaptureInvalidatedError)) return error;
    const failure = lastCaptureFailure();
    if (failure.count > this.#failuresBefore && failure.error) {
      error.message = `${error.message} (the capture was broken by ${failure.error.message})`;
      error.cause = failure.error;
    }
    return error;
  }
}

// Stream's capture methods live here, beside the capture they begin: defining
// them in stream.ts would make streams import graphs, which import streams.
declare module '../stream' {
  interface Stream {
    /**
     * Begins capturing this stream's work into a graph. Use with `using`, or call
     * end(): `using capture = stream.beginCapture(); ...; const graph = capture.end();`
     */
    beginCapture(options?: CaptureOptions): StreamCapture;
    /**
     * Captures what fn queues on this stream into a graph. fn must be
     * synchronous; the capture ends even if fn throws.
     */
    capture(fn: (stream: Stream) => unknown, options?: CaptureOptions): Graph;
  }
}

Stream.prototype.beginCapture = function beginCapture(this: Stream, options: CaptureOptions = noOptions): StreamCapture {
  return new StreamCapture(this, options);
};

Stream.prototype.capture = function capture(this: Stream, fn: (stream: Stream) => unknown, options: CaptureOptions = noOptions): Graph {
  return captureGraph(this, fn, options);
};

/**
 * Runs fn with the stream capturing and returns the captured graph. fn must be
 * synchronous: while a promise is pending, other tasks could run on this
 * thread and break (or join) the capture, so a returned promise is refused.
 */
function captureGraph(stream: Stream, fn: (stream: Stream) => unknown, options: CaptureOptions = noOptions): Graph {
  if (typeof fn !== 'function') throw new TypeError('fn must be a function');
  const capture = new StreamCapture(stream, options);
  let result: unknown;
  try {
    result = fn(stream);
  } catch (error) {
    capture[Symbol.dispose]();
    throw error;
  }
  if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
    capture[Symbol.dispose]();
    throw new TypeError('the capture callback returned a promise: captures must be synchronous, since other tasks ' +
      'running while it is pending could break the capture; use stream.beginCapture() if you must await inside one');
  }
  return capture.end();
}

