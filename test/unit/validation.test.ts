// Bad arguments are refused with a TypeError or RangeError naming the parameter,
// before the driver is called; the raw addon refuses them too, without crashing.
import { checkArray, checkEnum, checkFlags, checkInteger, checkNumber, checkObject, checkOptions, checkSize, checkSize64, flagNames, unlimitedSize } from '../../lib/validate';
import { ContextFlagInput } from '../../lib/context';
import { ContextFlag, DeviceAttribute } from '../../lib/generated/enums';
import { addonPath, fakeDriver, runScript } from '../helpers/subprocess';

describe('argument checks', () => {
  test('integers', () => {
    expect(checkInteger(3, 'n', 0, 5)).toBe(3);
    expect(() => checkInteger(1.5, 'n')).toThrow(new TypeError('n must be an integer, got 1.5'));
    expect(() => checkInteger('3', 'n')).toThrow(TypeError);
    expect(() => checkInteger(NaN, 'n')).toThrow(TypeError);
    expect(() => checkInteger(Infinity, 'n')).toThrow(TypeError);
    expect(() => checkInteger(-1, 'ordinal', 0)).toThrow(RangeError);
    expect(() => checkInteger(-1, 'ordinal', 0)).toThrow(/ordinal must be between 0/);
  });

  test('sizes accept non-negative safe integers and bigints that fit', () => {
    expect(checkSize(4096, 'bytes')).toBe(4096);
    expect(checkSize(4096n, 'bytes')).toBe(4096);
    expect(() => checkSize(-1, 'bytes')).toThrow(RangeError);
    expect(() => checkSize(-1n, 'bytes')).toThrow(RangeError);
    expect(() => checkSize(2n ** 64n, 'bytes')).toThrow(RangeError);
    expect(() => checkSize(2 ** 60, 'bytes')).toThrow(RangeError);
    expect(() => checkSize(0.5, 'bytes')).toThrow(TypeError);
    expect(() => checkSize(null, 'bytes')).toThrow(/bytes must be an integer, got null/);
  });

  test('finite numbers, arrays and objects', () => {
    expect(checkNumber(0.5, 'weight', 0)).toBe(0.5);
    expect(() => checkNumber(Infinity, 'weight')).toThrow(new TypeError('weight must be a finite number, got Infinity'));
    expect(() => checkNumber(-1, 'weight', 0)).toThrow(RangeError);
    expect(checkArray([1], 'list')).toEqual([1]);
    expect(() => checkArray('ab', 'list')).toThrow(new TypeError("list must be an array, got 'ab'"));
    const resource = {};
    expect(checkObject(resource, 'resource')).toBe(resource);
    expect(checkObject(Map, 'resource')).toBe(Map);
    expect(() => checkObject(null, 'resource')).toThrow(new TypeError('resource must be an object, got null'));
    expect(() => checkObject(1n, 'resource')).toThrow(TypeError);
  });

  test('enums by name or number; flags by list', () => {
    expect(checkEnum('computeCapabilityMajor', DeviceAttribute, 'name')).toBe(75);
    expect(checkEnum(75, DeviceAttribute, 'name')).toBe(75);
    expect(() => checkEnum('computeCapability', DeviceAttribute, 'name')).toThrow(RangeError);
    expect(() => checkEnum('toString', DeviceAttribute, 'name')).toThrow(RangeError);
    expect(() => checkEnum(-1, DeviceAttribute, 'name')).toThrow(TypeError);
    expect(() => checkEnum({}, DeviceAttribute, 'name')).toThrow(TypeError);
    expect(checkFlags(['schedSpin', 'lmemResizeToMax'], ContextFlag, 'flags')).toBe(0x11);
    expect(checkFlags('schedYield', ContextFlag, 'flags')).toBe(2);
    expect(flagNames(0x14, ContextFlag)).toEqual(['schedBlockingSync', 'lmemResizeToMax']);
  });
});

