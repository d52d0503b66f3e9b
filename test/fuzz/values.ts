// What the fuzzer passes: for each kind of parameter, values a correct call may
// pass and values the library must refuse. A call with any refused value must
// throw; one with only accepted values may succeed or throw a driver error.
import fc from 'fast-check';
import { coercionTrap, detachedView, hostileLabel, HostileMaker, publicHostileBytes, sharedBytes, shrunkView } from './hostile';
import type { World } from './world';

/** valid: the library must accept it; invalid: it must refuse it; unknown: no claim (lying duck types). */
export type Validity = 'valid' | 'invalid' | 'unknown';

export interface Arg {
  value: unknown;
  validity: Validity;
}

export type Param =
  /** A byte count or offset: safe non-negative integers (numbers or bigints); validMax bounds the valid ones generated. */
  | { kind: 'size'; validMax?: number }
  /** A size the driver takes as 64 bits (a pool's limit, a trim): the same, and any bigint up to 2^64 - 1. */
  | { kind: 'driverSize'; validMax?: number }
  /** A size to allocate: small, or absurd (fails fast with out-of-memory). */
  | { kind: 'alloc'; small?: number }
  /** An integer in [min, max]; valid ones are generated in [min, validMax ?? max]. */
  | { kind: 'int'; min: number; max: number; validMax?: number }
  /** Any number (NaN and infinities too). */
  | { kind: 'number' }
  /** A finite number. */
  | { kind: 'finite' }
  | { kind: 'bool' }
  /** A string; valid ones from the list when given. */
  | { kind: 'string'; valid?: readonly string[] }
  /** A name from names, or (numbers) the driver's number for it. */
  | { kind: 'enum'; names: readonly string[]; numbers?: readonly number[] }
  /** A live handle of one of these fixture kinds. */
  | { kind: 'handle'; of: readonly string[]; disposedOk?: boolean }
  /**
   * The object a method is called on: a disposed one (unless disposedOk) must
   * be refused; another class's handle or junk is unclaimed (a method called on
   * it through the prototype may well do that object's work).
   */
  | { kind: 'self'; of: readonly string[]; disposedOk?: boolean }
  /** A memory handle or a JavaScript buffer. */
  | { kind: 'bytes' }
  | { kind: 'fn' }
  /** A DeviceLike: a Device, an ordinal or undefined. */
  | { kind: 'device' }
  /** A memory Location: a device, 'host', { hostNuma } or 'hostNumaCurrent'. */
  | { kind: 'location' }
  /** An options object; each field may be left out. */
  | { kind: 'options'; fields: Record<string, Param>; required?: boolean }
  | { kind: 'array'; of: Param; maxLength?: number; minLength?: number }
  /** The parameter may be left undefined. */
  | { kind: 'optional'; of: Param }
  /** An options field that must be given. */
  | { kind: 'required'; of: Param }
  /** Explicit lists. */
  | { kind: 'values'; valid: readonly unknown[]; invalid?: readonly unknown[] }
  /** Explicit lists of values made anew for each call (a call may consume its argument). */
  | { kind: 'made'; valid: ReadonlyArray<() => unknown>; invalid?: ReadonlyArray<() => unknown> }
  /** Values about which nothing is claimed (the call may do anything but crash). */
  | { kind: 'any'; values: readonly unknown[] };

