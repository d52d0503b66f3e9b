// The addon itself, called past the TypeScript layer: every entry the tables
// declare (native/**/entries.txt, read through scripts/gen-boundary.js), with
// argument lists drawn mostly to fit each argument's declared kind (slots of
// live handles of the class a Slot<Class> names, of other classes and of
// disposed ones; numbers with their edge values; bigints, strings, bytes
// including detached, shared and shrunk ones; records and lists shaped as the
// table's types say) so that calls get past their first checks, and otherwise
// from a pool of edge values and of hostile ones made for each call
// (test/fuzz/hostile.ts: getters that dispose or detach what the same call
// names). The native layer must refuse what it cannot use (its own bounds and
// type checks), never crash, and throw only the library's errors. Nothing is
// claimed about the arguments beyond that.
import fc from 'fast-check';
import * as fs from 'fs';
import { coercionTrap, detachedView, HostileMaker, nativeHostileMakers, sharedBytes, shrunkView, strikers, victimBytes,
  victimSlots } from './hostile';
import type { Target } from './targets';
import type { Arg } from './values';
import type { World } from './world';

type Addon = Record<string, unknown>;

/** The tables as scripts/gen-boundary.js reads them. */
interface TableArg {
  name: string;
  optional: boolean;
  kind: string;
}
interface TableEntry {
  kind: 'plain' | 'hot' | 'value';
  name: string;
  args: TableArg[];
}
interface Tables {
  handles: Array<{ name: string }>;
  types: Array<{ name: string; body: string }>;
  entries: TableEntry[];
}
const tables = (): Tables => (require('../../scripts/gen-boundary.js') as { readEntries(): Tables }).readEntries();

// Entries left out, and why.
const excluded: Record<string, string> = {
  setErrorFactory: 'replaces how every error is built',
  markMainThread: 'process set-up',
  markProcessExiting: 'from then on every release is skipped, as at exit',
  setCounting: 'the run counts driver calls',
  resetCounters: 'the run counts driver calls',
  streamWaitValue: 'a wait whose value never comes blocks the stream for good',
  streamBatchMemoryOps: 'a wait whose value never comes blocks the stream for good',
  graphDebugDotPrint: 'writes a file wherever its path argument says',
  graphNodeDestroy: 'destroys the fixtures; covered by the public targets',
  receivedFdTake: 'hands the descriptor to the caller, who would leak it',
  disposeHandle: 'disposes the fixtures by slot; covered by the disposable tests',
  checkpointLock: 'acts on whatever process a drawn pid names: a locked CUDA process stops until unlocked',
  checkpointCheckpoint: 'acts on whatever process a drawn pid names',
  checkpointRestore: 'acts on whatever process a drawn pid names',
  checkpointUnlock: 'acts on whatever process a drawn pid names',
};

// Sizes the pool holds that some allocations would honour slowly (pinning gigabytes):
// those calls get an absurd size instead, which fails at once.
const allocating = new Set(['allocate', 'allocatePitched', 'allocateManaged', 'allocateAsync', 'allocateHost', 'createAllocation',
  'reserveAddress', 'createPool', 'virtualMemoryResize']);

// Calls whose effects on the fixtures or the thread later calls must not see.
const stateful = new Set(['beginCapture', 'updateCaptureDependencies', 'exchangeCaptureMode', 'setDevicePool', 'setLocationPool',
  'setPrimaryContextFlags', 'contextSetLimit', 'contextSetFlags', 'contextPushCurrent']);

// Entries with a timeout in milliseconds, by its argument's place: one that waits for ever (-1) or
// for long (a slot number, say) is replaced by 0.
const waiting: Record<string, number> = { fdChannelReceive: 1, fdChannelServerAccept: 1, fdChannelSend: 3, fdChannelConnect: 2 };
const waitsLong = (t: unknown) => (typeof t === 'number' || typeof t === 'bigint') && (Number(t) === -1 || Number(t) > 100);

