// The public API as the fuzzer calls it: every function, constructor, method
// and accessor, with what each parameter may be. A relation says when values
// that are each acceptable are not together (a range past the end of a buffer,
// an argument list that does not fit the kernel).
import type fc from 'fast-check';
import type * as Cuda from '../../lib';
import {
  alloc, anything, array, bool, bytes, device, driverSize, fn, handle, int, location, made, memory, memoryKinds, names, optional, options,
  Arg, Param, required, requiredOptions, self, selfOrDisposed, size, str, Validity, values,
} from './values';
import { detachedView, resizableBuffer, shrunkView } from './hostile';
import type { World } from './world';

export interface Target {
  name: string;
  params: Param[];
  call: (...args: any[]) => unknown;
  /** When every argument is acceptable: whether they are together ('invalid': the call must throw). */
  relation?: (...args: any[]) => Validity;
  /** Restores state the call may have changed (limits, current pools, ...). */
  after?: () => void;
  /** Runs relative to other targets (slow calls get less). */
  weight?: number;
  /** Whole argument lists, instead of one arbitrary per parameter. */
  arbitrary?: () => fc.Arbitrary<Arg[]>;
}

const sizeOfBytes = (b: unknown): number | undefined => {
  if (b instanceof ArrayBuffer || b instanceof SharedArrayBuffer) return b.byteLength;
  if (ArrayBuffer.isView(b)) return b.byteLength;
  const s = (b as { size?: unknown } | null)?.size;
  return typeof s === 'number' ? s : undefined;
};
const num = (v: unknown, fallback: number): number => (v === undefined ? fallback : Number(v));
/** valid when [offset, offset + bytes) lies within size. */
const fits = (offset: number, count: number, total: number | undefined): Validity =>
  total === undefined ? 'unknown' : offset <= total && count <= total - offset ? 'valid' : 'invalid';
const both = (...vs: Validity[]): Validity => (vs.includes('invalid') ? 'invalid' : vs.includes('unknown') ? 'unknown' : 'valid');
// The getter name of object's class or of a base class.
const getter = (object: object, name: string) => (target: unknown) => {
  let owner: object | null = object;
  while (owner && !Object.getOwnPropertyDescriptor(owner, name)) owner = Object.getPrototypeOf(owner);
  return Object.getOwnPropertyDescriptor(owner ?? object, name)!.get!.call(target);
};

const smallDim = values([1, 2, 32, [1, 1, 1], [2, 2], { x: 1 }, { x: 4, y: 2, z: 1 }],
  [0, -1, 0.5, NaN, 2 ** 31, [], [1, 2, 3, 4], [0], { y: 1 }, { x: 1, y: 0 }, 'x', null, undefined, 1n]);
const launchShape = (extra: Record<string, Param> = {}): Param => requiredOptions({
  grid: required(smallDim), block: required(smallDim), sharedMemory: int(0, 2 ** 31 - 1, 1024),
  cooperative: bool, priority: int(-(2 ** 31), 2 ** 31 - 1, 0), programmaticStreamSerialization: bool, ...extra,
});

/** Whether an argument list fits k(float*, int, double) or empty() (by parameter sizes, as the library checks). */
function argsFit(kernel: unknown, args: unknown, world: World): Validity {
  if (!Array.isArray(args)) return 'invalid';
  const c = world.cuda;
  if (args.some((a) => !(a instanceof c.KernelArg))) return 'invalid';
  const name = (kernel as { name?: string }).name;
  const sizes = name === 'empty' ? [] : [8, 4, 8];
  if (args.length !== sizes.length) return 'invalid';
  const scalar: Record<string, number> = { i8: 1, u8: 1, i16: 2, u16: 2, f16: 2, bf16: 2, i32: 4, u32: 4, f32: 4, i64: 8, u64: 8, f64: 8, ptr: 8 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Cuda.KernelArg;
    const bytesOf = typeof a.type === 'string' ? scalar[a.type] : (a.type as { bytes: number }).bytes;
    if (bytesOf !== sizes[i]) return 'invalid';
    if (argValueValidity(a, world) === 'invalid') return 'invalid';
  }
  return args.some((a) => argValueValidity(a as Cuda.KernelArg, world) === 'unknown') ? 'unknown' : 'valid';
}

function argValueValidity(a: Cuda.KernelArg, world: World): Validity {
  const v = a.value as unknown;
  const ranges: Record<string, [number, number]> = {
    i8: [-128, 127], u8: [0, 255], i16: [-32768, 32767], u16: [0, 65535], f16: [0, 65535], bf16: [0, 65535],
    i32: [-(2 ** 31), 2 ** 31 - 1], u32: [0, 2 ** 32 - 1],
  };
  if (typeof a.type === 'object') {
    return ArrayBuffer.isView(v) && v.byteLength === a.type.bytes ? 'valid' : 'invalid';
  }
  switch (a.type) {
    case 'f32':
    case 'f64':
      return typeof v === 'number' ? 'valid' : 'invalid';
    case 'i64':
      return (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'bigint' && BigInt.asIntN(64, v) === v) ? 'valid' : 'invalid';
    case 'u64':
      return (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && BigInt.asUintN(64, v) === v) ? 'valid' : 'invalid';
    case 'ptr':
      if (v === null || (typeof v === 'bigint' && BigInt.asUintN(64, v) === v)) return 'valid';
      if (memoryKinds.some((k) => world.live(k).includes(v))) return 'valid';
      return v !== null && typeof v === 'object' && 'slot' in v ? 'unknown' : 'invalid';
    default: {
      const [lo, hi] = ranges[a.type];
      return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? 'valid' : 'invalid';
    }
  }
}

/** Kernel argument lists: right ones, wrong counts, sizes, types and values. */
function kernelArgLists(world: World): { good: unknown[][]; bad: unknown[][] } {
  const c = world.cuda;
  const a = c.arg;
  const buffer = world.live('deviceBuffer')[0] ?? null;
  // [] fits empty(): argsFit decides which list fits which kernel.
  const good: unknown[][] = [
    [],
    [a.ptr(buffer as never), a.i32(4), a.f64(1.5)],
    [a.ptr(null), a.i32(-1), a.f64(NaN)],
    [a.u64(7n), a.u32(4), a.i64(-3)],
    [a.ptr(0x1000n), a.f32(2), a.bytes(new Uint8Array(8))],
    [a.bytes(new Float64Array(1), 8), a.i32(0), a.f64(0)],
  ];
  const bad: unknown[][] = [
    [a.ptr(null)], [a.ptr(null), a.i32(1)], [a.ptr(null), a.i32(1), a.f64(1), a.i32(1)],
    [a.i32(1), a.i32(1), a.f64(1)], [a.ptr(null), a.f64(1), a.f64(1)], [a.ptr(null), a.i16(1), a.f64(1)],
    [a.ptr(null), a.i32(2 ** 31), a.f64(1)], [a.ptr(null), a.i32(1.5), a.f64(1)], [a.ptr(null), a.i32(1), a.f64('1' as never)],
    [a.ptr(-1n), a.i32(1), a.f64(1)], [a.ptr(2n ** 64n), a.i32(1), a.f64(1)], [a.ptr(5 as never), a.i32(1), a.f64(1)],
    [a.ptr(null), a.u32(-1), a.f64(1)], [a.u64(-1), a.i32(1), a.f64(1)], [a.i64(2 ** 60), a.i32(1), a.f64(1)],
    [a.ptr(null), a.bytes(new Uint8Array(3)), a.f64(1)], [a.ptr(null), a.i32(1), a.bytes(new Uint8Array(8), 3)],
    [{ type: 'ptr', value: null }, a.i32(1), a.f64(1)], [null, a.i32(1), a.f64(1)], [new c.KernelArg('nope' as never, 1), a.i32(1), a.f64(1)],
    [new c.KernelArg({ bytes: 0 }, new Uint8Array(0)), a.i32(1), a.f64(1)], [new c.KernelArg({ bytes: 40000 }, new Uint8Array(8)), a.i32(1), a.f64(1)],
    [a.ptr({ slot: 1, size: 8 } as never), a.i32(1), a.f64(1)], [a.ptr(world.disposed('deviceBuffer')[0] as never ?? 3), a.i32(1), a.f64(1)],
  ];
  return { good, bad };
}

/**
 * Stream memory operation lists: waits that are satisfied at once, writes, barriers; and broken ones.
 * Each wait is 'geq 0' on a word the same list has just set to 0: 'geq' compares with
 * wrap-around, so a word another target left at 0xffffffff would block the stream for good.
 */
function memoryOpLists(world: World): { good: unknown[]; bad: unknown[] } {
  const target = world.live('deviceBuffer')[0];
  const small = world.live('smallBuffer')[0];
  const good = target ? [
    [{ op: 'writeValue32', target, value: 7 }],
    [{ op: 'writeValue32', target, value: 0 }, { op: 'waitValue32', target, value: 0, condition: 'geq' }],
    [{ op: 'writeValue64', target, offset: 8, value: 5n }, { op: 'barrier' }], [{ op: 'flushRemoteWrites' }],
    [{ op: 'writeValue64', target, offset: 16, value: 0n }, { op: 'waitValue64', target, offset: 16, value: 0n }], [{ op: 'barrier', scope: 'gpu' }],
  ] : [];
  const bad = [
    null, 5, [null], [{ op: 'nope' }], [{ op: 'writeValue32', target, value: -1 }], [{ op: 'writeValue32', target, value: 2 ** 32 }],
    [{ op: 'writeValue64', target, value: 5 }], [{ op: 'writeValue32', target: small, offset: 16, value: 1 }],
    [{ op: 'writeValue32', target: small, offset: 2 ** 60, value: 1 }], [{ op: 'writeValue32', target: {}, value: 1 }],
    [{ op: 'writeValue32', target, offset: -4, value: 1 }], [{ op: 'barrier', scope: 'everywhere' }],
    [{ op: 'waitValue32', target, value: 0, condition: 'sometimes' }], [{ op: 'writeValue32', value: 1 }],
    [{ op: 'writeValue32', target: world.disposed('deviceBuffer')[0], value: 1 }],
  ];
  return { good, bad };
}