// Helpers for target tables.
export const size = (validMax = 4096): Param => ({ kind: 'size', validMax });
export const driverSize = (validMax = 4096): Param => ({ kind: 'driverSize', validMax });
export const alloc = (small = 65536): Param => ({ kind: 'alloc', small });
export const int = (min: number, max: number, validMax?: number): Param => ({ kind: 'int', min, max, validMax });
export const bool: Param = { kind: 'bool' };
export const fn: Param = { kind: 'fn' };
export const device: Param = { kind: 'device' };
export const location: Param = { kind: 'location' };
export const bytes: Param = { kind: 'bytes' };
export const str = (valid?: readonly string[]): Param => ({ kind: 'string', valid });
export const handle = (...of: string[]): Param => ({ kind: 'handle', of });
export const handleOrDisposed = (...of: string[]): Param => ({ kind: 'handle', of, disposedOk: true });
export const self = (...of: string[]): Param => ({ kind: 'self', of });
export const selfOrDisposed = (...of: string[]): Param => ({ kind: 'self', of, disposedOk: true });
export const names = (list: readonly string[], numbers?: readonly number[]): Param => ({ kind: 'enum', names: list, numbers });
export const options = (fields: Record<string, Param>): Param => ({ kind: 'options', fields });
export const requiredOptions = (fields: Record<string, Param>): Param => ({ kind: 'options', fields, required: true });
export const array = (of: Param, maxLength = 3, minLength = 0): Param => ({ kind: 'array', of, maxLength, minLength });
export const optional = (of: Param): Param => ({ kind: 'optional', of });
export const required = (of: Param): Param => ({ kind: 'required', of });
export const values = (valid: readonly unknown[], invalid: readonly unknown[] = []): Param => ({ kind: 'values', valid, invalid });
export const made = (valid: ReadonlyArray<() => unknown>, invalid: ReadonlyArray<() => unknown> = []): Param => ({ kind: 'made', valid, invalid });
export const anything = (list: readonly unknown[]): Param => ({ kind: 'any', values: list });

/**
 * Memory kinds: the handles the library takes as memory. A GraphAllocation is
 * left out: its addresses have memory behind them only while its graph runs, so
 * a copy into it outside the graph would fault on the GPU (the fuzzer uses it
 * where graphs take it: free nodes).
 */
export const memoryKinds = ['deviceBuffer', 'smallBuffer', 'pitchedBuffer', 'managedBuffer', 'asyncBuffer', 'hostBuffer',
  'registeredBuffer', 'mapping', 'growable', 'sharedMemory'] as const;
export const memory: Param = { kind: 'handle', of: memoryKinds };

const NONE = Symbol('none');
type Maybe = fc.Arbitrary<unknown> | typeof NONE;

// Numbers no size, count or offset may be.
const badNumbers = [-1, -4096, -0.5, 0.5, 1.5, 4095.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 64, Number.MAX_VALUE, -(2 ** 53)];
const badBigints = [-1n, -(2n ** 63n), 2n ** 53n, 2n ** 64n, 2n ** 64n - 8n];
// Bigints a 64-bit driver size may be, and those it may not.
const largeDriverSizes = [2n ** 53n, 2n ** 64n - 8n, 2n ** 64n - 1n];
const badDriverBigints = [-1n, -(2n ** 63n), 2n ** 64n];
// Things that are not numbers, strings, booleans or handles.
const junk = (): unknown[] => [undefined, null, '', '7', 'x', '0x10', true, false, Symbol('s'), {}, [], [1], { valueOf: () => 1 },
  () => 7, new Date(0), /re/, coercionTrap()];

function pick(list: readonly unknown[]): Maybe {
  return list.length === 0 ? NONE : fc.constantFrom(...list);
}

// A value made when drawn: a new one for each call.
function pickMade(makers: ReadonlyArray<() => unknown>): Maybe {
  return makers.length === 0 ? NONE : fc.constantFrom(...makers).map((make) => make());
}

// Hostile values made around the call's victims (test/fuzz/hostile.ts).
function pickHostile(makers: HostileMaker[], world: World): Maybe {
  return makers.length === 0 ? NONE : fc.constantFrom(...makers).map((make) => make(world.victims()));
}

function oneof(...arbs: Maybe[]): Maybe {
  const present = arbs.filter((a): a is fc.Arbitrary<unknown> => a !== NONE);
  return present.length === 0 ? NONE : present.length === 1 ? present[0] : fc.oneof(...present);
}

