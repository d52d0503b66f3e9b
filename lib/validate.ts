// Argument checks made before the native layer is called, naming the parameter
// the way the caller wrote it.

/**
 * Defaults of the hot calls' optional options objects and argument lists: one
 * shared frozen value each, where `= {}` and `= []` made a new one per call.
 */
export const noOptions: Readonly<Record<string, never>> = Object.freeze({});
export const noItems: readonly never[] = Object.freeze([]);

/** An integer in [min, max]. */
export function checkInteger(value: unknown, name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be an integer, got ${describeValue(value)}`);
  }
  if (value < min || value > max) throw new RangeError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/**
 * A byte count or offset within memory the library holds (a copy's offset, a
 * fill's count, a managed range): a non-negative safe integer, or a bigint
 * that fits one, as a number. No memory is 2^53 bytes long, so a larger value
 * is out of range anyway: a RangeError here says so before the driver is asked.
 */
export function checkSize(value: unknown, name: string): number {
  if (typeof value === 'bigint') {
    if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new RangeError(`${name} must be between 0 and ${Number.MAX_SAFE_INTEGER}, got ${value}`);
    }
    return Number(value);
  }
  return checkInteger(value, name, 0);
}

/** 2^64 - 1 (ULONG_MAX, ~0ULL): what the driver reads as "no limit" in a 64-bit size. */
export const unlimitedSize = 0xffff_ffff_ffff_ffffn;

/**
 * A 64-bit size the driver takes as it is, with no arithmetic here (an
 * allocation's size, a pool's limit, an alignment): a non-negative safe
 * integer, or a bigint up to 2^64 - 1, returned unchanged so that the driver
 * sees it exactly (the native layer reads both kinds).
 */
export function checkDriverSize(value: unknown, name: string): number | bigint {
  if (typeof value === 'bigint') {
    if (value < 0n || value > unlimitedSize) throw new RangeError(`${name} must be between 0 and 2^64 - 1, got ${value}`);
    return value;
  }
  return checkInteger(value, name, 0);
}

/** checkDriverSize as a bigint (a pool attribute, which the native layer takes as one). */
export function checkSize64(value: unknown, name: string): bigint {
  return BigInt(checkDriverSize(value, name));
}

/** A finite number in [min, max] (a weight, a duration). */
export function checkNumber(value: unknown, name: string, min = -Number.MAX_VALUE, max = Number.MAX_VALUE): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new TypeError(`${name} must be a finite number, got ${describeValue(value)}`);
  }
  if (value < min || value > max) throw new RangeError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** An array (a list parameter); its elements are checked by the caller. */
export function checkArray<T = unknown>(value: unknown, name: string): readonly T[] {
  if (!Array.isArray(value)) throw new TypeError(`${name} must be an array, got ${describeValue(value)}`);
  return value as readonly T[];
}

/** A callback. */
export function checkFunction<F extends (...args: never[]) => unknown>(value: unknown, name: string): F {
  if (typeof value !== 'function') throw new TypeError(`${name} must be a function, got ${describeValue(value)}`);
  return value as F;
}

/** An object (or function) used for its identity, e.g. a resource a node reads. */
export function checkObject(value: unknown, name: string): object {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    throw new TypeError(`${name} must be an object, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * A timeout in milliseconds: a non-negative number (fractions round up) or
 * Infinity; undefined means Infinity. Returns -1 for "no timeout", as the
 * native layer takes it.
 */
export function checkTimeout(value: unknown, name: string): number {
  if (value === undefined || value === Infinity) return -1;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`${name} must be a number of milliseconds or Infinity, got ${describeValue(value)}`);
  }
  if (value < 0 || value > 0x7fffffff) throw new RangeError(`${name} must be between 0 and ${0x7fffffff} ms or Infinity, got ${value}`);
  return Math.ceil(value);
}

