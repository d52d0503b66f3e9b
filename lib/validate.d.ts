/** An integer in [min, max]. */
export declare function checkInteger(value: unknown, name: string, min?: number, max?: number): number;
/** A byte count or offset: a non-negative safe integer, or a bigint that fits one. */
export declare function checkSize(value: unknown, name: string): number;
/** A finite number in [min, max] (a weight, a duration). */
export declare function checkNumber(value: unknown, name: string, min?: number, max?: number): number;
/** An array (a list parameter); its elements are checked by the caller. */
export declare function checkArray<T = unknown>(value: unknown, name: string): readonly T[];
/** An object (or function) used for its identity, e.g. a resource a node reads. */
export declare function checkObject(value: unknown, name: string): object;
/**
 * A timeout in milliseconds: a non-negative number (fractions round up) or
 * Infinity; undefined means Infinity. Returns -1 for "no timeout", as the
 * native layer takes it.
 */
export declare function checkTimeout(value: unknown, name: string): number;
export declare function checkString(value: unknown, name: string): string;
/** A string C reads up to its first NUL: one with an embedded NUL would be cut short. */
export declare function checkCString(value: unknown, name: string): string;
export declare function checkBoolean(value: unknown, name: string): boolean;
/** An instance of a class (a handle parameter). */
export declare function checkInstance<T>(value: unknown, type: Function & {
    prototype: T;
}, name: string): T;
/** A member of a generated enum map, by name or by the driver's number. */
export declare function checkEnum<M extends Record<string, number>>(value: unknown, map: M, name: string): number;
/** Flags given as a list of names, a single name, or the driver's number. */
export declare function checkFlags<M extends Record<string, number>>(value: unknown, map: M, name: string): number;
/** The name of an enum map's value, or undefined for a value the map lacks. */
export declare function nameOfValue<M extends Record<string, number>>(map: M, value: number): (keyof M & string) | undefined;
/** The names of the flags set in a value (the zero-valued name when none are). */
export declare function flagNames<M extends Record<string, number>>(value: number, map: M): Array<keyof M & string>;
