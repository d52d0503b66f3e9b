"use strict";
// Argument checks made before the native layer is called, naming the parameter
// the way the caller wrote it.
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkInteger = checkInteger;
exports.checkSize = checkSize;
exports.checkNumber = checkNumber;
exports.checkArray = checkArray;
exports.checkObject = checkObject;
exports.checkTimeout = checkTimeout;
exports.checkString = checkString;
exports.checkCString = checkCString;
exports.checkBoolean = checkBoolean;
exports.checkInstance = checkInstance;
exports.checkEnum = checkEnum;
exports.checkFlags = checkFlags;
exports.nameOfValue = nameOfValue;
exports.flagNames = flagNames;
/** An integer in [min, max]. */
function checkInteger(value, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
        throw new TypeError(`${name} must be an integer, got ${describe(value)}`);
    }
    if (value < min || value > max)
        throw new RangeError(`${name} must be between ${min} and ${max}, got ${value}`);
    return value;
}
/** A byte count or offset: a non-negative safe integer, or a bigint that fits one. */
function checkSize(value, name) {
    if (typeof value === 'bigint') {
        if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
            throw new RangeError(`${name} must be between 0 and ${Number.MAX_SAFE_INTEGER}, got ${value}`);
        }
        return Number(value);
    }
    return checkInteger(value, name, 0);
}
/** A finite number in [min, max] (a weight, a duration). */
function checkNumber(value, name, min = -Number.MAX_VALUE, max = Number.MAX_VALUE) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new TypeError(`${name} must be a finite number, got ${describe(value)}`);
    }
    if (value < min || value > max)
        throw new RangeError(`${name} must be between ${min} and ${max}, got ${value}`);
    return value;
}
/** An array (a list parameter); its elements are checked by the caller. */
function checkArray(value, name) {
    if (!Array.isArray(value))
        throw new TypeError(`${name} must be an array, got ${describe(value)}`);
    return value;
}
/** An object (or function) used for its identity, e.g. a resource a node reads. */
function checkObject(value, name) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
        throw new TypeError(`${name} must be an object, got ${describe(value)}`);
    }
    return value;
}
/**
 * A timeout in milliseconds: a non-negative number (fractions round up) or
 * Infinity; undefined means Infinity. Returns -1 for "no timeout", as the
 * native layer takes it.
 */
function checkTimeout(value, name) {
    if (value === undefined || value === Infinity)
        return -1;
    if (typeof value !== 'number' || Number.isNaN(value)) {
        throw new TypeError(`${name} must be a number of milliseconds or Infinity, got ${describe(value)}`);
    }
    if (value < 0 || value > 0x7fffffff)
        throw new RangeError(`${name} must be between 0 and ${0x7fffffff} ms or Infinity, got ${value}`);
    return Math.ceil(value);
}
function checkString(value, name) {
    if (typeof value !== 'string')
        throw new TypeError(`${name} must be a string, got ${describe(value)}`);
    return value;
}
/** A string C reads up to its first NUL: one with an embedded NUL would be cut short. */
function checkCString(value, name) {
    checkString(value, name);
    if (value.includes('\0'))
        throw new RangeError(`${name} must not contain NUL characters`);
    return value;
}
function checkBoolean(value, name) {
    if (typeof value !== 'boolean')
        throw new TypeError(`${name} must be a boolean, got ${describe(value)}`);
    return value;
}
/** An instance of a class (a handle parameter). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
function checkInstance(value, type, name) {
    if (!(value instanceof type))
        throw new TypeError(`${name} must be a ${type.name}, got ${describe(value)}`);
    return value;
}
/** A member of a generated enum map, by name or by the driver's number. */
function checkEnum(value, map, name) {
    if (typeof value === 'string') {
        if (Object.prototype.hasOwnProperty.call(map, value))
            return map[value];
        throw new RangeError(`${name} must be one of ${Object.keys(map).join(', ')}; got '${value}'`);
    }
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0x7fffffff)
        return value;
    throw new TypeError(`${name} must be a name of ${Object.keys(map).slice(0, 3).join(', ')}, ... or the driver's number, got ${describe(value)}`);
}
/** Flags given as a list of names, a single name, or the driver's number. */
function checkFlags(value, map, name) {
    if (Array.isArray(value))
        return value.reduce((flags, v) => flags | checkEnum(v, map, name), 0);
    return checkEnum(value, map, name);
}
/** The name of an enum map's value, or undefined for a value the map lacks. */
function nameOfValue(map, value) {
    for (const key in map)
        if (map[key] === value)
            return key;
    return undefined;
}
/** The names of the flags set in a value (the zero-valued name when none are). */
function flagNames(value, map) {
    const names = Object.entries(map).filter(([, bit]) => bit !== 0 && (value & bit) === bit).map(([n]) => n);
    return names;
}
function describe(value) {
    if (value === null)
        return 'null';
    if (typeof value === 'string')
        return `'${value.length > 40 ? value.slice(0, 40) + '…' : value}'`;
    if (typeof value === 'object' || typeof value === 'function')
        return value.constructor?.name ?? typeof value;
    return String(value);
}
//# sourceMappingURL=validate.js.map