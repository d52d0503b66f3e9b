"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ATTRIBUTE_VALUE_BYTES = void 0;
exports.streamAttributeId = streamAttributeId;
exports.kernelNodeAttributeId = kernelNodeAttributeId;
exports.encodeLaunchAttribute = encodeLaunchAttribute;
exports.decodeLaunchAttribute = decodeLaunchAttribute;
// Launch attributes of streams and kernel nodes: typed values encoded to and
// decoded from the driver's 64-byte CUlaunchAttributeValue union (the native
// layer moves the bytes only).
const enums_1 = require("./generated/enums");
const validate_1 = require("./validate");
exports.ATTRIBUTE_VALUE_BYTES = 64;
const ids = {
    accessPolicyWindow: enums_1.LaunchAttribute.accessPolicyWindow,
    synchronizationPolicy: enums_1.LaunchAttribute.synchronizationPolicy,
    priority: enums_1.LaunchAttribute.priority,
    memSyncDomainMap: enums_1.LaunchAttribute.memSyncDomainMap,
    memSyncDomain: enums_1.LaunchAttribute.memSyncDomain,
    cooperative: enums_1.LaunchAttribute.cooperative,
    clusterDimension: enums_1.LaunchAttribute.clusterDimension,
    preferredSharedMemoryCarveout: enums_1.LaunchAttribute.preferredSharedMemoryCarveout,
};
const streamNames = ['accessPolicyWindow', 'synchronizationPolicy', 'priority', 'memSyncDomainMap', 'memSyncDomain'];
const kernelNodeNames = ['accessPolicyWindow', 'cooperative', 'priority', 'clusterDimension', 'memSyncDomainMap', 'memSyncDomain', 'preferredSharedMemoryCarveout'];
const nameOf = (map, value) => {
    const name = (0, validate_1.nameOfValue)(map, value);
    if (name === undefined)
        throw new RangeError(`the driver returned an unknown value ${value}`);
    return name;
};
function attributeId(name, allowed) {
    if (typeof name !== 'string' || !allowed.includes(name)) {
        throw new RangeError(`attribute must be one of ${allowed.join(', ')}; got ${String(name)}`);
    }
    return ids[name];
}
/** The driver's id of a stream attribute. */
function streamAttributeId(name) {
    return attributeId(name, streamNames);
}
/** The driver's id of a kernel node attribute. */
function kernelNodeAttributeId(name) {
    return attributeId(name, kernelNodeNames);
}
function encodeLaunchAttribute(name, value) {
    const bytes = new Uint8Array(exports.ATTRIBUTE_VALUE_BYTES);
    const view = new DataView(bytes.buffer);
    switch (name) {
        case 'accessPolicyWindow': {
            const w = value;
            if (typeof w !== 'object' || w === null)
                throw new TypeError('accessPolicyWindow must be an object');
            if (typeof w.base !== 'bigint' || w.base < 0n)
                throw new TypeError('accessPolicyWindow.base must be a non-negative bigint');
            view.setBigUint64(0, w.base, true);
            view.setBigUint64(8, BigInt((0, validate_1.checkSize)(w.bytes, 'accessPolicyWindow.bytes')), true);
            const ratio = (0, validate_1.checkNumber)(w.hitRatio, 'accessPolicyWindow.hitRatio');
            if (ratio < 0 || ratio > 1)
                throw new RangeError('accessPolicyWindow.hitRatio must be between 0 and 1');
            view.setFloat32(16, ratio, true);
            view.setUint32(20, (0, validate_1.checkEnum)(w.hitProp, enums_1.AccessProperty, 'accessPolicyWindow.hitProp'), true);
            view.setUint32(24, (0, validate_1.checkEnum)(w.missProp, enums_1.AccessProperty, 'accessPolicyWindow.missProp'), true);
            break;
        }
        case 'synchronizationPolicy':
            view.setUint32(0, (0, validate_1.checkEnum)(value, enums_1.SynchronizationPolicy, 'synchronizationPolicy'), true);
            break;
        case 'priority':
            view.setInt32(0, (0, validate_1.checkInteger)(value, 'priority', -(2 ** 31), 2 ** 31 - 1), true);
            break;
        case 'memSyncDomainMap': {
            const m = value;
            if (typeof m !== 'object' || m === null)
                throw new TypeError('memSyncDomainMap must be an object');
            view.setUint8(0, (0, validate_1.checkInteger)(m.default, 'memSyncDomainMap.default', 0, 255));
            view.setUint8(1, (0, validate_1.checkInteger)(m.remote, 'memSyncDomainMap.remote', 0, 255));
            break;
        }
        case 'memSyncDomain':
        case 'preferredSharedMemoryCarveout':
            view.setUint32(0, (0, validate_1.checkInteger)(value, name, 0, 2 ** 32 - 1), true);
            break;
        case 'cooperative':
            if (typeof value !== 'boolean')
                throw new TypeError('cooperative must be a boolean');
            view.setInt32(0, value ? 1 : 0, true);
            break;
        case 'clusterDimension': {
            const d = value;
            if (typeof d !== 'object' || d === null)
                throw new TypeError('clusterDimension must be { x, y, z }');
            view.setUint32(0, (0, validate_1.checkInteger)(d.x, 'clusterDimension.x', 1, 2 ** 31 - 1), true);
            view.setUint32(4, (0, validate_1.checkInteger)(d.y, 'clusterDimension.y', 1, 2 ** 31 - 1), true);
            view.setUint32(8, (0, validate_1.checkInteger)(d.z, 'clusterDimension.z', 1, 2 ** 31 - 1), true);
            break;
        }
        default:
            attributeId(name, Object.keys(ids));
    }
    return bytes;
}
function decodeLaunchAttribute(name, bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const decode = () => {
        switch (name) {
            case 'accessPolicyWindow':
                return {
                    base: view.getBigUint64(0, true),
                    bytes: Number(view.getBigUint64(8, true)),
                    hitRatio: view.getFloat32(16, true),
                    hitProp: nameOf(enums_1.AccessProperty, view.getUint32(20, true)),
                    missProp: nameOf(enums_1.AccessProperty, view.getUint32(24, true)),
                };
            case 'synchronizationPolicy':
                return nameOf(enums_1.SynchronizationPolicy, view.getUint32(0, true));
            case 'priority':
                return view.getInt32(0, true);
            case 'memSyncDomainMap':
                return { default: view.getUint8(0), remote: view.getUint8(1) };
            case 'cooperative':
                return view.getInt32(0, true) !== 0;
            case 'clusterDimension':
                return { x: view.getUint32(0, true), y: view.getUint32(4, true), z: view.getUint32(8, true) };
            default:
                return view.getUint32(0, true);
        }
    };
    return decode();
}
//# sourceMappingURL=launch-attributes.js.map