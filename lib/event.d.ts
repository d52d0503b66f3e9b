import { DeviceLike } from './device';
import { Disposable } from './disposable';
import { NativeEvent } from './native';
import { Stream } from './stream';
export interface EventOptions {
    device?: DeviceLike;
    /** Record timestamps, for elapsedTime (default false: cheaper to record and query). */
    timing?: boolean;
    /** synchronize() on this event yields the CPU instead of spinning. */
    blockingSync?: boolean;
    /** Shareable with other processes (needs timing off). */
    interprocess?: boolean;
}
export declare class Event extends Disposable<NativeEvent> {
    /** @internal */
    constructor(handle: NativeEvent);
    static create(options?: EventOptions): Event;
    get handle(): bigint;
    get timing(): boolean;
    get interprocess(): boolean;
    /**
     * Records the event at the current end of stream (cuEventRecord;
     * cuEventRecordWithFlags when external, for use across graph boundaries).
     */
    record(stream: Stream, options?: {
        external?: boolean;
    }): this;
    /** True once the work before the last record has completed (or nothing was recorded). */
    query(): boolean;
    /** Resolves once the recorded work has completed, without blocking the event loop. */
    synchronize(): Promise<void>;
    /** Blocks the JavaScript thread until the recorded work has completed. */
    synchronizeSync(): void;
    /**
     * Milliseconds between this event and end, both recorded and completed. When
     * it cannot be computed the error says why (a CudaError with the driver's code).
     */
    elapsedTime(end: Event): number;
    toString(): string;
}
