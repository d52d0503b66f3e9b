// The small CUDA 13 features against the real driver, checked by their effects
// where the hardware has them: atomic capabilities, device notifications,
// coredump settings read back, cache preferences read back and kernels still
// right after setting theirs, allocation flags per kind of pinned memory,
// modules the driver reads from a CUBIN file and from an nvcc fat binary with
// their kernels launched, the GPUDirect RDMA flush, and the driver's log buffer.
// What the driver answers is printed, for the record.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  arg, AtomicCapability, AtomicOperation, compile, CudaError, CudaNotSupportedError, Device, DeviceBuffer, driverLogs,
  getCoredumpAttribute, HostBuffer, Library, Module, setCoredumpAttribute, Stream,
} from '../../lib';
import { describeGpu } from '../helpers/tiers';

const source = 'extern "C" __global__ void add_one(int* p, unsigned n) { unsigned i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1; }';
const nvcc = '/usr/local/cuda/bin/nvcc';

function checkAddOne(kernel: ReturnType<Module['function']>): void {
  const n = 1000;
  using buffer = DeviceBuffer.from(Int32Array.from({ length: n }, (_, i) => i * 3));
  using stream = Stream.create();
  kernel.launch({ grid: Math.ceil(n / 128), block: 128, stream }, [arg.ptr(buffer), arg.u32(n)]);
  stream.synchronizeSync();
  expect(Array.from(buffer.readSync(Int32Array))).toEqual(Array.from({ length: n }, (_, i) => i * 3 + 1));
}