describe('options objects', () => {
  test('checkOptions names an unknown key, and where a misplaced one goes', () => {
    expect(() => checkOptions({ a: 1 }, 'options', 'f', ['a', 'b'])).not.toThrow();
    expect(() => checkOptions({ c: 1 }, 'options', 'f', ['a', 'b'])).toThrow(new TypeError('options.c is not an option of f; its options are a, b'));
    expect(() => checkOptions({ c: 1 }, 'options', 'f', [])).toThrow(new TypeError('options.c is not an option of f; it takes none'));
    expect(() => checkOptions({ after: [] }, 'memory', 'g', ['device'], { after: 'it goes in the last argument' }))
      .toThrow(new TypeError('memory.after is not an option of g; it goes in the last argument'));
  });

  test('misplaced and unknown options of the public API are TypeErrors; valid calls pass', () => {
    const r = runScript(`const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
      const g = cuda.Graph.create(); const first = g.addEmpty(); const buf = cuda.DeviceBuffer.alloc(64);
      report({
        alloc: t(() => g.addAlloc(64, { after: [first] })),
        fill: t(() => g.addFill(buf, 0, { after: [first] })),
        copy: t(() => g.addCopy(buf, buf, { label: 'x' })),
        nodeTypo: t(() => g.addEmpty({ afer: [first] })),
        childMove: t(() => g.addChild(cuda.Graph.create(), { move: true, label: 'c' })),
        childTypo: t(() => g.addChild(cuda.Graph.create(), { mvoe: true })),
        stream: t(() => cuda.Stream.create({ nonblocking: true })),
        event: t(() => cuda.Event.create({ timing: true, ipc: true })),
        copyCall: t(() => cuda.copy(buf, buf, { offset: 0 })),
        pool: t(() => cuda.MemoryPool.create({ maxSize: 0, releaseThreshold: 0 })),
        instantiate: t(() => g.instantiate({ autoFree: true })),
        validAlloc: t(() => g.addAlloc(64, { device: 0 }, { after: [first], label: 'a' })),
        validFill: t(() => g.addFill(buf, 0, { elementBytes: 4, count: 16 }, { after: [first] })),
        validCopy: t(() => cuda.copy(buf, buf, { dstOffset: 0, srcOffset: 0, bytes: 0 })),
        validStream: t(() => cuda.Stream.create({ nonBlocking: true, priority: 0 })),
      });`, { CUDA_DRIVER_LIBRARY: fakeDriver() });
    expect(r.stderr).toBe('');
    const nodeForm = 'dependencies, edges, reads, writes and labels go in the node options, the last argument';
    expect(r.report).toEqual({
      alloc: `TypeError: memory.after is not an option of addAlloc; ${nodeForm}: graph.addAlloc(bytes, memory, { after })`,
      fill: `TypeError: fill.after is not an option of addFill; ${nodeForm}: graph.addFill(target, value, fill, { after })`,
      copy: `TypeError: copy.label is not an option of addCopy; ${nodeForm}: graph.addCopy(dst, src, copy, { after })`,
      nodeTypo: 'TypeError: options.afer is not an option of addEmpty; its options are after, edges, reads, writes, label',
      childMove: 'no error',
      childTypo: 'TypeError: options.mvoe is not an option of addChild; its options are after, edges, reads, writes, label, move',
      stream: 'TypeError: options.nonblocking is not an option of Stream.create; its options are device, context, nonBlocking, priority',
      event: 'TypeError: options.ipc is not an option of Event.create; its options are device, context, timing, blockingSync, interprocess',
      copyCall: 'TypeError: options.offset is not an option of copy; its options are dstOffset, srcOffset, bytes, stream',
      pool: expect.stringMatching(/^TypeError: options.releaseThreshold is not an option of MemoryPool.create/),
      instantiate: expect.stringMatching(/^TypeError: options.autoFree is not an option of instantiate; its options are autoFreeOnLaunch/),
      validAlloc: 'no error', validFill: 'no error', validCopy: 'no error', validStream: 'no error',
    });
  });
});