/** The values of a parameter the library must accept (NONE when none can be made here). */
export function validValues(p: Param, world: World): Maybe {
  switch (p.kind) {
    case 'size':
    case 'driverSize': {
      const max = p.validMax ?? 4096;
      const n = fc.oneof(fc.integer({ min: 0, max }), fc.constantFrom(0, 1, max));
      const sizes = fc.oneof({ weight: 4, arbitrary: n }, { weight: 1, arbitrary: n.map((x) => BigInt(x)) });
      return p.kind === 'size' ? sizes : fc.oneof({ weight: 5, arbitrary: sizes }, { weight: 1, arbitrary: fc.constantFrom(...largeDriverSizes) });
    }
    case 'alloc':
      return fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: p.small ?? 65536 }) },
        { weight: 1, arbitrary: fc.constantFrom(2 ** 50, Number.MAX_SAFE_INTEGER, BigInt(2 ** 50)) });
    case 'int': {
      const max = p.validMax ?? p.max;
      return fc.oneof(fc.integer({ min: p.min, max }), fc.constantFrom(p.min, max));
    }
    case 'number':
      return fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -0));
    case 'finite':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'bool':
      return fc.boolean();
    case 'string':
      return p.valid ? pick(p.valid) : fc.string({ maxLength: 40 });
    case 'enum':
      return oneof(pick(p.names), p.numbers ? pick(p.numbers) : NONE);
    case 'handle':
      return pick(p.of.flatMap((k) => world.live(k)));
    case 'self':
      return pick(p.of.flatMap((k) => world.live(k).concat(p.disposedOk ? world.disposed(k) : [])));
    case 'bytes':
      return oneof(pick(memoryKinds.flatMap((k) => world.live(k))),
        fc.integer({ min: 0, max: 64 }).map((n) => new Uint8Array(n)), fc.constantFrom(new ArrayBuffer(16), new Float64Array(4),
          new DataView(new ArrayBuffer(8)), Buffer.alloc(32), new Uint8Array(new ArrayBuffer(64), 8, 16)),
        pickMade([shrunkView, ...sharedBytes().map((b) => () => b)]));
    case 'fn':
      return fc.constant(() => undefined);
    case 'device':
      return oneof(fc.constant(undefined), world.deviceCount > 0 ? fc.integer({ min: 0, max: world.deviceCount - 1 }) : NONE,
        pick(world.live('device')));
    case 'location':
      return oneof(world.deviceCount > 0 ? fc.integer({ min: 0, max: world.deviceCount - 1 }) : NONE, pick(world.live('device')),
        fc.constantFrom('host', 'hostNumaCurrent', { hostNuma: 0 }));
    case 'options': {
      const fields = Object.entries(p.fields).map(([key, field]) => {
        const v = validValues(field.kind === 'required' ? field.of : field, world);
        return [key, field.kind === 'required', v] as const;
      });
      if (fields.some(([, req, v]) => req && v === NONE)) return NONE;
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [key, req, v] of fields) {
        if (v === NONE) continue;
        record[key] = v;
        if (req) requiredKeys.push(key);
      }
      const object = fc.record(record, { requiredKeys });
      return p.required || requiredKeys.length > 0 ? object : fc.oneof(fc.constant(undefined), object);
    }
    case 'array': {
      const element = validValues(p.of, world);
      if (element === NONE) return (p.minLength ?? 0) === 0 ? fc.constant([]) : NONE;
      return fc.array(element, { minLength: p.minLength ?? 0, maxLength: p.maxLength ?? 3 });
    }
    case 'optional':
      return oneof(fc.constant(undefined), validValues(p.of, world));
    case 'required':
      return validValues(p.of, world);
    case 'values':
      return pick(p.valid);
    case 'made':
      return pickMade(p.valid);
    case 'any':
      return NONE;
  }
}

