"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GraphAllocation = void 0;
exports.graphMemory = graphMemory;
exports.resetGraphMemoryHigh = resetGraphMemoryHigh;
exports.trimGraphMemory = trimGraphMemory;
// Memory that graphs allocate (memory nodes), and the device-wide accounting
// and trimming of it.
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
/**
 * Memory a graph's allocation node hands out. Usable by the nodes after the
 * allocation node (as an operand of copies, fills and kernel arguments) and,
 * after a launch, by stream work until it is freed; the graph, not this object,
 * frees it. dispose() only drops this handle.
 */
class GraphAllocation extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    get address() {
        return this.native.address;
    }
    get size() {
        return this.native.size;
    }
}
exports.GraphAllocation = GraphAllocation;
const attributes = { usedMemCurrent: 0, usedMemHigh: 1, reservedMemCurrent: 2, reservedMemHigh: 3 };
/** Bytes graphs use or reserve on a device (cuDeviceGetGraphMemAttribute). */
function graphMemory(device) {
    const ordinal = (0, device_1.ordinalOf)(device);
    const out = {};
    for (const [name, id] of Object.entries(attributes)) {
        out[name] = native_1.native.graphMemoryAttribute(ordinal, id);
    }
    return out;
}
/** Resets a high watermark to 0 (cuDeviceSetGraphMemAttribute). */
function resetGraphMemoryHigh(which, device) {
    native_1.native.resetGraphMemoryHigh((0, device_1.ordinalOf)(device), (0, validate_1.checkEnum)(which, { usedMemHigh: 1, reservedMemHigh: 3 }, 'which'));
}
/** Returns memory graphs reserve but do not use to the system (cuDeviceGraphMemTrim). */
function trimGraphMemory(device) {
    native_1.native.trimGraphMemory((0, device_1.ordinalOf)(device));
}
//# sourceMappingURL=memory.js.map