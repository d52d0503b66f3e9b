// An NCCL communicator: one rank's membership of a group of GPUs, and the
// collectives and point-to-point calls it makes on our streams with our memory.
import { Device, DeviceLike, ordinalOf } from '../device';
import { Disposable } from '../disposable';
import { DisposedError } from '../errors';
import type { MemoryHandle } from '../memory/bytes';
import { HostBuffer } from '../memory/host-buffer';
import { Memory } from '../memory/memory';
import { native, NativeCommunicator, NativeNcclOutcome, Slot } from '../native';
import { Stream } from '../stream';
import { checkBoolean, checkOptions, checkInteger, checkObject, checkSize, checkInstance, describeValue } from '../validate';
import { checkWaitOptions, raceWait, WaitOptions } from '../wait-options';
import { CommunicatorConfig, encodeConfig } from './config';
import { NcclError } from './errors';
import { checkResult, requireNccl, uniqueIdBytes } from './library';
import { DataType, DataTypeName, elementBytes, float8Version, ReduceOp, ReduceOpName } from './types';

/** How {@link Communicator.init} makes a communicator. */
export interface CommunicatorInitOptions extends WaitOptions {
  /** The unique id every rank got from the one that called {@link uniqueId} (128 bytes). */
  readonly id: Uint8Array;
  /** This rank, in [0, size). */
  readonly rank: number;
  /** The number of ranks. */
  readonly size: number;
  /** The GPU this rank uses (default 0). One GPU per process or per worker thread. */
  readonly device?: DeviceLike;
  /** The communicator's configuration (ncclCommInitRankConfig); default: NCCL's. */
  readonly config?: CommunicatorConfig;
}

/** How {@link Communicator.split} groups ranks. */
export interface SplitOptions extends WaitOptions {
  /** Ranks that give the same color end up in the same new communicator; null leaves this rank out. */
  readonly color: number | null;
  /** Orders the ranks of a new communicator (default: this rank's number). */
  readonly key?: number;
  /** The new communicator's configuration; default: NCCL's (which inherits this one's). */
  readonly config?: CommunicatorConfig;
}

/** How {@link Communicator.shrink} makes the smaller communicator. */
export interface ShrinkOptions extends WaitOptions {
  /**
   * End this communicator's pending work first (NCCL_SHRINK_ABORT), for a
   * communicator whose excluded ranks failed mid-collective (default false).
   */
  readonly abort?: boolean;
  /** The new communicator's configuration; default: NCCL's (which inherits this one's). */
  readonly config?: CommunicatorConfig;
}

/** What every NCCL call takes. */
export interface CallOptions {
  /** The stream the call is queued on; it must be on the communicator's device. */
  readonly stream: Stream;
  /** The element type (default 'float32'). */
  readonly type?: DataTypeName;
  /**
   * How many elements each rank contributes (allGather, allToAll: per rank;
   * reduceScatter: each rank's share of the result). Default: what the send
   * buffer holds past sendOffset (what the receive buffer holds, for recv),
   * divided as the call divides it.
   */
  readonly count?: number;
  /** Where the data starts in the send buffer, in bytes (default 0). */
  readonly sendOffset?: number;
  /** Where the data starts in the receive buffer, in bytes (default 0). */
  readonly recvOffset?: number;
}

/** What the reducing calls take besides. */
export interface ReduceCallOptions extends CallOptions {
  /** The reduction (default 'sum'). */
  readonly op?: ReduceOpName;
}

/** What broadcast takes besides. */
export interface RootedCallOptions extends CallOptions {
  /** The rank that holds the data (broadcast) or receives the result (reduce). */
  readonly root: number;
}

/** What point-to-point calls take besides. */
export interface PeerCallOptions extends CallOptions {
  /** The rank at the other end. */
  readonly peer: number;
}

const initKeys: readonly string[] = ['id', 'rank', 'size', 'device', 'config', 'signal', 'timeoutMs'];
const splitKeys: readonly string[] = ['color', 'key', 'config', 'signal', 'timeoutMs'];
const shrinkKeys: readonly string[] = ['abort', 'config', 'signal', 'timeoutMs'];
const callKeys: readonly string[] = ['stream', 'type', 'count', 'sendOffset', 'recvOffset'];
const reduceKeys: readonly string[] = [...callKeys, 'op'];
const rootedKeys: readonly string[] = [...callKeys, 'root'];
const rootedReduceKeys: readonly string[] = [...reduceKeys, 'root'];
const peerKeys: readonly string[] = [...callKeys, 'peer'];

