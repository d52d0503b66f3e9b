"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChannelProtocolError = exports.ChannelClosedError = exports.TimeoutError = exports.SystemError = exports.DisposedError = exports.GraphInstantiateError = exports.GraphUpdateError = exports.CaptureWrongThreadError = exports.CapturedEventError = exports.CaptureImplicitError = exports.CaptureIsolationError = exports.CaptureUnjoinedError = exports.CaptureUnmatchedError = exports.CaptureMergeError = exports.CaptureInvalidatedError = exports.CaptureUnsupportedError = exports.CaptureError = exports.CudaNotSupportedError = exports.CudaOutOfMemoryError = exports.FunctionUnavailableError = exports.DriverUnavailableError = exports.CudaError = void 0;
exports.resultName = resultName;
exports.lastCaptureFailure = lastCaptureFailure;
// Errors. Every failed driver call becomes a CudaError (or a subclass callers
// branch on); the addon builds them through the factory registered here.
const os_1 = require("os");
const util_1 = require("util");
const enums_1 = require("./generated/enums");
const native_1 = require("./native");
const resultNames = new Map(Object.entries(enums_1.CudaResult).map(([name, code]) => [code, name]));
/** The driver's name for a CUresult code (`CUDA_ERROR_OUT_OF_MEMORY`). */
function resultName(code) {
    return resultNames.get(code) ?? `CUDA_ERROR_${code}`;
}
/** A driver call that returned something other than CUDA_SUCCESS. */
class CudaError extends Error {
    /** The CUresult code. */
    code;
    /** The driver's name for the code (cuGetErrorName), e.g. `CUDA_ERROR_OUT_OF_MEMORY`. */
    name;
    /** The driver's description of the code (cuGetErrorString). */
    driverMessage;
    /** The driver function that failed, e.g. `cuMemAlloc`. */
    call;
    /** The handle or argument that matters (`device 0`, `bytes=4096`), or ''. */
    detail;
    constructor(code, name, driverMessage, call, detail = '') {
        const resolved = name || resultName(code);
        const where = call ? `${call}${detail ? ` (${detail})` : ''}: ` : '';
        super(`${where}${resolved}${driverMessage ? `: ${driverMessage}` : ''}`);
        this.code = code;
        this.name = resolved;
        this.driverMessage = driverMessage;
        this.call = call;
        this.detail = detail;
    }
}
exports.CudaError = CudaError;
/** The driver cannot be used: no library, a driver too old, or cuInit failed (no device, ...). */
class DriverUnavailableError extends CudaError {
    /** Why: 'library-missing' | 'driver-too-old' | 'init-failed' | 'not-loaded'. */
    reason;
    constructor(code, name, message, call, reason) {
        super(code, name, message, call);
        this.reason = reason;
        this.message = `${message} (${this.name}, first needed by ${call})`;
    }
}
exports.DriverUnavailableError = DriverUnavailableError;
/** The installed driver lacks a function this call needs. */
class FunctionUnavailableError extends CudaError {
    /** The CUDA version (e.g. 12080) whose driver provides the function. */
    requiredVersion;
    constructor(message, call, detail, requiredVersion) {
        super(enums_1.CudaResult.CUDA_ERROR_NOT_FOUND, 'CUDA_ERROR_NOT_FOUND', message, call, detail);
        this.requiredVersion = requiredVersion;
        this.message = message;
    }
}
exports.FunctionUnavailableError = FunctionUnavailableError;
class CudaOutOfMemoryError extends CudaError {
}
exports.CudaOutOfMemoryError = CudaOutOfMemoryError;
class CudaNotSupportedError extends CudaError {
}
exports.CudaNotSupportedError = CudaNotSupportedError;
/** A stream capture failed (codes 900-908). */
class CaptureError extends CudaError {
}
exports.CaptureError = CaptureError;
/** 900: the operation is not permitted while the stream is capturing. */
class CaptureUnsupportedError extends CaptureError {
}
exports.CaptureUnsupportedError = CaptureUnsupportedError;
/** 901: the capture was invalidated by an earlier error. */
class CaptureInvalidatedError extends CaptureError {
}
exports.CaptureInvalidatedError = CaptureInvalidatedError;
/** 902: the operation would have merged two independent captures. */
class CaptureMergeError extends CaptureError {
}
exports.CaptureMergeError = CaptureMergeError;
/** 903: the capture was not begun on this stream. */
class CaptureUnmatchedError extends CaptureError {
}
exports.CaptureUnmatchedError = CaptureUnmatchedError;
/** 904: a forked stream was not joined back into the origin stream. */
class CaptureUnjoinedError extends CaptureError {
}
exports.CaptureUnjoinedError = CaptureUnjoinedError;
/** 905: a dependency would cross the capture boundary. */
class CaptureIsolationError extends CaptureError {
}
exports.CaptureIsolationError = CaptureIsolationError;
/** 906: an implicit dependency on the legacy stream was created. */
class CaptureImplicitError extends CaptureError {
}
exports.CaptureImplicitError = CaptureImplicitError;
/** 907: an event recorded in a capture was used outside the allowed calls. */
class CapturedEventError extends CaptureError {
}
exports.CapturedEventError = CapturedEventError;
/** 908: the capture was ended or used from the wrong thread. */
class CaptureWrongThreadError extends CaptureError {
}
exports.CaptureWrongThreadError = CaptureWrongThreadError;
/**
 * 910: cuGraphExecUpdate refused the update. reason is the driver's
 * CUgraphExecUpdateResult ('topologyChanged', 'parametersChanged', ...); node
 * the offending node, when the driver names one.
 */