// Entries whose arguments adjust() rewrites (descriptors, socket paths), by the argument's place.
const descriptorArgs: Record<string, number> = { importAllocation: 0, importPool: 1 };
const socketEntries = new Set(['fdChannelListen', 'fdChannelConnect']);
// Entries that write a file at a path argument, by its place: a drawn name would
// make a file of that name in the working directory, overwriting one there, and
// a later target that takes the name for a missing file would find it.
const fileWriters: Record<string, number> = { driverLogDumpToFile: 1 };

/** Fails when a list above names no entry of the tables: a renamed entry must not fall out of a list unnoticed. */
function checkNames(entries: Map<string, TableEntry>): void {
  const lists: Record<string, Iterable<string>> = {
    excluded: Object.keys(excluded), allocating, stateful, waiting: Object.keys(waiting), descriptorArgs: Object.keys(descriptorArgs),
    socketEntries, fileWriters: Object.keys(fileWriters),
  };
  const stale = Object.entries(lists).flatMap(([list, names]) => [...names].filter((n) => !entries.has(n)).map((n) => `${list}: ${n}`));
  if (stale.length) throw new Error(`test/fuzz/native-targets.ts names entries no table declares: ${stale.join(', ')}`);
}

// The native handle class of a library object's slot: its class's name, or one of these.
const handleAliases: Record<string, string> = { Mapping: 'VirtualMemory', GrowableBuffer: 'VirtualMemory', SharedMemory: 'ImportedMemory',
  OwnedFd: 'ReceivedFd' };

function handleClassOf(object: unknown, handles: Set<string>): string | undefined {
  for (let p = Object.getPrototypeOf(object); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const name = handleAliases[p.constructor?.name] ?? p.constructor?.name;
    if (handles.has(name)) return name;
  }
  return undefined;
}

function launchConfig(values: number[]): Int32Array {
  const config = new Int32Array(14);
  config.set(values);
  return config;
}
const launchConfigs = (): Int32Array[] => [launchConfig([1, 1, 1, 1, 1, 1]), launchConfig([1, 1, 1, 1, 1, 1, 2 ** 31 - 1]),
  launchConfig([1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1]), launchConfig([-1, 1, 1, 1, 1, 1]), launchConfig([1, 1, 1, 2048, 1, 1]),
  launchConfig([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 5, 1]), new Int32Array(3), new Int32Array(0)];

/** The slots of the world's handles, by native class. */
interface Slots {
  live: Map<string, number[]>;
  disposed: number[];
  all: number[];
  /** Memory the library takes anywhere (a graph allocation's addresses have memory only while its graph runs). */
  memory: number[];
  /** Device addresses of live memory, and ones near them. */
  addresses: bigint[];
}

function worldSlots(world: World, handles: Set<string>): Slots {
  const live = new Map<string, number[]>();
  const add = (cls: string, slot: number) => live.set(cls, [...new Set([...(live.get(cls) ?? []), slot])]);
  const slotOf = (o: unknown) => (o as { slot?: unknown })?.slot;
  for (const o of world.allLive()) {
    const slot = slotOf(o);
    const cls = handleClassOf(o, handles);
    if (typeof slot === 'number' && cls) add(cls, slot);
  }
  const disposed = world.allDisposed().map(slotOf).filter((n): n is number => typeof n === 'number');
  const memory = ['deviceBuffer', 'smallBuffer', 'pitchedBuffer', 'managedBuffer', 'asyncBuffer', 'hostBuffer', 'registeredBuffer', 'mapping',
    'growable', 'sharedMemory'].flatMap((k) => world.live(k)).map(slotOf).filter((n): n is number => typeof n === 'number');
  const addresses: bigint[] = [];
  for (const m of memory) {
    try {
      const address = BigInt((world.addon as Addon & { memoryAddress(s: number): bigint }).memoryAddress(m));
      addresses.push(address, address + 8n, address - 8n, address + (1n << 20n));
    } catch {
      // no address here
    }
  }
  return { live, disposed, all: [...live.values()].flat(), memory, addresses };
}