export function checkString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describeValue(value)}`);
  return value;
}

/** A string C reads up to its first NUL: one with an embedded NUL would be cut short. */
export function checkCString(value: unknown, name: string): string {
  checkString(value, name);
  if ((value as string).includes('\0')) throw new RangeError(`${name} must not contain NUL characters`);
  return value as string;
}

export function checkBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${describeValue(value)}`);
  return value;
}

/** An optional boolean (an options flag): undefined is false. */
export function checkFlag(value: unknown, name: string): boolean {
  return value === undefined ? false : checkBoolean(value, name);
}

/** A typed array class or DataView, to view bytes as (Float32Array, ...). */
export function checkViewType(value: unknown, name: string): void {
  const views: unknown[] = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array,
    Float64Array, BigInt64Array, BigUint64Array, DataView];
  if (!views.some((v) => value === v || (typeof value === 'function' && value.prototype instanceof (v as typeof DataView)))) {
    throw new TypeError(`${name} must be a typed array class (Uint8Array, Float32Array, ...) or DataView, got ${describeValue(value)}`);
  }
}

/** An instance of a class (a handle parameter). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function checkInstance<T>(value: unknown, type: Function & { prototype: T }, name: string): T {
  if (!(value instanceof type)) throw new TypeError(`${name} must be a ${type.name}, got ${describeValue(value)}`);
  return value as T;
}

/** A member of a generated enum map, by name or by the driver's number. */
export function checkEnum<M extends Record<string, number>>(value: unknown, map: M, name: string): number {
  if (typeof value === 'string') {
    if (Object.prototype.hasOwnProperty.call(map, value)) return map[value];
    throw new RangeError(`${name} must be one of ${Object.keys(map).join(', ')}; got '${value}'`);
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 0x7fffffff) return value;
  throw new TypeError(`${name} must be a name of ${Object.keys(map).slice(0, 3).join(', ')}, ... or the driver's number, got ${describeValue(value)}`);
}

/** Flags given as a list of names, a single name, or the driver's number. */
export function checkFlags<M extends Record<string, number>>(value: unknown, map: M, name: string): number {
  if (Array.isArray(value)) return value.reduce((flags: number, v) => flags | checkEnum(v, map, name), 0);
  return checkEnum(value, map, name);
}

/** The name of an enum map's value, or undefined for a value the map lacks. */
export function nameOfValue<M extends Record<string, number>>(map: M, value: number): (keyof M & string) | undefined {
  for (const key in map) if (map[key] === value) return key;
  return undefined;
}

/** The names of the flags set in a value (the zero-valued name when none are). */
export function flagNames<M extends Record<string, number>>(value: number, map: M): Array<keyof M & string> {
  const names = Object.entries(map).filter(([, bit]) => bit !== 0 && (value & bit) === bit).map(([n]) => n);
  return names as Array<keyof M & string>;
}

/** A value as error messages show it, without converting it (no valueOf, toString or Symbol.toPrimitive runs). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value.length > 40 ? value.slice(0, 40) + '…' : value}'`;
  if (typeof value === 'object' || typeof value === 'function') return (value as object).constructor?.name ?? typeof value;
  return String(value);
}

/**
 * Rejects a key of an options object that the call does not read, so a
 * misspelled or misplaced option is not ignored in silence. `allowed` lists
 * the call's keys; `elsewhere` says, for a key that belongs in another
 * argument, where it goes. A for-in over the caller's few keys: cheap enough
 * for calls made per node or per copy.
 */
export function checkOptions(options: object, name: string, call: string, allowed: readonly string[],
  elsewhere?: Readonly<Record<string, string>>): void {
  for (const key in options) {
    if (allowed.includes(key)) continue;
    const hint = elsewhere !== undefined && Object.prototype.hasOwnProperty.call(elsewhere, key) ? elsewhere[key]
      : allowed.length === 0 ? 'it takes none' : `its options are ${allowed.join(', ')}`;
    throw new TypeError(`${name}.${key} is not an option of ${call}; ${hint}`);
  }
}
