// Errors. Every failed driver call becomes a CudaError (or a subclass callers
// branch on); the addon builds them through the factory registered here.
import { constants } from 'os';
import { getSystemErrorMap } from 'util';
import { errorHint } from './error-hints';
import { CudaResult } from './generated/enums';
import { native } from './native';
import { brandUnavailable } from './unavailable-error';
import { checkInteger } from './validate';

const resultNames = new Map<number, string>(Object.entries(CudaResult).map(([name, code]) => [code, name]));

/**
 * The process at the other end of a channel, as the kernel recorded it when the
 * connection was made (SO_PEERCRED): for the connecting side, the process that
 * made the listening socket; for the accepting side, the one that connected.
 * Both ends check the peer's user ({@link FdChannelPeerOptions.peerUid}); check
 * more (the pid) before trusting what arrives where more matters.
 */
export interface PeerCredentials {
  /** The peer's process id. */
  readonly pid: number;
  /** Its user id. */
  readonly uid: number;
  /** Its group id. */
  readonly gid: number;
}

/** The driver's name for a CUresult code (`CUDA_ERROR_OUT_OF_MEMORY`). */
export function resultName(code: number): string {
  return resultNames.get(checkInteger(code, 'code', -(2 ** 31), 2 ** 31 - 1)) ?? `CUDA_ERROR_${code}`;
}

// A CudaError's message without its driver log and hint, which always come last
// (subclasses add their reasons to this part).
const summaries = new WeakMap<CudaError, string>();

// The driver closes what it logs for a failed call with "Returning <code>
// (<name>) from <function>", which the message already says.
const closingLine = /^Returning -?\d+ \(.*\) from \w+$/;

function explained(error: CudaError, summary: string): string {
  summaries.set(error, summary);
  const log = error.driverLog.filter((line) => !closingLine.test(line)).map((line) => `\n  driver log: ${line}`).join('');
  return `${summary}${log}${error.hint ? `\n  hint: ${error.hint}` : ''}`;
}

// Adds to the summary part of a CudaError's message.
function extendSummary(error: CudaError, addition: string): void {
  error.message = explained(error, `${summaries.get(error) ?? error.message}${addition}`);
}

/**
 * A driver call that returned something other than CUDA_SUCCESS. As every
 * error class of this package: `name` is the class name, `code` a string
 * (here the driver's name for the result); `result` keeps the CUresult number.
 * The message ends with the driver's own log lines for the failure
 * (`driverLog`) and this package's advice for known cases (`hint`), one per line.
 */
export class CudaError extends Error {
  /** The driver's name for the result (cuGetErrorName), e.g. `CUDA_ERROR_OUT_OF_MEMORY`. */
  readonly code: string;
  /** The CUresult number, e.g. 2. */
  readonly result: number;
  /** The class name, e.g. `CudaOutOfMemoryError`. */
  override readonly name: string;
  /** The driver's description of the result (cuGetErrorString). */
  readonly driverMessage: string;
  /** The driver function that failed, e.g. `cuMemAlloc`. */
  readonly call: string | null;
  /** The handle or argument that matters (`device 0`, `bytes=4096`), or ''. */
  readonly detail: string;
  /**
   * What the driver logged about this failure, one line per entry (drivers for
   * CUDA 12.9 and newer, through cuLogsRegisterCallback), as it logged them on the
   * thread of the failed call: its explanation, if it gave one, and its closing
   * `Returning <code> (<name>) from <function>` line, which the message leaves
   * out. Empty when the driver said nothing or cannot log.
   */
  readonly driverLog: readonly string[];
  /** This package's advice for a known cause of this failure, or ''. */
  readonly hint: string;

