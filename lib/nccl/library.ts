// The NCCL library: loading it, what is there, unique ids and group calls.
import { native } from '../native';
import { checkFunction } from '../validate';
import { NcclError, NcclUnavailableError } from './errors';

/** What NCCL is installed, if any. */
export interface NcclStatus {
  /** True when NCCL could be loaded. */
  readonly available: boolean;
  /** The library opened, or every path tried when none could be. NCCL_LIBRARY overrides the search. */
  readonly libraryPath: string;
  /** Why loading failed, or ''. */
  readonly detail: string;
  /** NCCL's version when it loaded (or loaded but was too old), else null. */
  readonly version: {
    /** The major version. */
    major: number;
    /** The minor version. */
    minor: number;
    /** The patch level. */
    patch: number;
    /** ncclGetVersion's code: 22803 for 2.28.3. */
    code: number;
  } | null;
  /** Where the search looks when NCCL_LIBRARY is not set, in order: libnccl.so.2 first, then the wheels found. */
  readonly searched: readonly string[];
}

/** Loads NCCL if that has not been tried yet and says what is there; never throws. */
export function ncclStatus(): NcclStatus {
  const s = native.ncclStatus();
  const code = s.version;
  return Object.freeze({
    available: s.available,
    libraryPath: s.libraryPath,
    detail: s.detail,
    version: code > 0 ? Object.freeze({ major: Math.floor(code / 10000), minor: Math.floor(code / 100) % 100, patch: code % 100, code }) : null,
    searched: Object.freeze([...s.searched]),
  });
}

let loadedVersion = 0;

/** @internal NCCL's version code, loading NCCL; throws NcclUnavailableError when it cannot be loaded. */
export function requireNccl(): number {
  if (loadedVersion !== 0) return loadedVersion;
  const s = native.ncclStatus();
  if (!s.available) throw new NcclUnavailableError(s.libraryPath, s.detail);
  loadedVersion = s.version;
  return loadedVersion;
}

/** @internal Throws an NcclError for a failed call, with the calling thread's last NCCL message. */
export function checkResult(result: number, call: string): void {
  if (result === 0) return;
  throw new NcclError(result, native.ncclLastError() || native.ncclResultText(result), call);
}

/** The number of bytes of an NCCL unique id. */
export const uniqueIdBytes = 128;

/**
 * A new unique id (ncclGetUniqueId): 128 bytes that every rank of a new
 * communicator passes to {@link Communicator.init}. Make it on one rank and send
 * it to the others over any channel (a child's stdin, a worker message, a TCP
 * socket): it names the listening socket of that rank's bootstrap.
 */
export function uniqueId(): Uint8Array {
  requireNccl();
  const id = new Uint8Array(uniqueIdBytes);
  checkResult(native.ncclGetUniqueId(id), 'ncclGetUniqueId');
  return id;
}

/** Opens a group of NCCL calls (ncclGroupStart); {@link group} pairs it with its end. */
export function groupStart(): void {
  requireNccl();
  checkResult(native.ncclGroupStart(), 'ncclGroupStart');
}

/**
 * Ends a group (ncclGroupEnd): the calls made since groupStart are issued
 * together. This is where NCCL connects to peers the first time, and it
 * returns once the other ranks have reached their own group end.
 */
export function groupEnd(): void {
  requireNccl();
  checkResult(native.ncclGroupEnd(), 'ncclGroupEnd');
}

/**
 * Runs calls between groupStart and groupEnd, and ends the group however calls
 * returns: send and recv with the same peer, or one rank's calls on several
 * communicators, must be grouped. calls must be synchronous (the group is a
 * property of the calling thread). Returns what calls returns.
 */
export function group<T>(calls: () => T): T {
  checkFunction(calls, 'calls');
  groupStart();
  let out: T;
  try {
    out = calls();
  } catch (e) {
    native.ncclGroupEnd();
    throw e;
  }
  if (out instanceof Promise) {
    native.ncclGroupEnd();
    throw new TypeError('group() takes a synchronous function: a group ends on the thread that began it, before anything awaited');
  }
  groupEnd();
  return out;
}
