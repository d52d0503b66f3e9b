// The addon itself, called past the TypeScript layer: every exported function
// and every method and accessor of every native class, with argument lists
// drawn from a pool of edge values (huge and negative numbers and bigints,
// detached buffers, shared and shrunk ones, other classes' handles, disposed
// handles, ...) and of hostile ones made for each call (test/fuzz/hostile.ts:
// getters that dispose or detach what the same call names), and `this` set to
// other classes' objects and to the call's own victims. The native layer must refuse what it cannot
// use (its own bounds and type checks), never crash, and throw only the
// library's errors. Nothing is claimed about arguments beyond that, except that
// a method called on an object of another class, or on a disposed one, throws.
import fc from 'fast-check';
import * as fs from 'fs';
import { coercionTrap, detachedView, nativeHostileMakers, sharedBytes, shrunkView, victimSelves } from './hostile';
import type { Target } from './targets';
import type { Arg } from './values';
import type { World } from './world';

type Addon = Record<string, unknown>;

// Functions and methods left out, and why.
const excluded: Record<string, string> = {
  setErrorFactory: 'replaces how every error is built',
  markMainThread: 'process set-up',
  setCounting: 'the run counts driver calls',
  resetCounters: 'the run counts driver calls',
  'Stream#waitValue': 'a wait whose value never comes blocks the stream for good',
  'Stream#batchMemoryOps': 'a wait whose value never comes blocks the stream for good',
  'Graph#debugDotPrint': 'writes a file wherever its path argument says',
  'GraphNode#destroy': 'destroys the fixtures; covered by the public targets',
  'ReceivedFd#take': 'hands the descriptor to the caller, who would leak it',
  dispose: 'disposes the fixtures; covered by the lifetime tests',
  disposeHandle: 'disposes the fixtures by slot; covered by the disposable tests',
};

// Sizes the pool holds that some allocations would honour slowly (pinning gigabytes):
// those calls get an absurd size instead, which fails at once.
const allocating = new Set(['allocate', 'allocatePitched', 'allocateManaged', 'allocateAsync', 'allocateHost', 'createAllocation',
  'reserveAddress', 'createPool']);

function launchConfig(values: number[]): Int32Array {
  const config = new Int32Array(14);
  config.set(values);
  return config;
}

/** The pool raw arguments are drawn from. */
function rawPool(world: World, nullFd: number): unknown[] {
  const natives = [...new Set(world.allLive().map((o) => (o as { native?: unknown }).native).filter((n) => n && typeof n === 'object'))];
  const disposed = world.allDisposed().map((o) => (o as { native?: unknown }).native).filter((n) => n && typeof n === 'object');
  // Calls name handles by slot number (memory operands, streams): live and disposed ones.
  const slotsOf = (list: unknown[]) => list.map((o) => (o as { slot?: unknown }).slot).filter((n): n is number => typeof n === 'number');
  const slots = [...slotsOf(world.allLive()), ...slotsOf(world.allDisposed())];
  const memory = slotsOf(['deviceBuffer', 'smallBuffer', 'hostBuffer', 'mapping'].flatMap((k) => world.live(k)));
  return [
    0, 1, -1, 7, 8, 16, 4096, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 32 - 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 0.5, -0.5, NaN, Infinity, -Infinity, -0,
    0n, 1n, 8n, -1n, 2n ** 31n, 2n ** 62n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n - 8n, 2n ** 64n, -(2n ** 63n),
    '', 'x', 'k', 'empty', 'a\0b', 'é', 'x'.repeat(10000), true, false, null, undefined, Symbol('raw'),
    {}, [], [0], [[0, 0, 3]], [[1, 0, 3]], [2n ** 64n - 8n], { type: 5 }, { type: 0 }, { dst: {}, width: 1 }, Object.create(null),
    new Uint8Array(0), new Uint8Array(8), new Uint8Array(64), new Uint8Array(65536), new Int32Array(3), new Float64Array(2), new ArrayBuffer(8),
    new DataView(new ArrayBuffer(8)), detachedView(), detachedView().buffer, Buffer.alloc(64), shrunkView(), ...sharedBytes(), coercionTrap(),
    launchConfig([1, 1, 1, 1, 1, 1]), launchConfig([1, 1, 1, 1, 1, 1, 2 ** 31 - 1]), launchConfig([1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1]),
    launchConfig([-1, 1, 1, 1, 1, 1]), launchConfig([1, 1, 1, 2048, 1, 1]), launchConfig([1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 5, 1]),
    () => undefined, () => 16, (n: number) => n * 4, () => 2 ** 60, () => 'x', nullFd,
    ...natives, ...disposed, ...slots, ...memory.map((m) => [0, m]), ...memory.map((m) => [2n ** 64n - 8n, m]), ...memory.map((m) => [8, m, 16, m]),
    ...memory.map((m) => [[m, 0, m, 0, 8]]), ...memory.map((m) => [[m, 2n ** 63n, 16]]),
  ];
}