// ncclCall's op numbers (native/nccl/calls.cc).
const enum Op { AllReduce, Broadcast, Reduce, AllGather, ReduceScatter, Send, Recv, AllToAll }
const opNames = ['ncclAllReduce', 'ncclBroadcast', 'ncclReduce', 'ncclAllGather', 'ncclReduceScatter', 'ncclSend',
  'ncclRecv', 'ncclAlltoAll'];

function nameOf<M extends Record<string, number>>(value: unknown, map: M, name: string, fallback: keyof M & string): number {
  if (value === undefined) return map[fallback];
  if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(map, value)) return map[value];
  throw new TypeError(`${name} must be one of ${Object.keys(map).map((k) => `'${k}'`).join(', ')}; got ${describeValue(value)}`);
}

// The streams of this thread capturing NCCL calls, by device. NCCL captures a
// thread's calls for one GPU at a time: calls for a second device captured
// from the same thread are refused (one GPU per process or worker thread).
const capturing = new Map<number, Stream>();

function checkPlacement(stream: Stream, ordinal: number): void {
  // The cheap question first: the driver is asked only while a capture is open.
  if (!native.streamCapturing(stream.slot) || stream.captureStatus !== 'active') return;
  for (const [device, other] of capturing) {
    if (other.disposed || other.captureStatus !== 'active') {
      capturing.delete(device);
    } else if (device !== ordinal) {
      throw new RangeError(`an NCCL call for device ${ordinal} inside a stream capture, while this thread captures NCCL ` +
        `calls for device ${device}: capture each GPU's calls in a process or worker thread of its own`);
    }
  }
  capturing.set(ordinal, stream);
}

/** A buffer of size bytes (undefined: none) holds bytes from offset, or a RangeError says it does not. */
function fits(size: number | undefined, offset: number, bytes: number, name: string): void {
  if (size !== undefined && offset + bytes > size) {
    throw new RangeError(`${name} needs ${bytes} bytes from offset ${offset}; it holds ${size}`);
  }
}

function outcomeError(outcome: NativeNcclOutcome, call: string): NcclError {
  return new NcclError(outcome.result, outcome.message, call);
}

/**
 * One rank of an NCCL communicator, on one GPU. Made by {@link Communicator.init}
 * on every rank at once; its calls are queued on {@link Stream}s of its device
 * with any memory of that device (device buffers, pool and graph
 * allocations, VMM mappings, shared memory). A call queued on a stream, or
 * captured into a graph, keeps the communicator alive until that work is done
 * or the graph and its executables are gone.
 *
 * End it with {@link destroy} (collective: every rank calls it), or with
 * {@link abort} (local: for a failed peer or a stuck call). dispose() and
 * garbage collection end it as abort() does once nothing uses it, unless it
 * was finalized.
 */