export function publicTargets(world: World): Target[] {
  const c = world.cuda;
  const E = c; // generated enum maps live on the package too
  const keys = (map: object) => Object.keys(map);
  const deviceOrdinals = Array.from({ length: world.deviceCount }, (_, i) => i);
  const stream = world.live('stream')[0] as Cuda.Stream | undefined;
  const builder = world.live('builderGraph')[0] as Cuda.Graph | undefined;
  const kernels = ['kernel', 'emptyKernel', 'moduleKernel'];
  const { good: goodArgs, bad: badArgs } = kernelArgLists(world);
  const { good: goodOps, bad: badOps } = memoryOpLists(world);
  const streams = handle('stream', 'legacyStream');
  const events = handle('event', 'timingEvent');
  const contexts = ['primaryContext', 'context'];
  const buffers = ['deviceBuffer', 'smallBuffer', 'pitchedBuffer', 'managedBuffer', 'asyncBuffer', 'sharedMemory'];
  // A wait generated here is 'geq 0': the stream first sets its word to 0, as 'geq'
  // compares with wrap-around and a word left at 0xffffffff would block the stream for good.
  const zeroWord = (s: unknown, m: unknown, o: { offset?: unknown } | undefined, bits: 32 | 64) => {
    try {
      if (bits === 32) c.Stream.prototype.writeValue32.call(s, m as never, 0, { offset: o?.offset as number });
      else c.Stream.prototype.writeValue64.call(s, m as never, 0n, { offset: o?.offset as number });
    } catch {
      // arguments the wait refuses too
    }
  };
  const schedFlags = values([0, 1, 2, 4, 'schedAuto', 'schedSpin', ['schedYield'], []], ['nope', -1, 0.5, ['nope'], null, {}, 1n]);
  const nodeOptions = (nodes = ['builderNode']) => options({ after: array(handle(...nodes), 2), label: str() });
  const edgeLists = values([undefined, [], [{}], [{ fromPort: 'programmatic', type: 'programmatic' }]], [5, [{ fromPort: -1 }], ['x'], [null], [{ type: 'nope' }]]);
  const limitSnapshot = () => world.restoreLimits();
  const restorePool = () => {
    try {
      if (world.deviceCount > 0) c.MemoryPool.setCurrentFor(0, c.MemoryPool.defaultFor(0));
    } catch {
      // no pools here
    }
  };
  const popPushed = () => {
    try {
      c.Context.popCurrent();
    } catch {
      // nothing to pop
    }
  };
  const descriptor = (world.live('memoryExport')[0] as Cuda.MemoryExport | undefined)?.descriptor;
  const tmpFile = `${require('os').tmpdir()}/cuda-driver-fuzz-${process.pid}.img`;
  if (world.code !== undefined) require('fs').writeFileSync(tmpFile, world.code);

  // Node counts: small ones (the analysis is linear or worse in them), and ones that are no count.
  const nodeCount = values([0, 1, 2, 3, 5, 8, 16, 64], [-1, 0.5, NaN, Infinity, 2 ** 31, '3', null, 3n]);
  const t: Target[] = [
    // ---- driver, errors, versions
    { name: 'driverStatus', params: [], call: () => c.driverStatus() },
    { name: 'driverFunctions', params: [], call: () => c.driverFunctions(), weight: 0.2 },
    { name: 'cudaVersion', params: [int(0, 2 ** 31 - 1)], call: (v) => c.cudaVersion(v) },
    { name: 'resultName', params: [int(-(2 ** 31), 2 ** 31 - 1)], call: (v) => c.resultName(v) },
    { name: 'callCounters.read', params: [], call: () => c.callCounters.read(), weight: 0.2 },
    // ---- devices
    { name: 'Device.count', params: [], call: () => c.Device.count() },
    { name: 'Device.get', params: [values([undefined, ...deviceOrdinals], [-1, 0.5, NaN, '0', null, 2 ** 31, 1n, world.deviceCount, {}])],
      call: (o) => c.Device.get(o) },
    { name: 'Device.all', params: [], call: () => c.Device.all() },
    { name: 'Device.byPciBusId', params: [str()], call: (id) => c.Device.byPciBusId(id) },
    { name: 'Device.byUuid', params: [values(['GPU-00000000-0000-0000-0000-000000000000', '0'.repeat(32), new Uint8Array(16)],
      ['GPU-1', 'zz'.repeat(16), new Uint8Array(15), 5, null, {}, []])], call: (u) => c.Device.byUuid(u) },
    { name: 'Device#attribute', params: [self('device'), names(keys(E.DeviceAttribute), [0, 1, 75, 200, 2 ** 31 - 1])],
      call: (d, n) => c.Device.prototype.attribute.call(d, n) },
    { name: 'Device#attributes', params: [self('device')], call: (d) => c.Device.prototype.attributes.call(d), weight: 0.2 },
    { name: 'Device#capabilities', params: [self('device')], call: getter(c.Device.prototype, 'capabilities') },
    { name: 'Device#name', params: [self('device')], call: getter(c.Device.prototype, 'name') },
    { name: 'Device#uuid', params: [self('device')], call: getter(c.Device.prototype, 'uuid') },
    { name: 'Device#totalMemory', params: [self('device')], call: getter(c.Device.prototype, 'totalMemory') },
    { name: 'Device#canAccessPeer', params: [self('device'), handle('device')], call: (d, p) => c.Device.prototype.canAccessPeer.call(d, p) },
    { name: 'Device#p2pAttribute', params: [self('device'), handle('device'), names(keys(E.P2PAttribute), [0, 1, 99])],
      call: (d, p, n) => c.Device.prototype.p2pAttribute.call(d, p, n) },
    { name: 'Device#primaryContext', params: [self('device')], call: getter(c.Device.prototype, 'primaryContext') },
    { name: 'Device#primaryContextState', params: [self('device')], call: (d) => c.Device.prototype.primaryContextState.call(d) },
    { name: 'Device#setPrimaryContextFlags', params: [self('device'), schedFlags],
      call: (d, f) => c.Device.prototype.setPrimaryContextFlags.call(d, f), after: () => world.deviceCount && c.Device.get(0).setPrimaryContextFlags(0) },
    { name: 'Device#resetPrimaryContext', params: [self('device')], call: (d) => c.Device.prototype.resetPrimaryContext.call(d),
      // the fixtures use the primary context: refused while they live
      relation: () => 'invalid' },
    { name: 'Device#createContext', params: [self('device'), optional(schedFlags)], call: (d, f) => c.Device.prototype.createContext.call(d, f),
      weight: 0.3 },
    { name: 'Device#toJSON', params: [self('device')], call: (d) => c.Device.prototype.toJSON.call(d) },
    // ---- contexts
    ...['handle', 'deviceOrdinal', 'isPrimary', 'id', 'apiVersion', 'flags', 'streamPriorityRange'].map((name): Target => ({
      name: `Context#${name}`, params: [self(...contexts)], call: getter(c.Context.prototype, name),
    })),
    { name: 'Context#queryDevice', params: [self(...contexts)], call: (x) => c.Context.prototype.queryDevice.call(x) },
    { name: 'Context#makeCurrent', params: [self(...contexts)], call: (x) => c.Context.prototype.makeCurrent.call(x) },
    { name: 'Context#pushCurrent', params: [self(...contexts)], call: (x) => c.Context.prototype.pushCurrent.call(x), after: popPushed },
    { name: 'Context#synchronize', params: [self(...contexts)], call: (x) => c.Context.prototype.synchronize.call(x) },
    { name: 'Context#setFlags', params: [self(...contexts), schedFlags], call: (x, f) => c.Context.prototype.setFlags.call(x, f) },
    { name: 'Context#limit', params: [self(...contexts), names(keys(E.ContextLimit), [0, 1, 5, 99])], call: (x, n) => c.Context.prototype.limit.call(x, n) },
    { name: 'Context#setLimit', params: [self(...contexts), names(keys(E.ContextLimit), [0, 1, 5, 99]), size(1 << 20)],
      call: (x, n, v) => c.Context.prototype.setLimit.call(x, n, v), after: limitSnapshot },
    { name: 'Context#resetPersistingL2Cache', params: [self(...contexts)], call: (x) => c.Context.prototype.resetPersistingL2Cache.call(x) },
    { name: 'Context#enablePeerAccess', params: [self(...contexts), handle(...contexts)], call: (x, p) => c.Context.prototype.enablePeerAccess.call(x, p) },
    { name: 'Context#disablePeerAccess', params: [self(...contexts), handle(...contexts)], call: (x, p) => c.Context.prototype.disablePeerAccess.call(x, p) },
    { name: 'Context.currentHandle', params: [], call: () => c.Context.currentHandle() },
    // ---- streams
    { name: 'Stream.create', params: [options({ device, nonBlocking: bool, priority: int(-(2 ** 31), 2 ** 31 - 1, 0) })],
      call: (o) => c.Stream.create(o) },
    { name: 'Stream.legacy', params: [device], call: (d) => c.Stream.legacy(d) },
    { name: 'Stream.perThread', params: [device], call: (d) => c.Stream.perThread(d) },
    ...['handle', 'device', 'nonBlocking', 'priority', 'id', 'captureStatus', 'pendingResources'].map((name): Target => ({
      name: `Stream#${name}`, params: [self('stream', 'legacyStream')], call: getter(c.Stream.prototype, name),
    })),
    { name: 'Stream#contextHandle', params: [self('stream'), optional(bool)], call: (s, v) => c.Stream.prototype.contextHandle.call(s, v) },
    { name: 'Stream#queryDevice', params: [self('stream')], call: (s) => c.Stream.prototype.queryDevice.call(s) },
    { name: 'Stream#query', params: [self('stream', 'legacyStream')], call: (s) => c.Stream.prototype.query.call(s) },
    { name: 'Stream#synchronize', params: [self('stream', 'legacyStream')], call: (s) => c.Stream.prototype.synchronize.call(s) },
    { name: 'Stream#synchronizeSync', params: [self('stream', 'legacyStream')], call: (s) => c.Stream.prototype.synchronizeSync.call(s) },
    { name: 'Stream#waitEvent', params: [self('stream'), events, options({ external: bool })],
      call: (s, e, o) => c.Stream.prototype.waitEvent.call(s, e, o) },
    { name: 'Stream#attribute', params: [self('stream'), str(['accessPolicyWindow', 'synchronizationPolicy', 'priority', 'memSyncDomainMap', 'memSyncDomain'])],
      call: (s, n) => c.Stream.prototype.attribute.call(s, n) },
    { name: 'Stream#setAttribute', params: [self('stream'), values([
      ['priority', 0], ['synchronizationPolicy', 'auto'], ['synchronizationPolicy', 'yield'], ['memSyncDomain', 0],
      ['memSyncDomainMap', { default: 0, remote: 1 }], ['accessPolicyWindow', { base: 0n, bytes: 0, hitRatio: 0, hitProp: 'normal', missProp: 'normal' }],
    ], [['priority', 0.5], ['priority', '0'], ['synchronizationPolicy', 'nope'], ['nope', 0], ['memSyncDomainMap', null],
      ['accessPolicyWindow', { base: -1n, bytes: 0, hitRatio: 2, hitProp: 'normal', missProp: 'normal' }], ['accessPolicyWindow', 5],
      ['memSyncDomainMap', { default: -1, remote: 0 }]])],
    call: (s, [n, v]) => c.Stream.prototype.setAttribute.call(s, n, v) },
    { name: 'Stream#copyAttributesFrom', params: [self('stream'), handle('stream')], call: (s, x) => c.Stream.prototype.copyAttributesFrom.call(s, x) },
    { name: 'Stream#launchHostFunction', params: [self('stream'), fn, options({ wait: bool })],
      call: (s, f, o) => c.Stream.prototype.launchHostFunction.call(s, f, o) },
    { name: 'Stream#addCallback', params: [self('stream'), fn, options({ wait: bool })], call: (s, f, o) => c.Stream.prototype.addCallback.call(s, f, o) },
    { name: 'Stream#attachMemory', params: [self('stream'), memory, optional(names(['global', 'host', 'single'], [1, 2, 4]))],
      call: (s, m, mode) => c.Stream.prototype.attachMemory.call(s, m, mode) },
    { name: 'Stream#waitValue32', params: [self('stream'), memory, values([0], [-1, 0.5, 2 ** 32, '0', null, 1n]),
      // A condition may also be the driver's number (1 is EQ): not generated, as a wait for another value than the word's never ends.
      options({ offset: size(4092), condition: values(['geq'], ['nope', 'GEQ', -1, 0.5]), flush: bool })],
    call: (s, m, v, o) => (zeroWord(s, m, o, 32), c.Stream.prototype.waitValue32.call(s, m, v, o)),
    relation: (_s, m, _v, o) => fits(num(o?.offset, 0), 4, sizeOfBytes(m)) },
    { name: 'Stream#waitValue64', params: [self('stream'), memory, values([0n], [0, -1n, 2n ** 64n, '0']),
      options({ offset: size(4088), condition: values(['geq'], ['nope']), flush: bool })],
    call: (s, m, v, o) => (zeroWord(s, m, o, 64), c.Stream.prototype.waitValue64.call(s, m, v, o)),
    relation: (_s, m, _v, o) => fits(num(o?.offset, 0), 8, sizeOfBytes(m)) },
    { name: 'Stream#writeValue32', params: [self('stream'), memory, int(0, 2 ** 32 - 1), options({ offset: size(4092), noMemoryBarrier: bool })],
      call: (s, m, v, o) => c.Stream.prototype.writeValue32.call(s, m, v, o),
      relation: (_s, m, _v, o) => fits(num(o?.offset, 0), 4, sizeOfBytes(m)) },
    { name: 'Stream#writeValue64', params: [self('stream'), memory, values([0n, 1n, 2n ** 64n - 1n], [-1n, 2n ** 64n, 1, '1']),
      options({ offset: size(4088), noMemoryBarrier: bool })],
    call: (s, m, v, o) => c.Stream.prototype.writeValue64.call(s, m, v, o),
    relation: (_s, m, _v, o) => fits(num(o?.offset, 0), 8, sizeOfBytes(m)) },
    { name: 'Stream#batchMemoryOps', params: [self('stream'), values(goodOps, badOps)], call: (s, ops) => c.Stream.prototype.batchMemoryOps.call(s, ops) },
    { name: 'Stream#beginCapture', params: [self('stream'), options({ mode: names(keys(E.CaptureMode), [0, 1, 2]) })],
      call: (s, o) => c.Stream.prototype.beginCapture.call(s, o) },
    { name: 'Stream#capture', params: [self('stream'), fn, options({ mode: names(['threadLocal', 'relaxed']) })],
      call: (s, f, o) => c.Stream.prototype.capture.call(s, f, o) },
    // ---- events
    { name: 'Event.create', params: [options({ device, timing: bool, blockingSync: bool, interprocess: bool })], call: (o) => c.Event.create(o),
      relation: (o) => (o?.interprocess && o?.timing ? 'invalid' : 'valid') },
    ...['handle', 'timing', 'interprocess'].map((name): Target => ({ name: `Event#${name}`, params: [self('event', 'timingEvent')], call: getter(c.Event.prototype, name) })),
    { name: 'Event#record', params: [self('event', 'timingEvent'), streams, options({ external: bool })], call: (e, s, o) => c.Event.prototype.record.call(e, s, o) },
    { name: 'Event#query', params: [self('event', 'timingEvent')], call: (e) => c.Event.prototype.query.call(e) },
    { name: 'Event#synchronize', params: [self('event', 'timingEvent')], call: (e) => c.Event.prototype.synchronize.call(e) },
    { name: 'Event#synchronizeSync', params: [self('event', 'timingEvent')], call: (e) => c.Event.prototype.synchronizeSync.call(e) },
    { name: 'Event#elapsedTime', params: [self('event', 'timingEvent'), events], call: (e, x) => c.Event.prototype.elapsedTime.call(e, x) },
    // ---- memory
    { name: 'DeviceBuffer.alloc', params: [alloc(), options({ device })], call: (b, o) => c.DeviceBuffer.alloc(b, o) },
    { name: 'DeviceBuffer.from', params: [values([new Uint8Array(8), new ArrayBuffer(4), new Float32Array(3), Buffer.alloc(1)],
      [new Uint8Array(0), 5, 'data', null, [1, 2], {}]), options({ device })], call: (d, o) => c.DeviceBuffer.from(d, o) },
    { name: 'DeviceBuffer.allocPitched', params: [alloc(4096), alloc(64), options({ elementBytes: values([4, 8, 16], [1, 2, 3, 32, '4', null]), device })],
      call: (w, h, o) => c.DeviceBuffer.allocPitched(w, h, o) },
    { name: 'DeviceBuffer.allocAsync', params: [alloc(), streams, options({ pool: handle('pool') })], call: (b, s, o) => c.DeviceBuffer.allocAsync(b, s, o) },
    { name: 'DeviceBuffer.allocManaged', params: [alloc(), options({ device, attach: names(['global', 'host']) })], call: (b, o) => c.DeviceBuffer.allocManaged(b, o) },
    ...['address', 'size', 'pitch', 'allocation', 'device'].map((name): Target => ({ name: `DeviceBuffer#${name}`, params: [self(...buffers.slice(0, 5))],
      call: getter(c.DeviceBuffer.prototype, name) })),
    { name: 'DeviceBuffer#write', params: [self(...buffers.slice(0, 5)), values([new Uint8Array(16), new ArrayBuffer(0), new Float64Array(2)], [5, 'x', null]),
      options({ offset: size(4096), stream: streams })],
    call: (b, d, o) => c.DeviceBuffer.prototype.write.call(b, d, o),
    relation: (b, d, o) => fits(num(o?.offset, 0), sizeOfBytes(d)!, sizeOfBytes(b)) },
    { name: 'DeviceBuffer#readSync', params: [self(...buffers.slice(0, 5)), values([undefined, Uint8Array, Float32Array, Int16Array], ['x', 5, {}, Date]),
      options({ offset: size(4096), bytes: size(4096) })],
    call: (b, type, o) => c.DeviceBuffer.prototype.readSync.call(b, type, o),
    relation: (b, type, o) => {
      const total = sizeOfBytes(b) ?? 0;
      const offset = num(o?.offset, 0);
      const count = o?.bytes === undefined ? Math.max(0, total - offset) : Number(o.bytes);
      return count % (type?.BYTES_PER_ELEMENT ?? 1) !== 0 ? 'invalid' : fits(offset, count, total);
    } },
    { name: 'DeviceBuffer#fill', params: [self(...buffers.slice(0, 5)), int(0, 2 ** 32 - 1, 255),
      options({ elementBytes: values([1, 2, 4], [3, 8, 0, '1']), offset: size(4096), count: size(1024), stream: streams })],
    call: (b, v, o) => c.DeviceBuffer.prototype.fill.call(b, v, o), relation: (b, v, o) => fillRelation(b, v, o) },
    { name: 'DeviceBuffer#prefetch', params: [self(...buffers.slice(0, 5)), location, streams, options({ offset: size(4096), bytes: size(4096) })],
      call: (b, l, s, o) => c.DeviceBuffer.prototype.prefetch.call(b, l, s, o), relation: (b, _l, _s, o) => rangeRelation(b, o) },
    { name: 'DeviceBuffer#advise', params: [self(...buffers.slice(0, 5)), names(keys(E.MemoryAdvice)), optional(location), options({ offset: size(4096), bytes: size(4096) })],
      call: (b, a, l, o) => c.DeviceBuffer.prototype.advise.call(b, a, l, o), relation: (b, _a, _l, o) => rangeRelation(b, o) },
    { name: 'DeviceBuffer#rangeAttributes', params: [self(...buffers.slice(0, 5)), options({ offset: size(4096), bytes: size(4096) })],
      call: (b, o) => c.DeviceBuffer.prototype.rangeAttributes.call(b, o), relation: (b, o) => rangeRelation(b, o) },
    { name: 'HostBuffer.alloc', params: [alloc(), options({ device, portable: bool, mapped: bool, writeCombined: bool })], call: (b, o) => c.HostBuffer.alloc(b, o) },
    // register takes its buffer over: each call gets buffers of its own.
    { name: 'HostBuffer.register', params: [made([() => new ArrayBuffer(4096), () => new Uint8Array(100), () => Buffer.alloc(10)],
      [() => new ArrayBuffer(0), () => 5, () => null, () => 'x', () => [1], () => new Uint8Array(new SharedArrayBuffer(64)), () => new SharedArrayBuffer(64),
        () => new Uint8Array(resizableBuffer(64, 128)), () => resizableBuffer(64, 128), shrunkView, detachedView,
        () => Buffer.from('pooled')]),
      options({ device, portable: bool, mapped: bool, readOnly: bool })], call: (b, o) => c.HostBuffer.register(b, o) },
    ...['address', 'size', 'registered', 'devicePointer', 'arrayBuffer'].map((name): Target => ({ name: `HostBuffer#${name}`,
      params: [self('hostBuffer', 'registeredBuffer')], call: getter(c.HostBuffer.prototype, name) })),
    { name: 'HostBuffer#view', params: [self('hostBuffer', 'registeredBuffer'), values([undefined, Uint8Array, Float64Array, DataView], [5, {}, 'x'])],
      call: (h, type) => c.HostBuffer.prototype.view.call(h, type) },
    { name: 'copy', params: [bytes, bytes, options({ dstOffset: size(4096), srcOffset: size(4096), bytes: size(4096), stream: streams })],
      call: (d, s, o) => c.copy(d, s, o), relation: (d, s, o) => copyRelation(d, s, o) },
    { name: 'copy2D', params: [pitched(false), pitched(false), size(256), size(16), options({ stream: streams, unaligned: bool })],
      call: (d, s, w, h, o) => c.copy2D(d, s, w, h, o),
      relation: (d, s, w, h, o) => (o?.unaligned && o?.stream ? 'invalid'
        : both(pitchedRelation({ ...d, rowsPerSlice: undefined }, w, h, 1), pitchedRelation({ ...s, rowsPerSlice: undefined }, w, h, 1), overlapRelation(d, s))) },
    { name: 'copy3D', params: [pitched(), pitched(), requiredOptions({ width: required(size(64)), height: required(size(8)), depth: required(size(4)) }),
      options({ stream: streams })],
    call: (d, s, e, o) => c.copy3D(d, s, e, o),
    relation: (d, s, e) => both(pitchedRelation(d, e.width, e.height, e.depth), pitchedRelation(s, e.width, e.height, e.depth), overlapRelation(d, s)) },
    { name: 'copyBatch', params: [array(requiredOptions({ dst: required(memory), src: required(memory), dstOffset: size(4096), srcOffset: size(4096),
      bytes: required(size(4096)) }), 3, 1), streams],
    call: (list, s) => c.copyBatch(list, s),
    relation: (list) => both(...list.map((x: Record<string, unknown>) => Number(x.bytes) === 0 ? 'invalid' as const
      : both(fits(num(x.dstOffset, 0), Number(x.bytes), sizeOfBytes(x.dst)), fits(num(x.srcOffset, 0), Number(x.bytes), sizeOfBytes(x.src)),
        x.dst === x.src ? 'unknown' : 'valid'))) },
    { name: 'fill', params: [memory, int(0, 2 ** 32 - 1, 255), options({ elementBytes: values([1, 2, 4], [3, 8, '1']), offset: size(4096), count: size(1024), stream: streams })],
      call: (m, v, o) => c.fill(m, v, o), relation: (m, v, o) => fillRelation(m, v, o) },
    // The value's range depends on elementBytes: the relation judges it, as for fill.
    { name: 'fill2D', params: [memory, int(0, 2 ** 32 - 1, 255), requiredOptions({ pitch: required(size(512)), width: required(size(128)), height: required(size(16)), offset: size(4096) }),
      options({ elementBytes: values([1, 2, 4], [3, '4']), stream: streams })],
    call: (m, v, r, o) => c.fill2D(m, v, r, o), relation: (m, v, r, o) => fill2DRelation(m, v, r, o) },
    { name: 'memoryInfo', params: [device], call: (d) => c.memoryInfo(d) },
    { name: 'addressRange', params: [values([...memoryKinds.flatMap((k) => world.live(k)), 0n, 0x1000n, 2n ** 64n - 1n], [-1n, 2n ** 64n, 5, null, 'p', {}]),
      optional(size(4096))], call: (p, o) => c.addressRange(p, o),
    relation: (p, o) => (typeof p === 'bigint' ? 'valid' : fits(num(o, 0), 0, sizeOfBytes(p))) },
    { name: 'pointerAttribute', params: [values([...memoryKinds.flatMap((k) => world.live(k)), 0n, 0x1000n], [-1n, 5, null]),
      names(keys(E.PointerAttribute).filter((n) => n !== 'accessFlags' || true)), optional(size(4096))],
    call: (p, n, o) => c.pointerAttribute(p, n, o), relation: (p, _n, o) => (typeof p === 'bigint' ? 'valid' : fits(num(o, 0), 0, sizeOfBytes(p))) },
    { name: 'pointerAttributes', params: [values([...memoryKinds.flatMap((k) => world.live(k)), 0n, 0x1000n], [-1n, 5, null]),
      optional(array(names(keys(E.PointerAttribute)), 4)), optional(size(4096))],
    call: (p, n, o) => c.pointerAttributes(p, n, o), relation: (p, _n, o) => (typeof p === 'bigint' ? 'valid' : fits(num(o, 0), 0, sizeOfBytes(p))) },
    { name: 'setSyncMemops', params: [memory, bool], call: (m, e) => c.setSyncMemops(m, e) },
    { name: 'MemoryPool.create', params: [options({ location, handleTypes: handleTypes(), maxSize: driverSize(1 << 30) })],
      call: (o) => c.MemoryPool.create(o) },
    { name: 'MemoryPool.defaultFor', params: [device], call: (d) => c.MemoryPool.defaultFor(d) },
    { name: 'MemoryPool.currentFor', params: [device], call: (d) => c.MemoryPool.currentFor(d) },
    { name: 'MemoryPool.setCurrentFor', params: [device, handle('pool')], call: (d, p) => c.MemoryPool.setCurrentFor(d, p), after: restorePool },
    { name: 'MemoryPool.forLocation', params: [location, options({ current: bool })], call: (l, o) => c.MemoryPool.forLocation(l, o) },
    { name: 'MemoryPool.setCurrentForLocation', params: [location, handle('pool')], call: (l, p) => c.MemoryPool.setCurrentForLocation(l, p), after: restorePool },
    ...['handle', 'owned', 'releaseThreshold', 'device'].map((name): Target => ({ name: `MemoryPool#${name}`, params: [self('pool')],
      call: getter(c.MemoryPool.prototype, name) })),
    { name: 'MemoryPool#attribute', params: [self('pool'), names(keys(E.PoolAttribute))], call: (p, n) => c.MemoryPool.prototype.attribute.call(p, n) },
    { name: 'MemoryPool#setAttribute', params: [self('pool'), values([['releaseThreshold', 0], ['releaseThreshold', 1 << 20], ['reuseAllowOpportunistic', true],
      ['reuseFollowEventDependencies', false], ['usedMemHigh', 0], ['reservedMemHigh', 0]],
    [['releaseThreshold', -1], ['releaseThreshold', 0.5], ['reuseAllowOpportunistic', 'yes'], ['nope', 1], ['usedMemCurrent', 0]])],
    call: (p, [n, v]) => c.MemoryPool.prototype.setAttribute.call(p, n, v) },
    { name: 'MemoryPool#trimTo', params: [self('pool'), driverSize(1 << 20)], call: (p, n) => c.MemoryPool.prototype.trimTo.call(p, n) },
    { name: 'MemoryPool#setAccess', params: [self('pool'), array(requiredOptions({ device, access: required(names(keys(E.MemoryAccess))) }), 2)],
      call: (p, e) => c.MemoryPool.prototype.setAccess.call(p, e) },
    { name: 'MemoryPool#access', params: [self('pool'), device], call: (p, d) => c.MemoryPool.prototype.access.call(p, d) },
    { name: 'prefetchBatch', params: [array(requiredOptions({ memory: required(memory), offset: size(4096), bytes: size(4096) }), 2), location, streams,
      options({ discardFirst: bool })], call: (l, loc, s, o) => c.prefetchBatch(l, loc, s, o),
    relation: (list) => both(...list.map((r: Record<string, unknown>) => rangeRelation(r.memory, r))) },
    { name: 'discardBatch', params: [array(requiredOptions({ memory: required(memory), offset: size(4096), bytes: size(4096) }), 2), streams],
      call: (l, s) => c.discardBatch(l, s), relation: (list) => both(...list.map((r: Record<string, unknown>) => rangeRelation(r.memory, r))) },
    // ---- graphs
    { name: 'Graph.create', params: [options({ dataflow: bool })], call: (o) => c.Graph.create(o) },
    ...['handle', 'nodeCount', 'resourceCount'].map((name): Target => ({ name: `Graph#${name}`, params: [self('graph', 'builderGraph')],
      call: getter(c.Graph.prototype, name) })),
    // How the graph was made stays readable after dispose.
    { name: 'Graph#dataflow', params: [selfOrDisposed('graph', 'builderGraph')], call: getter(c.Graph.prototype, 'dataflow') },
    { name: 'Graph#addNode', params: [self('builderGraph'), values(nodeParams(world).good, nodeParams(world).bad), nodeOptions()],
      call: (g, p, o) => c.Graph.prototype.addNode.call(g, p, o), after: () => world.pruneBuilder() },
    { name: 'Graph#addKernel', params: [self('builderGraph'), handle(...kernels), launchShape(), values(goodArgs, badArgs), nodeOptions()],
      call: (g, k, s, a, o) => c.Graph.prototype.addKernel.call(g, k, s, a, o), relation: (_g, k, _s, a) => argsFit(k, a, world),
      after: () => world.pruneBuilder() },
    { name: 'Graph#addCopy', params: [self('builderGraph'), memory, memory, options({ dstOffset: size(4096), srcOffset: size(4096), bytes: size(4096) }), nodeOptions()],
      call: (g, d, s, x, o) => c.Graph.prototype.addCopy.call(g, d, s, x, o), relation: (_g, d, s, x) => copyRelation(d, s, x),
      after: () => world.pruneBuilder() },
    { name: 'Graph#addFill', params: [self('builderGraph'), memory, int(0, 2 ** 32 - 1, 255),
      options({ elementBytes: values([1, 2, 4], [3, '2']), offset: size(4096), count: size(1024) }), nodeOptions()],
    call: (g, m, v, f, o) => c.Graph.prototype.addFill.call(g, m, v, f, o), relation: (_g, m, v, f) => fillRelation(m, v, f),
    after: () => world.pruneBuilder() },
    { name: 'Graph#addHost', params: [self('builderGraph'), fn, options({ after: array(handle('builderNode'), 2), label: str(), wait: bool })],
      call: (g, f, o) => c.Graph.prototype.addHost.call(g, f, o), after: () => world.pruneBuilder() },
    { name: 'Graph#addChild', params: [self('builderGraph'), handle('graph'), options({ move: values([false], ['yes', 1]), label: str() })],
      call: (g, x, o) => c.Graph.prototype.addChild.call(g, x, o), after: () => world.pruneBuilder() },
    { name: 'Graph#addEmpty', params: [self('builderGraph'), options({ after: array(handle('builderNode'), 2), edges: edgeLists, label: str(),
      reads: values([undefined], [[{}], 5]) })],
    call: (g, o) => c.Graph.prototype.addEmpty.call(g, o), after: () => world.pruneBuilder(),
    relation: (_g, o) => (o?.edges !== undefined && o.edges.length !== (o.after ?? []).length ? 'invalid' : 'valid') },
    { name: 'Graph#addEventRecord', params: [self('builderGraph'), events, nodeOptions()], call: (g, e, o) => c.Graph.prototype.addEventRecord.call(g, e, o),
      after: () => world.pruneBuilder() },
    { name: 'Graph#addEventWait', params: [self('builderGraph'), events, nodeOptions()], call: (g, e, o) => c.Graph.prototype.addEventWait.call(g, e, o),
      after: () => world.pruneBuilder() },
    { name: 'Graph#addAlloc', params: [self('builderGraph'), alloc(1 << 20), options({ device, peers: array(device, 2) }), nodeOptions()],
      call: (g, b, m, o) => c.Graph.prototype.addAlloc.call(g, b, m, o), after: () => world.pruneBuilder() },
    { name: 'Graph#addFree', params: [self('builderGraph'), handle('graphAllocation', ...memoryKinds), nodeOptions()], call: (g, a, o) => c.Graph.prototype.addFree.call(g, a, o),
      after: () => world.pruneBuilder() },
    { name: 'Graph#addMemoryOps', params: [self('builderGraph'), values(goodOps, badOps), options({ device })],
      call: (g, ops, o) => c.Graph.prototype.addMemoryOps.call(g, ops, o), after: () => world.pruneBuilder() },
    { name: 'Graph#conditionalHandle', params: [self('builderGraph'), options({ defaultValue: int(0, 2 ** 32 - 1), device })],
      call: (g, o) => c.Graph.prototype.conditionalHandle.call(g, o) },
    { name: 'Graph#addIf', params: [self('builderGraph'), handle('conditionalHandle'), options({ withElse: bool })],
      call: (g, h, o) => c.Graph.prototype.addIf.call(g, h, o), after: () => world.pruneBuilder() },
    { name: 'Graph#addWhile', params: [self('builderGraph'), handle('conditionalHandle'), options({ label: str() })],
      call: (g, h, o) => c.Graph.prototype.addWhile.call(g, h, o), after: () => world.pruneBuilder() },
    { name: 'Graph#addSwitch', params: [self('builderGraph'), handle('conditionalHandle'), int(1, 1024, 4), options({ label: str() })],
      call: (g, h, n, o) => c.Graph.prototype.addSwitch.call(g, h, n, o), after: () => world.pruneBuilder() },
    { name: 'Graph#addEdges', params: [self('builderGraph'), array(handle('builderNode'), 2), array(handle('builderNode'), 2), edgeLists],
      call: (g, f, to, d) => c.Graph.prototype.addEdges.call(g, f, to, d),
      relation: (_g, f, to, d) => (f.length !== to.length || (d !== undefined && d.length !== f.length) ? 'invalid' : 'unknown') },
    { name: 'Graph#removeEdges', params: [self('builderGraph'), array(handle('builderNode'), 2), array(handle('builderNode'), 2), edgeLists],
      call: (g, f, to, d) => c.Graph.prototype.removeEdges.call(g, f, to, d),
      relation: (_g, f, to, d) => (f.length !== to.length || (d !== undefined && d.length !== f.length) ? 'invalid' : 'unknown') },
    ...['nodes', 'rootNodes', 'edges', 'topology', 'levels'].map((name): Target => ({ name: `Graph#${name}`, params: [self('graph', 'builderGraph')],
      call: (g) => (c.Graph.prototype as unknown as Record<string, () => unknown>)[name].call(g) })),
    { name: 'Graph#criticalPath', params: [self('graph', 'builderGraph'), optional(fn)], call: (g, w) => c.Graph.prototype.criticalPath.call(g, w) },
    { name: 'Graph#clone', params: [self('graph', 'builderGraph')], call: (g) => c.Graph.prototype.clone.call(g).graph },
    // Flags: a number, a flag's name or a list of names (none: no flags).
    { name: 'Graph#debugDot', params: [self('graph'), optional(values([0, 1, 0x3fff, 'verbose', ['verbose', 'runtimeTypes'], []],
      [-1, 0.5, NaN, 2 ** 53, 'nope', ['nope'], [-1], null, {}, true, 1n]))], call: (g, f) => c.Graph.prototype.debugDot.call(g, f), weight: 0.3 },
    { name: 'Graph#toDot', params: [self('graph', 'builderGraph'), options({ name: str(), levels: bool, direction: values(['TB', 'LR'], ['BT', 5]) })],
      call: (g, o) => c.Graph.prototype.toDot.call(g, o) },
    { name: 'Graph#instantiate', params: [self('graph'), options({ autoFreeOnLaunch: bool, upload: streams, deviceLaunch: bool, useNodePriority: bool })],
      call: (g, o) => c.Graph.prototype.instantiate.call(g, o) },
    { name: 'Graph#retainUserObject', params: [self('builderGraph'), handle('userObject'), options({ count: int(1, 2 ** 20, 4), move: values([false], ['yes', 1]) })],
      call: (g, u, o) => c.Graph.prototype.retainUserObject.call(g, u, o) },
    { name: 'Graph#releaseUserObject', params: [self('builderGraph'), handle('userObject'), optional(int(1, 2 ** 20, 2))],
      call: (g, u, n) => c.Graph.prototype.releaseUserObject.call(g, u, n) },
    // ---- nodes
    ...['handle', 'type'].map((name): Target => ({ name: `GraphNode#${name}`, params: [self('node', 'builderNode')], call: getter(c.GraphNode.prototype, name) })),
    ...['dependencies', 'dependents', 'params'].map((name): Target => ({ name: `GraphNode#${name}`, params: [self('node', 'builderNode')],
      call: (n) => (c.GraphNode.prototype as unknown as Record<string, () => unknown>)[name].call(n) })),
    { name: 'GraphNode#setParams', params: [self('builderNode'), values(nodeParams(world).good, nodeParams(world).bad)],
      call: (n, p) => c.GraphNode.prototype.setParams.call(n, p) },
    { name: 'GraphNode#destroy twice', params: [],
      call: () => {
        const node = builder!.addEmpty();
        node.destroy();
        node.destroy();
      },
      relation: () => 'invalid' },
    // ---- executables
    ...['handle', 'flags'].map((name): Target => ({ name: `GraphExec#${name}`, params: [self('exec')], call: getter(c.GraphExec.prototype, name) })),
    { name: 'GraphExec#launch', params: [self('exec'), streams], call: (e, s) => c.GraphExec.prototype.launch.call(e, s) },
    { name: 'GraphExec#run', params: [self('exec'), streams], call: (e, s) => c.GraphExec.prototype.run.call(e, s) },
    { name: 'GraphExec#upload', params: [self('exec'), streams], call: (e, s) => c.GraphExec.prototype.upload.call(e, s) },
    { name: 'GraphExec#update', params: [self('exec'), handle('graph', 'builderGraph')], call: (e, g) => c.GraphExec.prototype.update.call(e, g) },
    { name: 'GraphExec#setParams', params: [self('exec'), handle('node'), values(nodeParams(world).good, nodeParams(world).bad)],
      call: (e, n, p) => c.GraphExec.prototype.setParams.call(e, n, p) },
    { name: 'GraphExec#setChildGraph', params: [self('exec'), handle('node'), handle('graph')], call: (e, n, g) => c.GraphExec.prototype.setChildGraph.call(e, n, g) },
    { name: 'GraphExec#setEnabled', params: [self('exec'), handle('node'), bool], call: (e, n, b) => c.GraphExec.prototype.setEnabled.call(e, n, b),
      after: () => {
        try {
          (world.live('exec')[0] as Cuda.GraphExec).setEnabled(world.live('node')[0] as Cuda.GraphNode, true);
        } catch {
          // not supported here
        }
      } },
    { name: 'GraphExec#isEnabled', params: [self('exec'), handle('node')], call: (e, n) => c.GraphExec.prototype.isEnabled.call(e, n) },
    // ---- captures: begun, used and ended in one call
    { name: 'StreamCapture session', params: [handle('stream'), options({ mode: names(['threadLocal', 'relaxed', 'global']), into: handle('builderGraph'),
      after: array(handle('builderNode'), 2) }), values([[], undefined], [5, [null]])],
    call: (s: Cuda.Stream, o, deps) => {
      const capture = c.Stream.prototype.beginCapture.call(s, o);
      try {
        capture.info();
        if (deps !== undefined && o?.into) capture.setDependencies(deps);
        if (stream) c.copy(world.live('smallBuffer')[0] as Cuda.DeviceBuffer ?? new Uint8Array(4), new Uint8Array(4), { stream: s });
        const graph = capture.end();
        graph?.dispose();
        capture.end(); // a second end must be refused
      } finally {
        capture[Symbol.dispose]();
      }
    },
    relation: () => 'invalid', after: () => world.pruneBuilder() },
    // ---- user objects
    { name: 'UserObject.create', params: [fn], call: (f) => c.UserObject.create(f) },
    { name: 'UserObject#references', params: [self('userObject')], call: getter(c.UserObject.prototype, 'references') },
    { name: 'UserObject#retain then release', params: [self('userObject'), optional(int(1, 2 ** 20, 8))],
      call: (u, n) => {
        c.UserObject.prototype.retain.call(u, n);
        c.UserObject.prototype.release.call(u, n);
      } },
    { name: 'UserObject release, then retain', params: [optional(int(1, 2 ** 20, 2))],
      // a fresh object holds one reference: releasing more is refused, and once it holds none, retaining must be refused too
      call: (n) => {
        const u = c.UserObject.create(() => undefined);
        try {
          u.release(n);
          u.retain(1);
        } finally {
          u.dispose();
        }
      },
      relation: () => 'invalid' },
    // ---- code
    // Not 'not an image': a driver that loads lazily accepts any text until a kernel is asked for (seen on the H200).
    { name: 'Library.load', params: [values(world.code !== undefined ? [world.code] : [], ['', new Uint8Array(0), 5, null, 'a\0b']),
      options({ jit: options({ maxRegisters: int(0, 255, 64), optimizationLevel: int(0, 4), generateLineInfo: bool, logVerbose: bool }) })],
    call: (code, o) => c.Library.load(code, o), weight: 0.5 },
    { name: 'Library.loadFile', params: [str([tmpFile, '/nonexistent/file']), options({})], call: (p, o) => c.Library.loadFile(p, o), weight: 0.5 },
    { name: 'Module.load', params: [values(world.code !== undefined ? [world.code] : [], ['', 5, null, 'a\0b']), options({ context: handle(...contexts) })],
      call: (code, o) => c.Module.load(code, o), weight: 0.5 },
    { name: 'Module.loadingMode', params: [], call: () => c.Module.loadingMode() },
    ...['handle', 'jitLog', 'kernelCount'].map((name): Target => ({ name: `Library#${name}`, params: [self('library')], call: getter(c.Library.prototype, name) })),
    { name: 'Library#kernel', params: [self('library'), str(['k', 'empty', 'nope', ''])], call: (l, n) => c.Library.prototype.kernel.call(l, n) },
    { name: 'Library#kernels', params: [self('library')], call: (l) => c.Library.prototype.kernels.call(l) },
    { name: 'Library#global', params: [self('library'), str(['counter', 'nope']), optional(handle(...contexts))], call: (l, n, x) => c.Library.prototype.global.call(l, n, x) },
    { name: 'Library#managed', params: [self('library'), str(['counter', 'nope'])], call: (l, n) => c.Library.prototype.managed.call(l, n) },
    { name: 'Library#unifiedFunction', params: [self('library'), str(['k', 'nope'])], call: (l, n) => c.Library.prototype.unifiedFunction.call(l, n) },
    { name: 'Library#module', params: [self('library'), optional(handle(...contexts))], call: (l, x) => c.Library.prototype.module.call(l, x) },
    ...['handle', 'jitLog', 'ownedByLibrary', 'functionCount'].map((name): Target => ({ name: `Module#${name}`, params: [self('module')], call: getter(c.Module.prototype, name) })),
    { name: 'Module#function', params: [self('module'), str(['k', 'empty', 'nope'])], call: (m, n) => c.Module.prototype.function.call(m, n) },
    { name: 'Module#functions', params: [self('module')], call: (m) => c.Module.prototype.functions.call(m) },
    { name: 'Module#global', params: [self('module'), str(['counter', 'nope'])], call: (m, n) => c.Module.prototype.global.call(m, n) },
    ...['name', 'kind', 'handle', 'params'].map((name): Target => ({ name: `Kernel#${name}`, params: [self(...kernels)], call: getter(c.Kernel.prototype, name) })),
    { name: 'Kernel#attribute', params: [self(...kernels), names(keys(E.FunctionAttribute), [0, 1, 99]), optional(device)],
      call: (k, n, d) => c.Kernel.prototype.attribute.call(k, n, d) },
    { name: 'Kernel#attributes', params: [self(...kernels), optional(device)], call: (k, d) => c.Kernel.prototype.attributes.call(k, d), weight: 0.3 },
    { name: 'Kernel#setAttribute', params: [self(...kernels), names(['maxDynamicSharedSizeBytes', 'preferredSharedMemoryCarveout', 'maxThreadsPerBlock']),
      int(-(2 ** 31), 2 ** 31 - 1, 1024), optional(device)], call: (k, n, v, d) => c.Kernel.prototype.setAttribute.call(k, n, v, d) },
    { name: 'Kernel#setMaxDynamicSharedMemory', params: [self(...kernels), int(0, 2 ** 31 - 1, 49152), optional(device)],
      call: (k, b, d) => c.Kernel.prototype.setMaxDynamicSharedMemory.call(k, b, d) },
    { name: 'Kernel#isLoaded', params: [self(...kernels), optional(handle(...contexts))], call: (k, x) => c.Kernel.prototype.isLoaded.call(k, x) },
    { name: 'Kernel#load', params: [self(...kernels), optional(handle(...contexts))], call: (k, x) => c.Kernel.prototype.load.call(k, x) },
    { name: 'Kernel#maxActiveBlocksPerMultiprocessor', params: [self(...kernels), int(1, 2 ** 31 - 1, 1024),
      options({ dynamicSharedMemory: size(1 << 16), disableCachingOverride: bool, context: handle(...contexts) })],
    call: (k, b, o) => c.Kernel.prototype.maxActiveBlocksPerMultiprocessor.call(k, b, o) },
    { name: 'Kernel#maxPotentialBlockSize', params: [self(...kernels), options({ dynamicSharedMemory: values([0, 1024, () => 0, (b: number) => b * 4],
      [-1, 'x', () => -1, () => 'x', () => { throw new RangeError('from the callback'); }]), blockSizeLimit: int(0, 2 ** 31 - 1, 1024), disableCachingOverride: bool })],
    call: (k, o) => c.Kernel.prototype.maxPotentialBlockSize.call(k, o) },
    { name: 'Kernel#availableDynamicSharedMemoryPerBlock', params: [self(...kernels), int(1, 2 ** 31 - 1, 32), int(1, 2 ** 31 - 1, 1024)],
      call: (k, n, b) => c.Kernel.prototype.availableDynamicSharedMemoryPerBlock.call(k, n, b) },
    { name: 'Kernel#maxPotentialClusterSize', params: [self(...kernels), launchShape({ cluster: smallDim })],
      call: (k, s) => c.Kernel.prototype.maxPotentialClusterSize.call(k, s) },
    { name: 'Kernel#maxActiveClusters', params: [self(...kernels), launchShape({ cluster: smallDim })],
      call: (k, s) => c.Kernel.prototype.maxActiveClusters.call(k, s) },
    { name: 'Kernel#launch', params: [self(...kernels), launchShape({ stream: required(streams) }), values(goodArgs, badArgs)],
      call: (k, config, a) => c.Kernel.prototype.launch.call(k, config, a), relation: (k, _c, a) => argsFit(k, a, world), weight: 2 },
    { name: 'Kernel#prepare', params: [self(...kernels), launchShape({ stream: required(streams) }),
      values([['ptr', 'i32', 'f64'], ['u64', 'u32', 'i64'], [{ bytes: 8 }, 'f32', 'u64'], []],
        [['ptr'], ['ptr', 'i32'], ['f64', 'f64', 'f64', 'f64'], ['nope', 'i32', 'f64'], [{ bytes: 0 }, 'i32', 'f64'], null, 5, [{ bytes: 8, align: 3 }, 'i32', 'f64']])],
    call: (k, config, types) => c.Kernel.prototype.prepare.call(k, config, types),
    relation: (k, _c, types) => ((k.name === 'empty') === (types.length === 0) ? 'valid' : 'invalid') },
    { name: 'PreparedLaunch#set', params: [self('preparedLaunch'), values([0, 1, 2], [-1, 3, 0.5, '0', 'length', '__proto__', null, 2 ** 32]),
      values([0, 1, 2n, null, 1.5], [undefined, 'x', -1n, {}, 2n ** 64n])],
    call: (p, i, v) => c.PreparedLaunch.prototype.set.call(p, i, v),
    relation: (_p, i, v) => {
      if (i === 0) return v === null || typeof v === 'bigint' ? 'valid' : 'invalid';
      if (i === 1) return typeof v === 'number' && Number.isInteger(v) ? 'valid' : 'invalid';
      return typeof v === 'number' ? 'valid' : 'invalid';
    } },
    { name: 'PreparedLaunch#setAll', params: [self('preparedLaunch'), values([[null, 1, 2], [0n, 0, 0]], [[null, 1], [1, 2, 3, 4], null, 5, [null, 0.5, 1]])],
      call: (p, v) => c.PreparedLaunch.prototype.setAll.call(p, v) },
    { name: 'PreparedLaunch#launch', params: [self('preparedLaunch')], call: (p) => c.PreparedLaunch.prototype.launch.call(p) },
    { name: 'arg.*', params: [str(Object.keys(c.arg)), anything([0, 1, -1, 0.5, 2 ** 40, 1n, -1n, 2n ** 64n, null, 'x', new Uint8Array(8), undefined])],
      // A name that is no string is looked up as none (indexing with it would convert it, here rather than in the library).
      call: (type, v) => (c.arg as Record<string, (v: unknown) => unknown>)[typeof type === 'string' ? type : ''](v) },
    { name: 'fromFloat16Bits', params: [int(0, 65535)], call: (b) => c.fromFloat16Bits(b) },
    { name: 'toFloat16Bits', params: [{ kind: 'number' }], call: (v) => c.toFloat16Bits(v) },
    { name: 'fromBFloat16Bits', params: [int(0, 65535)], call: (b) => c.fromBFloat16Bits(b) },
    { name: 'toBFloat16Bits', params: [{ kind: 'number' }], call: (v) => c.toBFloat16Bits(v) },
    // An option with a space after it is not drawn as a refused one: NVRTC takes '-lineinfo '.
    { name: 'compile', params: [values(['extern "C" __global__ void f() {}', ''], [5, null, 'a\0b']),
      options({ name: values(['x.cu', ''], [5]), arch: values([undefined, 'compute_75', 'sm_80'], [-1, 'sm_', 'sm_1', {}]), output: values(['ptx', 'cubin'], ['elf', 1]),
        options: array(values(['-lineinfo', '-std=c++17'], ['nope', 5]), 2), defines: values([{ A: 1 }, { B: true }], [{ A: null }, 5]) })],
    call: (s, o) => c.compile(s, o), weight: 0.1 },
    { name: 'nvrtcStatus', params: [], call: () => c.nvrtcStatus() },
    // ---- virtual memory
    { name: 'allocationGranularity', params: [options({ location, handleTypes: handleTypes(), compression: bool }),
      optional(names(['minimum', 'recommended']))], call: (o, k) => c.allocationGranularity(o, k) },
    { name: 'roundToGranularity', params: [size(1 << 30), int(1, Number.MAX_SAFE_INTEGER, 1 << 21)], call: (b, g) => c.roundToGranularity(b, g) },
    { name: 'PhysicalAllocation.create', params: [alloc(4 << 20), options({ location, handleTypes: handleTypes(),
      granularity: names(['minimum', 'recommended']), gpuDirectRdma: bool })], call: (b, o) => c.PhysicalAllocation.create(b, o), weight: 0.5 },
    { name: 'PhysicalAllocation.retain', params: [values([...['mapping', 'growable'].flatMap((k) => world.live(k)), 0n], [5, null, 'x']), optional(size(4096))],
      call: (p, o) => c.PhysicalAllocation.retain(p, o) },
    ...['handle', 'size', 'device'].map((name): Target => ({ name: `PhysicalAllocation#${name}`, params: [self('physicalAllocation')],
      call: getter(c.PhysicalAllocation.prototype, name) })),
    { name: 'PhysicalAllocation#properties', params: [self('physicalAllocation')], call: (a) => c.PhysicalAllocation.prototype.properties.call(a) },
    { name: 'PhysicalAllocation#exportFd', params: [self('physicalAllocation')], call: (a) => c.PhysicalAllocation.prototype.exportFd.call(a) },
    { name: 'AddressReservation.reserve', params: [alloc(16 << 20), options({ device, alignment: values([0, 1 << 21, 1 << 30], [3, -1, 0.5, 'x']),
      address: values([0n, 1n << 40n], [5, -1n, 2n ** 64n]) })], call: (b, o) => c.AddressReservation.reserve(b, o), weight: 0.5 },
    ...['address', 'size', 'alignment', 'device'].map((name): Target => ({ name: `AddressReservation#${name}`, params: [self('reservation')],
      call: getter(c.AddressReservation.prototype, name) })),
    { name: 'AddressReservation#map', params: [self('reservation'), handle('physicalAllocation'),
      options({ offset: size(8 << 20), allocationOffset: size(4 << 20), bytes: size(4 << 20) })],
    call: (r, a, o) => c.AddressReservation.prototype.map.call(r, a, o), weight: 0.5 },
    { name: 'Mapping.alloc', params: [alloc(4 << 20), options({ location, handleTypes: handleTypes() })],
      call: (b, o) => c.Mapping.alloc(b, o), weight: 0.5 },
    { name: 'Mapping.map', params: [handle('reservation'), handle('physicalAllocation'), options({ offset: size(8 << 20), bytes: size(4 << 20) })],
      call: (r, a, o) => c.Mapping.map(r, a, o), weight: 0.5 },
    ...['address', 'size', 'device'].map((name): Target => ({ name: `Mapping#${name}`, params: [self('mapping')], call: getter(c.Mapping.prototype, name) })),
    { name: 'Mapping#segments', params: [self('mapping')], call: (m) => c.Mapping.prototype.segments.call(m) },
    { name: 'Mapping#setAccess', params: [self('mapping'), array(requiredOptions({ location: required(location), access: required(names(keys(E.MemoryAccess))) }), 2)],
      call: (m, e) => c.Mapping.prototype.setAccess.call(m, e), after: () => restoreAccess(world, 'mapping') },
    { name: 'Mapping#access', params: [self('mapping'), location, optional(size(2 << 20))], call: (m, l, o) => c.Mapping.prototype.access.call(m, l, o) },
    { name: 'GrowableBuffer.create', params: [requiredOptions({ maxSize: required(alloc(64 << 20)), size: size(4 << 20), device,
      handleTypes: handleTypes() })], call: (o) => c.GrowableBuffer.create(o), weight: 0.5,
    relation: (o) => (Number(o.size ?? 0) > Number(o.maxSize) ? 'invalid' : 'valid') },
    ...['address', 'size', 'capacity', 'device'].map((name): Target => ({ name: `GrowableBuffer#${name}`, params: [self('growable')],
      call: getter(c.GrowableBuffer.prototype, name) })),
    // The size reserved up front stays readable after dispose.
    { name: 'GrowableBuffer#maxSize', params: [selfOrDisposed('growable')], call: getter(c.GrowableBuffer.prototype, 'maxSize') },
    { name: 'GrowableBuffer#resize', params: [self('growable'), size(8 << 20)], call: (g, b) => c.GrowableBuffer.prototype.resize.call(g, b) },
    { name: 'GrowableBuffer#segments', params: [self('growable')], call: (g) => c.GrowableBuffer.prototype.segments.call(g) },
    { name: 'GrowableBuffer#access', params: [self('growable'), location, optional(size(2 << 20))], call: (g, l, o) => c.GrowableBuffer.prototype.access.call(g, l, o) },
    { name: 'memoryAccess', params: [values([...['mapping', 'growable'].flatMap((k) => world.live(k)), 0n], [5, null]), location, optional(size(2 << 20))],
      call: (p, l, o) => c.memoryAccess(p, l, o) },
    { name: 'exportDmaBuf', params: [memory, options({ offset: size(1 << 20), bytes: size(1 << 20) })], call: (m, o) => c.exportDmaBuf(m, o), weight: 0.3 },
    // ---- sharing
    { name: 'shareMemory', params: [memory, options({ viewOffset: size(4096), viewBytes: size(4096), handleType: values(['posixFileDescriptor'], ['nope', 8, null]) })],
      call: (m, o) => c.shareMemory(m, o), weight: 0.5 },
    { name: 'openSharedMemory', params: [values(descriptor ? [descriptor] : [], [null, 5, {}, { ...(descriptor ?? {}), version: 99 }, { ...(descriptor ?? {}), size: -1 },
      { ...(descriptor ?? {}), id: 'x' }, 'descriptor']), options({ device, timeoutMs: values([0, 0.5, 10, Infinity], [-1, NaN, 'x', 2 ** 32]) })],
    call: (d, o) => c.openSharedMemory(d, o), weight: 0.5 },
    { name: 'validateMemoryDescriptor', params: [anything([null, 5, {}, descriptor, { ...(descriptor ?? {}), format: 'x' }, { ...(descriptor ?? {}), segments: 'x' }])],
      call: (d) => c.validateMemoryDescriptor(d) },
    { name: 'shareEvent', params: [handle('event', 'timingEvent')], call: (e) => c.shareEvent(e), weight: 0.3 },
    { name: 'openSharedEvent', params: [values([], [null, 5, {}, { format: 'cuda-driver/shared-event' }]), options({ device })],
      call: (d, o) => c.openSharedEvent(d, o) },
    { name: 'exportPool', params: [handle('pool', 'asyncBuffer'), options({ handleType: values(['posixFileDescriptor'], ['nope', 3]) })],
      call: (p, o) => c.exportPool(p, o) },
    { name: 'exportPoolPointer', params: [handle('asyncBuffer')], call: (b) => c.exportPoolPointer(b) },
    { name: 'OwnedFd#fd', params: [self('ownedFd')], call: getter(c.OwnedFd.prototype, 'fd') },
    { name: 'FdChannelServer.listen', params: [values([undefined, null, { abstract: 'cuda-driver-fuzz' }], [5, { abstract: 5 }, { abstract: '' }, '']),
      options({ backlog: int(1, 65535) })], call: (a, o) => c.FdChannelServer.listen(a, o), weight: 0.3 },
    { name: 'FdChannelServer#accept', params: [self('fdServer'), waitOptions([{ timeoutMs: 1, peerUid: null }, { timeoutMs: 0, peerUid: 0 }], [{ timeoutMs: 1, peerUid: -1 }])],
      call: (s, o) => c.FdChannelServer.prototype.accept.call(s, o), relation: () => 'unknown', weight: 0.3 },
    { name: 'FdChannel.connect', params: [values([{ abstract: 'cuda-driver-fuzz-nobody' }, '/nonexistent/socket'], [5, null, { abstract: 7 }]),
      waitOptions()], call: (a, o) => c.FdChannel.connect(a, o), weight: 0.3 },
    { name: 'FdChannel#peer', params: [self('fdChannel')], call: getter(c.FdChannel.prototype, 'peer') },
    { name: 'FdChannel#send', params: [self('fdChannel'), values([{ a: 1 }, 'text', null, [1, 2]], [undefined, () => 1, 1n, { toJSON: () => { throw new TypeError('no'); } }]),
      values([[], undefined, world.live('ownedFd')], [[-1], [0.5], 'x', [{}], [2 ** 31]]), waitOptions()],
    call: (ch, p, fds, o) => c.FdChannel.prototype.send.call(ch, p, fds, o), weight: 0.3 },
    { name: 'FdChannel#receive', params: [self('fdChannel'), waitOptions()],
      call: (ch, o) => c.FdChannel.prototype.receive.call(ch, o), relation: () => 'unknown', weight: 0.3 },
    // ---- graph analysis and data flow (no driver)
    { name: 'topologicalOrder', params: [nodeCount, edgeList()], call: (n, e) => c.topologicalOrder(n, e), relation: (n, e) => edgeRelation(n, e) },
    { name: 'transitiveReduction', params: [nodeCount, edgeList()], call: (n, e) => c.transitiveReduction(n, e), relation: (n, e) => edgeRelation(n, e) },
    { name: 'levelSets', params: [nodeCount, edgeList()], call: (n, e) => c.levelSets(n, e), relation: (n, e) => edgeRelation(n, e) },
    { name: 'criticalPath', params: [nodeCount, edgeList(), optional(array({ kind: 'finite' }, 8))], call: (n, e, w) => c.criticalPath(n, e, w),
      relation: (n, e, w) => (w !== undefined && w.length !== n ? 'unknown' : edgeRelation(n, e)) },
    { name: 'reaches', params: [nodeCount, edgeList(), int(0, 2 ** 31 - 1, 8), int(0, 2 ** 31 - 1, 8)], call: (n, e, a, b) => c.reaches(n, e, a, b),
      relation: (n, e, a, b) => (a >= n || b >= n ? 'invalid' : edgeRelation(n, e)) },
    { name: 'renderDot', params: [anything([{ nodes: [], edges: [] }, { nodes: [{ id: 'a', label: 'x"y', kind: 'kernel' }], edges: [{ from: 'a', to: 'a' }] }, null, 5, {},
      { nodes: 'x', edges: [] }]), options({ name: str(), levels: bool, direction: values(['TB', 'LR'], ['up']) })], call: (g, o) => c.renderDot(g, o) },
    { name: 'ResourceRange', params: [values([{}, world.live('deviceBuffer')[0] ?? {}], [null, 5, 'x']), optional(size(1 << 20)), optional(size(1 << 20))],
      call: (r, o, b) => new c.ResourceRange(r, o, b) },
    { name: 'DataflowTracker#add', params: [values([{}, 'node', 1]), options({ reads: array(values([{}, new c.ResourceRange({}, 0, 4)], [null, 5]), 2),
      writes: array(values([{}, new c.ResourceRange({}, 4, 4)], [null, 'x']), 2) })],
    call: (n, a) => new c.DataflowTracker().add(n, a) },
  ];
  return t.filter((x) => x !== undefined);
}

