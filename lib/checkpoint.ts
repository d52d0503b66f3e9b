// Process checkpoint: another process's CUDA state locked, its device memory
// moved into host memory and its GPUs let go, then brought back. Every call
// talks to that process and may wait for it, so every call returns a promise
// (native/checkpoint.cc runs it on a wait thread).
import { type Device, uuidBytesOf } from './device';
import { ProcessState, type ProcessStateName } from './generated/enums';
import { native } from './native';
import { checkArray, checkInteger, checkObject, checkOptions, describeValue, nameOfValue, noOptions } from './validate';

/** Options of {@link checkpoint}.lock and {@link checkpoint}.suspend. */
export interface CheckpointLockOptions {
  /**
   * How long the lock may wait for the process's CUDA calls in flight and its
   * queued GPU work to finish, in milliseconds (at least 1; fractions round
   * up). Past it the lock rejects and the process keeps running. Default, or
   * Infinity: no limit.
   */
  readonly timeoutMs?: number;
}

/** One GPU of a restore onto other GPUs. */
export interface GpuRemap {
  /** The GPU the process was checkpointed on: a Device, its UUID as Device.uuid gives it, or its 16 bytes. */
  readonly from: Device | string | Uint8Array;
  /** The GPU to restore onto, of the same chip type and with room for the memory. */
  readonly to: Device | string | Uint8Array;
}

/** Options of {@link checkpoint}.restore and {@link checkpoint}.resume. */
export interface CheckpointRestoreOptions {
  /**
   * Restore onto other GPUs: one entry for every GPU the process was
   * checkpointed on. Needs a driver for CUDA 13.0 or newer. Default: the GPUs
   * it was checkpointed on.
   */
  readonly remap?: readonly GpuRemap[];
}

const pidMax = 0x7fffffff;
const uuidBytes = 16;

function checkPid(pid: unknown): number {
  return checkInteger(pid, 'pid', 1, pidMax);
}

// The calls that move a process between states name another process: once
// locked, a process's own CUDA calls block until someone else unlocks it.
function checkOtherPid(pid: unknown, call: string): number {
  const checked = checkPid(pid);
  if (checked === process.pid) {
    throw new RangeError(`checkpoint.${call} must name another process (pid ${checked} is this one): a locked process's ` +
      'CUDA calls block until another process unlocks it');
  }
  return checked;
}

// The driver's timeoutMs: 0 is its "no limit".
function lockTimeout(options: CheckpointLockOptions, call: string): number {
  checkObject(options, 'options');
  checkOptions(options, 'options', `checkpoint.${call}`, ['timeoutMs']);
  const t: unknown = options.timeoutMs;
  if (t === undefined || t === Infinity) return 0;
  if (typeof t !== 'number' || Number.isNaN(t)) {
    throw new TypeError(`options.timeoutMs must be a number of milliseconds or Infinity, got ${describeValue(t)}`);
  }
  if (t <= 0 || t > 0xffffffff) {
    throw new RangeError(`options.timeoutMs must be between 1 and ${0xffffffff} ms or Infinity (leave it out to wait ` +
      `without limit), got ${t}`);
  }
  return Math.ceil(t);
}

// The UUIDs of options.remap: [from, to], 16 bytes per GPU each.
function remapUuids(options: CheckpointRestoreOptions, call: string): [Uint8Array, Uint8Array] {
  checkObject(options, 'options');
  checkOptions(options, 'options', `checkpoint.${call}`, ['remap']);
  const list = options.remap === undefined ? [] : checkArray<GpuRemap>(options.remap, 'options.remap');
  const from = new Uint8Array(list.length * uuidBytes);
  const to = new Uint8Array(list.length * uuidBytes);
  list.forEach((entry, i) => {
    const name = `options.remap[${i}]`;
    checkObject(entry, name);
    checkOptions(entry, name, `checkpoint.${call}`, ['from', 'to']);
    from.set(uuidBytesOf(entry.from, `${name}.from`), i * uuidBytes);
    to.set(uuidBytesOf(entry.to, `${name}.to`), i * uuidBytes);
  });
  return [from, to];
}

