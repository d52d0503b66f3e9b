// Events: markers recorded into streams, to order streams against each other,
// wait for a point in a stream, or time the work between two points.
import { Context } from './context';
import { DeviceLike, placementOf } from './device';
import { Disposable } from './disposable';
import { CudaError } from './errors';
import { EventFlag } from './generated/enums';
import { native, NativeEvent, Slot } from './native';
import { checkStream, Stream } from './stream';
import { checkBoolean, checkObject, checkOptions, noOptions } from './validate';
import { abandonableWait, checkWaitOptions, WaitOptions } from './wait-options';

/** Options of {@link Event.create}. */
export interface EventOptions {
  /** The device whose primary context the event belongs to (default 0). */
  device?: DeviceLike;
  /**
   * A context of its own (Device.createContext()) to make the event in, for
   * streams of that context (Stream.create({ context })). Not with device.
   */
  context?: Context;
  /** Record timestamps, for elapsedTime (default false: cheaper to record and query). */
  timing?: boolean;
  /** synchronize() on this event yields the CPU instead of spinning. */
  blockingSync?: boolean;
  /** Shareable with other processes (needs timing off). */
  interprocess?: boolean;
}

/**
 * An event: a marker recorded into a stream, to make another stream wait for
 * that point (stream.waitEvent), to wait for it from JavaScript (synchronize),
 * or to time the work between two events (elapsedTime).
 */
export class Event extends Disposable<NativeEvent> {
  /** @internal */
  constructor(handle: Slot<NativeEvent>) {
    super(handle);
  }

  /** A new event (cuEventCreate); without timing unless asked, as that is cheaper. */
  static create(options: EventOptions = noOptions): Event {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Event.create', ['device', 'context', 'timing', 'blockingSync', 'interprocess']);
    const timing = options.timing === undefined ? false : checkBoolean(options.timing, 'options.timing');
    let flags = timing ? 0 : EventFlag.disableTiming;
    if (options.blockingSync !== undefined && checkBoolean(options.blockingSync, 'options.blockingSync')) flags |= EventFlag.blockingSync;
    if (options.interprocess !== undefined && checkBoolean(options.interprocess, 'options.interprocess')) {
      if (timing) throw new RangeError('an interprocess event cannot record timing: leave options.timing off');
      flags |= EventFlag.interprocess;
    }
    const { ordinal, context } = placementOf(options);
    return new Event(native.createEvent(ordinal, flags, context?.slot));
  }

  /** The CUevent value, for logs and comparisons. */
  get handle(): bigint {
    return native.eventHandle(this.slot);
  }

  /** True when the event records timestamps (created with timing: true). */
  get timing(): boolean {
    return (native.eventFlags(this.slot) & EventFlag.disableTiming) === 0;
  }

  /** True when the event can be shared with other processes (shareEvent). */
  get interprocess(): boolean {
    return (native.eventFlags(this.slot) & EventFlag.interprocess) !== 0;
  }

  /**
   * Records the event at the current end of stream (cuEventRecord;
   * cuEventRecordWithFlags when external, for use across graph boundaries).
   */
  record(stream: Stream, options?: { external?: boolean }): this {
    if (options === undefined) {
      native.eventRecord(this.slot, checkStream(stream).slot);
      return this;
    }
    checkObject(options, 'options');
    checkOptions(options, 'options', 'record', ['external']);
    if (options.external === undefined) {
      native.eventRecord(this.slot, checkStream(stream).slot);
    } else {
      native.eventRecordWithFlags(this.slot, checkStream(stream).slot, checkBoolean(options.external, 'external') ? 1 : 0);
    }
    return this;
  }

  /** True once the work before the last record has completed (or nothing was recorded). */
  query(): boolean {
    return native.eventQuery(this.slot);
  }

  /**
   * Resolves once the recorded work has completed, without blocking the event
   * loop. Rejects as stream.synchronize() does: the driver's CudaError, an
   * AbortError or TimeoutError when options give the wait up (the GPU work goes
   * on), a DisposedError when this event is disposed meanwhile.
   */
  synchronize(options?: WaitOptions): Promise<void> {
    if (options === undefined) return native.eventSynchronizeAsync(this.slot);
    const wait = checkWaitOptions(options, 'options', 'synchronize');
    return abandonableWait(wait, 'Event.synchronize', () => native.eventSynchronizeAbandonable(this.slot));
  }

  /** Blocks the JavaScript thread until the recorded work has completed. */
  synchronizeSync(): void {
    native.eventSynchronize(this.slot);
  }

  /**
   * Milliseconds between this event and end, both recorded and completed. When
   * it cannot be computed the error says why (a CudaError with the driver's code).
   */
  elapsedTime(end: Event): number {
    if (!(end instanceof Event)) throw new TypeError('end must be an Event');
    try {
      return native.eventElapsedTime(this.slot, end.slot);
    } catch (error) {
      throw explainElapsed(error, this, end);
    }
  }

  override toString(): string {
    return this.disposed ? 'Event(disposed)' : `Event(0x${this.handle.toString(16)})`;
  }
}

function explainElapsed(error: unknown, start: Event, end: Event): unknown {
  if (!(error instanceof CudaError)) return error;
  let why: string | undefined;
  if (!start.timing || !end.timing) {
    why = `${!start.timing ? 'the start event' : 'the end event'} was created without timing: create both with Event.create({ timing: true })`;
  } else if (error.code === 'CUDA_ERROR_NOT_READY') {
    why = 'the events have not both completed yet: await end.synchronize() first';
  } else if (error.code === 'CUDA_ERROR_INVALID_HANDLE') {
    why = 'an event has not been recorded yet: record both on a stream first';
  }
  if (why) error.message = `${error.message} (${why})`;
  return error;
}
