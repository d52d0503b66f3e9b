"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NodeType = void 0;
exports.encodeKernel = encodeKernel;
exports.encodeNodeParams = encodeNodeParams;
exports.accessesOf = accessesOf;
// Typed parameters of every node kind a graph can hold, checked and encoded
// for the native layer (native/graph/node_params.cc), which checks the memory
// ranges again before the driver sees a pointer.
const device_1 = require("../device");
const enums_1 = require("../generated/enums");
const args_1 = require("../kernel/args");
const kernel_1 = require("../kernel/kernel");
const launch_config_1 = require("../kernel/launch-config");
const bytes_1 = require("../memory/bytes");
const validate_1 = require("../validate");
/** CUgraphNodeType values. */
exports.NodeType = {
    kernel: 0, memcpy: 1, memset: 2, host: 3, graph: 4, empty: 5, eventWait: 6, eventRecord: 7,
    extSemaphoreSignal: 8, extSemaphoreWait: 9, memAlloc: 10, memFree: 11, batchMemOp: 12, conditional: 13,
};
const conditionKinds = { if: 0, while: 1, switch: 2 };
const waitConditions = { geq: enums_1.StreamWaitValueFlag.geq, eq: enums_1.StreamWaitValueFlag.eq, and: enums_1.StreamWaitValueFlag.and, nor: enums_1.StreamWaitValueFlag.nor };
function nativeOf(value, name, what) {
    const handle = value?.native;
    if (!handle || typeof handle !== 'object')
        throw new TypeError(`${name} must be a ${what}`);
    return handle;
}
function encodeKernel(p) {
    const kernel = (0, validate_1.checkInstance)(p.kernel, kernel_1.Kernel, 'params.kernel');
    const args = (0, validate_1.checkArray)(p.args ?? [], 'params.args');
    const types = args.map((a, i) => {
        if (!(a instanceof args_1.KernelArg))
            throw new TypeError(`params.args[${i}] must be made with arg.*()`);
        return a.type;
    });
    const layout = (0, args_1.argLayout)(kernel.name, kernel.params, types);
    const bytes = new Uint8Array(layout.bytes);
    const view = new DataView(bytes.buffer);
    // Memory arguments go as [offset, memory] pairs: the native layer writes their addresses.
    const pointers = [];
    args.forEach((a, i) => {
        const memory = (0, args_1.writeArg)(view, bytes, layout.slots[i], a.value, 'params.args', i);
        if (memory)
            pointers.push(layout.slots[i].offset, memory.native);
    });
    const ordinal = kernel.context ? kernel.context.deviceOrdinal : (0, device_1.ordinalOf)(p.device, 'params.device');
    return { type: exports.NodeType.kernel, kernel: kernel.native, config: (0, launch_config_1.encodeLaunchShape)(p), args: bytes, pointers, ordinal };
}
/** Checks params and encodes them for the native layer. */
function encodeNodeParams(params) {
    (0, validate_1.checkObject)(params, 'params');
    switch (params.type) {
        case 'kernel':
            return encodeKernel(params);
        case 'memcpy': {
            const srcOffset = (0, validate_1.checkSize)(params.srcOffset ?? 0, 'params.srcOffset');
            const src = (0, bytes_1.memoryNative)(params.src, 'params.src');
            const bytes = params.bytes === undefined ? Math.max(0, params.src.size - srcOffset) : (0, validate_1.checkSize)(params.bytes, 'params.bytes');
            return { type: exports.NodeType.memcpy, dst: (0, bytes_1.memoryNative)(params.dst, 'params.dst'), dstOffset: (0, validate_1.checkSize)(params.dstOffset ?? 0, 'params.dstOffset'), src, srcOffset, bytes };
        }
        case 'memset': {
            const element = params.elementBytes ?? 1;
            if (element !== 1 && element !== 2 && element !== 4)
                throw new RangeError('params.elementBytes must be 1, 2 or 4');
            const target = (0, bytes_1.memoryNative)(params.target, 'params.target');
            const offset = (0, validate_1.checkSize)(params.offset ?? 0, 'params.offset');
            const twoD = params.height !== undefined && params.height > 1;
            const width = twoD ? (0, validate_1.checkSize)(params.width, 'params.width')
                : params.count !== undefined ? (0, validate_1.checkSize)(params.count, 'params.count') : Math.floor(Math.max(0, params.target.size - offset) / element);
            return {
                type: exports.NodeType.memset, target, offset, value: (0, validate_1.checkInteger)(params.value, 'params.value', 0, 2 ** (8 * element) - 1),
                elementBytes: element, width, height: twoD ? (0, validate_1.checkSize)(params.height, 'params.height') : 1,
                pitch: twoD ? (0, validate_1.checkSize)(params.pitch, 'params.pitch') : width * element,
            };
        }
        case 'host':
            if (typeof params.callback !== 'function')
                throw new TypeError('params.callback must be a function');
            return { type: exports.NodeType.host, callback: params.callback };
        case 'graph':
            return { type: exports.NodeType.graph, graph: nativeOf(params.graph, 'params.graph', 'Graph'), move: params.move === true };
        case 'empty':
            return { type: exports.NodeType.empty };
        case 'eventRecord':
        case 'eventWait':
            return { type: exports.NodeType[params.type], event: nativeOf(params.event, 'params.event', 'Event') };
        case 'memAlloc':
            return {
                type: exports.NodeType.memAlloc, bytes: (0, validate_1.checkSize)(params.bytes, 'params.bytes'), ordinal: (0, device_1.ordinalOf)(params.device, 'params.device'),
                peers: (0, validate_1.checkArray)(params.peers ?? [], 'params.peers').map((d, i) => (0, device_1.ordinalOf)(d, `params.peers[${i}]`)),
            };
        case 'memFree':
            return { type: exports.NodeType.memFree, allocation: (0, bytes_1.memoryNative)(params.allocation, 'params.allocation') };
        case 'batchMemOp':
            return { type: exports.NodeType.batchMemOp, ops: encodeMemoryOps(params.ops), ordinal: (0, device_1.ordinalOf)(params.device, 'params.device') };
        case 'conditional':
            return {
                type: exports.NodeType.conditional, handle: nativeOf(params.handle, 'params.handle', 'ConditionalHandle'),
                kind: (0, validate_1.checkEnum)(params.kind, conditionKinds, 'params.kind'), size: (0, validate_1.checkInteger)(params.size, 'params.size', 1, 1024),
            };
        default:
            throw new RangeError(`params.type must be one of kernel, memcpy, memset, host, graph, empty, eventRecord, eventWait, memAlloc, memFree, batchMemOp, conditional`);
    }
}
function encodeMemoryOps(ops) {
    return (0, validate_1.checkArray)(ops, 'params.ops').map((o, i) => {
        (0, validate_1.checkObject)(o, `params.ops[${i}]`);
        switch (o.op) {
            case 'waitValue32':
            case 'waitValue64':
                return [enums_1.StreamMemoryOperation[o.op], (0, bytes_1.memoryNative)(o.target, `params.ops[${i}].target`), (0, validate_1.checkSize)(o.offset ?? 0, `params.ops[${i}].offset`),
                    o.op === 'waitValue64' ? BigInt(o.value) : (0, validate_1.checkInteger)(o.value, `params.ops[${i}].value`, 0, 2 ** 32 - 1),
                    (0, validate_1.checkEnum)(o.condition ?? 'geq', waitConditions, `params.ops[${i}].condition`) | (o.flush ? enums_1.StreamWaitValueFlag.flush : 0)];
            case 'writeValue32':
            case 'writeValue64':
                return [enums_1.StreamMemoryOperation[o.op], (0, bytes_1.memoryNative)(o.target, `params.ops[${i}].target`), (0, validate_1.checkSize)(o.offset ?? 0, `params.ops[${i}].offset`),
                    o.op === 'writeValue64' ? BigInt(o.value) : (0, validate_1.checkInteger)(o.value, `params.ops[${i}].value`, 0, 2 ** 32 - 1),
                    o.noMemoryBarrier ? enums_1.StreamWriteValueFlag.noMemoryBarrier : 0];
            case 'barrier':
                return [enums_1.StreamMemoryOperation.barrier, undefined, 0, 0, (0, validate_1.checkEnum)(o.scope ?? 'sys', enums_1.StreamMemoryBarrier, `params.ops[${i}].scope`)];
            case 'flushRemoteWrites':
                return [enums_1.StreamMemoryOperation.flushRemoteWrites, undefined, 0, 0, 0];
            default:
                throw new RangeError(`params.ops[${i}].op is not a stream memory operation`);
        }
    });
}
/** The memory a node's parameters read and write, for data-flow building. */
function accessesOf(params) {
    switch (params.type) {
        case 'memcpy':
            return { reads: [params.src], writes: [params.dst] };
        case 'memset':
            return { reads: [], writes: [params.target] };
        case 'memFree':
            return { reads: [], writes: [params.allocation] };
        case 'batchMemOp': {
            const reads = [];
            const writes = [];
            for (const o of params.ops) {
                if (o.op.startsWith('wait'))
                    reads.push(o.target);
                else if (o.op.startsWith('write'))
                    writes.push(o.target);
            }
            return { reads, writes };
        }
        default:
            return { reads: [], writes: [] };
    }
}
//# sourceMappingURL=node-params.js.map