describe('64-bit sizes and context flags', () => {
  test('checkSize64 takes numbers and bigints up to 2^64 - 1', () => {
    expect(checkSize64(4096, 'bytes')).toBe(4096n);
    expect(checkSize64(unlimitedSize, 'bytes')).toBe(2n ** 64n - 1n);
    expect(() => checkSize64(2n ** 64n, 'bytes')).toThrow(new RangeError('bytes must be between 0 and 2^64 - 1, got 18446744073709551616'));
    expect(() => checkSize64(-1, 'bytes')).toThrow(RangeError);
    expect(() => checkSize64('1', 'bytes')).toThrow(TypeError);
  });

  test('every context flag has a name, CU_CTX_MAP_HOST included', () => {
    expect(checkFlags(['schedBlockingSync', 'mapHost'], ContextFlagInput, 'flags')).toBe(0x04 | 0x08);
    expect(ContextFlagInput.mapHost).toBe(0x08);
    for (const [name, value] of Object.entries(ContextFlag)) expect(ContextFlagInput[name as keyof typeof ContextFlag]).toBe(value);
  });

  test('a pool releaseThreshold takes a bigint, and MemoryPool.unlimited reads back as itself', () => {
    const r = runScript(`const t = (f) => { try { return f(); } catch (e) { return e.constructor.name + ': ' + e.message; } };
      const pool = cuda.MemoryPool.create();
      pool.releaseThreshold = cuda.MemoryPool.unlimited; const unlimited = String(pool.releaseThreshold);
      pool.releaseThreshold = 1n << 20n; const mib = pool.releaseThreshold;
      pool.setAttribute('releaseThreshold', 4096); const small = pool.attribute('releaseThreshold');
      const ctx = cuda.Device.get(0).createContext(['schedBlockingSync', 'mapHost']); ctx.dispose();
      report({ unlimited, isUnlimited: pool.attribute('releaseThreshold') === 4096 && cuda.MemoryPool.unlimited === 2n ** 64n - 1n,
        mib, small, tooBig: t(() => { pool.releaseThreshold = 2n ** 64n; }), badFlag: t(() => cuda.Device.get(0).createContext('mapHots')) });`,
    { CUDA_DRIVER_LIBRARY: fakeDriver() });
    expect(r.stderr).toBe('');
    expect(r.report).toMatchObject({
      unlimited: '18446744073709551615', isUnlimited: true, mib: 1048576, small: 4096,
      tooBig: 'RangeError: value must be between 0 and 2^64 - 1, got 18446744073709551616',
    });
    expect(r.report.badFlag).toMatch(/^RangeError: flags must be one of .*mapHost/);
  });
});