class GraphUpdateError extends CudaError {
    reason = '';
    node;
    constructor(cause, reasonOrName = '', node, call = 'cuGraphExecUpdate', detail = '') {
        const code = typeof cause === 'number' ? cause : cause.code;
        super(code, typeof cause === 'number' ? reasonOrName : cause.name, typeof cause === 'number' ? '' : cause.driverMessage, call, detail);
        if (typeof cause !== 'number') {
            this.reason = reasonOrName;
            this.node = node;
            this.message = `${this.message} (reason: ${reasonOrName}${node ? `; node: ${node}` : ''})`;
        }
    }
}
exports.GraphUpdateError = GraphUpdateError;
/** Instantiation failed; reason is the driver's CUgraphInstantiateResult, node the node it names. */
class GraphInstantiateError extends CudaError {
    reason;
    node;
    constructor(cause, reason, node) {
        super(cause.code, cause.name, cause.driverMessage, 'cuGraphInstantiateWithParams');
        this.reason = reason;
        this.node = node;
        this.message = `${this.message} (reason: ${reason}${node ? `; node: ${node}` : ''})`;
    }
}
exports.GraphInstantiateError = GraphInstantiateError;
/** A handle was used after dispose(). */
class DisposedError extends Error {
    /** The kind of handle, e.g. `Stream`. */
    handleType;
    constructor(handleType) {
        super(`${handleType} has been disposed`);
        this.name = 'DisposedError';
        this.handleType = handleType;
    }
}
exports.DisposedError = DisposedError;
/** An operating-system call failed (a socket call of an FdChannel, ...). */
class SystemError extends Error {
    /** The errno name, e.g. `ECONNREFUSED` (as in Node's own system errors). */
    code;
    /** The errno value, positive as in C (Node's own errors carry it negated). */
    errno;
    /** The call that failed, e.g. `connect`. */
    syscall;
    /** The argument or object that matters (`path=/tmp/s`, `fds[2]=17`), or ''. */
    detail;
    constructor(errno, syscall, detail = '') {
        const known = (0, util_1.getSystemErrorMap)().get(-errno);
        const code = known?.[0] ?? Object.entries(os_1.constants.errno).find(([, value]) => value === errno)?.[0] ?? `E${errno}`;
        const description = known?.[1] ?? `errno ${errno}`;
        super(`${syscall}${detail ? ` (${detail})` : ''}: ${code}: ${description}`);
        this.name = 'SystemError';
        this.code = code;
        this.errno = errno;
        this.syscall = syscall;
        this.detail = detail;
    }
}
exports.SystemError = SystemError;
/** A wait ran out of time. */
class TimeoutError extends Error {
    /** What timed out, e.g. `accept`, `receive`. */
    operation;
    /** The time it was given, in milliseconds. */
    timeoutMs;
    constructor(operation, timeoutMs) {
        super(`${operation} timed out after ${timeoutMs} ms`);
        this.name = 'TimeoutError';
        this.operation = operation;
        this.timeoutMs = timeoutMs;
    }
}
exports.TimeoutError = TimeoutError;
/** The peer of an FdChannel closed the connection (or died), or the channel was shut down. */
class ChannelClosedError extends Error {
    /** What found the channel closed: `send` or `receive`. */
    operation;
    constructor(operation, message) {
        super(`${operation}: ${message}`);
        this.name = 'ChannelClosedError';
        this.operation = operation;
    }
}
exports.ChannelClosedError = ChannelClosedError;
/**
 * The peer of an FdChannel sent something that is not a well-formed message.
 * Whatever descriptors came with it were closed. A broken frame (wrong header,
 * more descriptors or bytes than a message may carry) also shuts the channel
 * down; a payload that is not JSON does not.
 */
