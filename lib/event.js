"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Event = void 0;
// Events: markers recorded into streams, to order streams against each other,
// wait for a point in a stream, or time the work between two points.
const device_1 = require("./device");
const disposable_1 = require("./disposable");
const errors_1 = require("./errors");
const enums_1 = require("./generated/enums");
const native_1 = require("./native");
const stream_1 = require("./stream");
const validate_1 = require("./validate");
class Event extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    static create(options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const timing = options.timing === undefined ? false : (0, validate_1.checkBoolean)(options.timing, 'options.timing');
        let flags = timing ? 0 : enums_1.EventFlag.disableTiming;
        if (options.blockingSync !== undefined && (0, validate_1.checkBoolean)(options.blockingSync, 'options.blockingSync'))
            flags |= enums_1.EventFlag.blockingSync;
        if (options.interprocess !== undefined && (0, validate_1.checkBoolean)(options.interprocess, 'options.interprocess')) {
            if (timing)
                throw new RangeError('an interprocess event cannot record timing: leave options.timing off');
            flags |= enums_1.EventFlag.interprocess;
        }
        return new Event(native_1.native.createEvent((0, device_1.ordinalOf)(options.device, 'options.device'), flags));
    }
    get handle() {
        return this.native.handle;
    }
    get timing() {
        return (this.native.flags & enums_1.EventFlag.disableTiming) === 0;
    }
    get interprocess() {
        return (this.native.flags & enums_1.EventFlag.interprocess) !== 0;
    }
    /**
     * Records the event at the current end of stream (cuEventRecord;
     * cuEventRecordWithFlags when external, for use across graph boundaries).
     */
    record(stream, options = {}) {
        native_1.native.eventRecord(this.native.slot, (0, stream_1.streamNative)(stream).slot, options.external === undefined ? undefined : (0, validate_1.checkBoolean)(options.external, 'external') ? 1 : 0);
        return this;
    }
    /** True once the work before the last record has completed (or nothing was recorded). */
    query() {
        return native_1.native.eventQuery(this.native.slot);
    }
    /** Resolves once the recorded work has completed, without blocking the event loop. */
    synchronize() {
        return this.native.synchronizeAsync();
    }
    /** Blocks the JavaScript thread until the recorded work has completed. */
    synchronizeSync() {
        this.native.synchronize();
    }
    /**
     * Milliseconds between this event and end, both recorded and completed. When
     * it cannot be computed the error says why (a CudaError with the driver's code).
     */
    elapsedTime(end) {
        if (!(end instanceof Event))
            throw new TypeError('end must be an Event');
        try {
            return this.native.elapsedTime(end.native);
        }
        catch (error) {
            throw explainElapsed(error, this, end);
        }
    }
    toString() {
        return this.disposed ? 'Event(disposed)' : `Event(0x${this.handle.toString(16)})`;
    }
}
exports.Event = Event;
function explainElapsed(error, start, end) {
    if (!(error instanceof errors_1.CudaError))
        return error;
    let why;
    if (!start.timing || !end.timing) {
        why = `${!start.timing ? 'the start event' : 'the end event'} was created without timing: create both with Event.create({ timing: true })`;
    }
    else if (error.name === 'CUDA_ERROR_NOT_READY') {
        why = 'the events have not both completed yet: await end.synchronize() first';
    }
    else if (error.name === 'CUDA_ERROR_INVALID_HANDLE') {
        why = 'an event has not been recorded yet: record both on a stream first';
    }
    if (why)
        error.message = `${error.message} (${why})`;
    return error;
}
//# sourceMappingURL=event.js.map