function stateName(value: number): ProcessStateName {
  const name = nameOfValue(ProcessState, value);
  if (name === undefined) throw new Error(`the driver reported process state ${value}, which this package does not know`);
  return name;
}

/**
 * Checkpoint and restore of another CUDA process, by pid (Linux; drivers for
 * CUDA 12.8 and newer, 570+). A process runs; `lock` blocks its further CUDA
 * calls once its calls in flight and queued work are done; `checkpoint` moves
 * its device memory into host memory and lets its GPUs go; `restore` brings
 * them back (the process is locked again); `unlock` lets it run. `suspend`
 * and `resume` do two steps each. Arguments are checked before anything
 * starts (a TypeError or RangeError is thrown); a refusal of the driver
 * rejects the promise with a CudaError whose `code` is the driver's, e.g.
 * CUDA_ERROR_ILLEGAL_STATE for a step out of order. See docs/checkpoint.md.
 */
export const checkpoint = {
  /** The process's CUDA state: 'running', 'locked', 'checkpointed' or 'failed'. */
  state(pid: number): Promise<ProcessStateName> {
    return native.checkpointState(checkPid(pid)).then(stateName);
  },

  /** The id of the thread the driver keeps in the process for checkpoint and restore. */
  restoreThreadId(pid: number): Promise<number> {
    return native.checkpointRestoreThreadId(checkPid(pid));
  },

  /**
   * Locks a running process: its CUDA calls block from now on, and the promise
   * resolves once its calls in flight and its queued GPU work have finished.
   * With options.timeoutMs, a lock not reached in time rejects
   * (CUDA_ERROR_NOT_READY) and leaves the process running.
   */
  lock(pid: number, options: CheckpointLockOptions = noOptions): Promise<void> {
    const checked = checkOtherPid(pid, 'lock');
    return native.checkpointLock(checked, lockTimeout(options, 'lock'));
  },

  /** Checkpoints a locked process: its device memory moves into host memory and its GPUs are let go. */
  checkpoint(pid: number): Promise<void> {
    return native.checkpointCheckpoint(checkOtherPid(pid, 'checkpoint'));
  },

  /**
   * Restores a checkpointed process: its GPUs are taken again and its device
   * memory copied back to the same addresses. It is then locked: unlock() it.
   * The restoring process must have initialized CUDA (this call does) unless
   * the GPUs are in persistence mode.
   */
  restore(pid: number, options: CheckpointRestoreOptions = noOptions): Promise<void> {
    const checked = checkOtherPid(pid, 'restore');
    const [from, to] = remapUuids(options, 'restore');
    return native.checkpointRestore(checked, from, to);
  },

  /** Unlocks a locked process: its blocked CUDA calls go on. */
  unlock(pid: number): Promise<void> {
    return native.checkpointUnlock(checkOtherPid(pid, 'unlock'));
  },

  /**
   * lock() then checkpoint(): a running process ends checkpointed. Where the
   * checkpoint fails and the process is still locked, it is unlocked again
   * before the promise rejects with the checkpoint's error.
   */
  suspend(pid: number, options: CheckpointLockOptions = noOptions): Promise<void> {
    const checked = checkOtherPid(pid, 'suspend');
    const timeoutMs = lockTimeout(options, 'suspend');
    return native.checkpointLock(checked, timeoutMs).then(() => native.checkpointCheckpoint(checked).catch(async (error: unknown) => {
      const now = await native.checkpointState(checked).catch(() => undefined);
      if (now === ProcessState.locked) await native.checkpointUnlock(checked).catch(() => undefined);
      throw error;
    }));
  },

  /** restore() then unlock(): a checkpointed process ends running. */
  resume(pid: number, options: CheckpointRestoreOptions = noOptions): Promise<void> {
    const checked = checkOtherPid(pid, 'resume');
    const [from, to] = remapUuids(options, 'resume');
    return native.checkpointRestore(checked, from, to).then(() => native.checkpointUnlock(checked));
  },
};