/** The pool raw arguments are drawn from. */
function rawPool(slots: Slots, nullFd: number): unknown[] {
  const { memory } = slots;
  return [
    0, 1, -1, 7, 8, 16, 4096, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 32 - 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 0.5, -0.5, NaN, Infinity, -Infinity, -0,
    0n, 1n, 8n, -1n, 2n ** 31n, 2n ** 62n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n - 8n, 2n ** 64n, -(2n ** 63n),
    '', 'x', 'k', 'empty', 'a\0b', 'é', 'x'.repeat(10000), true, false, null, undefined, Symbol('raw'),
    {}, [], [0], [[0, 0, 3]], [[1, 0, 3]], [2n ** 64n - 8n], { type: 5 }, { type: 0 }, { dst: {}, width: 1 }, Object.create(null),
    new Uint8Array(0), new Uint8Array(8), new Uint8Array(64), new Uint8Array(65536), new Int32Array(3), new Float64Array(2), new ArrayBuffer(8),
    new DataView(new ArrayBuffer(8)), detachedView(), detachedView().buffer, Buffer.alloc(64), shrunkView(), ...sharedBytes(), coercionTrap(),
    ...launchConfigs(), () => undefined, () => 16, (n: number) => n * 4, () => 2 ** 60, () => 'x', nullFd,
    ...slots.all, ...slots.disposed, ...memory.map((m) => [0, m]), ...memory.map((m) => [2n ** 64n - 8n, m]), ...memory.map((m) => [8, m, 16, m]),
    ...memory.map((m) => [[m, 0, m, 0, 8]]), ...memory.map((m) => [[m, 2n ** 63n, 16]]),
  ];
}

/** Splits a type at a separator outside brackets (`=>` is no closing bracket). */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if ('(<[{'.includes(c)) depth++;
    else if (')>]}'.includes(c) && !(c === '>' && text[i - 1] === '=')) depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** Whether text is one bracketed group from its first character to its last. */
function enclosed(text: string, open: string, close: string): boolean {
  if (!text.startsWith(open) || !text.endsWith(close)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if ('(<[{'.includes(text[i])) depth++;
    else if (')>]}'.includes(text[i]) && !(text[i] === '>' && text[i - 1] === '=')) depth--;
    if (depth === 0 && i < text.length - 1) return false;
  }
  return true;
}

// Numbers by kind: mostly small and plausible (ordinals, flags, counts, offsets), and their edges.
const smallInts = fc.integer({ min: 0, max: 16 });
const intEdges = [-1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 0.5, -0.5, NaN, Infinity, -Infinity, -0, 2 ** 53];
const uintEdges = [-1, 2 ** 32 - 1, 2 ** 32, 2 ** 31, 0.5, NaN, Infinity, 2 ** 53, -0];
const sizeEdges = [0, 1, 8, 16, 4095, 4096, 4097, 65536, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -1, -4096, 0.5, NaN, Infinity, Number.MAX_VALUE];
const bigEdges = [0n, 1n, 8n, -1n, 2n ** 31n, 2n ** 32n, 2n ** 53n, 2n ** 62n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n - 8n, 2n ** 64n, -(2n ** 63n)];
const strings = ['', 'x', 'k', 'empty', 'counter', 'a\0b', 'é', 'x'.repeat(10000), '0', '/dev/null', 'nope'];

/**
 * Values that fit a declared kind (a table's argument kind, or a type of the
 * tables): mostly of its kind, often at its edges, and now and then a hostile
 * one of the call's victims (a victim's slot where a handle goes, a striker
 * where parameters go, victim bytes where bytes go).
 */
class KindValues {
  readonly #cache = new Map<string, fc.Arbitrary<unknown>>();
  readonly #types: Map<string, string>;
  readonly #handles: Set<string>;
  readonly #slots: Slots;
  readonly #world: World;
  readonly #strikers: HostileMaker[];
  readonly #pool: fc.Arbitrary<unknown>;