/** Values the library must refuse (NONE when there are none). */
export function invalidValues(p: Param, world: World): Maybe {
  switch (p.kind) {
    case 'size':
    case 'alloc':
      return oneof(pick(badNumbers), pick(badBigints), pick(junk()));
    case 'driverSize':
      return oneof(pick(badNumbers), pick(badDriverBigints), pick(junk()));
    case 'int':
      return oneof(pick([p.min - 1, p.max + 1, p.min + 0.5, NaN, Infinity, -Infinity].filter((x) => !Number.isSafeInteger(x) ||
        x < p.min || x > p.max)), pick(junk()), pick([BigInt(p.min)]));
    case 'number':
    case 'finite':
      return oneof(pick(junk()), pick([1n]), p.kind === 'finite' ? pick([NaN, Infinity, -Infinity]) : NONE);
    case 'bool':
      return oneof(pick([0, 1, 'true', null, undefined, {}, 1n]));
    case 'string':
      return p.valid ? oneof(pick([...junk().filter((j) => typeof j !== 'string'), 0, 1n]), pick(['', 'nope', p.valid[0] + ' ']))
        : pick([...junk().filter((j) => typeof j !== 'string'), 0, 7, 1n]);
    case 'enum':
      return pick(['nope', '', 'toString', '__proto__', 'constructor', -1, 0.5, NaN, 2 ** 32, null, undefined, {}, 1n, true]);
    case 'handle':
      return oneof(p.disposedOk ? NONE : pick(p.of.flatMap((k) => world.disposed(k))), pick(world.foreign(p.of)),
        pick([...junk(), 0, 1, 1n, new Uint8Array(8), { slot: 1 }, { slot: 1, size: 8 }, Object.create(null)]));
    case 'self':
      return p.disposedOk ? NONE : pick(p.of.flatMap((k) => world.disposed(k)));
    case 'bytes':
      return oneof(pick(world.foreign(memoryKinds)), pick(memoryKinds.flatMap((k) => world.disposed(k))),
        pick([undefined, null, 0, 'bytes', 1n, [1, 2], { length: 4 }, { slot: 7, size: 4 }, Symbol('b')]));
    case 'fn':
      return pick([undefined, null, 0, 'fn', {}, [], 1n]);
    case 'device':
      return oneof(pick([-1, 0.5, NaN, null, 'gpu', {}, { ordinal: 0 }, 1n, true, world.deviceCount, 2 ** 31])
        , pick(world.foreign(['device'])));
    case 'location':
      return pick([-1, 0.5, null, undefined, 'device', { hostNuma: -1 }, { hostNuma: 0.5 }, {}, 1n, world.deviceCount, 'Host']);
    case 'options': {
      const bad = Object.entries(p.fields).map(([key, field]) => {
        const inner = field.kind === 'required' ? field.of : field;
        const refused = invalidValues(inner, world);
        // An options field left undefined (or null, by the ?? convention) takes its default: not a refused value.
        const invalid = refused === NONE ? NONE : refused.filter((v) => v !== undefined && v !== null);
        const missing = field.kind === 'required' ? fc.constant(Symbol.for('omit')) : NONE;
        return [key, oneof(invalid, missing)] as const;
      }).filter(([, v]) => v !== NONE) as Array<readonly [string, fc.Arbitrary<unknown>]>;
      const base = validValues({ ...p, required: true }, world);
      const broken = bad.length === 0 || base === NONE ? NONE : fc.tuple(base, fc.constantFrom(...bad.keys()))
        .chain(([object, i]) => bad[i][1].map((value) => {
          const copy: Record<string, unknown> = { ...(object as Record<string, unknown>) };
          if (value === Symbol.for('omit')) delete copy[bad[i][0]];
          else copy[bad[i][0]] = value;
          return copy;
        }));
      return oneof(pick([null, 5, 'options', true, 1n, Symbol('o')]), p.required ? pick([undefined]) : NONE, broken);
    }
    case 'array': {
      const element = invalidValues(p.of, world);
      const good = validValues(p.of, world);
      const withBad = element === NONE ? NONE : fc.tuple(good === NONE ? fc.constant([]) : fc.array(good, { maxLength: 2 }), element)
        .map(([list, bad]) => [...(list as unknown[]), bad]);
      const tooShort = (p.minLength ?? 0) > 0 ? fc.constant([]) : NONE;
      return oneof(pick([null, undefined, 5, 'list', {}, { length: 1, 0: 0 }, new Uint8Array(2)]), withBad, tooShort);
    }
    case 'optional': {
      const refused = invalidValues(p.of, world);
      return refused === NONE ? NONE : refused.filter((v) => v !== undefined);
    }
    case 'required':
      return oneof(pick([undefined]), invalidValues(p.of, world));
    case 'values':
      return p.invalid ? pick(p.invalid) : NONE;
    case 'made':
      return p.invalid ? pickMade(p.invalid) : NONE;
    case 'any':
      return NONE;
  }
}