/** Handle types: a list of names, one name, or the driver's number. */
function handleTypes(): Param {
  return values([[], ['posixFileDescriptor'], 'posixFileDescriptor', 0, 1], [['nope'], 'nope', -1, 0.5, [1.5], {}, [null], 1n]);
}

/** Options of a wait: always with a short timeout (without one, a wait that nothing ends would hang the run). */
function waitOptions(good: object[] = [], bad: object[] = []): Param {
  return values([{ timeoutMs: 0 }, { timeoutMs: 5 }, { timeoutMs: 0.5 }, ...good],
    [null, 5, 'x', { timeoutMs: -1 }, { timeoutMs: 'x' }, { timeoutMs: NaN }, { timeoutMs: 2 ** 32 }, ...bad]);
}

/** A pitched operand; rowsPerSlice only for 3D copies (2D ones ignore it). */
function pitched(slices = true): Param {
  return requiredOptions({ memory: required(bytes), offset: size(4096), pitch: required(size(512)), ...(slices ? { rowsPerSlice: size(64) } : {}) });
}

function edgeList(): Param {
  return array(values([{ from: 0, to: 1 }, { from: 1, to: 2 }, { from: 2, to: 0 }, { from: 3, to: 3 }],
    [{ from: -1, to: 0 }, { from: 0.5, to: 1 }, null, { from: 'a', to: 0 }, { from: 0 }, 5]), 6);
}

