// The small CUDA 13 features over the stand-in driver: atomic capabilities,
// device notifications delivered from a driver thread, coredump settings,
// cache configuration, allocation flags of pinned memory, modules the driver
// reads from a file or a fat binary, the GPUDirect RDMA flush and the driver's
// log buffer. Each script runs in its own process.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

const attempt = `const attempt = (f) => { try { const v = f(); return v === undefined ? 'no error' : v; }
  catch (e) { return e.constructor.name + ': ' + (e.code ?? '') + ' ' + e.message; } };`;

function run(body: string, env: Record<string, string> = {}): { report: any; log: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-a2-'));
  const log = path.join(dir, 'log');
  fs.writeFileSync(log, '');
  const r = runScript(`${attempt}
    const dir = ${JSON.stringify(dir)};
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: log, FAKE_CUDA_VERSION: '13000', ...env }, ['--expose-gc']);
  if (r.status !== 0 || r.signal || r.report === undefined) throw new Error(`the child ended with ${r.signal ?? r.status}:\n${r.stderr}`);
  return { report: r.report, log: fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== '') };
}

describe('atomic capabilities', () => {
  test('names in, capability names out, per operation; bad names are refused before the driver', () => {
    const { report } = run(`
      const d = cuda.Device.get(0);
      report({
        host: d.hostAtomicCapabilities(['integer-add', 'float-add', 'float-min']),
        peer: d.peerAtomicCapabilities(d, ['compare-and-swap']),
        all: Object.keys(d.hostAtomicCapabilities()).length,
        badName: attempt(() => d.hostAtomicCapabilities(['add'])),
        empty: attempt(() => d.hostAtomicCapabilities([])),
        notList: attempt(() => d.hostAtomicCapabilities('integer-add')),
        badPeer: attempt(() => d.peerAtomicCapabilities(0, ['and'])),
      });`);
    expect(report).toEqual({
      host: { 'integer-add': ['signed', 'unsigned', 'scalar-32', 'scalar-64'], 'float-add': ['scalar-32', 'scalar-64'], 'float-min': [] },
      peer: { 'compare-and-swap': ['signed', 'unsigned', 'scalar-32', 'scalar-64'] },
      all: 13,
      badName: expect.stringMatching(/^RangeError: +operations\[0\] must be one of integer-add, .*got 'add'/),
      empty: expect.stringMatching(/^RangeError: +operations must name at least one operation/),
      notList: expect.stringMatching(/^TypeError: +operations must be an array/),
      badPeer: expect.stringMatching(/^TypeError: +peer must be a Device/),
    });
  });

  test('a driver older than CUDA 13 lacks the query: FunctionUnavailableError', () => {
    const { report } = run(`report(attempt(() => cuda.Device.get(0).hostAtomicCapabilities(['and'])));`, { FAKE_CUDA_VERSION: '12090' });
    expect(report).toMatch(/^FunctionUnavailableError: .*cuDeviceGetHostAtomicCapabilities/);
  });
});

describe('device notifications', () => {
  test('a notification sent from a driver thread reaches the callback on the JavaScript thread; dispose unregisters', async () => {
    const { report, log } = run(`
      const { isMainThread } = require('worker_threads');
      // A registration does not keep the process alive: a timer does, until the notification comes.
      const keepAlive = setTimeout(() => {}, 10000);
      const got = await new Promise((resolve) => {
        const registration = cuda.Device.get(0).onAsyncNotification((info) => {
          clearTimeout(keepAlive);
          registration.dispose();
          resolve({ info, main: isMainThread, disposed: registration.disposed });
        });
      });
      report({ ...got, info: { ...got.info, bytesOverBudget: String(got.info.bytesOverBudget) },
        notFunction: attempt(() => cuda.Device.get(0).onAsyncNotification(42)) });`);
    expect(report).toEqual({ info: { type: 'over-budget', typeNumber: 1, bytesOverBudget: '4096' }, main: true, disposed: true,
      notFunction: expect.stringMatching(/^TypeError: +callback must be a function/) });
    expect(log.filter((l) => l.startsWith('async-notification'))).toEqual(['async-notification register', 'async-notification unregister']);
  });

  test('a driver that refuses registrations gives CudaNotSupportedError, and nothing is left registered', () => {
    const { report, log } = run(`
      report(attempt(() => cuda.Device.get(0).onAsyncNotification(() => {})));`,
    { FAKE_CUDA_FAIL: 'cuDeviceRegisterAsyncNotification=801' });
    expect(report).toMatch(/^CudaNotSupportedError: CUDA_ERROR_NOT_SUPPORTED cuDeviceRegisterAsyncNotification/);
    expect(log.filter((l) => l.startsWith('async-notification'))).toEqual([]);
  });

  test('a registration collected undisposed is unregistered', () => {
    const { log } = run(`
      cuda.Device.get(0).onAsyncNotification(() => {});
      for (let i = 0; i < 5; i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); }
      report(true);`);
    expect(log.filter((l) => l.startsWith('async-notification'))).toEqual(['async-notification register', 'async-notification unregister']);
  });
});

describe('coredump attributes', () => {
  test('bools, paths and flag words are set and read back, per process and per context', () => {
    const { report } = run(`
      const ctx = cuda.Device.get(0).primaryContext;
      const before = [cuda.getCoredumpAttribute('trigger-host'), cuda.getCoredumpAttribute('lightweight')];
      cuda.setCoredumpAttribute('enable-on-exception', true);
      cuda.setCoredumpAttribute('file', dir + '/gpu.core');
      cuda.setCoredumpAttribute('generation-flags', ['skip-abort', 'skip-global-memory']);
      cuda.setCoredumpAttribute('enable-on-exception', false, { context: ctx });
      report({
        before,
        global: [cuda.getCoredumpAttribute('enable-on-exception'), cuda.getCoredumpAttribute('file') === dir + '/gpu.core',
          cuda.getCoredumpAttribute('generation-flags')],
        local: [cuda.getCoredumpAttribute('enable-on-exception', { context: ctx }), cuda.getCoredumpAttribute('file', { context: ctx })],
        pipeInContext: attempt(() => cuda.setCoredumpAttribute('pipe', 'p', { context: ctx })),
        badName: attempt(() => cuda.getCoredumpAttribute('core')),
        badValue: attempt(() => cuda.setCoredumpAttribute('trigger-host', 1)),
        longPath: attempt(() => cuda.setCoredumpAttribute('file', 'x'.repeat(1024))),
        nul: attempt(() => cuda.setCoredumpAttribute('file', 'a\\0b')),
        badOption: attempt(() => cuda.getCoredumpAttribute('file', { ctx })),
        badFlag: attempt(() => cuda.setCoredumpAttribute('generation-flags', ['skip-everything'])),
      });`);
    expect(report).toEqual({
      before: [true, false],
      global: [true, true, ['skip-global-memory', 'skip-abort']],
      local: [false, 'core.cuda.fake'],
      pipeInContext: expect.stringMatching(/^CudaError: CUDA_ERROR_NOT_PERMITTED/),
      badName: expect.stringMatching(/^RangeError: +name must be one of enable-on-exception/),
      badValue: expect.stringMatching(/^TypeError: +value must be a boolean/),
      longPath: expect.stringMatching(/^RangeError: +value must be 1 to 1023 bytes/),
      nul: expect.stringMatching(/^RangeError: +value must not contain NUL/),
      badOption: expect.stringMatching(/^TypeError: .*ctx/),
      badFlag: expect.stringMatching(/^RangeError: +value must be one of skip-nonrelocated-elf-images/),
    });
  });

  test('the native layer bounds what the driver reads, whatever JavaScript passes', () => {
    const { report } = run(`
      const { native } = require(${JSON.stringify(path.join(__dirname, '../../dist/native.js'))});
      report({
        tooLong: attempt(() => native.coredumpSetAttribute(undefined, 5, new Uint8Array(1025))),
        empty: attempt(() => native.coredumpSetAttribute(undefined, 5, new Uint8Array(0))),
        notBytes: attempt(() => native.coredumpSetAttribute(undefined, 5, 'path')),
        // A path with no NUL of its own: the copy the driver reads ends in one.
        unterminated: attempt(() => native.coredumpSetAttribute(undefined, 5, new Uint8Array(8).fill(0x61))),
        read: native.coredumpGetAttribute(undefined, 5).toString('utf8').split('\\0')[0],
      });`);
    expect(report).toEqual({
      tooLong: expect.stringMatching(/^RangeError: +value must be 1 to 1024 bytes/),
      empty: expect.stringMatching(/^RangeError: +value must be 1 to 1024 bytes/),
      notBytes: expect.stringMatching(/^TypeError: +value must be a Uint8Array/),
      unterminated: 'no error',
      read: 'aaaaaaaa',
    });
  });
});

describe('cache configuration', () => {
  test("a context's preference is set and read back; kernels take theirs by name", () => {
    const { report, log } = run(`
      const ctx = cuda.Device.get(0).primaryContext;
      const before = ctx.cacheConfig;
      ctx.setCacheConfig('prefer-shared');
      const module = cuda.Module.load('FAKE\\nkernel k 8\\n');
      const library = cuda.Library.load('FAKE\\nkernel l 8\\n');
      module.function('k').setCacheConfig('prefer-l1');
      library.kernel('l').setCacheConfig('prefer-equal', 0);
      report({ before, after: ctx.cacheConfig,
        bad: attempt(() => ctx.setCacheConfig('prefer-more')),
        number: attempt(() => ctx.setCacheConfig(1)),
        kernelBad: attempt(() => module.function('k').setCacheConfig('shared')) });`);
    expect(report).toEqual({ before: 'prefer-none', after: 'prefer-shared',
      bad: expect.stringMatching(/^RangeError: +config must be one of prefer-none, prefer-shared, prefer-l1, prefer-equal/),
      number: expect.stringMatching(/^TypeError: +config must be one of/),
      kernelBad: expect.stringMatching(/^RangeError: +config must be one of/) });
    expect(log.filter((l) => l.startsWith('cache-config'))).toEqual(['cache-config k 2', 'cache-config l 3']);
  });
});

describe('pinned memory flags', () => {
  test('each allocation reads back the flags it was made with; registered memory has none', () => {
    const { report } = run(`
      const flags = (o) => { const b = cuda.HostBuffer.alloc(4096, o); const f = b.flags; b.dispose(); return f; };
      const registered = cuda.HostBuffer.register(new Uint8Array(8192));
      report({ plain: flags(), portable: flags({ portable: true }), mapped: flags({ mapped: true }),
        all: flags({ portable: true, mapped: true, writeCombined: true }),
        registered: attempt(() => registered.flags) });`);
    expect(report).toEqual({
      plain: { portable: false, deviceMap: false, writeCombined: false },
      portable: { portable: true, deviceMap: false, writeCombined: false },
      mapped: { portable: false, deviceMap: true, writeCombined: false },
      all: { portable: true, deviceMap: true, writeCombined: true },
      registered: expect.stringMatching(/^TypeError: +a registered HostBuffer has no allocation flags/),
    });
  });
});

describe('modules from a file or a fat binary', () => {
  test('the driver reads the file; a fat binary is checked against its header first', () => {
    const { report, log } = run(`
      const fs = require('fs');
      fs.writeFileSync(dir + '/k.cubin', 'FAKE\\nkernel fromFile 4\\n');
      const fromFile = cuda.Module.fromFile(dir + '/k.cubin');
      const body = Buffer.from('FAKE\\nkernel fromFat 4,8\\n');
      const header = Buffer.alloc(16);
      header.writeUInt32LE(0xBA55ED50, 0); header.writeUInt16LE(1, 4); header.writeUInt16LE(16, 6);
      header.writeBigUInt64LE(BigInt(body.length), 8);
      const fat = cuda.Module.fromFatBinary(Buffer.concat([header, body]), { context: cuda.Device.get(0).primaryContext });
      const short = Buffer.from(header); short.writeBigUInt64LE(BigInt(body.length + 1), 8);
      const huge = Buffer.from(header); huge.writeBigUInt64LE(2n ** 64n - 8n, 8);
      report({
        names: [fromFile.function('fromFile').name, fat.function('fromFat').name],
        missing: attempt(() => cuda.Module.fromFile(dir + '/none.cubin')),
        noHeader: attempt(() => cuda.Module.fromFatBinary(body)),
        short: attempt(() => cuda.Module.fromFatBinary(Buffer.concat([short, body]))),
        huge: attempt(() => cuda.Module.fromFatBinary(Buffer.concat([huge, body]))),
        tiny: attempt(() => cuda.Module.fromFatBinary(new Uint8Array(4))),
        notBytes: attempt(() => cuda.Module.fromFatBinary('fatbin')),
        badOption: attempt(() => cuda.Module.fromFile(dir + '/k.cubin', { jit: {} })),
        nul: attempt(() => cuda.Module.fromFile('a\\0b')),
      });`);
    expect(report).toEqual({
      names: ['fromFile', 'fromFat'],
      missing: expect.stringMatching(/^CudaError: CUDA_ERROR_FILE_NOT_FOUND cuModuleLoad/),
      noHeader: expect.stringMatching(/^RangeError: +code is not a fat binary/),
      short: expect.stringMatching(/^RangeError: +code is shorter than its fatbin header says/),
      huge: expect.stringMatching(/^RangeError: +code is shorter than its fatbin header says/),
      tiny: expect.stringMatching(/^RangeError: +code is not a fat binary/),
      notBytes: expect.stringMatching(/^TypeError: +bytes must be a Uint8Array/),
      badOption: expect.stringMatching(/^TypeError: .*jit/),
      nul: expect.stringMatching(/^RangeError: +path must not contain NUL/),
    });
    expect(log.filter((l) => l.startsWith('module load'))).toEqual(['module load 1 kernels', 'module load 1 kernels']);
  });
});

describe('GPUDirect RDMA write flush', () => {
  test('the capability comes from the device attribute; the flush names its scope', () => {
    const { report, log } = run(`
      const ctx = cuda.Device.get(0).primaryContext;
      ctx.flushGpuDirectRdmaWrites();
      ctx.flushGpuDirectRdmaWrites('all-devices');
      report({ capable: cuda.Device.get(0).capabilities.gpuDirectRdmaFlushWrites,
        bad: attempt(() => ctx.flushGpuDirectRdmaWrites('everyone')) });`);
    // The stand-in answers every attribute with its own number: 117 has bit 0 set.
    expect(report).toEqual({ capable: true, bad: expect.stringMatching(/^RangeError: +scope must be one of owner, all-devices/) });
    expect(log.filter((l) => l.startsWith('rdma-flush'))).toEqual(['rdma-flush 100', 'rdma-flush 200']);
  });
});

describe("the driver's log buffer", () => {
  test('current() marks a position; dump and dumpToFile give what came after it, or everything', () => {
    const { report, log } = run(`
      const fail = () => attempt(() => cuda.DeviceBuffer.alloc(64));
      fail();
      const mark = cuda.driverLogs.current();
      fail();
      cuda.driverLogs.dumpToFile(dir + '/since.log', { since: mark });
      report({
        since: cuda.driverLogs.dump({ since: mark }),
        all: cuda.driverLogs.dump().split('\\n').length,
        file: require('fs').readFileSync(dir + '/since.log', 'utf8'),
        nothingNew: cuda.driverLogs.dump({ since: cuda.driverLogs.current() }),
        badSince: attempt(() => cuda.driverLogs.dump({ since: -1 })),
        badOption: attempt(() => cuda.driverLogs.dump({ from: mark })),
      });`, { FAKE_CUDA_VERSION: '12090', FAKE_CUDA_FAIL: 'cuMemAlloc=2' });
    const lines = 'cuMemAlloc failed as FAKE_CUDA_FAIL asks\nReturning 2 (injected) from cuMemAlloc\n';
    expect(report).toEqual({ since: lines, all: 5, file: lines, nothingNew: '',
      badSince: expect.stringMatching(/^RangeError: +options.since must be between 0/),
      badOption: expect.stringMatching(/^TypeError: .*from/) });
    // The callback that fills errors' driverLog is unregistered as the process exits.
    expect(log).toContain('logs unregister');
  });

  test('a driver older than 12.9 has no log buffer: FunctionUnavailableError', () => {
    const { report } = run(`report(attempt(() => cuda.driverLogs.current()));`, { FAKE_CUDA_VERSION: '12080' });
    expect(report).toMatch(/^FunctionUnavailableError: .*cuLogsCurrent/);
  });
});
