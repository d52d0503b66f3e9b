"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GrowableBuffer = void 0;
// A device buffer that grows in place: a large address range is reserved once,
// and physical memory is mapped at its end as the buffer grows, so the address
// and the contents stay as they are (no copy, unlike a realloc).
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const errors_1 = require("../errors");
const location_1 = require("../memory/location");
const native_1 = require("../native");
const validate_1 = require("../validate");
const access_1 = require("./access");
const address_reservation_1 = require("./address-reservation");
const granularity_1 = require("./granularity");
const mapping_1 = require("./mapping");
const physical_allocation_1 = require("./physical-allocation");
/**
 * Device memory that grows without moving: {@link resize} maps more physical
 * memory at the end of a range reserved up front. Usable wherever a DeviceBuffer
 * is, within {@link size} bytes.
 */
class GrowableBuffer extends disposable_1.Disposable {
    #reserved;
    #granularity;
    #allocation;
    #access;
    #size = 0;
    constructor(handle, reserved, granularity, allocation, access) {
        super(handle);
        this.#reserved = reserved;
        this.#granularity = granularity;
        this.#allocation = allocation;
        this.#access = access;
    }
    /** Reserves options.maxSize of address space and maps options.size (if any) of it. */
    static create(options) {
        (0, validate_1.checkObject)(options, 'options');
        const device = device_1.Device.get((0, device_1.ordinalOf)(options.device, 'options.device'));
        const allocation = { location: device, handleTypes: options.handleTypes };
        const granularity = (0, granularity_1.allocationGranularity)(allocation);
        const access = (0, access_1.encodeAccess)(options.access ?? (0, mapping_1.defaultAccess)(device), 'options.access');
        const maxSize = (0, validate_1.checkSize)(options.maxSize, 'options.maxSize');
        const size = (0, validate_1.checkSize)(options.size ?? 0, 'options.size');
        if (size > maxSize)
            throw new RangeError(`options.size (${size}) exceeds options.maxSize (${maxSize})`);
        const reservation = address_reservation_1.AddressReservation.reserve(maxSize, { device, alignment: granularity });
        let buffer;
        try {
            buffer = new GrowableBuffer(native_1.native.mapMemory(reservation.native, 0, [], access), reservation.size, granularity, allocation, access);
        }
        finally {
            reservation.dispose(); // the buffer's native memory holds the range
        }
        try {
            buffer.resize(size);
        }
        catch (error) {
            buffer.dispose();
            throw error;
        }
        return buffer;
    }
    /** The start address; it never changes. */
    get address() {
        return this.native.address;
    }
    /** Bytes in use: what copies, fills and reads may touch. */
    get size() {
        if (this.disposed)
            throw new errors_1.DisposedError('GrowableBuffer');
        return this.#size;
    }
    /** Bytes of physical memory mapped (at least size, a multiple of the granularity). */
    get capacity() {
        return this.native.size;
    }
    /** Bytes of address space reserved: the most the buffer can grow to. */
    get maxSize() {
        return this.#reserved;
    }
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    /**
     * Sets the size. Growing past the capacity maps new physical memory after the
     * end: at least what is missing and, to keep the number of pieces small, at
     * least the current capacity (up to maxSize), rounded to the granularity. The
     * address and the contents so far stay; new bytes are undefined. Shrinking only
     * lowers the size: the memory stays mapped until the buffer is disposed.
     * All or nothing: a failed growth leaves the buffer as it was.
     */
    resize(bytes) {
        const size = (0, validate_1.checkSize)(bytes, 'bytes');
        if (size > this.#reserved)
            throw new RangeError(`bytes (${size}) exceeds maxSize (${this.#reserved})`);
        const capacity = this.capacity;
        if (size > capacity) {
            const wanted = (0, granularity_1.roundToGranularity)(Math.max(size - capacity, capacity), this.#granularity);
            const piece = Math.min(wanted, this.#reserved - capacity);
            const allocation = physical_allocation_1.PhysicalAllocation.create(piece, this.#allocation);
            try {
                this.native.extend([[allocation.native, 0, piece]], this.#access);
            }
            finally {
                allocation.dispose(); // mapped: the buffer holds it now; failed: released
            }
        }
        this.#size = size;
    }
    /** The pieces of physical memory mapped, in address order (new handles: dispose them when done). */
    segments() {
        return (0, mapping_1.segmentsOf)(this.native);
    }
    /** Grants or revokes access to everything mapped, and to what growth maps later. */
    setAccess(entries) {
        const access = (0, access_1.encodeAccess)(entries, 'entries');
        if (this.capacity > 0)
            this.native.setAccess(access);
        this.#access = access;
    }
    /** The access location has to the buffer at offset (default 0). */
    access(location, offset) {
        const { type, id } = (0, location_1.locationOf)(location);
        return (0, access_1.accessName)(this.native.getAccess(type, id, offset === undefined ? undefined : (0, validate_1.checkSize)(offset, 'offset')));
    }
    toString() {
        return this.disposed
            ? 'GrowableBuffer(disposed)'
            : `GrowableBuffer(${this.size} of ${this.maxSize} bytes at 0x${this.address.toString(16)})`;
    }
}
exports.GrowableBuffer = GrowableBuffer;
//# sourceMappingURL=growable-buffer.js.map