import { CaptureModeName, CaptureStatusName } from '../generated/enums';
import type { Stream } from '../stream';
import { EdgeData } from './edge';
import { Graph } from './graph';
import { GraphNode } from './node';
export interface CaptureOptions {
    /**
     * Which other calls the capture forbids (see cuStreamBeginCapture):
     * 'threadLocal' (default) forbids unsafe calls on this thread, 'global' on
     * every thread, 'relaxed' none.
     */
    mode?: CaptureModeName;
    /** Capture into this existing graph (cuStreamBeginCaptureToGraph) instead of a new one. */
    into?: Graph;
    /** With into: nodes of that graph the captured work runs after. */
    after?: readonly GraphNode[];
    /** Edge data for each of after. */
    edges?: readonly EdgeData[];
}
export declare class StreamCapture implements Disposable {
    #private;
    readonly stream: Stream;
    /** @internal Use stream.beginCapture(). */
    constructor(stream: Stream, options?: CaptureOptions);
    /**
     * Sets (or, with add, extends) the nodes the next captured work depends on
     * (cuStreamUpdateCaptureDependencies). Needs a capture into an existing graph,
     * whose nodes these are.
     */
    setDependencies(nodes: readonly GraphNode[], options?: {
        add?: boolean;
        edges?: readonly EdgeData[];
    }): void;
    /** True until end() (or disposal) ended the capture. */
    get active(): boolean;
    /** The driver's view: 'active', 'invalidated' (an error broke it; end() will throw), or 'none'. */
    get status(): CaptureStatusName;
    /** The capture's id and how many nodes the next captured work will depend on. */
    info(): {
        status: CaptureStatusName;
        id: bigint;
        dependencies: number;
    };
    /**
     * Ends the capture and returns the graph (the `into` graph when given). If
     * the capture was invalidated, throws CaptureInvalidatedError naming the call
     * that broke it; the stream is usable again either way.
     */
    end(): Graph;
    /** Ends the capture if it is still open, discarding what was captured. */
    [Symbol.dispose](): void;
}
/**
 * Runs fn with the stream capturing and returns the captured graph. fn must be
 * synchronous: while a promise is pending, other tasks could run on this
 * thread and break (or join) the capture, so a returned promise is refused.
 */
export declare function captureGraph(stream: Stream, fn: (stream: Stream) => unknown, options?: CaptureOptions): Graph;
