// Loading code, kernels and launches against the stand-in driver
// (test/fixtures/fake-libcuda.c), which logs every launch with the bytes of
// each parameter: what the driver receives is checked byte for byte, and a
// mismatched argument list is seen never to reach it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { distPath, fakeDriver, runScript } from '../helpers/subprocess';

const image = [
  'FAKE',
  'kernel saxpy 4,8,8,4', // (float a, const float* x, float* y, unsigned n)
  'kernel empty',
  'kernel st 24,2,8', // (struct { double; char; int[3]; } s, short h, float* out)
  'global counter 4',
].join('\n');

const prelude = `
  const newStream = () => cuda.Stream.create();
  const fs = require('fs');
  const log = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n')
    .filter((l) => l && !/^(retain|release)$/.test(l));
  const clearLog = () => fs.writeFileSync(process.env.FAKE_CUDA_LOG, '');
  const d = (e) => ({ type: e.constructor.name, name: e.name, message: e.message, code: e.code, result: e.result, call: e.call,
    detail: e.detail, kernel: e.kernel, index: e.index });
  const attempt = (f) => { try { f(); return null; } catch (e) { return d(e); } };
  const image = ${JSON.stringify(image)};
`;

let logFile: string;
let env: Record<string, string>;
beforeAll(() => {
  logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-kernel-')), 'log');
  env = { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: logFile };
});
beforeEach(() => fs.writeFileSync(logFile, ''));

const run = (body: string, extraEnv: Record<string, string> = {}, args: string[] = []) => {
  const r = runScript(prelude + body, { ...env, ...extraEnv }, args);
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

describe('libraries and modules', () => {
  test('a library loads from memory or a file; kernels are found by name or enumerated with their layouts', () => {
    const file = path.join(path.dirname(logFile), 'code.fake');
    fs.writeFileSync(file, image);
    const r = run(`
      const lib = cuda.Library.load(image);
      const fromFile = cuda.Library.loadFile(${JSON.stringify(file)}, { jit: { maxRegisters: 32 } });
      const saxpy = lib.kernel('saxpy');
      report({ count: lib.kernelCount, names: lib.kernels().map((k) => k.name), kind: saxpy.kind, params: saxpy.params,
        empty: lib.kernel('empty').params, fileCount: fromFile.kernelCount, jitLog: lib.jitLog,
        global: lib.global('counter'), missing: attempt(() => lib.kernel('nope')), missingGlobal: attempt(() => lib.global('nope')),
        text: String(saxpy), log: log() });`);
    expect(r).toMatchObject({ count: 3, names: ['saxpy', 'empty', 'st'], kind: 'library', empty: [], fileCount: 3, jitLog: '',
      text: 'Kernel(saxpy, library)' });
    expect(r.params).toEqual([{ offset: 0, size: 4 }, { offset: 8, size: 8 }, { offset: 16, size: 8 }, { offset: 24, size: 4 }]);
    expect(r.global.size).toBe(4);
    expect(BigInt(r.global.address)).toBeGreaterThan(0n);
    expect(r.missing).toMatchObject({ type: 'CudaError', result: 500, code: 'CUDA_ERROR_NOT_FOUND', call: 'cuLibraryGetKernel', detail: 'nope' });
    expect(r.missingGlobal).toMatchObject({ result: 500, call: 'cuLibraryGetGlobal' });
    // the four JIT log options always, plus the one asked for
    expect(r.log).toEqual(['library load 3 kernels, 4 jit options', 'library load 3 kernels, 5 jit options']);
  });

  test('a load the JIT refuses throws a CudaError that carries the JIT\'s log', () => {
    const r = run(`report({ bad: attempt(() => cuda.Library.load('FAKE\\nbad ptx')),
      module: attempt(() => cuda.Module.load('FAKE bad')), notImage: attempt(() => cuda.Library.load('garbage')),
      empty: attempt(() => cuda.Library.load(new Uint8Array(0))), nul: attempt(() => cuda.Library.load('a\\0b')),
      type: attempt(() => cuda.Library.load(42)), jit: attempt(() => cuda.Library.load(image, { jit: { optimizationLevel: 9 } })) });`);
    expect(r.bad).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_INVALID_PTX', call: 'cuLibraryLoadData',
      detail: '12 bytes; JIT log: ptxas fatal   : fake syntax error at line 1' });
    expect(r.bad.message).toContain('fake syntax error at line 1');
    expect(r.module).toMatchObject({ call: 'cuModuleLoadDataEx', detail: '8 bytes; JIT log: ptxas fatal   : fake syntax error at line 1' });
    expect(r.notImage).toMatchObject({ result: 200, call: 'cuLibraryLoadData', detail: '7 bytes' });
    expect(r.empty).toMatchObject({ type: 'RangeError', message: 'code must not be empty' });
    expect(r.nul).toMatchObject({ type: 'RangeError' });
    expect(r.type).toMatchObject({ type: 'TypeError' });
    expect(r.jit).toMatchObject({ type: 'RangeError', message: 'jit.optimizationLevel must be between 0 and 4, got 9' });
  });

  test('a module loads into a context; its functions belong to it; unloading happens on dispose', () => {
    const r = run(`
      const mod = cuda.Module.load(image);
      const f = mod.function('saxpy');
      const all = mod.functions();
      const out = { kind: f.kind, params: f.params, count: mod.functionCount, names: all.map((g) => g.name),
        global: mod.global('counter').size,
        mode: cuda.Module.loadingMode(), sameContext: f.context === cuda.Device.get(0).primaryContext };
      all.forEach((g) => g.dispose());
      mod.dispose();
      out.afterModuleDispose = log();
      out.stillUsable = f.params.length;
      f.dispose();
      out.afterFunctionDispose = log();
      out.disposed = attempt(() => mod.function('saxpy'));
      report(out);`);
    expect(r).toMatchObject({ kind: 'module', count: 3, names: ['saxpy', 'empty', 'st'], global: 4, mode: 'lazy',
      sameContext: true, stillUsable: 4 });
    expect(r.params).toEqual([{ offset: 0, size: 4 }, { offset: 8, size: 8 }, { offset: 16, size: 8 }, { offset: 24, size: 4 }]);
    // the function holds the module: unloaded only when both are gone
    expect(r.afterModuleDispose).toEqual(['module load 3 kernels']);
    expect(r.afterFunctionDispose).toEqual(['module load 3 kernels', 'module unload']);
    expect(r.disposed).toMatchObject({ type: 'DisposedError' });
  });
});

