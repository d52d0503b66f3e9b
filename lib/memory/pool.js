"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryPool = void 0;
// Memory pools for stream-ordered allocation (DeviceBuffer.allocAsync).
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const enums_1 = require("../generated/enums");
const native_1 = require("../native");
const validate_1 = require("../validate");
const location_1 = require("./location");
class MemoryPool extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /** A new pool (cuMemPoolCreate), destroyed when disposed and its allocations are freed. */
    static create(options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const { type, id } = (0, location_1.locationOf)(options.location ?? 0, 'options.location');
        const handleTypes = (0, validate_1.checkFlags)(options.handleTypes ?? [], enums_1.MemoryHandleType, 'options.handleTypes');
        return new MemoryPool(native_1.native.createPool(type, id, enums_1.MemoryAllocationType.pinned, handleTypes, (0, validate_1.checkSize)(options.maxSize ?? 0, 'options.maxSize')));
    }
    /** The device's default pool (cuDeviceGetDefaultMemPool); disposing it only drops this handle. */
    static defaultFor(device) {
        return new MemoryPool(native_1.native.devicePool((0, device_1.ordinalOf)(device), false));
    }
    /** The pool cuMemAllocAsync uses on the device now (cuDeviceGetMemPool). */
    static currentFor(device) {
        return new MemoryPool(native_1.native.devicePool((0, device_1.ordinalOf)(device), true));
    }
    /** Makes pool the one cuMemAllocAsync uses on the device (cuDeviceSetMemPool). */
    static setCurrentFor(device, pool) {
        if (!(pool instanceof MemoryPool))
            throw new TypeError('pool must be a MemoryPool');
        native_1.native.setDevicePool((0, device_1.ordinalOf)(device), pool.native);
    }
    /** The default or current pool of a location (cuMemGetDefaultMemPool / cuMemGetMemPool). */
    static forLocation(location, options = {}) {
        const { type, id } = (0, location_1.locationOf)(location);
        return new MemoryPool(native_1.native.locationPool(type, id, enums_1.MemoryAllocationType.pinned, options.current === true));
    }
    /** Makes pool the current one of a location (cuMemSetMemPool). */
    static setCurrentForLocation(location, pool) {
        if (!(pool instanceof MemoryPool))
            throw new TypeError('pool must be a MemoryPool');
        const { type, id } = (0, location_1.locationOf)(location);
        native_1.native.setLocationPool(type, id, enums_1.MemoryAllocationType.pinned, pool.native);
    }
    get handle() {
        return this.native.handle;
    }
    /** False for a device's default or current pool, which this handle only names. */
    get owned() {
        return this.native.owned;
    }
    /** A pool attribute: reuse switches as booleans, sizes in bytes. */
    attribute(name) {
        const value = this.native.getAttribute((0, validate_1.checkEnum)(name, enums_1.PoolAttribute, 'name'));
        return typeof value === 'bigint' ? Number(value) : value !== 0;
    }
    setAttribute(name, value) {
        const id = (0, validate_1.checkEnum)(name, enums_1.PoolAttribute, 'name');
        if (id >= enums_1.PoolAttribute.releaseThreshold)
            this.native.setAttribute(id, BigInt((0, validate_1.checkSize)(value, 'value')));
        else if (typeof value === 'boolean')
            this.native.setAttribute(id, value ? 1 : 0);
        else
            throw new TypeError(`${name} must be a boolean`);
    }
    /** Bytes the pool keeps reserved when idle before releasing memory to the system. */
    get releaseThreshold() {
        return this.attribute('releaseThreshold');
    }
    set releaseThreshold(bytes) {
        this.setAttribute('releaseThreshold', bytes);
    }
    /** Releases memory down to minBytesToKeep (cuMemPoolTrimTo). */
    trimTo(minBytesToKeep) {
        this.native.trimTo((0, validate_1.checkSize)(minBytesToKeep, 'minBytesToKeep'));
    }
    /**
     * Sets which devices may access the pool's memory. The device a device-located pool
     * lives on always has read-write access and is left out of the driver call (it rejects
     * a batch naming it); a host-located pool starts with no device access.
     */
    setAccess(entries) {
        const [locationType, locationId] = this.native.location;
        const owner = locationType === enums_1.MemoryLocationType.device ? locationId : -1;
        const list = (0, validate_1.checkArray)(entries, 'entries').map((e, i) => {
            (0, validate_1.checkObject)(e, `entries[${i}]`);
            return [1 /* device */, (0, device_1.ordinalOf)(e.device, `entries[${i}].device`), (0, validate_1.checkEnum)(e.access, enums_1.MemoryAccess, `entries[${i}].access`)];
        }).filter(([, ordinal]) => ordinal !== owner);
        if (list.length > 0)
            this.native.setAccess(list);
    }
    /** The access a device has to the pool's memory. */
    access(device) {
        const flags = this.native.getAccess(1, (0, device_1.ordinalOf)(device));
        return (0, validate_1.nameOfValue)(enums_1.MemoryAccess, flags) ?? 'none';
    }
    /** Where the pool's memory lives. */
    get location() {
        const [type, id] = this.native.location;
        return (0, location_1.locationFrom)(type, id);
    }
    get device() {
        return device_1.Device.get(this.native.ordinal);
    }
    toString() {
        return this.disposed ? 'MemoryPool(disposed)' : `MemoryPool(${this.owned ? 'created' : 'device'}, 0x${this.handle.toString(16)})`;
    }
}
exports.MemoryPool = MemoryPool;
//# sourceMappingURL=pool.js.map