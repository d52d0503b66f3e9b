"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Mapping = void 0;
exports.locationOfProperties = locationOfProperties;
exports.segmentsOf = segmentsOf;
exports.defaultAccess = defaultAccess;
// Physical allocations mapped into a reserved address range, with access
// granted: device memory usable wherever a DeviceBuffer is (copies, fills,
// stream memory operations, kernel arguments by address). cuMemUnmap is not
// stream-ordered, so disposing it unmaps the range only once the GPU is done
// with it: streams (and graphs) that work on it was queued through keep the
// mapping alive until that work is known complete. Work the library did not see
// (a raw address handed elsewhere) must be finished by the caller first.
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const location_1 = require("../memory/location");
const native_1 = require("../native");
const validate_1 = require("../validate");
const access_1 = require("./access");
const address_reservation_1 = require("./address-reservation");
const granularity_1 = require("./granularity");
const physical_allocation_1 = require("./physical-allocation");
/** @internal The options that reproduce an allocation's location, for granularity queries. */
function locationOfProperties(properties) {
    if (properties.locationType === 'host')
        return 'host';
    if (properties.locationType === 'hostNuma')
        return { hostNuma: properties.locationId };
    return properties.locationId;
}
function checkMultiple(value, granularity, name) {
    if (value % granularity !== 0) {
        throw new RangeError(`${name} (${value}) must be a multiple of the allocation granularity, ${granularity} bytes`);
    }
}
/** @internal The segments of native virtual memory, with new allocation handles. */
function segmentsOf(memory) {
    return memory.segments().map(([allocation, allocationOffset, bytes]) => Object.freeze({ allocation: new physical_allocation_1.PhysicalAllocation(allocation), allocationOffset, bytes }));
}
/** @internal The default grant: read-write for one device. */
function defaultAccess(device) {
    return [{ location: device, access: 'readwrite' }];
}
/**
 * A physical allocation mapped into a reserved range with access granted: device
 * memory usable wherever a DeviceBuffer is. Made by {@link Mapping.alloc} (all in
 * one) or {@link Mapping.map} / {@link AddressReservation.map}.
 */
class Mapping extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /**
     * Device memory of at least bytes, made the virtual memory way: one physical
     * allocation (cuMemCreate, size rounded up to the granularity: {@link size}
     * reports it), a reservation of the same size, the map and the grant. What
     * fails part-way is undone; nothing leaks.
     */
    static alloc(bytes, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const allocation = physical_allocation_1.PhysicalAllocation.create(bytes, options);
        let reservation;
        try {
            const granularity = (0, granularity_1.allocationGranularity)({ location: locationOfProperties(allocation.properties()) });
            reservation = address_reservation_1.AddressReservation.reserve(allocation.size, { device: allocation.device, alignment: granularity });
            return Mapping.map(reservation, allocation, { access: options.access ?? defaultAccess(allocation.device) });
        }
        finally {
            // The mapping holds its own references; on failure these were the only ones.
            allocation.dispose();
            reservation?.dispose();
        }
    }
    /**
     * Maps bytes of allocation from allocationOffset at reservation + offset
     * (cuMemMap) and grants access (cuMemSetAccess), all or nothing: if the grant
     * fails the range is unmapped again. Offsets and size must be multiples of the
     * allocation's minimum granularity. The mapping holds its own references to
     * the allocation and the reservation: both may be disposed right away.
     */
    static map(reservation, allocation, options = {}) {
        (0, validate_1.checkInstance)(reservation, address_reservation_1.AddressReservation, 'reservation');
        (0, validate_1.checkInstance)(allocation, physical_allocation_1.PhysicalAllocation, 'allocation');
        (0, validate_1.checkObject)(options, 'options');
        const offset = (0, validate_1.checkSize)(options.offset ?? 0, 'options.offset');
        const allocationOffset = (0, validate_1.checkSize)(options.allocationOffset ?? 0, 'options.allocationOffset');
        const bytes = options.bytes === undefined ? allocation.size - allocationOffset : (0, validate_1.checkSize)(options.bytes, 'options.bytes');
        if (bytes <= 0)
            throw new RangeError('options.bytes must be at least 1 and the allocation must have bytes left after options.allocationOffset');
        const granularity = (0, granularity_1.allocationGranularity)({ location: locationOfProperties(allocation.properties()) });
        checkMultiple(offset, granularity, 'options.offset');
        checkMultiple(allocationOffset, granularity, 'options.allocationOffset');
        checkMultiple(bytes, granularity, 'options.bytes');
        if (allocationOffset + bytes > allocation.size) {
            throw new RangeError(`[${allocationOffset}, ${allocationOffset}+${bytes}) exceeds the allocation's ${allocation.size} bytes`);
        }
        if (offset + bytes > reservation.size) {
            throw new RangeError(`[${offset}, ${offset}+${bytes}) exceeds the reservation's ${reservation.size} bytes`);
        }
        const access = (0, access_1.encodeAccess)(options.access ?? defaultAccess(reservation.device), 'options.access');
        return new Mapping(native_1.native.mapMemory(reservation.native, offset, [[allocation.native, allocationOffset, bytes]], access));
    }
    /** The start address of the mapped range. */
    get address() {
        return this.native.address;
    }
    /** Bytes mapped (a multiple of the granularity). */
    get size() {
        return this.native.size;
    }
    /** The device whose primary context the mapping's calls use. */
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    /** The allocations mapped, in address order (new handles: dispose them when done). */
    segments() {
        return segmentsOf(this.native);
    }
    /** Grants or revokes access to the whole range (cuMemSetAccess). */
    setAccess(entries) {
        this.native.setAccess((0, access_1.encodeAccess)(entries, 'entries'));
    }
    /** The access location has to the range (cuMemGetAccess), at offset (default 0). */
    access(location, offset) {
        const { type, id } = (0, location_1.locationOf)(location);
        return (0, access_1.accessName)(this.native.getAccess(type, id, offset === undefined ? undefined : (0, validate_1.checkSize)(offset, 'offset')));
    }
    toString() {
        return this.disposed ? 'Mapping(disposed)' : `Mapping(${this.size} bytes at 0x${this.address.toString(16)})`;
    }
}
exports.Mapping = Mapping;
//# sourceMappingURL=mapping.js.map