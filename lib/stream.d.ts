import { Device, DeviceLike } from './device';
import { Disposable } from './disposable';
import type { Event } from './event';
import { CaptureOptions, StreamCapture } from './graph/capture';
import type { Graph } from './graph/graph';
import { CaptureStatusName, MemoryAttachName, StreamMemoryBarrierName } from './generated/enums';
import { MemoryHandle } from './memory/bytes';
import { NativeStream } from './native';
import { StreamAttributeName, StreamAttributes } from './launch-attributes';
export interface StreamOptions {
    /** The device (default 0). */
    device?: DeviceLike;
    /**
     * Whether the stream runs independently of the legacy default stream
     * (default true). `false` makes a blocking stream that synchronizes with it.
     */
    nonBlocking?: boolean;
    /** A priority in the device's range (Context.streamPriorityRange); lower is higher priority. */
    priority?: number;
}
/** The comparison a wait on a 32/64-bit word makes. */
export type WaitCondition = 'geq' | 'eq' | 'and' | 'nor';
/** One operation of Stream.batchMemoryOps. */
export type StreamMemoryOp = {
    op: 'waitValue32' | 'waitValue64';
    target: MemoryHandle;
    offset?: number;
    value: number | bigint;
    condition?: WaitCondition;
    flush?: boolean;
} | {
    op: 'writeValue32' | 'writeValue64';
    target: MemoryHandle;
    offset?: number;
    value: number | bigint;
    noMemoryBarrier?: boolean;
} | {
    op: 'barrier';
    scope?: StreamMemoryBarrierName;
} | {
    op: 'flushRemoteWrites';
};
export declare class Stream extends Disposable<NativeStream> {
    #private;
    /** @internal */
    constructor(handle: NativeStream);
    /** A new stream (cuStreamCreate, or cuStreamCreateWithPriority when a priority is given). */
    static create(options?: StreamOptions): Stream;
    /**
     * The legacy default stream (CU_STREAM_LEGACY) of a device's primary context:
     * it synchronizes with every blocking stream. Never disposed.
     */
    static legacy(device?: DeviceLike): Stream;
    /** This thread's per-thread default stream (CU_STREAM_PER_THREAD). Never disposed. */
    static perThread(device?: DeviceLike): Stream;
    /** The CUstream value (1n and 2n for the legacy and per-thread streams). */
    get handle(): bigint;
    get device(): Device;
    /** True when the stream was created non-blocking. */
    get nonBlocking(): boolean;
    get priority(): number;
    /** The driver's unique id of the stream. */
    get id(): bigint;
    /** The CUcontext of the stream, as the driver reports it (cuStreamGetCtx; cuStreamGetCtx_v2 with viaV2). */
    contextHandle(viaV2?: boolean): bigint;
    /** The CUdevice of the stream as the driver reports it (cuStreamGetDevice). */
    queryDevice(): number;
    /** True when all work queued so far has completed. */
    query(): boolean;
    /**
     * Resolves when all work queued so far has completed, without blocking the
     * event loop: the wait runs on one of the library's own threads (not libuv's
     * pool), in relaxed capture mode. Rejects with the CudaError the driver reports.
     */
    synchronize(): Promise<void>;
    /** Blocks the JavaScript thread until all work queued so far has completed. */
    synchronizeSync(): void;
    /** Later work on this stream waits until event has happened (cuStreamWaitEvent). */
    waitEvent(event: Event, options?: {
        external?: boolean;
    }): void;
    /** A stream attribute (cuStreamGetAttribute). */
    attribute<K extends StreamAttributeName>(name: K): StreamAttributes[K];
    /** Sets a stream attribute (cuStreamSetAttribute). */
    setAttribute<K extends StreamAttributeName>(name: K, value: StreamAttributes[K]): void;
    /** Copies every attribute of source onto this stream (cuStreamCopyAttributes). */
    copyAttributesFrom(source: Stream): void;
    /**
     * Queues callback to run on the JavaScript thread once the work queued before
     * it has completed (cuLaunchHostFunc). The stream does not wait for the
     * JavaScript to run: CUDA's callback thread only hands the call over, so work
     * queued after it may start before callback runs. An exception thrown by
     * callback is an uncaught exception, as in a timer.
     */
    launchHostFunction(callback: () => void): void;
    /**
     * The same through cuStreamAddCallback: callback receives the CudaError of
     * the failed work, or null.
     */
    addCallback(callback: (error: Error | null) => void): void;
    /** Attaches managed memory to this stream (cuStreamAttachMemAsync); mode 'single' limits access to it. */
    attachMemory(buffer: MemoryHandle, mode?: MemoryAttachName): void;
    /** Work queued after this waits until the 32-bit word at target+offset satisfies condition against value. */
    waitValue32(target: MemoryHandle, value: number, options?: {
        offset?: number;
        condition?: WaitCondition;
        flush?: boolean;
    }): void;
    waitValue64(target: MemoryHandle, value: bigint, options?: {
        offset?: number;
        condition?: WaitCondition;
        flush?: boolean;
    }): void;
    /** Writes value to the 32-bit word at target+offset when the stream gets there. */
    writeValue32(target: MemoryHandle, value: number, options?: {
        offset?: number;
        noMemoryBarrier?: boolean;
    }): void;
    writeValue64(target: MemoryHandle, value: bigint, options?: {
        offset?: number;
        noMemoryBarrier?: boolean;
    }): void;
    /** Several memory operations in one cuStreamBatchMemOp. */
    batchMemoryOps(ops: StreamMemoryOp[]): void;
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
    /** 'none', 'active' or 'invalidated' (cuStreamIsCapturing). */
    get captureStatus(): CaptureStatusName;
    /** How many resources this stream keeps alive for work still in flight. */
    get pendingResources(): number;
    toString(): string;
}
/** The native handle of a Stream argument, or a TypeError naming the parameter. */
export declare function streamNative(stream: Stream, name?: string): NativeStream;