describe('handles and devices with a stand-in driver', () => {
  const env = () => ({ CUDA_DRIVER_LIBRARY: fakeDriver() });
  const capture = `const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };`;

  test('device arguments are checked before the driver is called', () => {
    const r = runScript(`${capture} const dev = cuda.Device.get(0); cuda.callCounters.enable();
      report({
        negative: t(() => cuda.Device.get(-1)), fraction: t(() => cuda.Device.get(1.5)), text: t(() => cuda.Device.get('0')),
        beyond: t(() => cuda.Device.get(5)), attribute: t(() => dev.attribute('bogus')), attributeType: t(() => dev.attribute({})),
        peer: t(() => dev.canAccessPeer('x')), uuid: t(() => cuda.Device.byUuid('zz')), bus: t(() => cuda.Device.byPciBusId(7)),
        calls: cuda.callCounters.read().map(c => c.name),
      });`, env());
    expect(r.report).toMatchObject({
      negative: 'RangeError: ordinal must be between 0 and 9007199254740991, got -1',
      fraction: 'TypeError: ordinal must be an integer, got 1.5',
      text: "TypeError: ordinal must be an integer, got '0'",
      beyond: 'RangeError: ordinal 5 is out of range: 1 device visible',
      attributeType: expect.stringMatching(/^TypeError: name must be a name of/),
      peer: "TypeError: peer must be a Device, got 'x'",
      uuid: expect.stringMatching(/^RangeError: uuid must be 32 hex digits/),
      bus: 'TypeError: pciBusId must be a string, got 7',
    });
    expect(r.report.attribute).toMatch(/^RangeError: name must be one of maxThreadsPerBlock/);
    // Only Device.get(5) reached the driver, to count devices.
    expect(r.report.calls).toEqual(['cuDeviceGetCount']);
  });

  test('a disposed handle throws DisposedError and never reaches the driver; dispose is idempotent', () => {
    const r = runScript(`${capture} const dev = cuda.Device.get(0);
      const ctx = dev.createContext(); const api = ctx.apiVersion; ctx.dispose(); ctx.dispose();
      cuda.callCounters.enable();
      const after = t(() => ctx.apiVersion); let e; try { ctx.apiVersion } catch (x) { e = x; }
      const scoped = dev.createContext(); scoped[Symbol.dispose]();
      report({ api, after, isDisposedError: e instanceof cuda.DisposedError, handleType: e.handleType,
        calls: cuda.callCounters.read(), disposed: ctx.disposed, scopedDisposed: scoped.disposed, text: String(ctx) });`,
    env());
    expect(r.stderr).toBe('');
    expect(r.report).toMatchObject({
      api: 3020, after: 'DisposedError: Context has been disposed', isDisposedError: true, handleType: 'Context',
      disposed: true, scopedDisposed: true, text: 'Context(disposed)',
    });
    expect(r.report.calls.map((c: { name: string }) => c.name)).not.toContain('cuCtxGetApiVersion');
  });

  test('the raw addon refuses bad arguments and foreign handles with errors, not crashes', () => {
    const r = runScript(`${capture} const native = require(${JSON.stringify(addonPath)});
      const ctx = cuda.Device.get(0).createContext();
      const stream = cuda.Stream.create();
      report({
        notSlot: t(() => native.contextApiVersion({})), otherClass: t(() => native.contextApiVersion(stream.slot)),
        wrongType: t(() => native.deviceName('x')), tooBig: t(() => native.deviceName(2 ** 40)), missing: t(() => native.deviceName()),
        fraction: t(() => native.deviceName(0.5)),
        plainPeer: t(() => native.contextEnablePeerAccess(ctx.slot, {})), streamPeer: t(() => native.contextEnablePeerAccess(ctx.slot, stream.slot)),
        limit: t(() => native.contextSetLimit(ctx.slot, 0, -5)), hugeLimit: t(() => native.contextSetLimit(ctx.slot, 0, 2n ** 70n)),
        factory: t(() => native.setErrorFactory(5)), counting: t(() => native.setCounting('yes')),
      });`, env());
    expect(r.status).toBe(0);
    expect(r.report).toEqual({
      notSlot: 'TypeError: context must be a Context',
      otherClass: 'TypeError: context must be a Context',
      wrongType: 'TypeError: ordinal must be an integer',
      tooBig: 'RangeError: ordinal must be between -2147483648 and 2147483647',
      missing: 'TypeError: ordinal must be an integer',
      fraction: 'TypeError: ordinal must be an integer',
      plainPeer: 'TypeError: peer must be a Context',
      streamPeer: 'TypeError: peer must be a Context',
      limit: 'RangeError: value must be between 0 and 9007199254740991',
      hugeLimit: 'RangeError: value must be between 0 and 2^64-1',
      factory: 'TypeError: factory must be a function',
      counting: 'TypeError: enabled must be a boolean',
    });
  });

  test('an undisposed context is destroyed after garbage collection', () => {
    const log = require('path').join(require('os').tmpdir(), `fake-cuda-gc-${process.pid}`);
    require('fs').rmSync(log, { force: true });
    const r = runScript(`const dev = cuda.Device.get(0);
      (() => { for (let i = 0; i < 3; i++) dev.createContext(); })();
      (async () => { for (let i = 0; i < 20; i++) { global.gc(); await new Promise(r => setTimeout(r, 10)); } report('done'); })();`,
    { ...env(), FAKE_CUDA_LOG: log }, ['--expose-gc']);
    expect(r.report).toBe('done');
    const lines = require('fs').readFileSync(log, 'utf8').trim().split('\n');
    expect(lines.filter((l: string) => l === 'create')).toHaveLength(3);
    expect(lines.filter((l: string) => l === 'destroy')).toHaveLength(3);
  });
});