  constructor(world: World, boundary: Tables, slots: Slots, pool: unknown[]) {
    this.#world = world;
    this.#types = new Map(boundary.types.map((t) => [t.name, t.body]));
    this.#handles = new Set(boundary.handles.map((h) => h.name));
    this.#slots = slots;
    this.#strikers = strikers(world);
    this.#pool = fc.constantFrom(...pool);
  }

  #hostile(makers: HostileMaker[]): fc.Arbitrary<unknown> | undefined {
    const world = this.#world;
    return makers.length ? fc.constantFrom(...makers).map((make) => make(world.victims())) : undefined;
  }

  #weighted(...arbs: Array<[number, fc.Arbitrary<unknown> | undefined]>): fc.Arbitrary<unknown> {
    const present = arbs.filter((a): a is [number, fc.Arbitrary<unknown>] => a[1] !== undefined && a[0] > 0);
    if (present.length === 0) return this.#pool;
    return present.length === 1 ? present[0][1] : fc.oneof(...present.map(([weight, arbitrary]) => ({ weight, arbitrary })));
  }

  #constants(list: readonly unknown[]): fc.Arbitrary<unknown> | undefined {
    return list.length ? fc.constantFrom(...list) : undefined;
  }

  /** Slots for a Slot<classes>: live ones of those classes, the call's victims of them, other classes', disposed ones, non-slots. */
  #slotValues(classes: string[]): fc.Arbitrary<unknown> {
    for (const c of classes) if (!this.#handles.has(c)) throw new Error(`test/fuzz/native-targets.ts: no handle class ${c}`);
    const own = classes.flatMap((c) => this.#slots.live.get(c) ?? []);
    const others = this.#slots.all.filter((s) => !own.includes(s));
    const victims = this.#world.deviceCount === 0 ? [] : classes.map((c) => victimSlots[c]).filter((m): m is HostileMaker => !!m);
    return this.#weighted([8, this.#constants(own)], [2, this.#hostile(victims)], [1, this.#constants(others)],
      [1, this.#constants(this.#slots.disposed)], [1, fc.constantFrom(-1, 0.5, NaN, 2 ** 31, 2 ** 32 + 1, 1n, '1', null)]);
  }

  #bytes(): fc.Arbitrary<unknown> {
    return this.#weighted([4, fc.integer({ min: 0, max: 80 }).map((n) => new Uint8Array(n))],
      [2, fc.constantFrom(() => detachedView(), () => shrunkView(), ...sharedBytes().map((b) => () => b), () => Buffer.alloc(64),
        () => new Uint8Array(new ArrayBuffer(64), 8, 16), () => new Uint8Array(65536), () => new Float64Array(3), () => new DataView(new ArrayBuffer(8)),
        () => (typeof this.#world.code === 'string' ? Buffer.from(this.#world.code) : this.#world.code ?? new Uint8Array(4)))
        .map((make) => make())],
      [1, this.#hostile(victimBytes)]);
  }

  /** The arbitrary of a kind. */
  of(kind: string): fc.Arbitrary<unknown> {
    const key = kind.trim();
    let arbitrary = this.#cache.get(key);
    if (!arbitrary) {
      // A placeholder while this kind is being built: a type that names itself gets the pool.
      this.#cache.set(key, this.#pool);
      arbitrary = this.#build(key);
      this.#cache.set(key, arbitrary);
    }
    return arbitrary;
  }

  #build(kind: string): fc.Arbitrary<unknown> {
    if (enclosed(kind, '(', ')') && !/=>/.test(kind.slice(kind.lastIndexOf(')')))) return this.of(kind.slice(1, -1));
    const union = splitTop(kind, '|');
    if (union.length > 1) {
      // Handles by slot of several classes, or one of the other alternatives.
      const slotClasses = union.map((u) => /^Slot<(\w+)>$/.exec(u)?.[1]).filter((c): c is string => !!c);
      const rest = union.filter((u) => !/^Slot<\w+>$/.test(u));
      const arbs = [...(slotClasses.length ? [this.#slotValues(slotClasses)] : []), ...rest.map((u) => this.of(u))];
      return fc.oneof(...arbs);
    }
    if (/^\(.*\)\s*=>/.test(kind)) {
      return fc.constantFrom(() => undefined, () => 16, (n: number) => n * 4, () => 2 ** 60, () => 'x');
    }
    const intersection = splitTop(kind, '&');
    if (intersection.length > 1) {
      return fc.tuple(...intersection.map((i) => this.of(i))).map((parts) => Object.assign({}, ...parts.filter((p) => p && typeof p === 'object')));
    }
    let m: RegExpExecArray | null;
    if ((m = /^Slot<(\w+)>$/.exec(kind))) return this.#slotValues([m[1]]);
    if ((m = /^Array<(.+)>$/.exec(kind)) && enclosed(kind.slice(5), '<', '>')) return this.#list(m[1]);
    if (kind.endsWith('[]')) return this.#list(kind.slice(0, -2));
    if (enclosed(kind, '[', ']')) return this.#tuple(kind.slice(1, -1));
    if (enclosed(kind, '{', '}')) return this.#object(kind.slice(1, -1));
    if ((m = /^'([^']*)'$/.exec(kind))) return fc.oneof({ weight: 6, arbitrary: fc.constant(m[1]) }, { weight: 1, arbitrary: fc.constantFrom('', 'nope') });
    switch (kind) {
      case 'i32':
        return this.#weighted([6, smallInts], [2, fc.constantFrom(...intEdges)], [1, this.#constants(this.#slots.all)]);
      case 'u32':
        return this.#weighted([6, smallInts], [2, fc.constantFrom(...uintEdges)], [1, fc.integer({ min: 0, max: 2 ** 32 - 1 })]);
      case 'size':
        return this.#weighted([5, fc.integer({ min: 0, max: 4096 })], [3, fc.constantFrom(...sizeEdges)], [1, fc.constantFrom(0n, 8n, 2n ** 64n - 8n)]);
      case 'f64':
      case 'number':
        // Slots too: entries take memory, kernels and launches by bare numbers.
        return this.#weighted([3, this.#constants(this.#slots.all)], [2, this.#constants(this.#slots.memory)], [3, smallInts],
          [2, fc.constantFrom(...sizeEdges, ...intEdges)], [1, fc.double()], [1, this.#constants(this.#slots.disposed)]);
      case 'MemorySlot':
        return this.#weighted([8, this.#constants(this.#slots.memory)], [2, this.#hostile(this.#world.deviceCount === 0 ? [] : [victimSlots.DeviceBuffer, victimSlots.HostBuffer])],
          [2, this.#constants(this.#slots.all)], [1, this.#constants(this.#slots.disposed)], [1, fc.constantFrom(-1, 0.5, 2 ** 32, NaN, 1n)]);
      case 'u64':
        return this.#weighted([4, smallInts], [2, fc.constantFrom(...bigEdges)], [2, fc.constantFrom(...sizeEdges)], [1, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })]);
      case 'bigint':
        return this.#weighted([4, this.#constants(this.#slots.addresses)], [3, fc.constantFrom(...bigEdges)], [1, fc.constantFrom(0, 8, -1)]);
      case 'bool':
      case 'boolean':
        return this.#weighted([8, fc.boolean()], [1, fc.constantFrom(0, 1, 'true', undefined, null)]);
      case 'string':
        return this.#weighted([4, fc.constantFrom(...strings)], [2, fc.string({ maxLength: 24 })], [1, fc.constantFrom(0, undefined, Symbol('s'))]);
      case 'bytes':
      case 'Uint8Array':
      case 'ArrayBufferView':
      case 'Buffer':
        return this.#bytes();
      case 'ArrayBuffer':
        return this.#weighted([3, fc.integer({ min: 0, max: 256 }).map((n) => new ArrayBuffer(n))], [1, this.#bytes()],
          [1, fc.constantFrom(() => detachedView().buffer, () => shrunkView().buffer).map((make) => make())]);
      case 'Int32Array':
        return fc.constantFrom(...launchConfigs().map((c) => () => new Int32Array(c))).map((make) => make());
      // Tensor maps' shapes: up to one more entry than a rank allows, edges of each limit.
      case 'Float64Array':
        return fc.array(fc.constantFrom(0, 1, 16, 256, 2 ** 32, 2 ** 40, 2 ** 53, -1, 0.5, NaN), { maxLength: 6 }).map((v) => Float64Array.from(v));
      case 'Uint32Array':
        return fc.array(fc.constantFrom(0, 1, 8, 128, 256, 2 ** 32 - 1), { maxLength: 6 }).map((v) => Uint32Array.from(v));
      case 'Record<string, unknown>':
        return this.#params();
      case 'undefined':
      case 'void':
        return fc.constant(undefined);
      case 'null':
        return fc.constant(null);
      case 'unknown':
        return this.#pool;
    }
    const body = this.#types.get(kind);
    if (body !== undefined) return this.of(body);
    throw new Error(`test/fuzz/native-targets.ts: no values for the kind ${kind}`);
  }

  #list(element: string): fc.Arbitrary<unknown> {
    const strike = this.#hostile(this.#strikers);
    return this.#weighted([8, fc.array(this.of(element), { maxLength: 4 })], [1, strike],
      [1, fc.constantFrom(null, {}, { length: 2 }, new Uint8Array(2), 'list')]);
  }

  #tuple(body: string): fc.Arbitrary<unknown> {
    const elements = splitTop(body, ',').map((e) => e.replace(/^\w+\??:\s*/, ''));
    const whole = fc.tuple(...elements.map((e) => this.of(e)));
    // Short and long ones too.
    return this.#weighted([8, whole], [1, whole.map((t) => t.slice(0, -1))], [1, whole.map((t) => [...t, 0])]);
  }

  #object(body: string): fc.Arbitrary<unknown> {
    const fields = splitTop(body, ';').map((f) => /^(\w+)(\?)?:\s*(.+)$/.exec(f) ?? (() => { throw new Error(`a field: ${f}`); })());
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    const requiredKeys: string[] = [];
    for (const [, key, optional, kind] of fields) {
      record[key] = this.of(kind);
      if (!optional) requiredKeys.push(key);
    }
    const whole = fc.record(record, { requiredKeys });
    return this.#weighted([8, whole], [1, fc.record(record, { requiredKeys: [] })], [1, this.#hostile(this.#strikers)]);
  }

  /** Parameter objects read by key (graph node parameters): a node type and plausible fields. */
  #params(): fc.Arbitrary<unknown> {
    const value = this.#weighted([3, this.#constants(this.#slots.memory)], [2, this.#constants(this.#slots.all)], [3, fc.constantFrom(0, 1, 8, 16, 64)],
      [1, fc.constantFrom(...sizeEdges)], [1, this.#bytes()], [1, fc.constantFrom(() => undefined, [], true, 2n ** 64n - 8n)]);
    const keys = ['dst', 'dstOffset', 'dstPitch', 'dstHeight', 'src', 'srcOffset', 'srcPitch', 'srcHeight', 'width', 'height', 'depth',
      'bytes', 'target', 'offset', 'value', 'elementBytes', 'pitch', 'graph', 'move', 'event', 'allocation', 'callback', 'pool', 'ordinal',
      'kind', 'size', 'node', 'signal', 'semaphores'];
    const record: Record<string, fc.Arbitrary<unknown>> = { type: fc.oneof(fc.integer({ min: 0, max: 14 }), fc.constantFrom(-1, 2 ** 32, 'kernel')) };
    for (const key of keys) record[key] = value;
    return this.#weighted([8, fc.record(record, { requiredKeys: ['type'] })], [2, this.#hostile(this.#strikers)], [1, this.#pool]);
  }
}

export function nativeTargets(world: World): Target[] {
  const addon = world.addon as Addon | undefined;
  if (!addon) return [];
  const boundary = tables();
  const entries = new Map(boundary.entries.map((e) => [e.name, e]));
  checkNames(entries);
  // The addon's exports are the tables' entries, no more and no fewer.
  const unlisted = Object.keys(addon).filter((n) => !entries.has(n));
  const absent = [...entries.keys()].filter((n) => !(n in addon));
  if (unlisted.length || absent.length) {
    throw new Error(`the addon's exports and the tables differ: not in a table: ${unlisted.join(', ') || '-'}; not exported: ${absent.join(', ') || '-'}`);
  }
  const nullFd = fs.openSync('/dev/null', 'r');
  world.onDispose(() => fs.closeSync(nullFd));
  const slots = worldSlots(world, new Set(boundary.handles.map((h) => h.name)));
  const pool = rawPool(slots, nullFd);
  const kinds = new KindValues(world, boundary, slots, pool);
  // Now and then lists of pool values and hostile lists (test/fuzz/hostile.ts): one striker, in
  // about half of the places or in all of them (an object the call reads both as a boxed slot and
  // as parameters strikes at what it already holds), the call's victims in the others.
  const hostile = nativeHostileMakers(world);
  const poolLists = fc.array(fc.constantFrom(...pool), { maxLength: 7 });
  const striker = hostile.strikers.length ? fc.constantFrom(...hostile.strikers) : fc.constant(undefined);
  const hostileLists = fc.tuple(fc.array(fc.tuple(fc.boolean(), fc.constantFrom(...hostile.victims)), { maxLength: 7 }), striker)
    .map(([places, strike]) => {
      const struck = strike?.(world.victims());
      return places.map(([strikes, victim]) => (strikes && struck ? struck : victim(world.victims())));
    });
  const strikerLists = fc.tuple(striker, fc.integer({ min: 1, max: 4 })).map(([strike, n]) => {
    const struck = strike?.(world.victims());
    return new Array(struck ? n : 0).fill(struck);
  });
  const unknown = (value: unknown): Arg => ({ value, validity: 'unknown' });
  const targets: Target[] = [];

  targets.push(...pointerPlacement(world));
  for (const entry of boundary.entries) {
    if (entry.kind === 'value' || excluded[entry.name]) continue;
    const value = addon[entry.name];
    if (typeof value !== 'function') throw new Error(`the addon's ${entry.name} is no function`);
    // Each argument fits its kind (now and then any pool value); optional ones at the end may be left out.
    const fitted = fc.tuple(...entry.args.map((a) => fc.oneof({ weight: 6, arbitrary: kinds.of(a.kind) },
      { weight: 1, arbitrary: fc.constantFrom(...pool) })), fc.nat(entry.args.length))
      .map((drawn) => {
        const list = drawn.slice(0, -1);
        const firstOptional = entry.args.findIndex((a, i) => a.optional && entry.args.slice(i).every((b) => b.optional));
        const keep = firstOptional < 0 ? list.length : Math.max(firstOptional, list.length - (drawn[drawn.length - 1] as number));
        return list.slice(0, keep);
      });
    const argLists = fc.oneof({ weight: 8, arbitrary: fitted }, { weight: 2, arbitrary: poolLists }, { weight: 1, arbitrary: hostileLists },
      { weight: 1, arbitrary: strikerLists });
    targets.push({
      name: `native ${entry.name}`, params: [], weight: 0.5, after: stateful.has(entry.name) ? () => world.restoreNative() : undefined,
      call: (...args: unknown[]) => (value as (...a: unknown[]) => unknown)(...adjust(entry.name, args, nullFd)),
      arbitrary: () => argLists.map((list) => list.map(unknown)),
    });
  }
  return targets;
}

/**
 * Where a memory argument's address is written into a launch's parameter
 * bytes: an offset that is not a pointer's place within them must be refused,
 * however large (a bigint near 2^64 must not wrap around to a place before them).
 */
function pointerPlacement(world: World): Target[] {
  const addon = world.addon as Addon | undefined;
  const slotOf = (kind: string) => (world.live(kind)[0] as { slot?: number } | undefined)?.slot;
  const kernel = slotOf('kernel');
  const stream = slotOf('stream');
  const prepared = slotOf('preparedLaunch');
  const memory = slotOf('deviceBuffer');
  if (!addon || kernel === undefined || stream === undefined || memory === undefined) return [];
  // The record a launch takes (native/kernel/launch.h KernelCall), packed by the library the fuzzer
  // loaded (dist/): 24 bytes of parameters, one [offset, memory slot, byte offset] MemoryArgument (counts [24, 1]),
  // the kernel and stream.
  const { packedRecord } = require('../../dist/kernel/kernel') as typeof import('../../lib/kernel/kernel');
  const launchRecord = (offset: number | bigint): ArrayBuffer => {
    const packed = packedRecord(24, 1);
    packed.config.set([1, 1, 1, 1, 1, 1]);
    packed.pointers.set([Number(offset), memory, 0]);
    packed.fields[1] = 1;
    packed.launch.set([kernel, stream]);
    return packed.record;
  };
  // k(float*, int, double) takes 24 bytes: an address fits at 0, 8 or 16 (the native layer knows sizes, not types).
  const offsets = [0, 8, 16, 20, 24, 4096, 1, 2 ** 53 - 1, 2n ** 64n - 8n, 2n ** 64n - 16n, 2n ** 63n];
  const fits = (offset: number | bigint) => ([0n, 8n, 16n].includes(BigInt(offset)) ? 'unknown' as const : 'invalid' as const);
  const targets: Target[] = [{
    name: 'native kernelLaunch (pointer placement)', params: [], relation: (offset) => fits(offset as never),
    call: (offset: unknown) => (addon.kernelLaunch as (...a: unknown[]) => unknown)(launchRecord(offset as number | bigint)),
    arbitrary: () => fc.constantFrom(...offsets).map((value): Arg[] => [{ value, validity: 'valid' }]),
  }];
  if (prepared !== undefined) {
    targets.push({
      name: 'native preparedLaunchSetPointer (placement)', params: [], relation: (offset) => fits(offset as never),
      call: (offset: unknown, what: unknown) => (addon.preparedLaunchSetPointer as (...a: unknown[]) => unknown)(prepared, offset, what, 0),
      arbitrary: () => fc.tuple(fc.constantFrom(...offsets), fc.constantFrom(memory, null))
        .map(([offset, what]): Arg[] => [{ value: offset, validity: 'valid' }, { value: what, validity: 'valid' }]),
    });
  }
  return targets;
}

// Arguments a call must not get here: real descriptors (an import would read
// them), socket paths in the working directory, files written there (a path
// the library would pass on becomes /dev/null; an empty one, or one with a NUL,
// stays, to be refused), gigabytes to pin, long waits.
function adjust(name: string, args: unknown[], nullFd: number): unknown[] {
  const out = [...args];
  const file = fileWriters[name];
  if (file !== undefined && typeof out[file] === 'string' && out[file] !== '' && !(out[file] as string).includes('\0')) out[file] = '/dev/null';
  const fd = descriptorArgs[name];
  if (fd !== undefined && typeof out[fd] === 'number' && (out[fd] as number) >= 0 && (out[fd] as number) < 65536) out[fd] = nullFd;
  if (socketEntries.has(name)) {
    out[1] = true;
    if (typeof out[0] === 'string') out[0] = `cuda-driver-fuzz-${out[0].length}`;
  }
  const timeout = waiting[name];
  if (timeout !== undefined && waitsLong(out[timeout])) out[timeout] = 0;
  if (allocating.has(name)) {
    for (let i = 0; i < out.length; i++) {
      const v = out[i];
      if ((typeof v === 'number' && v > 2 ** 26 && v < 2 ** 45) || (typeof v === 'bigint' && v > 2n ** 26n && v < 2n ** 45n)) out[i] = 2 ** 50;
    }
  }
  return out;
}