  /** result: the CUresult; code: its name ('' to look it up); driverLog: the driver's lines about it. */
  constructor(result: number, code: string, driverMessage: string, call: string | null, detail = '',
    driverLog: readonly string[] = []) {
    const resolved = code || resultName(result);
    const where = call ? `${call}${detail ? ` (${detail})` : ''}: ` : '';
    super(`${where}${resolved}${driverMessage ? `: ${driverMessage}` : ''}`);
    this.code = resolved;
    this.result = result;
    this.name = new.target.name;
    this.driverMessage = driverMessage;
    this.call = call;
    this.detail = detail;
    this.driverLog = Object.freeze(driverLog.flatMap((line) => line.split('\n')).filter((line) => line.trim() !== ''));
    this.hint = errorHint(call, result);
    this.message = explained(this, this.message);
  }
}

/** Why the driver cannot be used. */
export type DriverUnavailableReason = 'library-missing' | 'driver-too-old' | 'init-failed' | 'not-loaded';

/**
 * The driver cannot be used: no library, a driver too old, or cuInit failed (no
 * device, ...). A CudaError (code and result are cuInit's, or
 * CUDA_ERROR_NOT_INITIALIZED), and `instanceof CudaUnavailableError` too.
 */
export class DriverUnavailableError extends CudaError {
  /** Why, in a word. */
  readonly reason: DriverUnavailableReason;
  constructor(result: number, code: string, message: string, call: string | null, reason: DriverUnavailableReason) {
    super(result, code, message, call);
    this.reason = reason;
    this.message = `${message} (${this.code}, first needed by ${call})`;
  }
}
brandUnavailable(DriverUnavailableError);

/** The installed driver lacks a function this call needs (code CUDA_ERROR_NOT_FOUND). */
export class FunctionUnavailableError extends CudaError {
  /** The CUDA version (e.g. 12080) whose driver provides the function. */
  readonly requiredVersion: number;
  constructor(message: string, call: string | null, detail: string, requiredVersion: number) {
    super(CudaResult.CUDA_ERROR_NOT_FOUND, 'CUDA_ERROR_NOT_FOUND', message, call, detail);
    this.requiredVersion = requiredVersion;
    this.message = message;
  }
}

/** 2: the driver could not allocate the memory or resources the call needs (CUDA_ERROR_OUT_OF_MEMORY). */
export class CudaOutOfMemoryError extends CudaError {}
/** 801: the device, driver or system does not support what was asked (CUDA_ERROR_NOT_SUPPORTED). */
export class CudaNotSupportedError extends CudaError {}

/**
 * The GPU faulted and the CUDA context can no longer be used: an illegal
 * address, instruction or alignment in a kernel, a stack error, a kernel that
 * ran past its time limit, a device-side assert, an uncorrectable fault the
 * driver contained (codes 226, 700, 702, 710, 714-719, 721), or the MPS server
 * dropping this client (810). Every later call that uses the context fails the
 * same way, and the GPU work queued with it is lost; only a new process can use
 * the GPU again.
 */
export class ContextLostError extends CudaError {
  constructor(result: number, code: string, driverMessage: string, call: string | null, detail = '',
    driverLog: readonly string[] = []) {
    super(result, code, driverMessage, call, detail, driverLog);
    extendSummary(this, ' (the CUDA context is lost: every later call that uses it fails the same way; ' +
      'restart the process to use the GPU again)');
  }
}

/** A stream capture failed (codes 900-908). */
export class CaptureError extends CudaError {}
/** 900: the operation is not permitted while the stream is capturing. */
export class CaptureUnsupportedError extends CaptureError {}
/** 901: the capture was invalidated by an earlier error. */
export class CaptureInvalidatedError extends CaptureError {}
/** 902: the operation would have merged two independent captures. */
export class CaptureMergeError extends CaptureError {}
/** 903: the capture was not begun on this stream. */
export class CaptureUnmatchedError extends CaptureError {}
/** 904: a forked stream was not joined back into the origin stream. */
export class CaptureUnjoinedError extends CaptureError {}
/** 905: a dependency would cross the capture boundary. */
export class CaptureIsolationError extends CaptureError {}
/** 906: an implicit dependency on the legacy stream was created. */
export class CaptureImplicitError extends CaptureError {}
/** 907: an event recorded in a capture was used outside the allowed calls. */
export class CapturedEventError extends CaptureError {}
/** 908: the capture was ended or used from the wrong thread. */
export class CaptureWrongThreadError extends CaptureError {}

