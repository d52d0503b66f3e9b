// Streams: ordered queues of GPU work. The library creates non-blocking streams
// unless asked; the legacy and per-thread default streams are reachable
// explicitly and never chosen silently; a disposed stream is never mistaken for
// the default stream (its use throws DisposedError).
import { Context } from './context';
import { Device, DeviceLike, ordinalOf, placementOf } from './device';
import { Disposable, slotOf } from './disposable';
import type { Event } from './event';
import type { GreenContext } from './green-context';
import type { GraphExec } from './graph/exec';
import type { PreparedLaunch } from './kernel/prepared-launch';
import {
  CaptureStatus,
  CaptureStatusName,
  MemoryAttach,
  MemoryAttachName,
  StreamFlag,
} from './generated/enums';
import { MemoryHandle, memorySlot } from './memory/bytes';
import { native, NativeStream, Slot } from './native';
import { collectSlots, submitOther, SubmitItem, submitted } from './submission';
import { checkU64, encodeMemoryOps, StreamMemoryOp, waitFlags, WaitCondition, writeFlags } from './stream-memory-ops';
import {
  decodeLaunchAttribute,
  encodeLaunchAttribute,
  streamAttributeId,
  StreamAttributeInput,
  StreamAttributeName,
  StreamAttributes,
} from './launch-attributes';
import { checkBoolean, checkEnum, checkInstance, checkInteger, checkObject, checkOptions, checkSize, nameOfValue, noOptions } from './validate';
import { abandonableWait, CheckedWait, checkWaitOptions, WaitOptions } from './wait-options';

/** Options of {@link Stream.create}. */
export interface StreamOptions {
  /** The device (default 0), whose primary context the stream is made in. */
  device?: DeviceLike;
  /**
   * A context of its own (Device.createContext()) to make the stream in,
   * instead of a device's primary context: the stream runs kernels of modules
   * loaded there (Module.load({ context })). Not with device.
   */
  context?: Context;
  /**
   * Whether the stream runs independently of the legacy default stream
   * (default true). `false` makes a blocking stream that synchronizes with it.
   */
  nonBlocking?: boolean;
  /** A priority in the device's range (Context.streamPriorityRange); lower is higher priority. */
  priority?: number;
}

export type { StreamMemoryOp, WaitCondition } from './stream-memory-ops';

/** Options of {@link Stream.launchHostFunction}, {@link Stream.addCallback} and Graph.addHost. */
export interface HostFunctionOptions {
  /**
   * Whether the work after the callback waits until it has run (default true,
   * as in CUDA). false: the callback is only handed to the JavaScript thread,
   * and nothing waits for it (nor refuses blocking waits while it is pending).
   */
  wait?: boolean;
}

/** @internal options.wait of a host callback (default true), checked; the options object has only that key. */
export function hostFunctionWaits(options: HostFunctionOptions, method: string): boolean {
  checkObject(options, 'options');
  checkOptions(options, 'options', method, ['wait']);
  return options.wait === undefined ? true : checkBoolean(options.wait, 'options.wait');
}

const special = new Map<string, Stream>();

/**
 * A stream: an ordered queue of GPU work. Stream.create() makes a non-blocking
 * stream on a device's primary context; the legacy and per-thread default
 * streams are reachable explicitly (Stream.legacy(), Stream.perThread()).
 * Work queued on a stream keeps what it uses alive until it has run.
 */
// The slot numbers of submit()'s last batch, kept for the next.
let spareSlots: Float64Array | undefined;

export class Stream extends Disposable<NativeStream> {
  /** @internal green: the green context of GreenContext.createStream(). */
  constructor(handle: Slot<NativeStream>, context?: Context, green?: GreenContext) {
    super(handle);
    this.#context = context;
    this.#green = green;
  }

  // The context given to create(), or the green context, held so that its object outlives the stream's.
  readonly #context: Context | undefined;
  readonly #green: GreenContext | undefined;

