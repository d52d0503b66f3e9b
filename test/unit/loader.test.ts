// The loader on machines without a usable driver: the real "no library" case
// and, through a stand-in library, old drivers, failing cuInit and missing
// entry points. Each scenario runs in its own process (the driver loads once).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

const describeError = `const d = (e) => ({ type: e.constructor.name, name: e.name, code: e.code, result: e.result, call: e.call, detail: e.detail,
  reason: e.reason, requiredVersion: e.requiredVersion, message: e.message, isCuda: e instanceof cuda.CudaError });`;

describe('without a driver library', () => {
  const env = { CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' };

  test('importing works and driverStatus says why the driver is unusable', () => {
    const r = runScript(`report(cuda.driverStatus());`, env);
    expect(r.status).toBe(0);
    expect(r.report).toMatchObject({
      available: false,
      stage: 'library-missing',
      libraryPath: '/nonexistent/libcuda.so.1',
      initResult: null,
      driverVersion: null,
      headerVersion: { raw: 13000, major: 13, minor: 0 },
    });
    expect(r.report.detail).toContain('/nonexistent/libcuda.so.1');
    expect(r.report.reason).toBe(`library-missing: ${r.report.detail}`);
  });

  test('the first driver call throws a DriverUnavailableError that says what to do', () => {
    const r = runScript(`${describeError}
      const errors = [];
      for (const f of [() => cuda.Device.count(), () => cuda.Device.get(0), () => cuda.Context.currentHandle()]) {
        try { f(); errors.push(null); } catch (e) { errors.push(d(e)); }
      }
      report(errors);`, env);
    expect(r.status).toBe(0);
    for (const e of r.report) {
      expect(e).toMatchObject({ type: 'DriverUnavailableError', isCuda: true, result: 3, code: 'CUDA_ERROR_NOT_INITIALIZED', name: 'DriverUnavailableError', reason: 'library-missing' });
      expect(e.message).toMatch(/could not be loaded .*install the NVIDIA driver, or set CUDA_DRIVER_LIBRARY/);
    }
    expect(r.report[0].call).toBe('cuDeviceGetCount');
    expect(r.report[2].call).toBe('cuCtxGetCurrent');
  });

  test('the function table is listed with nothing available', () => {
    const r = runScript(`const f = cuda.driverFunctions(); report({ n: f.length, available: f.filter(x => x.available).length,
      alloc: f.find(x => x.name === 'cuMemAlloc'), instantiate: f.find(x => x.name === 'cuGraphInstantiate') });`, env);
    expect(r.report.n).toBeGreaterThan(280);
    expect(r.report.available).toBe(0);
    expect(r.report.alloc.requiredVersion).toMatchObject({ major: 3, minor: 2 });
    expect(r.report.instantiate.requiredVersion).toMatchObject({ major: 11, minor: 4 });
  });
});

describe('with a stand-in driver', () => {
  let library: string;
  beforeAll(() => {
    library = fakeDriver();
  });

  test('a driver that loads reports its version and works', () => {
    const r = runScript(`const s = cuda.driverStatus(); const dev = cuda.Device.get(0);
      report({ s, count: cuda.Device.count(), name: dev.name, uuid: dev.uuid, bus: dev.pciBusId, mem: dev.totalMemory,
        cc: dev.computeCapability, byBus: cuda.Device.byPciBusId('0000:65:00.0').ordinal,
        byUuid: cuda.Device.byUuid('a0a1a2a3a4a5a6a7a8a9aaabacadaeaf').ordinal, same: cuda.Device.get(0) === dev });`,
    { CUDA_DRIVER_LIBRARY: library });
    expect(r.stderr).toBe('');
    expect(r.report.s).toMatchObject({ available: true, stage: 'ready', driverVersion: { major: 12, minor: 8 }, initResult: { code: 0 } });
    expect(r.report).toMatchObject({
      count: 1, name: 'Fake GPU', uuid: 'GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf', bus: '0000:65:00.0',
      mem: 80 * 2 ** 30, cc: { major: 9, minor: 0 }, byBus: 0, byUuid: 0, same: true,
    });
  });

  test('cuInit failing with CUDA_ERROR_NO_DEVICE: import works, the first call says no device is visible', () => {
    const r = runScript(`${describeError}
      const s = cuda.driverStatus(); let e; try { cuda.Device.count(); } catch (x) { e = d(x); } report({ s, e });`,
    { CUDA_DRIVER_LIBRARY: library, FAKE_CUDA_FAIL: 'cuInit=100' });
    expect(r.report.s).toMatchObject({ available: false, stage: 'init-failed', initResult: { code: 100, name: 'CUDA_ERROR_NO_DEVICE' },
      reason: 'init-failed: CUDA_ERROR_NO_DEVICE' });
    expect(r.report.e).toMatchObject({ type: 'DriverUnavailableError', result: 100, code: 'CUDA_ERROR_NO_DEVICE', name: 'DriverUnavailableError', reason: 'init-failed' });
    expect(r.report.e.message).toMatch(/no CUDA-capable device is visible.*CUDA_VISIBLE_DEVICES/);
  });

  test('a library without cuGetProcAddress is reported as a driver too old', () => {
    const r = runScript(`${describeError} let e; try { cuda.Device.count(); } catch (x) { e = d(x); } report({ s: cuda.driverStatus(), e });`,
      { CUDA_DRIVER_LIBRARY: fakeDriver('no-proc-address') });
    expect(r.report.s.stage).toBe('driver-too-old');
    expect(r.report.e).toMatchObject({ type: 'DriverUnavailableError', reason: 'driver-too-old' });
    expect(r.report.e.message).toMatch(/older than CUDA 11.3.*install a newer NVIDIA driver/);
  });

  test('a function the driver lacks fails only when called, naming the version it needs', () => {
    const r = runScript(`${describeError}
      const ctx = cuda.Device.get(0).primaryContext; const api = ctx.apiVersion; let e;
      try { ctx.queryDevice(); } catch (x) { e = d(x); }
      const table = cuda.driverFunctions();
      report({ api, e, getDevice: table.find(f => f.name === 'cuCtxGetDevice_v2'), count: table.find(f => f.name === 'cuDeviceGetCount') });`,
    { CUDA_DRIVER_LIBRARY: library });
    expect(r.report.api).toBe(3020);
    expect(r.report.e).toMatchObject({ type: 'FunctionUnavailableError', result: 500, code: 'CUDA_ERROR_NOT_FOUND', call: 'cuCtxGetDevice_v2', requiredVersion: 13000 });
    expect(r.report.e.message).toBe('cuCtxGetDevice_v2 is not provided by the installed driver (CUDA 12.8); it needs a driver for CUDA 13.0 or newer');
    expect(r.report.getDevice).toMatchObject({ available: false, requiredVersion: { raw: 13000 } });
    expect(r.report.count.available).toBe(true);
  });

  test('a driver older than an entry point’s ABI does not hand out the old ABI', () => {
    // cuDeviceGetUuid's _v2 ABI is CUDA 11.4: a "CUDA 11.0" driver must refuse it.
    const r = runScript(`${describeError} let e; try { cuda.Device.get(0).uuid; } catch (x) { e = d(x); } report(e);`,
      { CUDA_DRIVER_LIBRARY: library, FAKE_CUDA_VERSION: '11000' });
    expect(r.report).toMatchObject({ type: 'FunctionUnavailableError', call: 'cuDeviceGetUuid', requiredVersion: 11040 });
  });

  test('driver errors carry the code, the driver’s name, the call and the argument that matters', () => {
    const r = runScript(`${describeError}
      const dev = cuda.Device.get(0); const out = {};
      try { dev.attribute(130); } catch (x) { out.invalid = d(x); }
      report(out);`, { CUDA_DRIVER_LIBRARY: library });
    expect(r.report.invalid).toMatchObject({
      type: 'CudaError', result: 1, code: 'CUDA_ERROR_INVALID_VALUE', name: 'CudaError', call: 'cuDeviceGetAttribute', detail: 'attribute=130',
      message: 'cuDeviceGetAttribute (attribute=130): CUDA_ERROR_INVALID_VALUE: invalid argument',
    });
  });

  test.each([
    [2, 'CudaOutOfMemoryError', 'CUDA_ERROR_OUT_OF_MEMORY'],
    [801, 'CudaNotSupportedError', 'CUDA_ERROR_NOT_SUPPORTED'],
    [901, 'CaptureInvalidatedError', 'CUDA_ERROR_STREAM_CAPTURE_INVALIDATED'],
    [908, 'CaptureWrongThreadError', 'CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD'],
    [910, 'GraphUpdateError', 'CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE'],
    [999, 'CudaError', 'CUDA_ERROR_UNKNOWN'],
    // The sticky errors cuda.h documents as leaving the context unusable.
    [226, 'ContextLostError', 'CUDA_ERROR_CONTAINED'],
    [700, 'ContextLostError', 'CUDA_ERROR_ILLEGAL_ADDRESS'],
    [702, 'ContextLostError', 'CUDA_ERROR_LAUNCH_TIMEOUT'],
    [710, 'ContextLostError', 'CUDA_ERROR_ASSERT'],
    [714, 'ContextLostError', 'CUDA_ERROR_HARDWARE_STACK_ERROR'],
    [715, 'ContextLostError', 'CUDA_ERROR_ILLEGAL_INSTRUCTION'],
    [716, 'ContextLostError', 'CUDA_ERROR_MISALIGNED_ADDRESS'],
    [717, 'ContextLostError', 'CUDA_ERROR_INVALID_ADDRESS_SPACE'],
    [718, 'ContextLostError', 'CUDA_ERROR_INVALID_PC'],
    [719, 'ContextLostError', 'CUDA_ERROR_LAUNCH_FAILED'],
    [721, 'ContextLostError', 'CUDA_ERROR_TENSOR_MEMORY_LEAK'],
    [810, 'ContextLostError', 'CUDA_ERROR_MPS_CLIENT_TERMINATED'],
    // Not sticky: the launch was refused, the context is fine.
    [701, 'CudaError', 'CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES'],
  ])('code %i becomes %s', (code, type, name) => {
    const r = runScript(`${describeError} let e, isCapture; try { cuda.Device.get(0).name; } catch (x) { e = d(x); isCapture = x instanceof cuda.CaptureError; }
      report({ e, isCapture });`,
    { CUDA_DRIVER_LIBRARY: library, FAKE_CUDA_FAIL: `cuDeviceGetName=${code}` });
    expect(r.report.e).toMatchObject({ type, name: type, code: name, result: code, call: 'cuDeviceGetName', isCuda: true });
    expect(r.report.isCapture).toBe(type.startsWith('Capture'));
    if (type === 'ContextLostError') {
      expect(r.report.e.message).toBe(`cuDeviceGetName: ${name} (the CUDA context is lost: every later call that uses it fails ` +
        'the same way; restart the process to use the GPU again)');
    } else {
      expect(r.report.e.message).not.toMatch(/context is lost/);
    }
  });

  test('the primary context is retained once and kept; reset releases it, refused while handles live', () => {
    const log = path.join(os.tmpdir(), `fake-cuda-log-${process.pid}`);
    fs.rmSync(log, { force: true });
    const r = runScript(`const dev = cuda.Device.get(0);
      const a = dev.primaryContext; const same = a === dev.primaryContext;
      a.dispose(); a.dispose();
      const b = dev.primaryContext; const fresh = b !== a;
      let refused; try { dev.resetPrimaryContext(); } catch (e) { refused = e.message; }
      b.dispose();
      dev.resetPrimaryContext();
      report({ same, fresh, aDisposed: a.disposed, refused });`,
    { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: log });
    expect(r.stderr).toBe('');
    expect(r.report).toMatchObject({ same: true, fresh: true, aDisposed: true });
    expect(r.report.refused).toMatch(/still used by live handles/);
    expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual(['retain', 'release', 'reset']);
  });

  test('call counters: off by default, on with CUDA_DRIVER_COUNTERS=1 or enable(), errors counted', () => {
    const r = runScript(`const dev = cuda.Device.get(0);
      const before = cuda.callCounters.read().length; const wasOn = cuda.callCounters.enabled;
      cuda.callCounters.enable(); dev.name; dev.name; try { dev.attribute(130); } catch {}
      const after = cuda.callCounters.read(); cuda.callCounters.reset(); const cleared = cuda.callCounters.read().length;
      report({ before, wasOn, after, cleared, summary: cuda.callCounters.summary() });`, { CUDA_DRIVER_LIBRARY: library });
    expect(r.report.before).toBe(0);
    expect(r.report.wasOn).toBe(false);
    expect(r.report.after).toEqual(expect.arrayContaining([
      { name: 'cuDeviceGetName', calls: 2, errors: 0 },
      { name: 'cuDeviceGetAttribute', calls: 1, errors: 1 },
    ]));
    expect(r.report.cleared).toBe(0);

    const env = runScript(`cuda.Device.count(); report(cuda.callCounters.read());`,
      { CUDA_DRIVER_LIBRARY: library, CUDA_DRIVER_COUNTERS: '1' });
    expect(env.report).toEqual([{ name: 'cuDeviceGetCount', calls: 1, errors: 0 }]);
  });
});