function edgeRelation(n: number, edges: Array<{ from: number; to: number }>): Validity {
  return edges.some((e) => e.from >= n || e.to >= n) ? 'invalid' : 'unknown';
}

function rangeRelation(memoryHandle: unknown, o: { offset?: unknown; bytes?: unknown } | undefined): Validity {
  const total = sizeOfBytes(memoryHandle);
  const offset = num(o?.offset, 0);
  if (total === undefined) return 'unknown';
  const count = o?.bytes === undefined ? Math.max(0, total - offset) : Number(o.bytes);
  return fits(offset, count, total);
}

function copyRelation(dst: unknown, src: unknown, o: { dstOffset?: unknown; srcOffset?: unknown; bytes?: unknown } | undefined): Validity {
  const srcSize = sizeOfBytes(src);
  const dstSize = sizeOfBytes(dst);
  if (srcSize === undefined || dstSize === undefined) return 'unknown';
  const srcOffset = num(o?.srcOffset, 0);
  const dstOffset = num(o?.dstOffset, 0);
  const count = o?.bytes === undefined ? Math.max(0, srcSize - srcOffset) : Number(o.bytes);
  const inside = both(fits(srcOffset, count, srcSize), fits(dstOffset, count, dstSize));
  if (inside !== 'valid') return inside;
  if (dst === src && count > 0 && dstOffset < srcOffset + count && srcOffset < dstOffset + count) return 'invalid';
  // Views of one JavaScript buffer may overlap too; the library does not look inside them.
  return ArrayBuffer.isView(dst) && ArrayBuffer.isView(src) ? 'unknown' : 'valid';
}

