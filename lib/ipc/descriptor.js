"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.maxDescriptorSegments = exports.eventDescriptorFormat = exports.memoryDescriptorFormat = exports.descriptorVersion = void 0;
exports.thisProcess = thisProcess;
exports.exportedHere = exportedHere;
exports.newExportId = newExportId;
exports.encodeBytes = encodeBytes;
exports.decodeBytes = decodeBytes;
exports.descriptorFdCount = descriptorFdCount;
exports.validateMemoryDescriptor = validateMemoryDescriptor;
exports.validateEventDescriptor = validateEventDescriptor;
// Descriptors: what one process sends another so that it can open shared GPU
// memory or an event. Plain JSON-safe data (file descriptors, where a path needs
// them, travel beside it over an FdChannel), versioned, and validated field by
// field when they arrive, as untrusted input.
const crypto_1 = require("crypto");
const errors_1 = require("./errors");
/** The descriptor format this version writes and reads. */
exports.descriptorVersion = 1;
/** The format tag of shared-memory descriptors (a descriptor says what it describes). */
exports.memoryDescriptorFormat = 'cuda-driver/shared-memory';
/** The format tag of shared-event descriptors. */
exports.eventDescriptorFormat = 'cuda-driver/shared-event';
/** The most pieces (and so file descriptors) one shared-memory descriptor may name. */
exports.maxDescriptorSegments = 64;
const token = (0, crypto_1.randomBytes)(16).toString('hex');
/** @internal This process as an exporter. */
function thisProcess() {
    return { pid: process.pid, token };
}
/** @internal True when a descriptor was made by this very process. */
function exportedHere(exporter) {
    return exporter.token === token;
}
/** @internal A fresh export id. */
function newExportId() {
    return (0, crypto_1.randomBytes)(16).toString('hex');
}
/** @internal Handle bytes as descriptor text. */
function encodeBytes(bytes) {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
/** @internal Descriptor text as handle bytes (validated already). */
function decodeBytes(text) {
    return new Uint8Array(Buffer.from(text, 'base64'));
}
/** How many file descriptors travel beside a descriptor. */
function descriptorFdCount(descriptor) {
    if (descriptor.kind === 'legacy' || descriptor.handleType !== 'posixFileDescriptor')
        return 0;
    return descriptor.kind === 'pool' ? 1 : descriptor.segments.length;
}
function fail(field, problem) {
    throw new errors_1.InvalidDescriptorError(field, problem);
}
function record(value, field) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
        fail(field, 'must be an object');
    return value;
}
function integer(value, field, min, max = Number.MAX_SAFE_INTEGER) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
        fail(field, 'must be an integer');
    if (value < min || value > max)
        fail(field, `must be between ${min} and ${max}, got ${value}`);
    return value;
}
function matching(value, field, pattern, what) {
    if (typeof value !== 'string' || value.length > 128 || !pattern.test(value))
        fail(field, `must be ${what}`);
    return value;
}
// Exactly 64 bytes of canonical base64.
const handleText = /^[A-Za-z0-9+/]{86}==$/;
const hex32 = /^[0-9a-f]{32}$/;
function handle(value, field) {
    return matching(value, field, handleText, 'a 64-byte handle in base64');
}
function oneOf(value, field, allowed) {
    if (typeof value !== 'string' || !allowed.includes(value)) {
        fail(field, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
    }
    return value;
}
function header(value, format, what) {
    const fields = record(value, '');
    if (fields.format !== format)
        fail('format', `must be '${format}' (this is not ${what})`);
    if (fields.version !== exports.descriptorVersion) {
        fail('version', `must be ${exports.descriptorVersion}: the exporter runs a version of this library that writes ${JSON.stringify(fields.version)}`);
    }
    const exporter = record(fields.exporter, 'exporter');
    const device = record(fields.device, 'device');
    return {
        fields,
        id: matching(fields.id, 'id', hex32, '32 hex digits'),
        exporter: Object.freeze({
            pid: integer(exporter.pid, 'exporter.pid', 1, 0x7fffffff),
            token: matching(exporter.token, 'exporter.token', hex32, '32 hex digits'),
        }),
        device: Object.freeze({
            uuid: matching(device.uuid, 'device.uuid', /^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a device UUID such as GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'),
            ordinal: integer(device.ordinal, 'device.ordinal', 0, 0xffff),
        }),
    };
}
/**
 * Checks a shared-memory descriptor received from elsewhere and returns a
 * normalized, frozen copy holding only the fields this version knows. Throws
 * InvalidDescriptorError naming the first bad field.
 */
function validateMemoryDescriptor(value) {
    const { fields, id, exporter, device } = header(value, exports.memoryDescriptorFormat, 'a shared-memory descriptor');
    const kind = oneOf(fields.kind, 'kind', ['legacy', 'pool', 'vmm']);
    const size = integer(fields.size, 'size', 1);
    const offset = integer(fields.offset, 'offset', 0);
    const base = { format: exports.memoryDescriptorFormat, version: exports.descriptorVersion, id, exporter, device, size };
    if (offset + size > Number.MAX_SAFE_INTEGER)
        fail('size', 'with offset exceeds the largest safe integer');
    switch (kind) {
        case 'legacy':
            return Object.freeze({ ...base, kind, handle: handle(fields.handle, 'handle'), offset });
        case 'pool': {
            const handleType = oneOf(fields.handleType, 'handleType', ['posixFileDescriptor', 'fabric']);
            const pool = matching(fields.pool, 'pool', /^[0-9a-f]{1,16}$/, 'the pool\'s hex id');
            const pointer = handle(fields.pointer, 'pointer');
            if (handleType === 'fabric') {
                return Object.freeze({ ...base, kind, handleType, pool, poolHandle: handle(fields.poolHandle, 'poolHandle'), pointer, offset });
            }
            if (fields.poolHandle !== undefined)
                fail('poolHandle', 'must be absent: a POSIX descriptor travels beside the descriptor');
            return Object.freeze({ ...base, kind, handleType, pool, pointer, offset });
        }
        case 'vmm': {
            const handleType = oneOf(fields.handleType, 'handleType', ['posixFileDescriptor', 'fabric']);
            if (!Array.isArray(fields.segments))
                fail('segments', 'must be an array');
            const list = fields.segments;
            if (list.length < 1 || list.length > exports.maxDescriptorSegments)
                fail('segments', `must hold 1 to ${exports.maxDescriptorSegments} entries`);
            let total = 0;
            const segments = list.map((entry, i) => {
                const field = `segments[${i}]`;
                const s = record(entry, field);
                const allocationSize = integer(s.allocationSize, `${field}.allocationSize`, 1);
                const allocationOffset = integer(s.allocationOffset, `${field}.allocationOffset`, 0);
                const bytes = integer(s.bytes, `${field}.bytes`, 1);
                if (allocationOffset + bytes > allocationSize)
                    fail(field, `maps [${allocationOffset}, ${allocationOffset}+${bytes}) of a ${allocationSize}-byte allocation`);
                total += bytes;
                if (total > Number.MAX_SAFE_INTEGER)
                    fail('segments', 'add up to more than the largest safe integer');
                if (handleType === 'fabric')
                    return Object.freeze({ allocationSize, allocationOffset, bytes, fabric: handle(s.fabric, `${field}.fabric`) });
                if (s.fabric !== undefined)
                    fail(`${field}.fabric`, 'must be absent: POSIX descriptors travel beside the descriptor');
                return Object.freeze({ allocationSize, allocationOffset, bytes });
            });
            if (offset + size > total)
                fail('size', `with offset (${offset}+${size}) exceeds the ${total} bytes the segments map`);
            return Object.freeze({ ...base, kind, handleType, segments: Object.freeze(segments), offset });
        }
    }
}
/** Checks an event descriptor received from elsewhere (see validateMemoryDescriptor). */
function validateEventDescriptor(value) {
    const { fields, id, exporter, device } = header(value, exports.eventDescriptorFormat, 'a shared-event descriptor');
    return Object.freeze({ format: exports.eventDescriptorFormat, version: exports.descriptorVersion, id, exporter, device, handle: handle(fields.handle, 'handle') });
}
//# sourceMappingURL=descriptor.js.map