describe('launches', () => {
  test('arguments reach the driver as the bytes of their types, at the kernel\'s offsets', () => {
    const r = run(`
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      clearLog();
      const { arg } = cuda;
      saxpy.launch({ grid: 4, block: [256], stream }, [arg.f32(2.5), arg.ptr(0x7f0000001000n), arg.ptr(null), arg.u32(1000)]);
      report(log());`);
    expect(r).toEqual(['launch saxpy grid=4,1,1 block=256,1,1 smem=0 stream=1 args=00002040|0010000000' + '7f0000|0000000000000000|e8030000']);
  });

  test('a mismatched argument list is refused before the driver is called', () => {
    const r = run(`
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      clearLog();
      const { arg } = cuda;
      report({ count: attempt(() => saxpy.launch({ grid: 1, block: 1, stream }, [arg.f32(1), arg.ptr(0n)])),
        size: attempt(() => saxpy.launch({ grid: 1, block: 1, stream }, [arg.f64(1), arg.ptr(0n), arg.ptr(0n), arg.u32(1)])),
        untyped: attempt(() => saxpy.launch({ grid: 1, block: 1, stream }, [1, 2, 3, 4])),
        prepare: attempt(() => saxpy.prepare({ grid: 1, block: 1, stream }, ['f32', 'ptr', 'ptr'])),
        value: attempt(() => saxpy.launch({ grid: 1, block: 1, stream }, [arg.f32(1), arg.ptr(0n), arg.ptr(0n), arg.u32(-1)])),
        noStream: attempt(() => saxpy.launch({ grid: 1, block: 1 }, [])),
        log: log() });`);
    expect(r.count).toMatchObject({ type: 'KernelArgumentError', kernel: 'saxpy', index: -1,
      message: 'saxpy: takes 4 arguments (4 bytes, 8 bytes, 8 bytes, 4 bytes); 2 given' });
    expect(r.size).toMatchObject({ type: 'KernelArgumentError', index: 0, message: 'saxpy: argument 0 is f64 (8 bytes) but parameter 0 takes 4 bytes' });
    expect(r.untyped).toMatchObject({ type: 'TypeError', message: expect.stringContaining('args[0] must be made with arg.*()') });
    expect(r.prepare).toMatchObject({ type: 'KernelArgumentError', index: -1 });
    expect(r.value).toMatchObject({ type: 'RangeError' });
    expect(r.noStream).toMatchObject({ type: 'TypeError', message: 'config.stream must be a Stream, got undefined' });
    expect(r.log).toEqual([]);
  });

  test('a struct by value, a short and a pointer', () => {
    const r = run(`
      const stream = newStream();
      const st = cuda.Library.load(image).kernel('st');
      const s = new DataView(new ArrayBuffer(24));
      s.setFloat64(0, 1.5, true); s.setInt8(8, 7); s.setInt32(12, 1, true); s.setInt32(16, 2, true); s.setInt32(20, -1, true);
      clearLog();
      st.launch({ grid: 1, block: 1, stream }, [cuda.arg.bytes(s, 8), cuda.arg.i16(-2), cuda.arg.ptr(16n)]);
      report({ params: st.params, log: log() });`);
    expect(r.params).toEqual([{ offset: 0, size: 24 }, { offset: 24, size: 2 }, { offset: 32, size: 8 }]);
    expect(r.log).toEqual(['launch st grid=1,1,1 block=1,1,1 smem=0 stream=1 args=' +
      '000000000000f83f' + '07000000' + '01000000' + '02000000' + 'ffffffff' + '|feff|1000000000000000']);
  });

  test('launch attributes choose the driver call: cooperative alone, or cuLaunchKernelEx', () => {
    const r = run(`
      const stream = newStream();
      const empty = cuda.Library.load(image).kernel('empty');
      clearLog();
      empty.launch({ grid: 2, block: 32, stream, cooperative: true });
      empty.launch({ grid: [4, 2], block: 64, sharedMemory: 1024, stream, cluster: [2], priority: -1, programmaticStreamSerialization: true });
      empty.launch({ grid: 1, block: 1, stream, cooperative: true, priority: 0 });
      report(log());`);
    expect(r).toEqual([
      'cooperative empty grid=2,1,1 block=32,1,1 smem=0 stream=1 args=',
      'launchEx empty grid=4,2,1 block=64,1,1 smem=1024 stream=1 cluster=2,1,1 priority=-1 programmatic=1 args=',
      'launchEx empty grid=1,1,1 block=1,1,1 smem=0 stream=1 cooperative=1 priority=0 args=',
    ]);
  });

  test('a configuration and arguments reused between launches are sent as they are at each launch', () => {
    const r = run(`
      const stream = newStream();
      const lib = cuda.Library.load(image);
      const saxpy = lib.kernel('saxpy');
      const { arg } = cuda;
      const config = { grid: 2, block: 32, stream };
      const args = [arg.f32(1), arg.ptr(0x10n), arg.ptr(0x20n), arg.u32(3)];
      const graph = cuda.Graph.create();
      clearLog();
      saxpy.launch(config, args);
      config.grid = 3;
      args[3] = arg.u32(4);
      saxpy.launch(config, args);
      // A kernel node packs into the same record, with its own shape.
      graph.addKernel(saxpy, { grid: 7, block: 7 }, args);
      saxpy.launch(config, args);
      config.block = [16, 2];
      args[0] = arg.u32(5);
      saxpy.launch(config, args);
      config.block[1] = 4;
      config.sharedMemory = 64;
      saxpy.launch(config, args);
      config.cooperative = true;
      saxpy.launch(config, args);
      const launches = log();
      saxpy.launch(config, [arg.f32(1), arg.ptr(0n), arg.ptr(0n), arg.u32(1)]);
      clearLog();
      // Errors as in a first launch of these types: every type is checked before any value.
      const errors = {
        value: attempt(() => saxpy.launch(config, [arg.f32('x'), arg.ptr(0n), arg.ptr(0n), arg.u32(1)])),
        valueThenUntyped: attempt(() => saxpy.launch(config, [arg.f32('x'), arg.ptr(0n), arg.ptr(0n), 1])),
        valueThenCount: attempt(() => saxpy.launch(config, [arg.f32('x'), arg.ptr(0n), arg.ptr(0n)])),
        valueThenSize: attempt(() => saxpy.launch(config, [arg.f32('x'), arg.ptr(0n), arg.ptr(0n), arg.f64(1)])),
        grid: attempt(() => saxpy.launch({ ...config, grid: 0 }, args)),
        flag: attempt(() => saxpy.launch({ ...config, cooperative: 1 }, args)),
      };
      saxpy.launch(config, args);
      report({ launches, errors, after: log() });`);
    const pointers = '1000000000000000|2000000000000000';
    expect(r.launches).toEqual([
      `launch saxpy grid=2,1,1 block=32,1,1 smem=0 stream=1 args=0000803f|${pointers}|03000000`,
      `launch saxpy grid=3,1,1 block=32,1,1 smem=0 stream=1 args=0000803f|${pointers}|04000000`,
      `launch saxpy grid=3,1,1 block=32,1,1 smem=0 stream=1 args=0000803f|${pointers}|04000000`,
      `launch saxpy grid=3,1,1 block=16,2,1 smem=0 stream=1 args=05000000|${pointers}|04000000`,
      `launch saxpy grid=3,1,1 block=16,4,1 smem=64 stream=1 args=05000000|${pointers}|04000000`,
      `cooperative saxpy grid=3,1,1 block=16,4,1 smem=64 stream=1 args=05000000|${pointers}|04000000`,
    ]);
    expect(r.errors.value).toMatchObject({ type: 'TypeError', message: 'args[0] must be a number, got string' });
    expect(r.errors.valueThenUntyped).toMatchObject({ type: 'TypeError', message: expect.stringContaining('args[3] must be made with arg.*()') });
    expect(r.errors.valueThenCount).toMatchObject({ type: 'KernelArgumentError', index: -1 });
    expect(r.errors.valueThenSize).toMatchObject({ type: 'KernelArgumentError', index: 3 });
    expect(r.errors.grid).toMatchObject({ type: 'RangeError', message: expect.stringContaining('config.grid.x') });
    expect(r.errors.flag).toMatchObject({ type: 'TypeError', message: expect.stringContaining('config.cooperative') });
    expect(r.after).toEqual([`cooperative saxpy grid=3,1,1 block=16,4,1 smem=64 stream=1 args=05000000|${pointers}|04000000`]);
  });

  test('repeated launches of 64-bit integers and memory: each value checked and sent as given, whatever the last launch sent', () => {
    const r = run(`
      const stream = newStream();
      const wide = cuda.Library.load(['FAKE', 'kernel wide 8,8,8,4'].join('\\n')).kernel('wide'); // (u64, i64, T*, int)
      const { arg } = cuda;
      const x = cuda.DeviceBuffer.alloc(64), y = cuda.DeviceBuffer.alloc(64);
      const addresses = [x, y].map((b) => b.address.toString(16));
      const config = { grid: 1, block: 1, stream };
      clearLog();
      wide.launch(config, [arg.u64(2n ** 64n - 1n), arg.i64(-2n), arg.ptr(x), arg.i32(-1)]);
      wide.launch(config, [arg.u64(5), arg.i64(-3), arg.ptr(y, 8), arg.i32(7)]);
      wide.launch(config, [arg.u64(6n), arg.i64(2n ** 63n - 1n), arg.ptr(x), arg.i32(8)]);
      const launches = log();
      clearLog();
      // A getter on an argument runs before the native layer reads the record: memory it disposes is refused there,
      // though the record named it before the getter ran.
      const hostile = new cuda.KernelArg('i32', 0);
      Object.defineProperty(hostile, 'value', { get() { y.dispose(); return 1; } });
      const errors = {
        u64High: attempt(() => wide.launch(config, [arg.u64(2n ** 64n), arg.i64(0n), arg.ptr(x), arg.i32(0)])),
        u64Negative: attempt(() => wide.launch(config, [arg.u64(-1n), arg.i64(0n), arg.ptr(x), arg.i32(0)])),
        i64High: attempt(() => wide.launch(config, [arg.u64(0n), arg.i64(2n ** 63n), arg.ptr(x), arg.i32(0)])),
        wideNumber: attempt(() => wide.launch(config, [arg.u64(2 ** 53), arg.i64(0n), arg.ptr(x), arg.i32(0)])),
        notMemory: attempt(() => wide.launch(config, [arg.u64(0n), arg.i64(0n), arg.ptr(stream), arg.i32(0)])),
        int: attempt(() => wide.launch(config, [arg.u64(0n), arg.i64(0n), arg.ptr(x), arg.i32(2 ** 31)])),
        disposed: attempt(() => wide.launch(config, [arg.u64(0n), arg.i64(0n), arg.ptr(y), hostile])),
      };
      const refused = log();
      wide.launch(config, [arg.u64(1n), arg.i64(-1), arg.ptr(null), arg.i32(2)]);
      report({ addresses, launches, errors, refused, after: log() });`);
    const le = (hex: string) => Buffer.from(hex.padStart(16, '0'), 'hex').reverse().toString('hex');
    const [x, y] = r.addresses;
    const y8 = (BigInt(`0x${y}`) + 8n).toString(16);
    expect(r.launches).toEqual([
      `launch wide grid=1,1,1 block=1,1,1 smem=0 stream=1 args=ffffffffffffffff|feffffffffffffff|${le(x)}|ffffffff`,
      `launch wide grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0500000000000000|fdffffffffffffff|${le(y8)}|07000000`,
      `launch wide grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0600000000000000|ffffffffffffff7f|${le(x)}|08000000`,
    ]);
    expect(r.errors.u64High).toMatchObject({ type: 'RangeError', message: expect.stringContaining('args[0]') });
    expect(r.errors.u64Negative).toMatchObject({ type: 'RangeError', message: expect.stringContaining('args[0]') });
    expect(r.errors.i64High).toMatchObject({ type: 'RangeError', message: expect.stringContaining('args[1]') });
    expect(r.errors.wideNumber).toMatchObject({ type: 'RangeError', message: expect.stringContaining('args[0]') });
    expect(r.errors.notMemory).toMatchObject({ type: 'TypeError', message: expect.stringContaining('memory') });
    expect(r.errors.int).toMatchObject({ type: 'RangeError', message: expect.stringContaining('args[3]') });
    // y's slot, freed at its dispose in the task that made it, names nothing by then.
    expect(r.errors.disposed).toMatchObject({ type: 'TypeError', message: 'memory must be a DeviceBuffer or a HostBuffer' });
    expect(r.refused.filter((l: string) => l.startsWith('launch'))).toEqual([]);
    expect(r.after).toEqual([`launch wide grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0100000000000000|ffffffffffffffff|0000000000000000|02000000`]);
  });

  test('a driver error names the launch call and the kernel', () => {
    const r = run(`
      const stream = newStream();
      const empty = cuda.Library.load(image).kernel('empty');
      report(attempt(() => empty.launch({ grid: 1, block: [1024, 2], stream })));`);
    expect(r).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_INVALID_VALUE', call: 'cuLaunchKernel', detail: 'empty' });
  });

  test('a prepared launch writes values in place; each launch sends the values as they are', () => {
    const r = run(`
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      const launch = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32']);
      const unset = attempt(() => launch.launch());
      clearLog();
      launch.setAll([1, 0x10n, 0x20n, 7]).launch();
      launch.set(0, -1).set(3, 8).launch();
      report({ unset, layout: launch.layout, log: log(), badIndex: attempt(() => launch.set(4, 1)),
        badValue: attempt(() => launch.set(3, 2 ** 32)), get: launch.get(3), text: String(launch) });`);
    expect(r.unset).toMatchObject({ type: 'KernelArgumentError', index: 0, message: 'saxpy: argument 0 has not been set' });
    expect(r.layout).toMatchObject({ checked: true, bytes: 28 });
    expect(r.log).toEqual([
      'launch saxpy grid=2,1,1 block=128,1,1 smem=0 stream=1 args=0000803f|1000000000000000|2000000000000000|07000000',
      'launch saxpy grid=2,1,1 block=128,1,1 smem=0 stream=1 args=000080bf|1000000000000000|2000000000000000|08000000',
    ]);
    expect(r.badIndex).toMatchObject({ type: 'RangeError', message: 'index 4 is out of range: saxpy takes 4 arguments' });
    expect(r.badValue).toMatchObject({ type: 'RangeError' });
    expect(r).toMatchObject({ get: 8, text: 'PreparedLaunch(saxpy)' });
  });

  test('a prepared launch updates an executable\'s kernel node: the values as they are, without its stream', () => {
    const r = run(`
      const stream = newStream();
      const lib = cuda.Library.load(image);
      const saxpy = lib.kernel('saxpy');
      const graph = cuda.Graph.create();
      const node = graph.addKernel(saxpy, { grid: 1, block: 32 }, [cuda.arg.f32(0), cuda.arg.u64(0n), cuda.arg.u64(0n), cuda.arg.u32(0)]);
      const empty = graph.addEmpty();
      const exec = graph.instantiate();
      const prepared = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32']);
      const unset = attempt(() => exec.setParams(node, prepared));
      prepared.setAll([1, 0x10n, 0x20n, 7]);
      clearLog();
      exec.setParams(node, prepared);
      prepared.set(3, 8);
      exec.setParams(node, prepared);
      const updates = log();
      const clustered = lib.kernel('empty').prepare({ grid: 2, block: 32, stream, cluster: [2] }, []);
      const emptyNode = graph.addKernel(lib.kernel('empty'), { grid: 1, block: 1 }, []);
      const exec2 = graph.instantiate();
      const disposed = saxpy.prepare({ grid: 1, block: 1, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0n, 0n, 1]);
      disposed.dispose();
      report({ unset, updates,
        notKernelNode: attempt(() => exec.setParams(empty, prepared)),
        withAttributes: attempt(() => exec2.setParams(emptyNode, clustered)),
        disposedLaunch: attempt(() => exec.setParams(node, disposed)),
        notNode: attempt(() => exec.setParams(prepared, prepared)) });`);
    expect(r.unset).toMatchObject({ type: 'KernelArgumentError', index: 0, message: 'saxpy: argument 0 has not been set' });
    expect(r.updates).toEqual([
      'exec-update saxpy grid=2,1,1 block=128,1,1 smem=0 stream=0 args=0000803f|1000000000000000|2000000000000000|07000000',
      'exec-update saxpy grid=2,1,1 block=128,1,1 smem=0 stream=0 args=0000803f|1000000000000000|2000000000000000|08000000',
    ]);
    expect(r.notKernelNode).toMatchObject({ type: 'CudaError', call: 'cuGraphExecNodeSetParams', detail: 'saxpy' });
    expect(r.withAttributes).toMatchObject({ type: 'TypeError', message: expect.stringContaining('launch attributes') });
    expect(r.disposedLaunch).toMatchObject({ type: 'DisposedError' });
    expect(r.notNode).toMatchObject({ type: 'TypeError', message: expect.stringContaining('node must be a GraphNode') });
  });

  test('an executable updated from a prepared launch keeps each memory its arguments named, in every executable updated', () => {
    const r = run(`
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      const [x, y, z] = [0, 1, 2].map(() => cuda.DeviceBuffer.alloc(64));
      const addresses = [x, y, z].map((b) => b.address.toString(16));
      const graph = cuda.Graph.create();
      const node = graph.addKernel(saxpy, { grid: 1, block: 32 }, [cuda.arg.f32(0), cuda.arg.u64(0n), cuda.arg.u64(0n), cuda.arg.u32(0)]);
      const first = graph.instantiate(), second = graph.instantiate();
      const prepared = saxpy.prepare({ grid: 1, block: 32, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, x, x, 1]);
      first.setParams(node, prepared);
      prepared.set(3, 2);
      first.setParams(node, prepared); // the same memory: nothing new to keep
      prepared.set(2, y);
      first.setParams(node, prepared); // y is new to it
      second.setParams(node, prepared); // x and y, for the other executable
      first.setParams(node, prepared);
      prepared.set(1, z).set(2, 0n);
      second.setParams(node, prepared);
      prepared.dispose();
      x.dispose(); y.dispose(); z.dispose();
      stream.synchronizeSync();
      const frees = () => log().filter((l) => l.startsWith('free')).map((l) => l.split(' ')[1]);
      const whileBoth = frees();
      second.dispose();
      const whileFirst = frees();
      first.dispose();
      graph.dispose();
      report({ addresses, whileBoth, whileFirst, afterAll: frees() });`);
    const [x, y, z] = r.addresses;
    expect(r.whileBoth).toEqual([]);
    // The second executable alone took z; the first keeps x and y.
    expect(r.whileFirst).toEqual([z]);
    expect([...r.afterAll].sort()).toEqual([x, y, z].sort());
  });

  test('an executable\'s kernel node takes a params object: the values and memory addresses as given at each update', () => {
    const r = run(`
      const lib = cuda.Library.load(image);
      const saxpy = lib.kernel('saxpy');
      const x = cuda.DeviceBuffer.alloc(64);
      const y = cuda.DeviceBuffer.alloc(64);
      const graph = cuda.Graph.create();
      const node = graph.addKernel(saxpy, { grid: 1, block: 32 }, [cuda.arg.f32(0), cuda.arg.u64(0n), cuda.arg.u64(0n), cuda.arg.u32(0)]);
      const empty = graph.addEmpty();
      const exec = graph.instantiate();
      const params = { type: 'kernel', kernel: saxpy, grid: 3, block: [64, 2], args: [cuda.arg.f32(2), cuda.arg.ptr(x), cuda.arg.ptr(y), cuda.arg.u32(5)] };
      clearLog();
      exec.setParams(node, params);
      params.args[3] = cuda.arg.u32(6);
      exec.setParams(node, params);
      const updates = log();
      const le = (address) => Buffer.from(new BigUint64Array([address]).buffer).toString('hex');
      const addresses = [le(x.address), le(y.address)];
      const notKernelNode = attempt(() => exec.setParams(empty, params));
      y.dispose();
      report({ updates, addresses, notKernelNode, disposedMemory: attempt(() => exec.setParams(node, params)) });`);
    const [x, y] = r.addresses;
    expect(r.updates).toEqual([
      `exec-update saxpy grid=3,1,1 block=64,2,1 smem=0 stream=0 args=00000040|${x}|${y}|05000000`,
      `exec-update saxpy grid=3,1,1 block=64,2,1 smem=0 stream=0 args=00000040|${x}|${y}|06000000`,
    ]);
    expect(r.notKernelNode).toMatchObject({ type: 'CudaError', call: 'cuGraphExecNodeSetParams', detail: 'saxpy' });
    expect(r.disposedMemory).toMatchObject({ type: 'DisposedError' });
  });

  test('a module\'s function launches in its context only', () => {
    const r = run(`
      const stream = newStream();
      const own = cuda.Module.load(image).function('empty');
      const other = cuda.Module.load(image, { context: cuda.Device.get(0).createContext() }).function('empty');
      clearLog();
      own.launch({ grid: 1, block: 1, stream });
      report({ log: log(), other: attempt(() => other.launch({ grid: 1, block: 1, stream })),
        prepared: attempt(() => other.prepare({ grid: 1, block: 1, stream }, [])) });`);
    expect(r.log).toEqual(['launch empty grid=1,1,1 block=1,1,1 smem=0 stream=1 args=']);
    expect(r.other.message).toMatch(/empty belongs to a module of another context than the stream's/);
    expect(r.prepared.message).toMatch(/another context/);
  });

  test('a stream of a created context launches a module loaded in that context', () => {
    const r = run(`
      const context = cuda.Device.get(0).createContext();
      const stream = cuda.Stream.create({ context });
      const kernel = cuda.Module.load(image, { context }).function('empty');
      const primary = cuda.Module.load(image).function('empty');
      const event = cuda.Event.create({ context });
      clearLog();
      kernel.launch({ grid: 2, block: 3, stream });
      event.record(stream);
      const buffer = cuda.DeviceBuffer.allocAsync(16, stream);
      buffer.dispose();
      stream.synchronizeSync();
      report({ launches: log().filter((l) => l.startsWith('launch')), same: stream.context === context,
        primary: attempt(() => primary.launch({ grid: 1, block: 1, stream })),
        both: attempt(() => cuda.Stream.create({ context, device: 0 })),
        eventBoth: attempt(() => cuda.Event.create({ context, device: 0 })),
        notContext: attempt(() => cuda.Stream.create({ context: {} })),
        device: stream.device.ordinal, primaryOfDefault: cuda.Stream.create().context === cuda.Device.get(0).primaryContext });`);
    expect(r.launches).toEqual(['launch empty grid=2,1,1 block=3,1,1 smem=0 stream=1 args=']);
    expect(r.same).toBe(true);
    expect(r.primary.message).toMatch(/empty belongs to a module of another context than the stream's/);
    expect(r.both).toMatchObject({ type: 'TypeError' });
    expect(r.both.message).toMatch(/not both/);
    expect(r.eventBoth.message).toMatch(/not both/);
    expect(r.notContext).toMatchObject({ type: 'TypeError' });
    expect(r.device).toBe(0);
    expect(r.primaryOfDefault).toBe(true);
  });

  test('code stays loaded while launched work may run it: released at the stream\'s next synchronization', () => {
    const r = run(`
      const stream = newStream();
      let lib = cuda.Library.load(image);
      let kernel = lib.kernel('empty');
      kernel.launch({ grid: 1, block: 1, stream });
      const prepared = lib.kernel('saxpy').prepare({ grid: 1, block: 1, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0n, 0n, 1]);
      prepared.launch();
      kernel.dispose(); lib.dispose(); prepared.dispose(); prepared.kernel.dispose();
      const out = { pending: stream.pendingResources, beforeSync: log().filter((l) => l.includes('unload')) };
      stream.synchronizeSync();
      out.afterSync = log().filter((l) => l.includes('unload'));
      out.pendingAfter = stream.pendingResources;
      const idle = cuda.Library.load(image);
      idle.dispose();
      out.unlaunched = log().filter((l) => l.includes('unload')).length;
      report(out);`);
    expect(r).toEqual({ pending: 2, beforeSync: [], afterSync: ['library unload'], pendingAfter: 0, unlaunched: 2 });
  });

  test('an awaited synchronization releases it too', () => {
    const r = run(`
      (async () => {
        const stream = newStream();
        const lib = cuda.Library.load(image);
        const kernel = lib.kernel('empty');
        kernel.launch({ grid: 1, block: 1, stream });
        kernel.dispose();
        lib.dispose();
        const before = log().filter((l) => l.includes('unload')).length;
        await stream.synchronize();
        report({ before, after: log().filter((l) => l.includes('unload')), pending: stream.pendingResources });
      })();`);
    expect(r).toEqual({ before: 0, after: ['library unload'], pending: 0 });
  });

  test('memory arguments: their device address is sent, and they are kept until the stream is known idle', () => {
    const r = run(`
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      const x = cuda.DeviceBuffer.alloc(256), y = cuda.DeviceBuffer.alloc(256), z = cuda.DeviceBuffer.alloc(256);
      const addresses = [x, y, z].map((b) => b.address.toString(16));
      clearLog();
      saxpy.launch({ grid: 1, block: 1, stream }, [cuda.arg.f32(1), cuda.arg.ptr(x), cuda.arg.ptr(y), cuda.arg.u32(2)]);
      const prepared = saxpy.prepare({ grid: 1, block: 1, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, x, z, 3]);
      prepared.launch();
      prepared.set(2, 0x40n).launch(); // z no longer an argument: kept for the launch before
      x.dispose(); y.dispose(); z.dispose();
      const beforeSync = log().filter((l) => l.startsWith('free'));
      const disposed = attempt(() => saxpy.launch({ grid: 1, block: 1, stream }, [cuda.arg.f32(1), cuda.arg.ptr(x), cuda.arg.ptr(y), cuda.arg.u32(2)]));
      stream.synchronizeSync();
      const afterSync = log().filter((l) => l.startsWith('free'));
      prepared.dispose();
      report({ addresses, launches: log().filter((l) => l.startsWith('launch')), beforeSync, afterSync, disposed });`);
    const le = (hex: string) => Buffer.from(hex.padStart(16, '0'), 'hex').reverse().toString('hex');
    const [x, y, z] = r.addresses;
    expect(r.launches).toEqual([
      `launch saxpy grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0000803f|${le(x)}|${le(y)}|02000000`,
      `launch saxpy grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0000803f|${le(x)}|${le(z)}|03000000`,
      `launch saxpy grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0000803f|${le(x)}|${le('40')}|03000000`,
    ]);
    expect(r.beforeSync).toEqual([]);
    expect(r.disposed).toMatchObject({ type: 'DisposedError' });
    // x stays an argument of the prepared launch, so it is freed only when that goes
    expect(r.afterSync.sort()).toEqual([`free ${y}`, `free ${z}`].sort());
  });

  test('a pointer into memory, arg.ptr(memory, offset): the address plus the offset is sent, and the memory kept as arg.ptr(memory) keeps it', () => {
    const r = run(`
      (async () => {
      const settle = async () => { for (let i = 0; i < 5; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); } };
      const frees = () => log().filter((l) => l.startsWith('free')).map((l) => l.split(' ')[1]);
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      let x = cuda.DeviceBuffer.alloc(256), y = cuda.DeviceBuffer.alloc(256), z = cuda.DeviceBuffer.alloc(256);
      const addresses = [x, y, z].map((b) => b.address.toString(16));
      clearLog();
      saxpy.launch({ grid: 1, block: 1, stream }, [cuda.arg.f32(1), cuda.arg.ptr(x, 16), cuda.arg.ptr(y, 256n), cuda.arg.u32(2)]);
      let prepared = saxpy.prepare({ grid: 1, block: 1, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, new cuda.MemoryPointer(x, 0), new cuda.MemoryPointer(z, 8), 3]);
      prepared.launch();
      const value = ((got) => ({ isPointer: got instanceof cuda.MemoryPointer, offset: got.offset, frozen: Object.isFrozen(got), memory: got.memory === z }))(prepared.get(2));
      const launches = log().filter((l) => l.startsWith('launch'));
      x = y = z = null;  // dropped, not disposed: only the launches hold them now
      await settle();
      const beforeSync = frees();
      stream.synchronizeSync();
      await settle();
      const afterSync = frees();
      prepared.dispose();
      prepared = null;  // its values were the last references to x and z
      await settle();
      stream.synchronizeSync();
      await settle();
      report({ addresses, launches, beforeSync, afterSync, afterPrepared: frees(), value });
      })().catch((e) => { console.error(e); process.exitCode = 1; });`, {}, ['--expose-gc']);
    const le = (hex: string, add = 0) => Buffer.from((BigInt('0x' + hex) + BigInt(add)).toString(16).padStart(16, '0'), 'hex').reverse().toString('hex');
    const [x, y, z] = r.addresses;
    expect(r.launches).toEqual([
      `launch saxpy grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0000803f|${le(x, 16)}|${le(y, 256)}|02000000`,
      `launch saxpy grid=1,1,1 block=1,1,1 smem=0 stream=1 args=0000803f|${le(x)}|${le(z, 8)}|03000000`,
    ]);
    expect(r.value).toEqual({ isPointer: true, offset: 8, frozen: true, memory: true });
    expect(r.beforeSync).toEqual([]);
    // x and z stay arguments of the prepared launch; y only the plain launch held
    expect(r.afterSync).toEqual([y]);
    expect(r.afterPrepared.sort()).toEqual([x, y, z].sort());
  });

  test('a pointer into memory in a kernel node or a captured launch: the graph keeps the memory', () => {
    const r = run(`
      (async () => {
      const settle = async () => { for (let i = 0; i < 5; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); } };
      const frees = () => log().filter((l) => l.startsWith('free')).map((l) => l.split(' ')[1]);
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      let x = cuda.DeviceBuffer.alloc(256), y = cuda.DeviceBuffer.alloc(256);
      const addresses = [x, y].map((b) => b.address.toString(16));
      const graph = cuda.Graph.create();
      graph.addKernel(saxpy, { grid: 1, block: 1 }, [cuda.arg.f32(1), cuda.arg.ptr(x, 32), cuda.arg.ptr(x, 64), cuda.arg.u32(1)]);
      const capture = stream.beginCapture();
      saxpy.launch({ grid: 1, block: 1, stream }, [cuda.arg.f32(1), cuda.arg.ptr(y, 128), cuda.arg.ptr(y, 0), cuda.arg.u32(1)]);
      const captured = capture.end();
      clearLog();
      x = y = null;
      await settle();
      stream.synchronizeSync();
      await settle();
      const held = frees();
      const exec = graph.instantiate();
      const capturedExec = captured.instantiate();
      graph.dispose(); captured.dispose();
      await exec.run(stream);
      await capturedExec.run(stream);
      const launches = log().filter((l) => l.startsWith('graph-launch') || l.startsWith('launch'));
      await settle();
      const heldByExecutables = frees();
      exec.dispose(); capturedExec.dispose();
      stream.synchronizeSync();
      await settle();
      report({ addresses, held, heldByExecutables, released: frees() });
      })().catch((e) => { console.error(e); process.exitCode = 1; });`, {}, ['--expose-gc']);
    expect(r.held).toEqual([]);
    expect(r.heldByExecutables).toEqual([]);
    expect(r.released.sort()).toEqual([...r.addresses].sort());
  });

  test('a pointer into memory is refused past the memory\'s end, with a negative, fractional or unsafe offset, or without memory', () => {
    const r = run(`
      const stream = newStream();
      const saxpy = cuda.Library.load(image).kernel('saxpy');
      const x = cuda.DeviceBuffer.alloc(256);
      const launch = (p) => attempt(() => saxpy.launch({ grid: 1, block: 1, stream }, [cuda.arg.f32(1), p, cuda.arg.ptr(x), cuda.arg.u32(1)]));
      const prepared = saxpy.prepare({ grid: 1, block: 1, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, x, x, 1]);
      const graph = cuda.Graph.create();
      clearLog();
      report({
        past: launch(cuda.arg.ptr(x, 257)),
        pastPrepared: attempt(() => prepared.set(1, new cuda.MemoryPointer(x, 300))),
        pastNode: attempt(() => graph.addKernel(saxpy, { grid: 1, block: 1 }, [cuda.arg.f32(1), cuda.arg.ptr(x, 1024), cuda.arg.ptr(x), cuda.arg.u32(1)])),
        negative: attempt(() => cuda.arg.ptr(x, -1)),
        fraction: attempt(() => cuda.arg.ptr(x, 1.5)),
        huge: attempt(() => cuda.arg.ptr(x, 2n ** 60n)),
        address: attempt(() => cuda.arg.ptr(0x1000n, 4)),
        nothing: attempt(() => cuda.arg.ptr(null, 4)),
        unchanged: prepared.get(1) === x,
        nodes: graph.nodeCount,
        launches: log().filter((l) => l.startsWith('launch')).length,
        native: attempt(() => require(require('path').join(${JSON.stringify(distPath)}, 'native.js')).native.preparedLaunchSetPointer(prepared.slot, 8, x.slot, 2 ** 53)),
      });`);
    expect(r.past).toMatchObject({ type: 'RangeError', message: 'byteOffset 257 is past the end of memory of 256 bytes' });
    expect(r.pastPrepared).toMatchObject({ type: 'RangeError', message: 'byteOffset 300 is past the end of memory of 256 bytes' });
    expect(r.pastNode).toMatchObject({ type: 'RangeError', message: 'byteOffset 1024 is past the end of memory of 256 bytes' });
    expect(r.negative).toMatchObject({ type: 'RangeError', message: expect.stringMatching(/^offset must be between 0 and/) });
    expect(r.fraction).toMatchObject({ type: 'TypeError', message: 'offset must be an integer, got 1.5' });
    expect(r.huge).toMatchObject({ type: 'RangeError' });
    expect(r.address).toMatchObject({ type: 'TypeError', message: expect.stringContaining('for a raw address, add the offset to the bigint') });
    expect(r.nothing).toMatchObject({ type: 'TypeError' });
    expect(r).toMatchObject({ unchanged: true, nodes: 0, launches: 0 });
    expect(r.native).toMatchObject({ type: 'RangeError' });
  });

  test('hot calls name handles by slot: a number naming nothing, another class or a disposed handle is refused', () => {
    const r = run(`
      const { native } = require(${JSON.stringify(require('path').resolve(__dirname, '../../dist/native'))});
      const stream = newStream();
      const lib = cuda.Library.load(image);
      const saxpy = lib.kernel('saxpy');
      const event = cuda.Event.create();
      const buffer = cuda.DeviceBuffer.alloc(64);
      const { encodeLaunchShape } = require(${JSON.stringify(require('path').resolve(__dirname, '../../dist/kernel/launch-config'))});
      const { packedRecord } = require(${JSON.stringify(require('path').resolve(__dirname, '../../dist/kernel/kernel'))});
      // The record a launch takes (native/kernel/launch.h KernelCall): saxpy's 28 bytes of
      // parameters and room for the [offset, memory slot, byte offset] triples given;
      // its header's counts [argBytes, pointerCount] as given (default: what the
      // record holds), and its [kernel, stream] slots (default: saxpy's and the stream's).
      const record = (pairs, counts = [28, pairs.length / 3], slots = [saxpy.slot, stream.slot]) => {
        const packed = packedRecord(28, pairs.length / 3);
        encodeLaunchShape({ grid: 1, block: 1 }, packed.config);
        packed.pointers.set(pairs);
        packed.fields.set(counts);
        packed.launch.set(slots);
        return packed.record;
      };
      const out = {
        slots: [stream, event, buffer, saxpy].map((h) => typeof h.slot),
        readOnly: attempt(() => { 'use strict'; stream.slot = 0; }),
        nothing: attempt(() => native.graphLaunch(2 ** 40, stream.slot)),
        negative: attempt(() => native.eventRecord(-1, stream.slot)),
        fraction: attempt(() => native.eventQuery(event.slot + 0.5)),
        notNumber: attempt(() => native.graphLaunch({}, stream.slot)),
        otherClass: attempt(() => native.eventRecord(stream.slot, event.slot)),
        pointerNotMemory: attempt(() => native.kernelLaunch(record([8, event.slot, 0]))),
        pointerCount: attempt(() => native.kernelLaunch(record([0, 0, 0], [28, 2]))),
        pointerOffset: attempt(() => native.kernelLaunch(record([1e300, buffer.slot, 0]))),
        byteOffsetNegative: attempt(() => native.kernelLaunch(record([8, buffer.slot, -1]))),
        byteOffsetFraction: attempt(() => native.kernelLaunch(record([8, buffer.slot, 0.5]))),
        byteOffsetHuge: attempt(() => native.kernelLaunch(record([8, buffer.slot, 1e300]))),
        byteOffsetNaN: attempt(() => native.kernelLaunch(record([8, buffer.slot, NaN]))),
        argBytesBeyond: attempt(() => native.kernelLaunch(record([], [33, 0]))),
        argBytesNegative: attempt(() => native.kernelLaunch(record([], [-1, 0]))),
        pointerCountNegative: attempt(() => native.kernelLaunch(record([], [28, -1]))),
        shortRecord: attempt(() => native.kernelLaunch(new ArrayBuffer(95))),
        notBytes: attempt(() => native.kernelLaunch(new Float64Array(32))),
        fits: attempt(() => native.kernelLaunch(record([8, buffer.slot, 0, 16, buffer.slot, 0]))),
        kernelNotKernel: attempt(() => native.kernelLaunch(record([], undefined, [stream.slot, stream.slot]))),
        streamNotStream: attempt(() => native.kernelLaunch(record([], undefined, [saxpy.slot, saxpy.slot]))),
        slotNotSlot: attempt(() => native.kernelLaunch(record([], undefined, [saxpy.slot, 0.5]))),
      };
      event.dispose();
      out.disposed = attempt(() => native.eventQuery(event.slot));
      buffer.dispose();
      out.disposedMemory = attempt(() => saxpy.launch({ grid: 1, block: 1, stream },
        [cuda.arg.f32(1), cuda.arg.ptr(buffer), cuda.arg.ptr(buffer), cuda.arg.u32(1)]));
      saxpy.dispose();
      out.disposedKernel = attempt(() => native.kernelLaunch(record([])));
      report(out);`);
    expect(r.slots).toEqual(['number', 'number', 'number', 'number']);
    expect(r.readOnly).toMatchObject({ type: 'TypeError' });
    for (const key of ['nothing', 'negative', 'fraction', 'notNumber']) expect(r[key]).toMatchObject({ type: 'TypeError' });
    expect(r.otherClass).toMatchObject({ type: 'TypeError', message: 'event must be an Event' });
    expect(r.pointerNotMemory).toMatchObject({ type: 'TypeError' });
    expect(r.pointerCount).toMatchObject({ type: 'RangeError' });
    expect(r.pointerOffset).toMatchObject({ type: 'RangeError' });
    for (const key of ['byteOffsetNegative', 'byteOffsetFraction', 'byteOffsetHuge', 'byteOffsetNaN']) {
      expect(r[key]).toMatchObject({ type: 'RangeError', message: 'byteOffset must be an integer from 0 to 2^53 - 1' });
    }
    expect(r.argBytesBeyond).toMatchObject({ type: 'RangeError', message: expect.stringContaining('argBytes') });
    expect(r.argBytesNegative).toMatchObject({ type: 'RangeError', message: expect.stringContaining('argBytes') });
    expect(r.pointerCountNegative).toMatchObject({ type: 'RangeError', message: expect.stringContaining('pointerCount') });
    expect(r.shortRecord).toMatchObject({ type: 'RangeError' });
    expect(r.notBytes).toMatchObject({ type: 'TypeError' });
    expect(r.fits).toBeNull();
    expect(r.kernelNotKernel).toMatchObject({ type: 'TypeError', message: 'kernel must be a Kernel' });
    expect(r.streamNotStream).toMatchObject({ type: 'TypeError', message: 'stream must be a Stream' });
    expect(r.slotNotSlot).toMatchObject({ type: 'TypeError', message: 'stream must be a Stream' });
    expect(r.disposed).toMatchObject({ type: 'DisposedError' });
    expect(r.disposedMemory).toMatchObject({ type: 'DisposedError' });
    expect(r.disposedKernel).toMatchObject({ type: 'DisposedError' });
  });

  test('without the driver\'s parameter layout (before CUDA 12.4): C\'s rules, the buffer passed whole', () => {
    const r = run(`
      const stream = newStream();
      const lib = cuda.Library.load(image);
      const st = lib.kernel('st');
      const s = new Uint8Array(24).fill(0xab);
      clearLog();
      st.launch({ grid: 1, block: 1, stream }, [cuda.arg.bytes(s, 8), cuda.arg.i16(1), cuda.arg.ptr(2n)]);
      st.prepare({ grid: 1, block: 1, stream, cooperative: true }, [{ bytes: 24, align: 8 }, 'i16', 'ptr'], [s, 3, 4n]).launch();
      report({ params: st.params, count: attempt(() => lib.kernelCount), log: log() });`, { FAKE_CUDA_VERSION: '12030' });
    expect(r.params).toBeNull();
    expect(r.count).toMatchObject({ type: 'FunctionUnavailableError', call: 'cuLibraryGetKernelCount' });
    const packed = (h: number, p: number) => 'ab'.repeat(24) + h.toString(16).padStart(2, '0') + '00' + '00'.repeat(6) +
      p.toString(16).padStart(2, '0') + '00'.repeat(7);
    expect(r.log).toEqual([
      `launch st grid=1,1,1 block=1,1,1 smem=0 stream=1 args=packed:${packed(1, 2)}`,
      `launchEx st grid=1,1,1 block=1,1,1 smem=0 stream=1 cooperative=1 args=packed:${packed(3, 4)}`,
    ]);
  });
});

describe('attributes and occupancy', () => {
  test('attributes are read and set per device', () => {
    const r = run(`
      const k = cuda.Library.load(image).kernel('saxpy');
      const before = k.attribute('maxDynamicSharedSizeBytes');
      k.setMaxDynamicSharedMemory(100000);
      report({ before, after: k.attribute(cuda.FunctionAttribute.maxDynamicSharedSizeBytes), regs: k.attributes().numRegs,
        tooMuch: attempt(() => k.setMaxDynamicSharedMemory(300000)), badName: attempt(() => k.attribute('registers')) });`);
    expect(r).toMatchObject({ before: 49152, after: 100000, regs: 32 });
    expect(r.tooMuch).toMatchObject({ type: 'CudaError', call: 'cuKernelSetAttribute', detail: 'saxpy attribute=8 value=300000' });
    expect(r.badName).toMatchObject({ type: 'RangeError' });
  });

  test('an attribute number the headers do not name is refused before the driver', () => {
    const r = run(`
      const k = cuda.Library.load(image).kernel('saxpy');
      cuda.callCounters.enable();
      const calls = () => cuda.callCounters.read().find((c) => c.name === 'cuKernelSetAttribute')?.calls ?? 0;
      const refused = [cuda.FunctionAttribute.clusterSchedulingPolicyPreference + 1, 2 ** 31 - 1].map((n) => attempt(() => k.setAttribute(n, 16)));
      const refusedCalls = calls();
      k.setAttribute(cuda.FunctionAttribute.preferredSharedMemoryCarveout, 50);
      report({ refused, refusedCalls, carveout: k.attribute('preferredSharedMemoryCarveout'), calls: calls() });`);
    for (const e of r.refused) expect(e).toMatchObject({ type: 'RangeError', message: 'attribute must be between 0 and 15' });
    expect(r).toMatchObject({ refusedCalls: 0, carveout: 50, calls: 1 });
  });

  test('occupancy, with the shared memory of a block size computed by JavaScript', () => {
    const r = run(`
      const k = cuda.Library.load(image).kernel('saxpy');
      const sizes = [];
      report({ blocks: k.maxActiveBlocksPerMultiprocessor(256), withShared: k.maxActiveBlocksPerMultiprocessor(256, { dynamicSharedMemory: 1 }),
        fixed: k.maxPotentialBlockSize({ dynamicSharedMemory: 1000 }),
        computed: k.maxPotentialBlockSize({ dynamicSharedMemory: (b) => { sizes.push(b); return b * 64; } }),
        limited: k.maxPotentialBlockSize({ blockSizeLimit: 128 }), sizes,
        throws: attempt(() => k.maxPotentialBlockSize({ dynamicSharedMemory: () => { throw new Error('from the callback'); } })),
        notANumber: attempt(() => k.maxPotentialBlockSize({ dynamicSharedMemory: () => 'x' })) });`);
    expect(r).toMatchObject({ blocks: 8, withShared: 7, fixed: { blockSize: 1024, minGridSize: 264 },
      computed: { blockSize: 512 }, limited: { blockSize: 128 }, sizes: [32, 64, 128, 256, 512, 1024] });
    expect(r.throws).toMatchObject({ type: 'Error', message: 'from the callback' });
    expect(r.notANumber).toMatchObject({ type: 'TypeError' });
  });

  test("a library's kernel answers occupancy for a device, in its primary context, with no context named or current", () => {
    const r = run(`
      const k = cuda.Library.load(image).kernel('saxpy');
      const own = cuda.Device.get(0).createContext();
      const m = cuda.Module.load(image, { context: own }).function('saxpy');
      report({
        blocks: k.maxActiveBlocksPerMultiprocessor(256, { device: 0 }),
        byDevice: k.maxActiveBlocksPerMultiprocessor(256, { device: cuda.Device.get(0), dynamicSharedMemory: 1 }),
        best: k.maxPotentialBlockSize({ device: 0, blockSizeLimit: 128 }),
        moduleOwnDevice: m.maxActiveBlocksPerMultiprocessor(256, { device: 0 }),
        both: attempt(() => k.maxActiveBlocksPerMultiprocessor(256, { device: 0, context: own })),
        noDevice: attempt(() => k.maxActiveBlocksPerMultiprocessor(256, { device: 7 })),
        badKey: attempt(() => k.maxActiveClusters({ grid: 1, block: 1 }, { devices: 0 })),
      });`);
    expect(r).toMatchObject({ blocks: 8, byDevice: 7, best: { blockSize: 128 }, moduleOwnDevice: 8 });
    expect(r.both).toMatchObject({ type: 'TypeError', message: expect.stringContaining('cannot both be given') });
    expect(r.noDevice).toMatchObject({ type: 'RangeError' });
    expect(r.badKey).toMatchObject({ type: 'TypeError', message: expect.stringContaining('options.devices is not an option of maxActiveClusters') });
  });
});
