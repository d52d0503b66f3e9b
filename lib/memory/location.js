"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.locationOf = locationOf;
exports.locationFrom = locationFrom;
// Where memory lives or should go: a device, the host, or a host NUMA node.
const device_1 = require("../device");
const enums_1 = require("../generated/enums");
const validate_1 = require("../validate");
/** The driver's CUmemLocation of a Location. */
function locationOf(location, name = 'location') {
    if (location instanceof device_1.Device)
        return { type: enums_1.MemoryLocationType.device, id: location.ordinal };
    if (typeof location === 'number')
        return { type: enums_1.MemoryLocationType.device, id: device_1.Device.get(location).ordinal };
    if (location === 'host')
        return { type: enums_1.MemoryLocationType.host, id: 0 };
    if (location === 'hostNumaCurrent')
        return { type: enums_1.MemoryLocationType.hostNumaCurrent, id: 0 };
    if (typeof location === 'object' && location !== null && 'hostNuma' in location) {
        return { type: enums_1.MemoryLocationType.hostNuma, id: (0, validate_1.checkInteger)(location.hostNuma, `${name}.hostNuma`, 0) };
    }
    throw new TypeError(`${name} must be a Device, a device ordinal, 'host', 'hostNumaCurrent' or { hostNuma: node }`);
}
/** The Location of a driver CUmemLocation. */
function locationFrom(type, id) {
    switch (type) {
        case enums_1.MemoryLocationType.device: return device_1.Device.get(id);
        case enums_1.MemoryLocationType.host: return 'host';
        case enums_1.MemoryLocationType.hostNuma: return { hostNuma: id };
        case enums_1.MemoryLocationType.hostNumaCurrent: return 'hostNumaCurrent';
        default: throw new RangeError(`unknown memory location type ${type}`);
    }
}
//# sourceMappingURL=location.js.map