describeGpu('CUDA 13 small features', () => {
  const device = () => Device.get(0);
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-a2-gpu-'));
  });

  test('atomic capabilities over the host link and towards the device itself', () => {
    const host = device().hostAtomicCapabilities();
    console.log(`host atomic capabilities: ${JSON.stringify(host)}`);
    expect(Object.keys(host).sort()).toEqual(Object.keys(AtomicOperation).sort());
    for (const names of Object.values(host)) for (const n of names!) expect(Object.keys(AtomicCapability)).toContain(n);
    // Driver 580 on an H100 reports no native host atomics (every list empty):
    // only the shape is asserted, the lists are printed.
    let peer: unknown;
    try {
      peer = device().peerAtomicCapabilities(device(), ['integer-add', 'compare-and-swap', 'float-add']);
    } catch (e) {
      peer = e;
    }
    console.log(`peer (itself) atomic capabilities: ${peer instanceof Error ? `${(peer as CudaError).code}` : JSON.stringify(peer)}`);
    if (peer instanceof Error) expect(peer).toBeInstanceOf(CudaError);
    else expect(Object.keys(peer as object).sort()).toEqual(['compare-and-swap', 'float-add', 'integer-add']);
    if (Device.count() > 1) {
      const other = device().peerAtomicCapabilities(Device.get(1));
      console.log(`peer (device 1) atomic capabilities: ${JSON.stringify(other)}`);
      expect(Object.keys(other).length).toBe(13);
    }
  });

  test('device notifications: a registration, or the driver says it has none to send', () => {
    let outcome: string;
    try {
      const registration = device().onAsyncNotification(() => {});
      outcome = 'registered';
      registration.dispose();
      expect(registration.disposed).toBe(true);
    } catch (e) {
      expect(e).toBeInstanceOf(CudaNotSupportedError);
      outcome = `refused: ${(e as CudaError).code}`;
    }
    console.log(`cuDeviceRegisterAsyncNotification on ${process.platform}: ${outcome}`);
  });

  test('coredump settings are set and read back, for the process and for a context', () => {
    const context = device().primaryContext;
    const original = {
      file: getCoredumpAttribute('file'),
      flags: getCoredumpAttribute('generation-flags'),
      onException: getCoredumpAttribute('enable-on-exception'),
      contextFile: getCoredumpAttribute('file', { context }),
    };
    console.log(`coredump defaults: ${JSON.stringify(original)}, trigger-host ${getCoredumpAttribute('trigger-host')}, ` +
      `lightweight ${getCoredumpAttribute('lightweight')}, user trigger ${getCoredumpAttribute('enable-user-trigger')}, pipe ${getCoredumpAttribute('pipe')}`);
    try {
      const file = path.join(dir, 'gpu.core');
      setCoredumpAttribute('file', file);
      expect(getCoredumpAttribute('file')).toBe(file);
      setCoredumpAttribute('generation-flags', ['skip-global-memory', 'skip-abort']);
      expect(getCoredumpAttribute('generation-flags')).toEqual(['skip-global-memory', 'skip-abort']);
      setCoredumpAttribute('enable-on-exception', false, { context });
      expect(getCoredumpAttribute('enable-on-exception', { context })).toBe(false);
      const contextFile = path.join(dir, 'context.core');
      setCoredumpAttribute('file', contextFile, { context });
      expect(getCoredumpAttribute('file', { context })).toBe(contextFile);
    } finally {
      if (original.file) setCoredumpAttribute('file', original.file);
      setCoredumpAttribute('generation-flags', original.flags);
      if (original.contextFile) setCoredumpAttribute('file', original.contextFile, { context });
    }
  });

  test("a context's cache preference reads back; kernels given theirs still compute", () => {
    const context = device().primaryContext;
    const before = context.cacheConfig;
    const seen: string[] = [];
    try {
      for (const config of ['prefer-shared', 'prefer-l1', 'prefer-equal', 'prefer-none'] as const) {
        context.setCacheConfig(config);
        seen.push(context.cacheConfig);
      }
    } finally {
      context.setCacheConfig(before);
    }
    console.log(`cache config: default ${before}, read back ${JSON.stringify(seen)}`);
    expect(seen).toEqual(['prefer-shared', 'prefer-l1', 'prefer-equal', 'prefer-none']);
    using library = Library.load(compile(source));
    library.kernel('add_one').setCacheConfig('prefer-shared', device());
    checkAddOne(library.kernel('add_one'));
    using module = Module.load(compile(source));
    module.function('add_one').setCacheConfig('prefer-l1');
    checkAddOne(module.function('add_one'));
  });

  test('pinned allocations report the flags they were made with', () => {
    const flags = (options?: Parameters<typeof HostBuffer.alloc>[1]) => {
      using buffer = HostBuffer.alloc(1 << 16, options);
      return buffer.flags;
    };
    const seen = {
      plain: flags(), portable: flags({ portable: true }), mapped: flags({ mapped: true }),
      writeCombined: flags({ writeCombined: true }), all: flags({ portable: true, mapped: true, writeCombined: true }),
    };
    console.log(`cuMemHostGetFlags: ${JSON.stringify(seen)}`);
    expect(seen.plain.writeCombined).toBe(false);
    expect(seen.portable.portable).toBe(true);
    expect(seen.portable.writeCombined).toBe(false);
    expect(seen.mapped.deviceMap).toBe(true);
    expect(seen.writeCombined.writeCombined).toBe(true);
    expect(seen.all).toEqual({ portable: true, deviceMap: true, writeCombined: true });
    using registered = HostBuffer.register(new Uint8Array(1 << 16));
    expect(() => registered.flags).toThrow(TypeError);
  });

  test('a CUBIN file the driver reads, and its kernel runs', () => {
    const program = compile(source);
    expect(program.output).toBe('cubin');
    const file = path.join(dir, 'add_one.cubin');
    fs.writeFileSync(file, program.code);
    using module = Module.fromFile(file);
    checkAddOne(module.function('add_one'));
    let missing: unknown;
    try { Module.fromFile(path.join(dir, 'none.cubin')); } catch (e) { missing = e; }
    expect((missing as CudaError).code).toBe('CUDA_ERROR_FILE_NOT_FOUND');
  });

  test('a fat binary from nvcc -fatbin, and its kernel runs', () => {
    const { major, minor } = device().computeCapability;
    const arch = `${major}${minor}`;
    const cu = path.join(dir, 'add_one.cu');
    const fatbin = path.join(dir, 'add_one.fatbin');
    fs.writeFileSync(cu, source);
    let made = 'nvcc -fatbin';
    try {
      execFileSync(nvcc, ['-fatbin', `-gencode=arch=compute_${arch},code=[sm_${arch},compute_${arch}]`, '-o', fatbin, cu], { stdio: 'pipe' });
    } catch (e) {
      // nvcc needs a host compiler to preprocess; the toolkit's fatbinary packs an NVRTC CUBIN without one.
      made = `fatbinary (nvcc failed: ${String((e as { stderr?: Buffer }).stderr ?? e).trim().split('\n')[0]})`;
      const cubin = path.join(dir, 'for-fatbin.cubin');
      fs.writeFileSync(cubin, compile(source).code);
      execFileSync(path.join(path.dirname(nvcc), 'fatbinary'), [`--create=${fatbin}`, `--image3=kind=elf,sm=${arch},file=${cubin}`], { stdio: 'pipe' });
    }
    const bytes = fs.readFileSync(fatbin);
    console.log(`${made}: ${bytes.length} bytes`);
    using module = Module.fromFatBinary(bytes);
    checkAddOne(module.function('add_one'));
    expect(() => Module.fromFatBinary(bytes.subarray(0, bytes.length - 1))).toThrow(RangeError);
  });

  test('GPUDirect RDMA flush: done where the device attribute says it is supported, refused otherwise', () => {
    const options = device().attribute('gpuDirectRdmaFlushWritesOptions');
    const capable = device().capabilities.gpuDirectRdmaFlushWrites;
    let outcome = 'flushed';
    try {
      device().primaryContext.flushGpuDirectRdmaWrites('owner');
      device().primaryContext.flushGpuDirectRdmaWrites('all-devices');
    } catch (e) {
      expect(e).toBeInstanceOf(CudaError);
      outcome = (e as CudaError).code;
    }
    console.log(`gpuDirectRdmaFlushWritesOptions ${options}, gpuDirectRdma ${device().capabilities.gpuDirectRdma}, flush: ${outcome}`);
    if (capable) expect(outcome).toBe('flushed');
    else expect(outcome).not.toBe('flushed');
  });

  test("the driver's log buffer holds the lines of a refusal made after a marker", () => {
    const mark = driverLogs.current();
    let refused: unknown;
    try { DeviceBuffer.alloc(2 ** 52); } catch (e) { refused = e; }
    expect(refused).toBeInstanceOf(CudaError);
    const since = driverLogs.dump({ since: mark });
    const all = driverLogs.dump();
    const file = path.join(dir, 'driver.log');
    driverLogs.dumpToFile(file, { since: mark });
    console.log(`driver log since the marker: ${JSON.stringify(since)}; error's driverLog ${JSON.stringify((refused as CudaError).driverLog)}; whole buffer ${all.length} chars`);
    expect(all.length).toBeGreaterThanOrEqual(since.length);
    if (fs.existsSync(file)) expect(fs.readFileSync(file, 'utf8')).toContain(since.trim());
    else expect(since).toBe('');
    // The lines after a fresh marker are none yet.
    expect(driverLogs.dump({ since: driverLogs.current() })).toBe('');
  });
});