  /**
   * A new stream (cuStreamCreate, or cuStreamCreateWithPriority when a priority
   * is given), in a device's primary context or in options.context.
   */
  static create(options: StreamOptions = noOptions): Stream {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Stream.create', ['device', 'context', 'nonBlocking', 'priority']);
    const { ordinal, context } = placementOf(options);
    const nonBlocking = options.nonBlocking === undefined ? true : checkBoolean(options.nonBlocking, 'options.nonBlocking');
    const flags = nonBlocking ? StreamFlag.nonBlocking : StreamFlag.default;
    const priority = options.priority === undefined ? undefined : checkInteger(options.priority, 'options.priority');
    return new Stream(native.createStream(ordinal, flags, priority, context?.slot), context);
  }

  /**
   * The legacy default stream (CU_STREAM_LEGACY) of a device's primary context:
   * it synchronizes with every blocking stream. Never disposed.
   */
  static legacy(device?: DeviceLike): Stream {
    return Stream.#special(ordinalOf(device), false);
  }

  /** This thread's per-thread default stream (CU_STREAM_PER_THREAD). Never disposed. */
  static perThread(device?: DeviceLike): Stream {
    return Stream.#special(ordinalOf(device), true);
  }

  static #special(ordinal: number, perThread: boolean): Stream {
    const key = `${ordinal}:${perThread}`;
    let stream = special.get(key);
    if (!stream) special.set(key, (stream = new SpecialStream(native.specialStream(ordinal, perThread))));
    return stream;
  }

  /**
   * Queues a batch, in order, with one call into the native layer: each item a
   * PreparedLaunch prepared for this stream (launched with its arguments as they
   * are now) or a GraphExec (launched on this stream). Every item is checked
   * before any is queued; should the driver refuse one, the items before it stay
   * queued, and the error's message names it (`items[3]`).
   */
  submit(items: readonly (PreparedLaunch | GraphExec)[]): void {
    if (!Array.isArray(items)) throw new TypeError('items must be an array of PreparedLaunch and GraphExec objects');
    const count = items.length;
    // Taken while in use: a Proxy's getter could submit another batch meanwhile.
    const slots = spareSlots !== undefined && spareSlots.length >= count ? spareSlots : new Float64Array(Math.max(count, 16));
    spareSlots = undefined;
    // Ordinary items are read by collectSlots; any other gives its slot through
    // submitOther (or throws why it cannot be queued) and is told once the
    // batch is queued. The native layer checks every slot (its class, its
    // stream) before anything is queued.
    let told: SubmitItem[] | undefined;
    for (let i = collectSlots(items, 0, count, slots); i < count; i = collectSlots(items, i + 1, count, slots)) {
      const item = items[i] as unknown as SubmitItem;
      if (typeof item?.[submitOther] !== 'function') throw new TypeError(`items[${i}] must be a PreparedLaunch or a GraphExec`);
      slots[i] = item[submitOther]();
      (told ??= []).push(item);
    }
    native.streamSubmit(this.slot, slots.buffer as ArrayBuffer, count);
    spareSlots = slots;
    if (told !== undefined) for (const item of told) item[submitted]?.(this);
  }

  /** The CUstream value (1n and 2n for the legacy and per-thread streams). */
  get handle(): bigint {
    return native.streamHandle(this.slot);
  }

  /** The device of the stream's context. */
  get device(): Device {
    return Device.get(native.streamOrdinal(this.slot));
  }

  /**
   * The context the stream was made in: options.context of create(), the
   * green context's toContext() for a stream of GreenContext.createStream()
   * (while that handle is live), else its device's primary context.
   */
  get context(): Context {
    return this.#context ?? this.#green?.toContext() ?? this.device.primaryContext;
  }

  /**
   * The green context whose SMs the stream's work runs on (cuStreamGetGreenCtx):
   * for a stream of GreenContext.createStream() or of its toContext(); null for
   * a stream of an ordinary context.
   */
  get greenContext(): GreenContext | null {
    if (native.streamGreenContextHandle(this.slot) === 0n) return null;
    return this.#green ?? this.#context?.greenContext ?? null;
  }

  /** True when the stream was created non-blocking. */
  get nonBlocking(): boolean {
    return (native.streamFlags(this.slot) & StreamFlag.nonBlocking) !== 0;
  }

  /** The stream's priority (lower numbers are higher priority). */
  get priority(): number {
    return native.streamPriority(this.slot);
  }

  /** The driver's unique id of the stream. */
  get id(): bigint {
    return native.streamId(this.slot);
  }

  /** The CUcontext of the stream, as the driver reports it (cuStreamGetCtx; cuStreamGetCtx_v2 with viaV2). */
  contextHandle(viaV2 = false): bigint {
    return native.streamContextHandle(this.slot, checkBoolean(viaV2, 'viaV2'));
  }

  /** The CUdevice of the stream as the driver reports it (cuStreamGetDevice). */
  queryDevice(): number {
    return native.streamDevice(this.slot);
  }

  /** True when all work queued so far has completed. */
  query(): boolean {
    return native.streamQuery(this.slot);
  }

  /**
   * Resolves when all work queued so far has completed, without blocking the
   * event loop: the wait runs on one of the library's own threads (not libuv's
   * pool), in relaxed capture mode. Rejects with the CudaError the driver
   * reports (a ContextLostError after a GPU fault); with an AbortError or a
   * TimeoutError when options.signal or options.timeoutMs gives the wait up,
   * and with a DisposedError when this stream is disposed meanwhile. Giving up
   * stops only the wait: the GPU work goes on. While pending, the wait keeps
   * the process alive.
   */
  synchronize(options?: WaitOptions): Promise<void> {
    if (options === undefined) return native.streamSynchronizeAsync(this.slot);
    return synchronizeStream(this, checkWaitOptions(options, 'options', 'synchronize'), 'Stream.synchronize');
  }

  /** Blocks the JavaScript thread until all work queued so far has completed. */
  synchronizeSync(): void {
    native.streamSynchronize(this.slot);
  }

  /** Later work on this stream waits until event has happened (cuStreamWaitEvent). */
  waitEvent(event: Event, options: { external?: boolean } = noOptions): void {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'waitEvent', ['external']);
    const flags = options.external !== undefined && checkBoolean(options.external, 'options.external') ? 1 /* CU_EVENT_WAIT_EXTERNAL */ : 0;
    native.streamWaitEvent(this.slot, slotOf(event, 'event', 'Event'), flags);
  }

  /** A stream attribute (cuStreamGetAttribute). */
  attribute<K extends StreamAttributeName>(name: K): StreamAttributes[K] {
    return decodeLaunchAttribute(name, native.streamGetAttribute(this.slot, streamAttributeId(name))) as StreamAttributes[K];
  }

  /** Sets a stream attribute (cuStreamSetAttribute). */
  setAttribute<K extends StreamAttributeName>(name: K, value: StreamAttributeInput[K]): void {
    native.streamSetAttribute(this.slot, streamAttributeId(name), encodeLaunchAttribute(name, value));
  }

  /** Copies every attribute of source onto this stream (cuStreamCopyAttributes). */
  copyAttributesFrom(source: Stream): void {
    native.streamCopyAttributesFrom(this.slot, checkStream(source, 'source').slot);
  }

  /**
   * Queues callback to run on the JavaScript thread once the work queued before
   * it has completed (cuLaunchHostFunc). As in CUDA, work queued after it waits
   * until callback has returned (or thrown): CUDA's thread waits for the
   * JavaScript thread meanwhile. While such a callback is pending, a blocking
   * wait on this thread (synchronizeSync(), a synchronous copy, ...) would
   * never end, so it throws HostCallbackPendingError (code ERR_CUDA_HOST_CALLBACK_PENDING):
   * await synchronize() instead. With options.wait false, CUDA's thread only
   * hands the call over, and later work may start before callback runs. An
   * exception thrown by callback is an uncaught exception, as in a timer; the
   * stream goes on. On a capturing stream, callback becomes a host node of the
   * capture's graph, run at each launch.
   */
  launchHostFunction(callback: () => void, options: HostFunctionOptions = noOptions): void {
    if (typeof callback !== 'function') throw new TypeError('callback must be a function');
    native.launchHostFunction(this.slot, callback, hostFunctionWaits(options, 'launchHostFunction'));
  }

  /**
   * The same through cuStreamAddCallback: callback receives the CudaError of
   * the failed work, or null. Not on a capturing stream.
   */
  addCallback(callback: (error: Error | null) => void, options: HostFunctionOptions = noOptions): void {
    if (typeof callback !== 'function') throw new TypeError('callback must be a function');
    native.addStreamCallback(this.slot, callback, hostFunctionWaits(options, 'addCallback'));
  }

  /** Attaches managed memory to this stream (cuStreamAttachMemAsync); mode 'single' limits access to it. */
  attachMemory(buffer: MemoryHandle, mode: MemoryAttachName | number = 'single'): void {
    native.streamAttachMemory(this.slot, memorySlot(buffer, 'buffer'), checkEnum(mode, MemoryAttach, 'mode'));
  }

  /** Work queued after this waits until the 32-bit word at target+offset satisfies condition against value. */
  waitValue32(target: MemoryHandle, value: number, options: { offset?: number | bigint; condition?: WaitCondition; flush?: boolean } = noOptions): void {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'waitValue32', ['offset', 'condition', 'flush']);
    native.streamWaitValue(this.slot, memorySlot(target, 'target'), checkSize(options.offset ?? 0, 'options.offset'),
      checkInteger(value, 'value', 0, 2 ** 32 - 1), waitFlags(options), false);
  }

  /** Work queued after this waits until the 64-bit word at target+offset satisfies condition against value. */
  waitValue64(target: MemoryHandle, value: bigint, options: { offset?: number | bigint; condition?: WaitCondition; flush?: boolean } = noOptions): void {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'waitValue64', ['offset', 'condition', 'flush']);
    native.streamWaitValue(this.slot, memorySlot(target, 'target'), checkSize(options.offset ?? 0, 'options.offset'), checkU64(value), waitFlags(options), true);
  }

  /** Writes value to the 32-bit word at target+offset when the stream gets there. */
  writeValue32(target: MemoryHandle, value: number, options: { offset?: number | bigint; noMemoryBarrier?: boolean } = noOptions): void {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'writeValue32', ['offset', 'noMemoryBarrier']);
    native.streamWriteValue(this.slot, memorySlot(target, 'target'), checkSize(options.offset ?? 0, 'options.offset'),
      checkInteger(value, 'value', 0, 2 ** 32 - 1), writeFlags(options), false);
  }

  /** Writes value to the 64-bit word at target+offset when the stream gets there. */
  writeValue64(target: MemoryHandle, value: bigint, options: { offset?: number | bigint; noMemoryBarrier?: boolean } = noOptions): void {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'writeValue64', ['offset', 'noMemoryBarrier']);
    native.streamWriteValue(this.slot, memorySlot(target, 'target'), checkSize(options.offset ?? 0, 'options.offset'), checkU64(value), writeFlags(options), true);
  }

  /** Several memory operations in one cuStreamBatchMemOp. */
  batchMemoryOps(ops: StreamMemoryOp[]): void {
    const encoded = encodeMemoryOps(ops, 'ops');
    native.streamBatchMemoryOps(this.slot, encoded, 0);
  }

  /** 'none', 'active' or 'invalidated' (cuStreamIsCapturing). */
  get captureStatus(): CaptureStatusName {
    return nameOfValue(CaptureStatus, native.captureStatus(this.slot)) ?? 'none';
  }

  /** How many resources this stream keeps alive for work still in flight. */
  get pendingResources(): number {
    return native.streamPendingResources(this.slot);
  }

  override toString(): string {
    return this.disposed ? 'Stream(disposed)' : `Stream(device ${native.streamOrdinal(this.slot)}, 0x${this.handle.toString(16)})`;
  }
}

/** The legacy and per-thread streams: shared and owned by nobody, so never disposed. */
class SpecialStream extends Stream {
  override dispose(): void {
    // Deliberately nothing: these streams belong to the driver.
  }
}

/** @internal stream.synchronize(options), as operation (the name its AbortError and TimeoutError give). */
export function synchronizeStream(stream: Stream, wait: CheckedWait, operation: string): Promise<void> {
  return abandonableWait(wait, operation, () => native.streamSynchronizeAbandonable(stream.slot));
}

/** The native handle of a Stream argument, or a TypeError naming the parameter. */
export function streamSlot(stream: Stream, name = 'stream'): number {
  return checkStream(stream, name).slot;
}

/** @internal stream, checked to be a Stream, for the hot calls (see checkGraphNode in graph/node.ts). */
export function checkStream(stream: Stream, name = 'stream'): Stream {
  return stream instanceof Stream ? stream : checkInstance(stream, Stream, name);
}


