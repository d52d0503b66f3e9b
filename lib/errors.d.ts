/** The driver's name for a CUresult code (`CUDA_ERROR_OUT_OF_MEMORY`). */
export declare function resultName(code: number): string;
/** A driver call that returned something other than CUDA_SUCCESS. */
export declare class CudaError extends Error {
    /** The CUresult code. */
    readonly code: number;
    /** The driver's name for the code (cuGetErrorName), e.g. `CUDA_ERROR_OUT_OF_MEMORY`. */
    readonly name: string;
    /** The driver's description of the code (cuGetErrorString). */
    readonly driverMessage: string;
    /** The driver function that failed, e.g. `cuMemAlloc`. */
    readonly call: string | null;
    /** The handle or argument that matters (`device 0`, `bytes=4096`), or ''. */
    readonly detail: string;
    constructor(code: number, name: string, driverMessage: string, call: string | null, detail?: string);
}
/** The driver cannot be used: no library, a driver too old, or cuInit failed (no device, ...). */
export declare class DriverUnavailableError extends CudaError {
    /** Why: 'library-missing' | 'driver-too-old' | 'init-failed' | 'not-loaded'. */
    readonly reason: string;
    constructor(code: number, name: string, message: string, call: string | null, reason: string);
}
/** The installed driver lacks a function this call needs. */
export declare class FunctionUnavailableError extends CudaError {
    /** The CUDA version (e.g. 12080) whose driver provides the function. */
    readonly requiredVersion: number;
    constructor(message: string, call: string | null, detail: string, requiredVersion: number);
}
export declare class CudaOutOfMemoryError extends CudaError {
}
export declare class CudaNotSupportedError extends CudaError {
}
/** A stream capture failed (codes 900-908). */
export declare class CaptureError extends CudaError {
}
/** 900: the operation is not permitted while the stream is capturing. */
export declare class CaptureUnsupportedError extends CaptureError {
}
/** 901: the capture was invalidated by an earlier error. */
export declare class CaptureInvalidatedError extends CaptureError {
}
/** 902: the operation would have merged two independent captures. */
export declare class CaptureMergeError extends CaptureError {
}
/** 903: the capture was not begun on this stream. */
export declare class CaptureUnmatchedError extends CaptureError {
}
/** 904: a forked stream was not joined back into the origin stream. */
export declare class CaptureUnjoinedError extends CaptureError {
}
/** 905: a dependency would cross the capture boundary. */
export declare class CaptureIsolationError extends CaptureError {
}
/** 906: an implicit dependency on the legacy stream was created. */
export declare class CaptureImplicitError extends CaptureError {
}
/** 907: an event recorded in a capture was used outside the allowed calls. */
export declare class CapturedEventError extends CaptureError {
}
/** 908: the capture was ended or used from the wrong thread. */
export declare class CaptureWrongThreadError extends CaptureError {
}
/**
 * 910: cuGraphExecUpdate refused the update. reason is the driver's
 * CUgraphExecUpdateResult ('topologyChanged', 'parametersChanged', ...); node
 * the offending node, when the driver names one.
 */
export declare class GraphUpdateError extends CudaError {
    reason: string;
    node: unknown;
    constructor(cause: CudaError | number, reasonOrName?: string, node?: unknown, call?: string | null, detail?: string);
}
/** Instantiation failed; reason is the driver's CUgraphInstantiateResult, node the node it names. */
export declare class GraphInstantiateError extends CudaError {
    readonly reason: string;
    readonly node: unknown;
    constructor(cause: CudaError, reason: string, node?: unknown);
}
/** A handle was used after dispose(). */
export declare class DisposedError extends Error {
    /** The kind of handle, e.g. `Stream`. */
    readonly handleType: string;
    constructor(handleType: string);
}
/** An operating-system call failed (a socket call of an FdChannel, ...). */
export declare class SystemError extends Error {
    /** The errno name, e.g. `ECONNREFUSED` (as in Node's own system errors). */
    readonly code: string;
    /** The errno value, positive as in C (Node's own errors carry it negated). */
    readonly errno: number;
    /** The call that failed, e.g. `connect`. */
    readonly syscall: string;
    /** The argument or object that matters (`path=/tmp/s`, `fds[2]=17`), or ''. */
    readonly detail: string;
    constructor(errno: number, syscall: string, detail?: string);
}
/** A wait ran out of time. */
export declare class TimeoutError extends Error {
    /** What timed out, e.g. `accept`, `receive`. */
    readonly operation: string;
    /** The time it was given, in milliseconds. */
    readonly timeoutMs: number;
    constructor(operation: string, timeoutMs: number);
}
/** The peer of an FdChannel closed the connection (or died), or the channel was shut down. */
export declare class ChannelClosedError extends Error {
    /** What found the channel closed: `send` or `receive`. */
    readonly operation: string;
    constructor(operation: string, message: string);
}
/**
 * The peer of an FdChannel sent something that is not a well-formed message.
 * Whatever descriptors came with it were closed. A broken frame (wrong header,
 * more descriptors or bytes than a message may carry) also shuts the channel
 * down; a payload that is not JSON does not.
 */
export declare class ChannelProtocolError extends Error {
    /** The operation that found it: `receive`. */
    readonly operation: string;
    constructor(operation: string, message: string);
}
/** @internal How many capture-breaking errors were thrown so far, and the last one. */
export declare function lastCaptureFailure(): {
    count: number;
    error: CaptureError | undefined;
};