export class Communicator extends Disposable<NativeCommunicator> {
  /** @internal */
  constructor(handle: Slot<NativeCommunicator>) {
    super(handle);
    [this.#rank, this.#size, this.#ordinal] = native.ncclCommInfo(handle);
  }

  // What NCCL said of the communicator when it was made, which never changes:
  // read once, so that a call's checks cost no native call.
  readonly #rank: number;
  readonly #size: number;
  readonly #ordinal: number;

  // Throws once dispose() has run, as every use of a disposed handle does.
  private checkLive(): void {
    if (this.released) throw new DisposedError('Communicator');
  }

  /**
   * Joins a new communicator (ncclCommInitRankConfig), on a thread of its own: the
   * promise resolves once every rank has joined. With a signal or timeoutMs the
   * promise rejects when they fire; the joining itself cannot be stopped and
   * goes on, and the communicator it makes, if any, is aborted once garbage-collected.
   */
  static init(options: CommunicatorInitOptions): Promise<Communicator> {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Communicator.init', initKeys);
    const wait = checkWaitOptions(options, 'options');
    const id = options.id;
    if (!(id instanceof Uint8Array) || id.length !== uniqueIdBytes) {
      throw new TypeError(`options.id must be a Uint8Array of ${uniqueIdBytes} bytes (from uniqueId()); got ${describeValue(id)}`);
    }
    const size = checkInteger(options.size, 'options.size', 1, 2 ** 31 - 1);
    const rank = checkInteger(options.rank, 'options.rank', 0, size - 1);
    const ordinal = ordinalOf(options.device, 'options.device');
    const config = encodeConfig(options.config, 'options.config', 'Communicator.init', requireNccl());
    return raceWait(wait, 'Communicator.init', async () => {
      const outcome = await native.ncclCommInit(id, size, rank, ordinal, ...config);
      if (outcome.result !== 0 || outcome.communicator === undefined) throw outcomeError(outcome, 'ncclCommInitRankConfig');
      return new Communicator(outcome.communicator as Slot<NativeCommunicator>);
    });
  }

  private info(): [rank: number, size: number, ordinal: number, finalized: number, aborted: number] {
    return native.ncclCommInfo(this.slot);
  }

  /** This rank's number, in [0, size). */
  get rank(): number {
    this.checkLive();
    return this.#rank;
  }

  /** The number of ranks. */
  get size(): number {
    this.checkLive();
    return this.#size;
  }

  /** The GPU this rank uses. */
  get device(): Device {
    this.checkLive();
    return Device.get(this.#ordinal);
  }

  /** True once abort() has ended it. */
  get aborted(): boolean {
    return this.info()[4] === 1;
  }

  /**
   * Splits the communicator (ncclCommSplit, collective: every rank calls it):
   * ranks with the same color form a new communicator, ordered by key. Resolves
   * to null for a rank that gave color null.
   */
  split(options: SplitOptions): Promise<Communicator | null> {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Communicator.split', splitKeys);
    const wait = checkWaitOptions(options, 'options');
    const color = options.color === null ? -1 : checkInteger(options.color, 'options.color', 0, 2 ** 31 - 1);
    const key = options.key === undefined ? this.rank : checkInteger(options.key, 'options.key', -(2 ** 31), 2 ** 31 - 1);
    const config = encodeConfig(options.config, 'options.config', 'Communicator.split', requireNccl());
    const started = native.ncclCommSplit(this.slot, color, key, ...config);
    return raceWait(wait, 'Communicator.split', async () => {
      const outcome = await started;
      if (outcome.result !== 0) throw outcomeError(outcome, 'ncclCommSplit');
      return outcome.communicator === undefined ? null : new Communicator(outcome.communicator as Slot<NativeCommunicator>);
    });
  }

  /**
   * A smaller communicator of every rank but the excluded ones (ncclCommShrink,
   * NCCL 2.27 or newer; collective over the remaining ranks, which must all
   * give the same list; excluded ranks do not call it). Ranks keep their
   * order, numbered anew from 0. With abort, this communicator's pending work
   * ends first: the way on after a peer failed mid-collective. A TypeError
   * where the loaded NCCL lacks it.
   */
  shrink(excludeRanks: readonly number[], options: ShrinkOptions = {}): Promise<Communicator> {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Communicator.shrink', shrinkKeys);
    const wait = checkWaitOptions(options, 'options');
    if (!Array.isArray(excludeRanks)) throw new TypeError(`excludeRanks must be an array of ranks; got ${describeValue(excludeRanks)}`);
    const rank = this.rank;
    const exclude = Int32Array.from(excludeRanks, (r, i) => this.checkRank(r, `excludeRanks[${i}]`));
    if (new Set(exclude).size !== exclude.length) throw new RangeError('excludeRanks names a rank twice');
    if (exclude.includes(rank)) throw new RangeError(`excludeRanks holds this rank (${rank}): an excluded rank does not call shrink()`);
    const abort = options.abort === undefined ? false : checkBoolean(options.abort, 'options.abort');
    const config = encodeConfig(options.config, 'options.config', 'Communicator.shrink', requireNccl());
    const started = native.ncclCommShrink(this.slot, exclude, abort, ...config);
    return raceWait(wait, 'Communicator.shrink', async () => {
      const outcome = await started;
      if (outcome.result !== 0 || outcome.communicator === undefined) throw outcomeError(outcome, 'ncclCommShrink');
      return new Communicator(outcome.communicator as Slot<NativeCommunicator>);
    });
  }

  /**
   * Finishes the communicator's work with the other ranks (ncclCommFinalize,
   * collective), on a thread of its own. Afterwards dispose() frees it locally.
   */
  async finalize(): Promise<void> {
    const outcome = await native.ncclCommFinalize(this.slot);
    if (outcome.result !== 0) throw outcomeError(outcome, 'ncclCommFinalize');
  }

  /** finalize() then dispose(): the orderly end, called by every rank. */
  async destroy(): Promise<void> {
    await this.finalize();
    this.dispose();
  }

  /**
   * Ends the communicator now (ncclCommAbort), without the other ranks: its
   * kernels still running stop, waits on it reject with a DisposedError, and
   * every later call on it throws. For a peer that died or a call that hangs.
   * Refused while finalize(), split() or shrink() runs.
   */
  abort(): void {
    checkResult(native.ncclCommAbort(this.slot), 'ncclCommAbort');
  }

  /**
   * The ncclComm_t, for native code that makes NCCL calls of its own on this
   * communicator (it must keep to the order every rank calls in); 0n once aborted.
   */
  get handle(): bigint {
    return native.ncclCommHandle(this.slot);
  }

  /** The communicator's asynchronous error (ncclCommGetAsyncError) as an NcclError, or null when there is none. */
  asyncError(): NcclError | null {
    const result = native.ncclCommAsyncError(this.slot);
    return result === 0 || result === 7 ? null : new NcclError(result, native.ncclLastError(), 'ncclCommGetAsyncError');
  }

  /**
   * Resolves once the work queued so far on stream is done; rejects with an
   * NcclError as soon as the communicator reports an asynchronous error (a
   * peer died, the network failed), and with a DisposedError when abort()
   * ends it meanwhile. Use it rather than stream.synchronize() where a peer may
   * fail: a collective whose peer is gone never completes by itself.
   */
  synchronize(stream: Stream, options: WaitOptions = {}): Promise<void> {
    checkInstance(stream, Stream, 'stream');
    const wait = checkWaitOptions(options, 'options', 'Communicator.synchronize');
    const started = native.ncclCommWait(this.slot, stream.slot);
    return raceWait(wait, 'Communicator.synchronize', async () => {
      const outcome = await started;
      if (outcome.result === -1) throw new DisposedError('Communicator');
      if (outcome.result !== 0) throw outcomeError(outcome, 'ncclCommGetAsyncError');
    });
  }

  /** Reduces send across all ranks into every rank's recv (ncclAllReduce); send and recv may be the same buffer. */
  allReduce(send: MemoryHandle, recv: MemoryHandle, options: ReduceCallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.allReduce', reduceKeys);
    this.call(Op.AllReduce, send, recv, options, nameOf(options.op, ReduceOp, 'options.op', 'sum'), 0);
  }

  /** Copies root's send into every rank's recv (ncclBroadcast); send is read at the root only (null elsewhere). */
  broadcast(send: MemoryHandle | null, recv: MemoryHandle, options: RootedCallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.broadcast', rootedKeys);
    const root = this.checkRank(options.root, 'options.root');
    this.call(Op.Broadcast, send, recv, options, 0, root);
  }

  /** Reduces send across all ranks into root's recv (ncclReduce); recv is written at the root only (null elsewhere). */
  reduce(send: MemoryHandle, recv: MemoryHandle | null, options: RootedCallOptions & ReduceCallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.reduce', rootedReduceKeys);
    const root = this.checkRank(options.root, 'options.root');
    this.call(Op.Reduce, send, recv, options, nameOf(options.op, ReduceOp, 'options.op', 'sum'), root);
  }

  /** Gathers count elements from every rank into recv, rank i's at element i × count (ncclAllGather). */
  allGather(send: MemoryHandle, recv: MemoryHandle, options: CallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.allGather', callKeys);
    this.call(Op.AllGather, send, recv, options, 0, 0);
  }

  /** Reduces send (size × count elements) and leaves block i of the result in rank i's recv (ncclReduceScatter). */
  reduceScatter(send: MemoryHandle, recv: MemoryHandle, options: ReduceCallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.reduceScatter', reduceKeys);
    this.call(Op.ReduceScatter, send, recv, options, nameOf(options.op, ReduceOp, 'options.op', 'sum'), 0);
  }

  /** Sends block j of send to rank j and receives rank i's into block i of recv (ncclAlltoAll, NCCL 2.28 and newer). */
  allToAll(send: MemoryHandle, recv: MemoryHandle, options: CallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.allToAll', callKeys);
    this.call(Op.AllToAll, send, recv, options, 0, 0);
  }

  /** Sends to peer (ncclSend), which must recv the same count; group it with a recv from that peer. */
  send(buffer: MemoryHandle, options: PeerCallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.send', peerKeys);
    this.call(Op.Send, buffer, null, options, 0, this.checkRank(options.peer, 'options.peer'));
  }

  /** Receives from peer into buffer (ncclRecv). */
  recv(buffer: MemoryHandle, options: PeerCallOptions): void {
    checkOptions(checkObject(options, 'options'), 'options', 'Communicator.recv', peerKeys);
    this.call(Op.Recv, null, buffer, options, 0, this.checkRank(options.peer, 'options.peer'));
  }

  private checkRank(value: unknown, name: string): number {
    return checkInteger(value, name, 0, this.size - 1);
  }

  // The checks every call shares: the stream and buffers on this rank's
  // device, the type, and a count that fits both buffers.
  private call(op: Op, send: MemoryHandle | null, recv: MemoryHandle | null, options: CallOptions, reduceOp: number, peer: number): void {
    // An aborted communicator is refused natively, with the same TypeError.
    this.checkLive();
    const rank = this.#rank, size = this.#size, ordinal = this.#ordinal;
    const stream = checkInstance(options.stream, Stream, 'options.stream');
    const streamOrdinal = native.streamOrdinal(stream.slot);
    if (streamOrdinal !== ordinal) {
      throw new RangeError(`options.stream is on device ${streamOrdinal}; this communicator's rank is on device ${ordinal}`);
    }
    checkPlacement(stream, ordinal);
    const type = nameOf(options.type, DataType, 'options.type', 'float32');
    if (type >= DataType.float8e4m3 && requireNccl() < float8Version) {
      throw new RangeError(`options.type '${options.type}' needs NCCL 2.24 or newer`);
    }
    const element = elementBytes[type];
    const sendOffset = options.sendOffset === undefined ? 0 : checkSize(options.sendOffset, 'options.sendOffset');
    const recvOffset = options.recvOffset === undefined ? 0 : checkSize(options.recvOffset, 'options.recvOffset');
    // Each side spans count elements, or one count per rank on the gathered or scattered side.
    const sendBlocks = op === Op.ReduceScatter || op === Op.AllToAll ? size : 1;
    const recvBlocks = op === Op.AllGather || op === Op.AllToAll ? size : 1;
    const sendUsed = op !== Op.Recv && !(op === Op.Broadcast && rank !== peer);
    const recvUsed = op !== Op.Send && !(op === Op.Reduce && rank !== peer);
    const sendBuffer = sendUsed ? this.buffer(send, 'send', ordinal) : send === null || send === undefined ? undefined : this.buffer(send, 'send', ordinal);
    // In place (send and recv one buffer), as most reductions are: checked once.
    const recvBuffer = recv === send && sendBuffer !== undefined ? sendBuffer
      : recvUsed ? this.buffer(recv, 'recv', ordinal) : recv === null || recv === undefined ? undefined : this.buffer(recv, 'recv', ordinal);
    let count: number;
    if (options.count !== undefined) {
      count = checkSize(options.count, 'options.count');
    } else {
      const [basis, offset, blocks, name] = sendBuffer && op !== Op.Recv ? [sendBuffer, sendOffset, sendBlocks, 'send']
        : [recvBuffer!, recvOffset, recvBlocks, 'recv'];
      const bytes = basis.size - offset;
      if (bytes < 0 || bytes % (element * blocks) !== 0) {
        throw new RangeError(`${name} holds ${bytes} bytes past its offset, not a whole number of ${blocks > 1 ? `${blocks} blocks of ` : ''}` +
          `${options.type ?? 'float32'} elements; give options.count`);
      }
      count = bytes / (element * blocks);
    }
    const sendSize = sendBuffer?.size, recvSize = recvBuffer === sendBuffer ? sendSize : recvBuffer?.size;
    fits(sendSize, sendOffset, count * element * sendBlocks, 'send');
    fits(recvSize, recvOffset, count * element * recvBlocks, 'recv');
    checkResult(native.ncclCall(op, this.slot, stream.slot, sendBuffer?.slot, sendOffset, recvBuffer?.slot, recvOffset,
      count, type, reduceOp, peer), opNames[op]);
  }

  private buffer(value: MemoryHandle | null | undefined, name: string, ordinal: number): Memory {
    if (!(value instanceof Memory) || value instanceof HostBuffer) {
      throw new TypeError(`${name} must be device memory of this package (a DeviceBuffer, a pool or graph allocation, ` +
        `a VMM mapping, shared memory); got ${describeValue(value)}`);
    }
    // memoryOrdinal throws a DisposedError for a disposed object.
    const device = native.memoryOrdinal(value.slot);
    if (device !== ordinal) throw new RangeError(`${name} is memory of device ${device}; this communicator's rank is on device ${ordinal}`);
    return value;
  }

  /** @internal */
  protected override inspectSummary(): Record<string, unknown> {
    const [rank, size, device, finalized, aborted] = this.info();
    return { rank, size, device, ...(finalized ? { finalized: true } : {}), ...(aborted ? { aborted: true } : {}) };
  }
}