/** The driver's CUgraphExecUpdateResult, by name; `result N` for one this library does not know. */
export type GraphUpdateReason =
  | 'error' | 'topologyChanged' | 'nodeTypeChanged' | 'functionChanged' | 'parametersChanged' | 'notSupported'
  | 'unsupportedFunctionChange' | 'attributesChanged' | `result ${number}`;

/** The driver's CUgraphInstantiateResult, by name; `result N` for one this library does not know. */
export type GraphInstantiateReason =
  | 'error' | 'invalidStructure' | 'nodeOperationNotSupported' | 'multipleContextsNotSupported'
  | 'conditionalHandleUnused' | `result ${number}`;

/**
 * 910: cuGraphExecUpdate refused the update. reason is the driver's
 * CUgraphExecUpdateResult ('topologyChanged', 'parametersChanged', ...); node
 * the offending node, when the driver names one.
 */
export class GraphUpdateError extends CudaError {
  /** The driver's CUgraphExecUpdateResult, by name ('topologyChanged', ...); '' when unknown. */
  reason: GraphUpdateReason | '' = '';
  /** The node the driver blames (a GraphNode), when it names one. */
  node: unknown;

  constructor(cause: CudaError | number, reasonOrCode = '', node?: unknown, call: string | null = 'cuGraphExecUpdate', detail = '') {
    const result = typeof cause === 'number' ? cause : cause.result;
    super(result, typeof cause === 'number' ? reasonOrCode : cause.code, typeof cause === 'number' ? '' : cause.driverMessage, call, detail,
      typeof cause === 'number' ? [] : cause.driverLog);
    if (typeof cause !== 'number') {
      this.reason = reasonOrCode as GraphUpdateReason;
      this.node = node;
      extendSummary(this, ` (reason: ${reasonOrCode}${node ? `; node: ${node}` : ''})`);
    }
  }
}

/** Instantiation failed; reason is the driver's CUgraphInstantiateResult, node the node it names. */
export class GraphInstantiateError extends CudaError {
  /** The driver's CUgraphInstantiateResult, by name ('invalidStructure', ...). */
  readonly reason: GraphInstantiateReason;
  /** The node the driver blames (a GraphNode), when it names one. */
  readonly node: unknown;

  constructor(cause: CudaError, reason: GraphInstantiateReason, node?: unknown) {
    super(cause.result, cause.code, cause.driverMessage, 'cuGraphInstantiateWithParams', '', cause.driverLog);
    this.reason = reason;
    this.node = node;
    extendSummary(this, ` (reason: ${reason}${node ? `; node: ${node}` : ''})`);
  }
}

/** A handle was used after dispose(). */
export class DisposedError extends Error {
  /** 'ERR_CUDA_DISPOSED'. */
  readonly code = 'ERR_CUDA_DISPOSED';
  /** The kind of handle, e.g. `Stream`. */
  readonly handleType: string;
  constructor(handleType: string) {
    super(`${handleType} has been disposed`);
    this.name = 'DisposedError';
    this.handleType = handleType;
  }
}

/** An operating-system call failed (a socket call of an FdChannel, ...). */
export class SystemError extends Error {
  /** The errno name, e.g. `ECONNREFUSED` (as in Node's own system errors). */
  readonly code: string;
  /** The errno value, positive as in C (Node's own errors carry it negated). */
  readonly errno: number;
  /** The call that failed, e.g. `connect`. */
  readonly syscall: string;
  /** The argument or object that matters (`path=/tmp/s`, `fds[2]=17`), or ''. */
  readonly detail: string;

