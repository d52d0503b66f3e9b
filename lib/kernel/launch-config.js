"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LaunchConfigSlot = void 0;
exports.encodeLaunchShape = encodeLaunchShape;
exports.launchStream = launchStream;
const stream_1 = require("../stream");
const validate_1 = require("../validate");
/** Slots of the encoded configuration (native/launch_config.h, LaunchConfigSlot). */
exports.LaunchConfigSlot = {
    gridX: 0, gridY: 1, gridZ: 2,
    blockX: 3, blockY: 4, blockZ: 5,
    sharedMemoryBytes: 6,
    cooperative: 7,
    clusterX: 8, clusterY: 9, clusterZ: 10,
    hasPriority: 11, priority: 12,
    programmaticStreamSerialization: 13,
    count: 14,
};
const S = exports.LaunchConfigSlot;
const maxInt32 = 2 ** 31 - 1;
/** Checks a launch shape and encodes it into out (a new Int32Array when not given). */
function encodeLaunchShape(shape, out = new Int32Array(S.count)) {
    if (shape === null || typeof shape !== 'object')
        throw new TypeError('config must be an object');
    writeDim3(shape.grid, 'config.grid', out, S.gridX);
    writeDim3(shape.block, 'config.block', out, S.blockX);
    const { sharedMemory, cooperative, cluster, priority, programmaticStreamSerialization } = shape;
    out[S.sharedMemoryBytes] = sharedMemory === undefined ? 0 : int32(sharedMemory, 0, 'config.sharedMemory');
    out[S.cooperative] = cooperative === undefined ? 0 : flag(cooperative, 'config.cooperative');
    if (cluster === undefined)
        out[S.clusterX] = out[S.clusterY] = out[S.clusterZ] = 0;
    else
        writeDim3(cluster, 'config.cluster', out, S.clusterX);
    out[S.hasPriority] = priority === undefined ? 0 : 1;
    out[S.priority] = priority === undefined ? 0 : int32(priority, -(2 ** 31), 'config.priority');
    out[S.programmaticStreamSerialization] = programmaticStreamSerialization === undefined ? 0
        : flag(programmaticStreamSerialization, 'config.programmaticStreamSerialization');
    return out;
}
/** The native stream of a launch configuration. */
function launchStream(config) {
    if (config === null || typeof config !== 'object')
        throw new TypeError('config must be an object');
    return (0, stream_1.streamNative)(config.stream, 'config.stream');
}
// Checks run on every launch: names are formatted only for an error.
function int32(value, min, name) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= maxInt32)
        return value;
    return (0, validate_1.checkInteger)(value, name, min, maxInt32); // throws
}
// A dimension's part: the name (config.grid.x) is formatted only for an error.
function part(value, name, axis) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= maxInt32)
        return value;
    return (0, validate_1.checkInteger)(value, `${name}.${axis}`, 1, maxInt32); // throws
}
function flag(value, name) {
    if (value === true)
        return 1;
    if (value === false)
        return 0;
    return (0, validate_1.checkBoolean)(value, name) ? 1 : 0; // throws
}
function writeDim3(dim, name, out, at) {
    if (typeof dim === 'number') {
        out[at] = part(dim, name, 'x');
        out[at + 1] = out[at + 2] = 1;
        return;
    }
    let x, y, z;
    if (Array.isArray(dim)) {
        if (dim.length < 1 || dim.length > 3)
            throw new RangeError(`${name} must have 1 to 3 dimensions, got ${dim.length}`);
        [x, y, z] = dim;
    }
    else if (dim !== null && typeof dim === 'object') {
        ({ x, y, z } = dim);
    }
    else {
        throw new TypeError(`${name} must be a number, [x, y, z] or { x, y, z }`);
    }
    out[at] = part(x, name, 'x');
    out[at + 1] = y === undefined ? 1 : part(y, name, 'y');
    out[at + 2] = z === undefined ? 1 : part(z, name, 'z');
}
//# sourceMappingURL=launch-config.js.map