/** Values with no claim on them. */
export function unknownValues(p: Param, world: World): Maybe {
  if (p.kind === 'any') return pick(p.values);
  // Other objects as `this`: what a prototype method does with them is their business (the native layer checks its own).
  if (p.kind === 'self') return oneof(pick(world.foreign(p.of)), pick([undefined, null, 0, 'self', {}, [], 1n, { slot: 1 }, { slot: null }, Object.create(null)]));
  if (p.kind === 'handle' || p.kind === 'bytes') {
    // Duck-typed imposters carrying a real handle's slot with a made-up size.
    const of = p.kind === 'bytes' ? memoryKinds : p.of;
    const real = of.flatMap((k) => world.live(k)) as Array<{ slot?: unknown }>;
    const lies = real.filter((r) => typeof r.slot === 'number').map((r) => ({ slot: r.slot, size: 1 << 20 }));
    // A detached view's length is 0: a copy of nothing from it is fine, one into it is out of range.
    return oneof(pick(lies), p.kind === 'bytes' ? oneof(pickMade([detachedView]), pickHostile(publicHostileBytes(world), world)) : NONE);
  }
  return NONE;
}

export { NONE };

/** The arbitrary of one argument: mostly valid, sometimes invalid or unclaimed. */
export function argument(p: Param, world: World): fc.Arbitrary<Arg> {
  const arbs: Array<{ weight: number; arbitrary: fc.Arbitrary<Arg> }> = [];
  const good = validValues(p, world);
  const bad = invalidValues(p, world);
  const odd = unknownValues(p, world);
  if (good !== NONE) arbs.push({ weight: 6, arbitrary: good.map((value) => ({ value, validity: 'valid' as const })) });
  if (bad !== NONE) arbs.push({ weight: 3, arbitrary: bad.map((value) => ({ value, validity: 'invalid' as const })) });
  if (odd !== NONE) arbs.push({ weight: 1, arbitrary: odd.map((value) => ({ value, validity: 'unknown' as const })) });
  if (arbs.length === 0) return fc.constant({ value: undefined, validity: 'unknown' as const });
  return fc.oneof(...arbs);
}

/** A short description of a value for reports. */
export function describe(value: unknown, depth = 0): string {
  const label = hostileLabel(value);
  if (label) return `hostile(${label})`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value.length > 30 ? value.slice(0, 30) + '…' : value);
  if (typeof value === 'symbol' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'function') return 'function';
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.byteLength} bytes)`;
  if (value instanceof ArrayBuffer) return `ArrayBuffer(${value.byteLength})`;
  if (value instanceof SharedArrayBuffer) return `SharedArrayBuffer(${value.byteLength})`;
  const name = (value as object).constructor?.name;
  if (name && name !== 'Object' && name !== 'Array') {
    const disposed = (value as { disposed?: unknown }).disposed;
    return `${name}${disposed === true ? '(disposed)' : ''}`;
  }
  if (depth > 1) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) return `[${value.map((v) => describe(v, depth + 1)).join(', ')}]`;
  return `{${Object.entries(value as object).map(([k, v]) => `${k}: ${describe(v, depth + 1)}`).join(', ')}}`;
}
