// Green contexts: a share of a device's SMs (groups of splitSmResource) that
// the work of its streams runs on, so that pipelines sharing a GPU do not take
// SMs from each other. A green context lives in the device's primary context;
// its streams, the Context of toContext() and the events recorded on it hold
// it, so dispose() ends only this handle's hold.
import { Context } from './context';
import { SmResource } from './dev-resource';
import { Device, DeviceLike, ordinalOf } from './device';
import { Disposable, slotOf } from './disposable';
import type { Event } from './event';
import { native, NativeGreenContext, Slot } from './native';
import { Stream } from './stream';
import { checkArray, checkBoolean, checkInstance, checkInteger, checkObject, checkOptions, noOptions } from './validate';

/** Options of {@link GreenContext.create}. */
export interface GreenContextOptions {
  /**
   * Give the green context a default stream of its own (CU_GREEN_CTX_DEFAULT_STREAM;
   * default true). CUDA 13.0 requires it: false is passed on, and such a
   * driver refuses it.
   */
  defaultStream?: boolean;
}

/** Options of {@link GreenContext.createStream}. */
export interface GreenStreamOptions {
  /** A priority in the context's range (Context.streamPriorityRange); lower is higher priority. Default 0. */
  priority?: number;
}

/**
 * A green context (CUDA 12.4+): a context limited to a set of SMs. Kernels
 * launched on its streams (createStream()) run on those SMs only, so a
 * latency-critical pipeline keeps its SMs while a batch pipeline fills the
 * rest. Make one from the groups of {@link splitSmResource}:
 *
 * ```js
 * const [group] = splitSmResource(device.smResource(), { minCount: 16, groups: 1 }).groups;
 * const green = GreenContext.create(device, group);
 * const stream = green.createStream();
 * ```
 *
 * Its streams are ordinary Streams (kernels, copies, events, graphs).
 * A module's kernels run only in the context the module was loaded in:
 * load it with `{ context: green.toContext() }`, or use a Library, whose
 * kernels run in the stream's context.
 */
export class GreenContext extends Disposable<NativeGreenContext> {
  #context: Context | undefined;

  /** @internal */
  constructor(handle: Slot<NativeGreenContext>) {
    super(handle);
  }

  /**
   * A green context on device of the SMs of resources (cuDevResourceGenerateDesc,
   * cuGreenCtxCreate): one SmResource, or several groups (and the remainder)
   * of one split.
   */
  static create(device: DeviceLike, resources: SmResource | readonly SmResource[], options: GreenContextOptions = noOptions): GreenContext {
    const ordinal = ordinalOf(device);
    const list = resources instanceof SmResource ? [resources] : checkArray<SmResource>(resources, 'resources');
    if (list.length === 0) throw new RangeError('resources must hold at least one SmResource');
    list.forEach((resource, i) => {
      checkInstance(resource, SmResource, `resources[${i}]`);
      if (resource.deviceOrdinal !== ordinal) {
        throw new RangeError(`resources[${i}] holds SMs of device ${resource.deviceOrdinal}, not of device ${ordinal}`);
      }
    });
    checkObject(options, 'options');
    checkOptions(options, 'options', 'GreenContext.create', ['defaultStream']);
    const defaultStream = options.defaultStream === undefined ? true : checkBoolean(options.defaultStream, 'options.defaultStream');
    return new GreenContext(native.createGreenContext(ordinal, list.map((r) => r.slot), defaultStream ? 0x1 : 0));
  }

  /** The CUgreenCtx value, for logs and comparisons. */
  get handle(): bigint {
    return native.greenContextHandle(this.slot);
  }

  /** The device the green context's SMs belong to. */
  get device(): Device {
    return Device.get(native.greenContextOrdinal(this.slot));
  }

  /** The driver's unique id of the green context (cuGreenCtxGetId; CUDA 12.9+). */
  get id(): bigint {
    return native.greenContextId(this.slot);
  }

  /** The SMs the green context has (cuGreenCtxGetDevResource): split it for green contexts inside this one. */
  smResource(): SmResource {
    return new SmResource(native.greenContextSmResource(this.slot));
  }

  /**
   * The green context as a Context (cuCtxFromGreenCtx), for what takes one:
   * Module.load({ context }), DeviceBuffer.alloc(n, { context }),
   * Stream.create({ context }), Event.create({ context }). The same object each
   * call until it is disposed; it keeps the green context alive, and so does
   * what is made in it, until disposed.
   */
  toContext(): Context {
    if (!this.#context || this.#context.disposed) this.#context = new Context(native.greenContextToContext(this.slot), this);
    return this.#context;
  }

  /**
   * A non-blocking stream whose work runs on the green context's SMs
   * (cuGreenCtxStreamCreate). It keeps the green context alive.
   */
  createStream(options: GreenStreamOptions = noOptions): Stream {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'GreenContext.createStream', ['priority']);
    const priority = options.priority === undefined ? 0 : checkInteger(options.priority, 'options.priority');
    return new Stream(native.greenContextCreateStream(this.slot, 0x1 /* CU_STREAM_NON_BLOCKING, required */, priority), undefined, this);
  }

  /**
   * Records in event all the work queued so far on the green context's
   * streams (cuGreenCtxRecordEvent). The event must belong to the same
   * device's primary context (Event.create({ device })) or to toContext().
   */
  recordEvent(event: Event): void {
    native.greenContextRecordEvent(this.slot, slotOf(event, 'event', 'Event'));
  }

  /**
   * Work queued on the green context's streams from now on waits for event
   * (cuGreenCtxWaitEvent), which may belong to any context or device.
   */
  waitEvent(event: Event): void {
    native.greenContextWaitEvent(this.slot, slotOf(event, 'event', 'Event'));
  }

  override toString(): string {
    return this.disposed ? 'GreenContext(disposed)' : `GreenContext(device ${native.greenContextOrdinal(this.slot)}, 0x${this.handle.toString(16)})`;
  }
}