  constructor(errno: number, syscall: string, detail = '') {
    const known = getSystemErrorMap().get(-errno);
    const code = known?.[0] ?? Object.entries(constants.errno).find(([, value]) => value === errno)?.[0] ?? `E${errno}`;
    const description = known?.[1] ?? `errno ${errno}`;
    super(`${syscall}${detail ? ` (${detail})` : ''}: ${code}: ${description}`);
    this.name = 'SystemError';
    this.code = code;
    this.errno = errno;
    this.syscall = syscall;
    this.detail = detail;
  }
}

/**
 * A wait given up because its AbortSignal was aborted (the `signal` option).
 * Shaped as Node's own APIs reject (fs, timers/promises, events.once): name
 * 'AbortError', code 'ABORT_ERR', cause the signal's reason. What was waited
 * for is not undone: GPU work runs to its end.
 */
export class AbortError extends Error {
  /** 'ABORT_ERR', as Node's own abort errors. */
  readonly code = 'ABORT_ERR';
  /** What was given up, e.g. `Stream.synchronize`. */
  readonly operation: string;

  constructor(operation: string, reason: unknown) {
    super(`${operation} was aborted`, { cause: reason });
    this.name = 'AbortError';
    this.operation = operation;
  }
}

/** A wait ran out of time. */
export class TimeoutError extends Error {
  /** 'ERR_CUDA_TIMEOUT'. */
  readonly code = 'ERR_CUDA_TIMEOUT';
  /** What timed out, e.g. `accept`, `receive`, `Stream.synchronize`. */
  readonly operation: string;
  /** The time it was given, in milliseconds. */
  readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number) {
    super(`${operation} timed out after ${timeoutMs} ms`);
    this.name = 'TimeoutError';
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A blocking wait on the JavaScript thread refused, or cut short, because a host
 * callback the GPU waits for is pending: the callback runs on this thread, so
 * the wait could never end. Await the promise form instead, or queue the
 * callback with `{ wait: false }` (see the host callbacks section of the streams guide).
 */
export class HostCallbackPendingError extends Error {
  /** 'ERR_CUDA_HOST_CALLBACK_PENDING'. */
  readonly code = 'ERR_CUDA_HOST_CALLBACK_PENDING';
  /** The blocking call, e.g. `Stream.synchronizeSync`, `a synchronous copy`. */
  readonly operation: string;

  constructor(operation: string, message: string) {
    super(message);
    this.name = 'HostCallbackPendingError';
    this.operation = operation;
  }
}

/** The peer of an FdChannel closed the connection (or died), or the channel was shut down. */
export class ChannelClosedError extends Error {
  /** 'ERR_CUDA_CHANNEL_CLOSED'. */
  readonly code = 'ERR_CUDA_CHANNEL_CLOSED';
  /** What found the channel closed: `send` or `receive`. */
  readonly operation: string;

  constructor(operation: string, message: string) {
    super(`${operation}: ${message}`);
    this.name = 'ChannelClosedError';
    this.operation = operation;
  }
}

/**
 * The peer of an FdChannel sent something that is not a well-formed message.
 * Whatever descriptors came with it were closed. A broken frame (wrong header,
 * more descriptors or bytes than a message may carry) also shuts the channel
 * down; a payload that is not JSON does not.
 */
export class ChannelProtocolError extends Error {
  /** 'ERR_CUDA_CHANNEL_PROTOCOL'. */
  readonly code = 'ERR_CUDA_CHANNEL_PROTOCOL';
  /** The operation that found it: `receive`. */
  readonly operation: string;

  constructor(operation: string, message: string) {
    super(`${operation}: ${message}`);
    this.name = 'ChannelProtocolError';
    this.operation = operation;
  }
}

/**
 * The process at the other end of an FdChannel runs as a user this side does
 * not accept (see the peerUid option): a listener squatting the address, or a
 * client of another user. The connection was closed before anything moved.
 */
export class ChannelPeerError extends Error {
  /** 'ERR_CUDA_CHANNEL_PEER'. */
  readonly code = 'ERR_CUDA_CHANNEL_PEER';
  /** What found the peer unacceptable: `connect`. */
  readonly operation: string;
  /** The peer as the kernel recorded it. */
  readonly peer: PeerCredentials;
  /** The user id the peer had to run as. */
  readonly expectedUid: number;

  constructor(operation: string, peer: PeerCredentials, expectedUid: number) {
    super(`${operation}: the peer (pid ${peer.pid}) runs as user ${peer.uid}, not ${expectedUid}; the connection was closed`);
    this.name = 'ChannelPeerError';
    this.operation = operation;
    this.peer = peer;
    this.expectedUid = expectedUid;
  }
}

type CudaErrorClass = new (result: number, code: string, message: string, call: string | null, detail?: string,
  driverLog?: readonly string[]) => CudaError;

const byCode = new Map<number, CudaErrorClass>([
  [CudaResult.CUDA_ERROR_OUT_OF_MEMORY, CudaOutOfMemoryError],
  [CudaResult.CUDA_ERROR_NOT_SUPPORTED, CudaNotSupportedError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, CaptureUnsupportedError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, CaptureInvalidatedError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_MERGE, CaptureMergeError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, CaptureUnmatchedError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNJOINED, CaptureUnjoinedError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_ISOLATION, CaptureIsolationError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, CaptureImplicitError],
  [CudaResult.CUDA_ERROR_CAPTURED_EVENT, CapturedEventError],
  [CudaResult.CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, CaptureWrongThreadError],
  [CudaResult.CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, GraphUpdateError],
  ...[
    CudaResult.CUDA_ERROR_CONTAINED,
    CudaResult.CUDA_ERROR_ILLEGAL_ADDRESS,
    CudaResult.CUDA_ERROR_LAUNCH_TIMEOUT,
    CudaResult.CUDA_ERROR_ASSERT,
    CudaResult.CUDA_ERROR_HARDWARE_STACK_ERROR,
    CudaResult.CUDA_ERROR_ILLEGAL_INSTRUCTION,
    CudaResult.CUDA_ERROR_MISALIGNED_ADDRESS,
    CudaResult.CUDA_ERROR_INVALID_ADDRESS_SPACE,
    CudaResult.CUDA_ERROR_INVALID_PC,
    CudaResult.CUDA_ERROR_LAUNCH_FAILED,
    CudaResult.CUDA_ERROR_TENSOR_MEMORY_LEAK,
    CudaResult.CUDA_ERROR_MPS_CLIENT_TERMINATED,
  ].map((code): [number, CudaErrorClass] => [code, ContextLostError]),
]);

// The last error that broke a stream capture (codes 900, 902-908), so that the
// CaptureInvalidatedError of the capture's end can name the call that broke it.
let captureFailures = 0;
let captureFailure: CaptureError | undefined;

/** @internal How many capture-breaking errors were thrown so far, and the last one. */
export function lastCaptureFailure(): { count: number; error: CaptureError | undefined } {
  return { count: captureFailures, error: captureFailure };
}

native.setErrorFactory((kind, code, name, message, call, detail, requiredVersion, driverLog) => {
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
    case 'host-callback-pending':
      return new HostCallbackPendingError(call ?? '', message);
    case 'unavailable':
      return new DriverUnavailableError(code, name, message, call, detail as DriverUnavailableReason);
    case 'missing':
      return new FunctionUnavailableError(message, call, detail, requiredVersion);
    default: {
      const ErrorClass = byCode.get(code) ?? CudaError;
      const error = new ErrorClass(code, name, message, call, detail, driverLog);
      if (error instanceof CaptureError && !(error instanceof CaptureInvalidatedError)) {
        captureFailures++;
        captureFailure = error;
      }
      return error;
    }
  }
});
