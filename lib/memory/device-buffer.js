"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DeviceBuffer = void 0;
// Device memory: plain (cuMemAlloc), pitched, stream-ordered (from a pool) and
// managed. Freed by dispose() or, as a safety net, after garbage collection;
// never while queued work that the library knows of still uses it.
const context_1 = require("../context");
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const enums_1 = require("../generated/enums");
const native_1 = require("../native");
const stream_1 = require("../stream");
const validate_1 = require("../validate");
const copy_1 = require("./copy");
const location_1 = require("./location");
const pool_1 = require("./pool");
class DeviceBuffer extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /**
     * bytes of device memory (cuMemAlloc), in the device's primary context or in
     * options.context (a context of its own, from Device.createContext). Contents are undefined.
     */
    static alloc(bytes, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const context = options.context === undefined ? undefined : (0, validate_1.checkInstance)(options.context, context_1.Context, 'options.context');
        const ordinal = context ? context.deviceOrdinal : (0, device_1.ordinalOf)(options.device, 'options.device');
        return new DeviceBuffer(native_1.native.allocate(ordinal, (0, validate_1.checkSize)(bytes, 'bytes'), context?.native));
    }
    /** A new buffer holding a copy of data. */
    static from(data, options = {}) {
        if (!(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data))
            throw new TypeError('data must be an ArrayBuffer or a view of one');
        const buffer = DeviceBuffer.alloc(data.byteLength, options);
        (0, copy_1.copy)(buffer, data);
        return buffer;
    }
    /**
     * height rows of widthBytes, each row starting at a multiple of the pitch the
     * driver chooses for elementBytes-sized accesses (cuMemAllocPitch).
     */
    static allocPitched(widthBytes, height, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const element = options.elementBytes ?? 4;
        if (element !== 4 && element !== 8 && element !== 16)
            throw new RangeError('options.elementBytes must be 4, 8 or 16');
        return new DeviceBuffer(native_1.native.allocatePitched((0, device_1.ordinalOf)(options.device, 'options.device'), (0, validate_1.checkSize)(widthBytes, 'widthBytes'), (0, validate_1.checkSize)(height, 'height'), element));
    }
    /**
     * Stream-ordered memory (cuMemAllocAsync, or cuMemAllocFromPoolAsync with a
     * pool): usable by work queued on stream after this call; freed on the same
     * stream, after the work queued there before dispose().
     */
    static allocAsync(bytes, stream, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const pool = options.pool === undefined ? undefined : (0, validate_1.checkInstance)(options.pool, pool_1.MemoryPool, 'options.pool').native;
        return new DeviceBuffer(native_1.native.allocateAsync((0, validate_1.checkSize)(bytes, 'bytes'), (0, stream_1.streamNative)(stream), pool));
    }
    /**
     * Managed memory, migrated between host and device on demand
     * (cuMemAllocManaged). attach: 'global' (default) or 'host'.
     */
    static allocManaged(bytes, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const attach = (0, validate_1.checkEnum)(options.attach ?? 'global', { global: enums_1.MemoryAttach.global, host: enums_1.MemoryAttach.host }, 'options.attach');
        return new DeviceBuffer(native_1.native.allocateManaged((0, device_1.ordinalOf)(options.device, 'options.device'), (0, validate_1.checkSize)(bytes, 'bytes'), attach));
    }
    /** The device address. */
    get address() {
        return this.native.address;
    }
    get size() {
        return this.native.size;
    }
    /** Bytes per row of a pitched allocation; 0 otherwise. */
    get pitch() {
        return this.native.pitch;
    }
    get allocation() {
        return this.native.allocation;
    }
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    /** Copies data into this buffer at offset (synchronously, or queued on options.stream). */
    write(data, options = {}) {
        (0, copy_1.copy)(this, data, { dstOffset: options.offset, stream: options.stream });
    }
    /** Copies the buffer (or bytes of it from offset) into a new typed array, synchronously. */
    readSync(type, options = {}) {
        const offset = (0, validate_1.checkSize)(options.offset ?? 0, 'options.offset');
        const bytes = options.bytes === undefined ? Math.max(0, this.size - offset) : (0, validate_1.checkSize)(options.bytes, 'options.bytes');
        const element = type?.BYTES_PER_ELEMENT ?? 1;
        if (bytes % element !== 0)
            throw new RangeError(`bytes (${bytes}) is not a multiple of ${element}`);
        const out = new ArrayBuffer(bytes);
        (0, copy_1.copy)(out, this, { srcOffset: offset, bytes });
        return type ? new type(out) : new Uint8Array(out);
    }
    /** Sets the buffer (or part of it) to value, in 1-, 2- or 4-byte elements. */
    fill(value, options = {}) {
        (0, copy_1.fill)(this, value, options);
    }
    /** Migrates managed memory toward location on stream (cuMemPrefetchAsync). */
    prefetch(location, stream, options = {}) {
        const [offset, bytes] = this.#range(options);
        const { type, id } = (0, location_1.locationOf)(location);
        native_1.native.prefetch(this.native, offset, bytes, type, id, 0, (0, stream_1.streamNative)(stream));
    }
    /** Advises the driver how managed memory will be used (cuMemAdvise). */
    advise(advice, location = 'host', options = {}) {
        const [offset, bytes] = this.#range(options);
        const { type, id } = (0, location_1.locationOf)(location);
        native_1.native.advise(this.native, offset, bytes, (0, validate_1.checkEnum)(advice, enums_1.MemoryAdvice, 'advice'), type, id);
    }
    /** What the driver knows of a managed range (cuMemRangeGetAttribute / cuMemRangeGetAttributes). */
    rangeAttributes(options = {}) {
        const [offset, bytes] = this.#range(options);
        const names = ['readMostly', 'preferredLocationType', 'preferredLocationId', 'lastPrefetchLocationType', 'lastPrefetchLocationId'];
        const values = native_1.native.rangeAttributes(this.native, offset, bytes, names.map((n) => enums_1.RangeAttribute[n]));
        const accessedBy = Array.from(native_1.native.rangeAttribute(this.native, offset, bytes, enums_1.RangeAttribute.accessedBy, Math.max(1, device_1.Device.count())))
            .filter((d) => d >= 0);
        const locationName = (type, id) => {
            const name = type === enums_1.MemoryLocationType.none ? 'none' : (0, validate_1.nameOfValue)(enums_1.MemoryLocationType, type) ?? `location type ${type}`;
            return name === 'device' ? `device ${id}` : name;
        };
        return {
            readMostly: values[0] !== 0,
            preferredLocation: locationName(values[1], values[2]),
            lastPrefetchLocation: locationName(values[3], values[4]),
            accessedBy,
        };
    }
    #range(options) {
        (0, validate_1.checkObject)(options, 'options');
        const offset = (0, validate_1.checkSize)(options.offset ?? 0, 'options.offset');
        const bytes = options.bytes === undefined ? Math.max(0, this.size - offset) : (0, validate_1.checkSize)(options.bytes, 'options.bytes');
        return [offset, bytes];
    }
    toString() {
        return this.disposed ? 'DeviceBuffer(disposed)' : `DeviceBuffer(${this.size} bytes at 0x${this.address.toString(16)})`;
    }
}
exports.DeviceBuffer = DeviceBuffer;
//# sourceMappingURL=device-buffer.js.map