function overlapRelation(d: { memory?: unknown }, s: { memory?: unknown }): Validity {
  return d.memory === s.memory ? 'unknown' : 'valid';
}

/** A pitched operand: pitch holds the width, and the rows lie within the memory. */
function pitchedRelation(p: { memory?: unknown; offset?: unknown; pitch?: unknown; rowsPerSlice?: unknown }, width: number, height: number, depth: number): Validity {
  const total = sizeOfBytes(p.memory);
  const w = Number(width), h = Number(height), d = Number(depth);
  if (w === 0 || h === 0 || d === 0) return 'valid';
  const pitch = Number(p.pitch);
  const rows = p.rowsPerSlice === undefined ? h : Number(p.rowsPerSlice);
  if (pitch < w || rows < h) return 'invalid';
  const extent = ((d - 1) * rows + (h - 1)) * pitch + w;
  return fits(num(p.offset, 0), extent, total);
}

function fillRelation(target: unknown, value: number, o: { elementBytes?: unknown; offset?: unknown; count?: unknown } | undefined): Validity {
  const element = Number(o?.elementBytes ?? 1);
  if (value >= 2 ** (8 * element)) return 'invalid';
  const total = sizeOfBytes(target);
  if (total === undefined) return 'unknown';
  const offset = num(o?.offset, 0);
  const count = o?.count === undefined ? Math.floor(Math.max(0, total - offset) / element) : Number(o.count);
  const range = fits(offset, count * element, total);
  // Misaligned fills are refused by the library (the native layer checks addresses).
  if (range === 'valid' && offset % element !== 0 && count > 0) return 'invalid';
  return range;
}

