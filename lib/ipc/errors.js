"use strict";
// Why memory or an event cannot be shared, and what is wrong with a descriptor
// that arrived from another process.
Object.defineProperty(exports, "__esModule", { value: true });
exports.InvalidDescriptorError = exports.SharingUnsupportedError = void 0;
/**
 * Memory (or an event) cannot be shared the way it was asked to be. `reason`
 * says why in a word; `remedy` says what to do instead.
 */
class SharingUnsupportedError extends Error {
    reason;
    /** What to do instead, e.g. which allocation or export path fits. */
    remedy;
    constructor(reason, message, remedy) {
        super(`${message}. ${remedy}`);
        this.name = 'SharingUnsupportedError';
        this.reason = reason;
        this.remedy = remedy;
    }
}
exports.SharingUnsupportedError = SharingUnsupportedError;
/**
 * A descriptor to open is not one this library made (or not of this version):
 * a field is missing, of the wrong type or out of range. Descriptors arrive from
 * other processes and are checked as untrusted input before anything reaches
 * the driver.
 */
class InvalidDescriptorError extends Error {
    /** The offending field's path, e.g. `segments[1].bytes` ('' for the whole value). */
    field;
    constructor(field, problem) {
        super(`invalid shared-memory descriptor: ${field ? `${field} ` : ''}${problem}`);
        this.name = 'InvalidDescriptorError';
        this.field = field;
    }
}
exports.InvalidDescriptorError = InvalidDescriptorError;
//# sourceMappingURL=errors.js.map