export function nativeTargets(world: World): Target[] {
  const addon = world.addon as Addon | undefined;
  if (!addon) return [];
  const nullFd = fs.openSync('/dev/null', 'r');
  world.onDispose(() => fs.closeSync(nullFd));
  const pool = rawPool(world, nullFd);
  // Mostly values of the pool; now and then hostile lists (test/fuzz/hostile.ts): one striker,
  // in about half of the places or in all of them (an object the call reads both as a handle and
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
  const argLists = fc.oneof({ weight: 6, arbitrary: poolLists }, { weight: 1, arbitrary: hostileLists }, { weight: 1, arbitrary: strikerLists });
  const unknown = (value: unknown): Arg => ({ value, validity: 'unknown' });
  const targets: Target[] = [];
  // Calls whose effects on the fixtures or the thread later calls must not see.
  const stateful = new Set(['beginCapture', 'updateCaptureDependencies', 'exchangeCaptureMode', 'setDevicePool', 'setLocationPool',
    'setPrimaryContextFlags']);

  targets.push(...pointerPlacement(world));
  for (const [name, value] of Object.entries(addon)) {
    if (typeof value !== 'function' || excluded[name]) continue;
    if (/^[A-Z]/.test(name)) {
      // A class: never constructible from JavaScript.
      targets.push({
        name: `native new ${name}`, params: [], weight: 0.2, relation: () => 'invalid',
        call: (...args: unknown[]) => new (value as new (...a: unknown[]) => unknown)(...args),
        arbitrary: () => argLists.map((list) => list.map((v) => ({ value: v, validity: 'valid' as const }))),
      });
      targets.push(...methodTargets(name, value as { prototype: object }, world, argLists, poolLists));
      continue;
    }
    targets.push({
      name: `native ${name}`, params: [], weight: 0.5, after: stateful.has(name) ? () => world.restoreNative() : undefined,
      call: (...args: unknown[]) => (value as (...a: unknown[]) => unknown)(...adjust(name, args, nullFd)),
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
  const kernel = (world.live('kernel')[0] as { native?: { slot: number } } | undefined)?.native;
  const stream = (world.live('stream')[0] as { native?: { slot: number } } | undefined)?.native;
  const prepared = (world.live('preparedLaunch')[0] as { native?: Record<string, (...a: unknown[]) => unknown> } | undefined)?.native;
  const memory = (world.live('deviceBuffer')[0] as { native?: { slot: number } } | undefined)?.native;
  if (!addon || !kernel || !stream || !memory) return [];
  // The record a launch takes (native/kernel/launch.h KernelCall), packed by the library the fuzzer
  // loaded (dist/): 24 bytes of parameters, one [offset, memory slot] pair (counts [24, 1]), the kernel and stream.
  const { packedRecord } = require('../../dist/kernel/kernel') as typeof import('../../lib/kernel/kernel');
  const launchRecord = (offset: number | bigint): ArrayBuffer => {
    const packed = packedRecord(24, 1);
    packed.config.set([1, 1, 1, 1, 1, 1]);
    packed.pointers.set([Number(offset), memory.slot]);
    packed.fields[1] = 1;
    packed.launch.set([kernel.slot, stream.slot]);
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
  if (prepared) {
    targets.push({
      name: 'native PreparedLaunch#setPointer (placement)', params: [], relation: (offset) => fits(offset as never),
      call: (offset: unknown, what: unknown) => prepared.setPointer(offset, what),
      arbitrary: () => fc.tuple(fc.constantFrom(...offsets), fc.constantFrom(memory, null))
        .map(([offset, what]): Arg[] => [{ value: offset, validity: 'valid' }, { value: what, validity: 'valid' }]),
    });
  }
  return targets;
}

// Arguments a call must not get here: real descriptors (an import would read
// them), socket paths in the working directory, gigabytes to pin.
function adjust(name: string, args: unknown[], nullFd: number): unknown[] {
  const out = [...args];
  if ((name === 'importAllocation' || name === 'importPool') && typeof out[0] === 'number' && out[0] >= 0 && out[0] < 65536) out[0] = nullFd;
  if (name === 'fdChannelListen' || name === 'fdChannelConnect') {
    out[1] = true;
    if (typeof out[0] === 'string') out[0] = `cuda-driver-fuzz-${out[0].length}`;
  }
  if (allocating.has(name)) {
    for (let i = 0; i < out.length; i++) {
      const v = out[i];
      if ((typeof v === 'number' && v > 2 ** 26 && v < 2 ** 45) || (typeof v === 'bigint' && v > 2n ** 26n && v < 2n ** 45n)) out[i] = 2 ** 50;
    }
  }
  return out;
}

// Methods whose first argument is a timeout in milliseconds: one that waits for ever (-1) or for
// long (a slot number) is replaced by 0, and they get no hostile lists (mostly slots).
const waiting = new Set(['FdChannel#receive', 'FdChannelServer#accept']);
const waitsLong = (t: unknown) => (typeof t === 'number' || typeof t === 'bigint') && (Number(t) === -1 || Number(t) > 100);

function methodTargets(className: string, ctor: { prototype: object }, world: World, argLists: fc.Arbitrary<unknown[]>,
  poolLists: fc.Arbitrary<unknown[]>): Target[] {
  const proto = ctor.prototype;
  const own = world.allLive().map((o) => (o as { native?: unknown }).native).filter((n) => n instanceof (ctor as never));
  const gone = world.allDisposed().map((o) => (o as { native?: unknown }).native).filter((n) => n instanceof (ctor as never));
  const others = [...new Set(world.allLive().map((o) => (o as { native?: unknown }).native)
    .filter((n) => n && typeof n === 'object' && !(n instanceof (ctor as never))))];
  const junk = [undefined, null, 0, {}, Object.create(proto)];
  // The call's own victim of this class, as `this`: an argument's getter may dispose it.
  const victim = victimSelves(world)[className];
  const victimSelf = victim && fc.constant(victim).map((make): Arg => ({ value: make(world.victims()), validity: 'unknown' }));
  const targets: Target[] = [];
  for (const member of Object.getOwnPropertyNames(proto)) {
    if (member === 'constructor' || excluded[member] || excluded[`${className}#${member}`]) continue;
    const descriptor = Object.getOwnPropertyDescriptor(proto, member)!;
    const invoke = descriptor.get ?? (descriptor.value as (...a: unknown[]) => unknown);
    if (typeof invoke !== 'function') continue;
    const disposedOk = member === 'alive';
    const selves: Arg[] = [
      ...own.map((value): Arg => ({ value, validity: 'unknown' })),
      ...gone.map((value): Arg => ({ value, validity: disposedOk ? 'unknown' : 'invalid' })),
      ...others.map((value): Arg => ({ value, validity: 'invalid' })),
      ...junk.map((value): Arg => ({ value, validity: 'invalid' })),
    ];
    targets.push({
      name: `native ${className}#${member}`, params: [], weight: own.length ? 0.5 : 0.1,
      after: ['setLimit', 'setFlags', 'pushCurrent'].includes(member) ? () => world.restoreNative() : undefined,
      call: (self: unknown, ...args: unknown[]) => invoke.apply(self, args),
      arbitrary: () => fc.tuple(victimSelf ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...selves) }, { weight: 1, arbitrary: victimSelf })
        : fc.constantFrom(...selves), waiting.has(`${className}#${member}`) ? poolLists.map((list) => (waitsLong(list[0]) ? [0, ...list.slice(1)] : list)) : argLists)
        .map(([s, list]) => [s, ...list.map((value): Arg => ({ value, validity: 'unknown' }))]),
    });
  }
  return targets;
}