function fill2DRelation(target: unknown, value: number, r: { pitch: unknown; width: unknown; height: unknown; offset?: unknown },
  o: { elementBytes?: unknown } | undefined): Validity {
  const element = Number(o?.elementBytes ?? 1);
  if (value >= 2 ** (8 * element)) return 'invalid';
  const width = Number(r.width), height = Number(r.height), pitch = Number(r.pitch);
  if (width === 0 || height === 0) return 'unknown';
  if (width * element > pitch) return 'invalid';
  const range = fits(num(r.offset, 0), (height - 1) * pitch + width * element, sizeOfBytes(target));
  if (range === 'valid' && (num(r.offset, 0) % element !== 0 || pitch % element !== 0)) return 'invalid';
  return range;
}

function restoreAccess(world: World, kind: string): void {
  const m = world.live(kind)[0] as Cuda.Mapping | undefined;
  try {
    m?.setAccess([{ location: 0, access: 'readwrite' }]);
  } catch {
    // no access control here
  }
}

/** Node parameter objects: ones the library takes, and broken ones. */
function nodeParams(world: World): { good: unknown[]; bad: unknown[] } {
  const buffer = world.live('deviceBuffer')[0];
  const small = world.live('smallBuffer')[0];
  const event = world.live('event')[0];
  const kernel = world.live('kernel')[0];
  const a = world.cuda.arg;
  const good = [
    { type: 'empty' },
    { type: 'host', callback: () => undefined },
    ...(buffer && small ? [{ type: 'memcpy', dst: buffer, src: small, bytes: 16 }, { type: 'memset', target: buffer, value: 1, count: 4 }] : []),
    ...(event ? [{ type: 'eventRecord', event }] : []),
    ...(kernel ? [{ type: 'kernel', kernel, grid: 1, block: 1, args: [a.ptr(null), a.i32(1), a.f64(1)] }] : []),
  ];
  const bad = [
    null, 5, {}, { type: 'nope' }, { type: 'memcpy', dst: 5, src: small }, { type: 'memcpy', dst: buffer, src: small, bytes: 17 },
    { type: 'memset', target: small, value: 256, count: 1 }, { type: 'memset', target: small, value: 1, count: 17 },
    { type: 'memset', target: small, value: 1, elementBytes: 4, count: 5 }, { type: 'host', callback: 5 }, { type: 'eventRecord', event: 5 },
    { type: 'kernel', kernel, grid: 0, block: 1 }, { type: 'kernel', kernel, grid: 1, block: 1, args: [a.i32(1)] }, { type: 'kernel', kernel: {}, grid: 1, block: 1 },
    { type: 'memcpy', dst: buffer, src: world.disposed('smallBuffer')[0] ?? null, bytes: 1 }, { type: 'memAlloc', bytes: -1 },
    { type: 'conditional', handle: 5, kind: 'if', size: 1 },
  ];
  return { good, bad };
}
