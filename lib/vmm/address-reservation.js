"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AddressReservation = void 0;
// Virtual address ranges (cuMemAddressReserve). A range is freed
// (cuMemAddressFree, with exactly the pointer and size reserved) once this
// object is disposed and every mapping into it is gone.
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
const granularity_1 = require("./granularity");
const mapping_1 = require("./mapping");
/**
 * A reserved virtual address range (cuMemAddressReserve) to map physical
 * allocations into. Freed once disposed and no mapping uses it.
 */
class AddressReservation extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /**
     * Reserves at least bytes of virtual address space, rounded up to the
     * device's minimum allocation granularity: {@link size} reports the rounded size.
     */
    static reserve(bytes, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const ordinal = (0, device_1.ordinalOf)(options.device, 'options.device');
        const alignment = (0, validate_1.checkInteger)(options.alignment ?? 0, 'options.alignment', 0);
        if (alignment !== 0 && !Number.isInteger(Math.log2(alignment))) {
            throw new RangeError(`options.alignment must be a power of two or 0, got ${alignment}`);
        }
        const hint = options.address ?? 0n;
        if (typeof hint !== 'bigint' || hint < 0n || hint >= 1n << 64n)
            throw new TypeError('options.address must be a 64-bit bigint address');
        const size = (0, granularity_1.roundToGranularity)((0, validate_1.checkSize)(bytes, 'bytes'), (0, granularity_1.deviceGranularity)(device_1.Device.get(ordinal)));
        if (size === 0)
            throw new RangeError('bytes must be at least 1');
        return new AddressReservation(native_1.native.reserveAddress(ordinal, size, alignment, hint));
    }
    /** The start of the range. */
    get address() {
        return this.native.address;
    }
    /** Bytes reserved (rounded to the granularity). */
    get size() {
        return this.native.size;
    }
    get alignment() {
        return this.native.alignment;
    }
    /** The device whose primary context the range's calls use. */
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    /**
     * Maps allocation (or part of it) into this range and grants access, all or
     * nothing (see {@link Mapping.map}).
     */
    map(allocation, options = {}) {
        return mapping_1.Mapping.map(this, allocation, options);
    }
    toString() {
        return this.disposed ? 'AddressReservation(disposed)' : `AddressReservation(${this.size} bytes at 0x${this.address.toString(16)})`;
    }
}
exports.AddressReservation = AddressReservation;
//# sourceMappingURL=address-reservation.js.map