class ChannelProtocolError extends Error {
    /** The operation that found it: `receive`. */
    operation;
    constructor(operation, message) {
        super(`${operation}: ${message}`);
        this.name = 'ChannelProtocolError';
        this.operation = operation;
    }
}
exports.ChannelProtocolError = ChannelProtocolError;
const byCode = new Map([
    [enums_1.CudaResult.CUDA_ERROR_OUT_OF_MEMORY, CudaOutOfMemoryError],
    [enums_1.CudaResult.CUDA_ERROR_NOT_SUPPORTED, CudaNotSupportedError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, CaptureUnsupportedError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, CaptureInvalidatedError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_MERGE, CaptureMergeError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, CaptureUnmatchedError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNJOINED, CaptureUnjoinedError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_ISOLATION, CaptureIsolationError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, CaptureImplicitError],
    [enums_1.CudaResult.CUDA_ERROR_CAPTURED_EVENT, CapturedEventError],
    [enums_1.CudaResult.CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, CaptureWrongThreadError],
    [enums_1.CudaResult.CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, GraphUpdateError],
]);
// The last error that broke a stream capture (codes 900, 902-908), so that the
// CaptureInvalidatedError of the capture's end can name the call that broke it.
let captureFailures = 0;
let captureFailure;
/** @internal How many capture-breaking errors were thrown so far, and the last one. */
function lastCaptureFailure() {
    return { count: captureFailures, error: captureFailure };
}
native_1.native.setErrorFactory((kind, code, name, message, call, detail, requiredVersion) => {
    switch (kind) {
        case 'type':
            return new TypeError(message);
        case 'range':
            return new RangeError(message);
        case 'disposed':
            return new DisposedError(detail);
        case 'system':
            return new SystemError(code, call ?? '', detail);
        case 'timeout':
            return new TimeoutError(call ?? '', code);
        case 'closed':
            return new ChannelClosedError(call ?? '', message);
        case 'protocol':
            return new ChannelProtocolError(call ?? '', message);
        case 'unavailable':
            return new DriverUnavailableError(code, name, message, call, detail);
        case 'missing':
            return new FunctionUnavailableError(message, call, detail, requiredVersion);
        default: {
            const ErrorClass = byCode.get(code) ?? CudaError;
            const error = new ErrorClass(code, name, message, call, detail);
            if (error instanceof CaptureError && !(error instanceof CaptureInvalidatedError)) {
                captureFailures++;
                captureFailure = error;
            }
            return error;
        }
    }
});
//# sourceMappingURL=errors.js.map