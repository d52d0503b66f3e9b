// NCCL's failures as errors: NcclError for a call NCCL refused, and
// NcclUnavailableError when the library cannot be loaded at all.
import { CudaUnavailableError } from '../unavailable-error';

/** NCCL's ncclResult_t values by name, as NcclError's code gives them. */
const resultNames = ['ncclSuccess', 'ncclUnhandledCudaError', 'ncclSystemError', 'ncclInternalError',
  'ncclInvalidArgument', 'ncclInvalidUsage', 'ncclRemoteError', 'ncclInProgress', 'ncclTimeout'];

/** NCCL's name for a result (`ncclInvalidUsage`), or `ncclResult N` for one this package does not know. */
export function ncclResultName(result: number): string {
  return resultNames[result] ?? `ncclResult ${result}`;
}

/**
 * An NCCL call that did not succeed. As every error class of this package:
 * `name` is the class name, `code` a string (NCCL's name for the result,
 * `ncclInvalidUsage`), `result` the ncclResult_t number.
 */
export class NcclError extends Error {
  /** NCCL's name for the result, e.g. `ncclRemoteError`. */
  readonly code: string;
  /** The ncclResult_t number, e.g. 6. */
  readonly result: number;
  /** What NCCL said of the failure (ncclGetLastError), or its text for the result (ncclGetErrorString). */
  readonly ncclMessage: string;
  /** The NCCL function that failed (`ncclAllReduce`), or `ncclCommGetAsyncError` for an asynchronous error. */
  readonly call: string;

  constructor(result: number, ncclMessage: string, call: string) {
    const code = ncclResultName(result);
    super(`${call}: ${code}${ncclMessage ? `: ${ncclMessage}` : ''}`);
    this.name = 'NcclError';
    this.code = code;
    this.result = result;
    this.ncclMessage = ncclMessage;
    this.call = call;
  }
}

/** NCCL could not be loaded; thrown by the first NCCL call. */
export class NcclUnavailableError extends CudaUnavailableError {
  /** 'ERR_NCCL_UNAVAILABLE'. */
  readonly code = 'ERR_NCCL_UNAVAILABLE';
  /** 'nccl-unavailable'. */
  readonly reason = 'nccl-unavailable';
  /** The paths tried, or the library that loaded but was unusable. */
  readonly libraryPath: string;
  /** The system's reason (dlopen's message, a version too old, a missing entry point). */
  readonly detail: string;
  constructor(libraryPath: string, detail: string) {
    super(`NCCL could not be loaded (tried ${libraryPath}: ${detail}); install NCCL 2.18 or newer ` +
      '(a libnccl2 package, or the nvidia-nccl-cu12/cu13 Python wheel) or set NCCL_LIBRARY to the path of libnccl.so.2');
    this.name = 'NcclUnavailableError';
    this.libraryPath = libraryPath;
    this.detail = detail;
  }
}
