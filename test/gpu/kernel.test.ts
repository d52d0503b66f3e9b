// Kernels against the real driver: compiled with NVRTC, launched with typed
// arguments, results copied back and compared. Saxpy, a reduction with dynamic
// shared memory, a struct by value, every scalar type, a cooperative grid sync,
// a cluster launch (compute capability 9.0+), prepared launches, globals,
// attributes, occupancy, and the refusal of a mismatched argument list.
import {
  arg,
  compile,
  CudaError,
  Device,
  DeviceBuffer,
  fromFloat16Bits,
  FunctionAttribute,
  Graph,
  Kernel,
  KernelArgumentError,
  Library,
  MemoryPointer,
  Module,
  Stream,
  toBFloat16Bits,
  toFloat16Bits,
} from '../../lib';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { toolkitIncludes } from '../helpers/toolkit';
import { describeGpu } from '../helpers/tiers';

const source = `
extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void sum(const unsigned* in, unsigned n, unsigned long long* total) {
  extern __shared__ unsigned long long partial[];
  unsigned t = threadIdx.x;
  unsigned long long v = 0;
  for (unsigned i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += in[i];
  partial[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(total, partial[0]);
}

struct Params { double scale; int offset; char flag; float bias[3]; };
extern "C" __global__ void affine(Params p, float* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)(p.scale * i) + p.offset + p.bias[i % 3] + p.flag;
}

extern "C" __global__ void scalars(signed char a, unsigned char b, short c, unsigned short d, int e, unsigned f,
                                   long long g, unsigned long long h, float fl, double db, unsigned short half,
                                   unsigned short bhalf, double* out) {
  out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e; out[5] = f;
  out[6] = (double)g; out[7] = (double)h; out[8] = fl; out[9] = db;
  float h32;
  asm("cvt.f32.f16 %0, %1;" : "=f"(h32) : "h"(half));
  out[10] = h32;
  out[11] = __int_as_float((int)bhalf << 16);
}

__device__ int counter;
extern "C" __global__ void add_to(int* p, int v) { atomicAdd(p, v); }
extern "C" __global__ void read_counter(int* out) { *out = counter; }

extern "C" __global__ void spin(long long cycles, unsigned* done) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
  *done = 0xC0FFEEu;
}
`;

const cooperativeSource = `
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void rotate(unsigned* a, unsigned* b, unsigned n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) a[i] = i * 7u;
  grid.sync();
  for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) b[i] = a[(i + 1) % n];
}`;

const clusterSource = `
extern "C" __global__ void cluster_ranks(unsigned* out) {
  unsigned rank, size, id;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(id));
  if (threadIdx.x == 0) { out[3 * blockIdx.x] = rank; out[3 * blockIdx.x + 1] = size; out[3 * blockIdx.x + 2] = id; }
}`;


describeGpu('kernels', () => {
  let lib: Library;
  let stream: Stream;
  beforeAll(() => {
    lib = Library.load(compile(source, { name: 'kernels.cu' }));
    stream = Stream.create();
  });
  afterAll(() => {
    stream?.dispose();
    lib?.dispose();
  });

  test('the driver reports each kernel\'s parameter layout', () => {
    expect(lib.kernelCount).toBe(7);
    expect(lib.kernels().map((k) => k.name).sort()).toEqual(['add_to', 'affine', 'read_counter', 'saxpy', 'scalars', 'spin', 'sum']);
    using saxpy = lib.kernel('saxpy');
    expect(saxpy.kind).toBe('library');
    expect(saxpy.params).toEqual([{ offset: 0, size: 4 }, { offset: 8, size: 8 }, { offset: 16, size: 8 }, { offset: 24, size: 4 }]);
    using affine = lib.kernel('affine');
    expect(affine.params).toEqual([{ offset: 0, size: 32 }, { offset: 32, size: 8 }, { offset: 40, size: 4 }]);
  });

  test('saxpy', () => {
    const n = 100_000;
    using x = DeviceBuffer.from(Float32Array.from({ length: n }, (_, i) => i));
    using y = DeviceBuffer.from(Float32Array.from({ length: n }, () => 1));
    using saxpy = lib.kernel('saxpy');
    saxpy.launch({ grid: Math.ceil(n / 256), block: 256, stream }, [arg.f32(0.5), arg.ptr(x), arg.ptr(y), arg.u32(n)]);
    stream.synchronizeSync();
    const out = y.readSync(Float32Array);
    expect(out.every((v, i) => v === 0.5 * i + 1)).toBe(true);
  });

  test('a reduction with dynamic shared memory', () => {
    const n = 1 << 20;
    const input = Uint32Array.from({ length: n }, (_, i) => i);
    using data = DeviceBuffer.from(input);
    using total = DeviceBuffer.from(new BigUint64Array(1));
    using sum = lib.kernel('sum');
    const block = 256;
    sum.launch({ grid: 120, block, sharedMemory: block * 8, stream }, [arg.ptr(data), arg.u32(n), arg.ptr(total)]);
    stream.synchronizeSync();
    expect(total.readSync(BigUint64Array)[0]).toBe((BigInt(n) * BigInt(n - 1)) / 2n);
  });

  test('a struct by value', () => {
    const n = 30;
    // struct Params { double scale; int offset; char flag; float bias[3]; }: 32 bytes, 8-aligned
    const params = new DataView(new ArrayBuffer(32));
    params.setFloat64(0, 0.5, true);
    params.setInt32(8, 100, true);
    params.setInt8(12, 3);
    [10, 20, 30].forEach((b, i) => params.setFloat32(16 + 4 * i, b, true));
    using out = DeviceBuffer.alloc(n * 4);
    using affine = lib.kernel('affine');
    affine.launch({ grid: 1, block: 32, stream }, [arg.bytes(params, 8), arg.ptr(out), arg.u32(n)]);
    stream.synchronizeSync();
    const values = out.readSync(Float32Array);
    for (let i = 0; i < n; i++) expect(values[i]).toBe(0.5 * i + 100 + [10, 20, 30][i % 3] + 3);
  });

  test('every scalar type arrives as written, f16 and bf16 as bits', () => {
    using out = DeviceBuffer.alloc(12 * 8);
    using scalars = lib.kernel('scalars');
    scalars.launch({ grid: 1, block: 1, stream }, [
      arg.i8(-100), arg.u8(200), arg.i16(-30000), arg.u16(60000), arg.i32(-2_000_000_000), arg.u32(4_000_000_000),
      arg.i64(-(2 ** 40)), arg.u64(2n ** 53n - 1n), arg.f32(1.25), arg.f64(Math.PI), arg.f16(toFloat16Bits(-0.333)),
      arg.bf16(toBFloat16Bits(3.14159)), arg.ptr(out),
    ]);
    stream.synchronizeSync();
    const v = out.readSync(Float64Array);
    expect([...v.subarray(0, 10)]).toEqual([-100, 200, -30000, 60000, -2_000_000_000, 4_000_000_000, -(2 ** 40), 2 ** 53 - 1, 1.25, Math.PI]);
    expect(v[10]).toBe(fromFloat16Bits(toFloat16Bits(-0.333)));
    expect(v[11]).toBe(3.140625);
  });

  test('a mismatched argument list is refused before launch, and nothing runs', () => {
    using y = DeviceBuffer.from(new Float32Array([1, 2, 3]));
    using saxpy = lib.kernel('saxpy');
    const config = { grid: 1, block: 32, stream };
    expect(() => saxpy.launch(config, [arg.f32(2), arg.ptr(y), arg.ptr(y)])).toThrow(KernelArgumentError);
    expect(() => saxpy.launch(config, [arg.f32(2), arg.ptr(y), arg.ptr(y), arg.u32(3), arg.u32(0)])).toThrow(
      'saxpy: takes 4 arguments (4 bytes, 8 bytes, 8 bytes, 4 bytes); 5 given');
    expect(() => saxpy.launch(config, [arg.f64(2), arg.ptr(y), arg.ptr(y), arg.u32(3)])).toThrow(
      'saxpy: argument 0 is f64 (8 bytes) but parameter 0 takes 4 bytes');
    expect(() => saxpy.prepare(config, ['f32', 'ptr', 'ptr', 'u64'])).toThrow(KernelArgumentError);
    stream.synchronizeSync();
    expect([...y.readSync(Float32Array)]).toEqual([1, 2, 3]);
  });

  test('a prepared launch: values updated in place between launches', () => {
    const n = 1000;
    using x = DeviceBuffer.from(Float32Array.from({ length: n }, () => 1));
    using y = DeviceBuffer.from(new Float32Array(n));
    using saxpy = lib.kernel('saxpy');
    using launch = saxpy.prepare({ grid: 4, block: 256, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, x, y, n]);
    for (let i = 1; i <= 10; i++) launch.set(0, i).launch(); // y = 1 + 2 + ... + 10
    launch.set(3, n / 2).set(0, 100).launch(); // first half only
    stream.synchronizeSync();
    const out = y.readSync(Float32Array);
    expect(out[0]).toBe(155);
    expect(out[n / 2 - 1]).toBe(155);
    expect(out[n / 2]).toBe(55);
    expect(out[n - 1]).toBe(55);
  });

  test('a prepared launch refuses a stream disposed since, and the stream it keeps is released', () => {
    using y = DeviceBuffer.from(new Float32Array(32));
    using x = DeviceBuffer.from(new Float32Array(32).fill(1));
    using saxpy = lib.kernel('saxpy');
    const own = Stream.create();
    using launch = saxpy.prepare({ grid: 1, block: 32, stream: own }, ['f32', 'ptr', 'ptr', 'u32'], [2, x, y, 32]);
    launch.launch();
    own.synchronizeSync();
    own.dispose();
    expect(() => launch.launch()).toThrow("the prepared launch's Stream has been disposed");
    expect([...y.readSync(Float32Array)]).toEqual(new Array(32).fill(2));
  });

  test('a module\'s function launches like a library\'s kernel', () => {
    using mod = Module.load(compile(source));
    using saxpy = mod.function('saxpy');
    expect(saxpy.kind).toBe('module');
    using x = DeviceBuffer.from(new Float32Array([1, 2, 3]));
    using y = DeviceBuffer.from(new Float32Array([1, 1, 1]));
    saxpy.launch({ grid: 1, block: 32, stream }, [arg.f32(2), arg.ptr(x), arg.ptr(y), arg.u32(3)]);
    stream.synchronizeSync();
    expect([...y.readSync(Float32Array)]).toEqual([3, 5, 7]);
    expect(mod.functionCount).toBe(7);
    expect(mod.global('counter').size).toBe(4);
    // Enumerated functions are named by the driver (cuModuleEnumerateFunctions, cuFuncGetName).
    const all = mod.functions();
    expect(all.map((f) => f.name).sort()).toEqual(['add_to', 'affine', 'read_counter', 'saxpy', 'scalars', 'spin', 'sum']);
    for (const f of all) f.dispose();
    // A module function's attributes are its context's device's (cuFuncGetAttribute / cuFuncSetAttribute).
    expect(saxpy.attribute('numRegs')).toBeGreaterThan(0);
    expect(saxpy.attribute('maxThreadsPerBlock')).toBeGreaterThanOrEqual(32);
    saxpy.setAttribute('preferredSharedMemoryCarveout', 50);
    expect(saxpy.attribute('preferredSharedMemoryCarveout')).toBe(50);
    // cuFuncSetAttribute faults on some numbers outside its enum: those never reach it.
    for (const n of [2 ** 31 - 1, FunctionAttribute.clusterSchedulingPolicyPreference + 1]) {
      expect(() => saxpy.setAttribute(n, 16)).toThrow(new RangeError('attribute must be between 0 and 15'));
    }
    expect(saxpy.attribute('preferredSharedMemoryCarveout')).toBe(50);
  });

  test('a library from a file, and its module in a context', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-lib-')), 'kernels.cubin');
    fs.writeFileSync(file, compile(source, { name: 'kernels.cu' }).code);
    using fromFile = Library.loadFile(file);
    using saxpy = fromFile.kernel('saxpy');
    using mod = fromFile.module();
    expect(mod.ownedByLibrary).toBe(true);
    using viaModule = mod.function('saxpy');
    expect(viaModule.kind).toBe('module');
    using x = DeviceBuffer.from(new Float32Array([1, 2]));
    using y = DeviceBuffer.from(new Float32Array([10, 20]));
    saxpy.launch({ grid: 1, block: 32, stream }, [arg.f32(1), arg.ptr(x), arg.ptr(y), arg.u32(2)]);
    viaModule.launch({ grid: 1, block: 32, stream }, [arg.f32(3), arg.ptr(x), arg.ptr(y), arg.u32(2)]);
    stream.synchronizeSync();
    expect([...y.readSync(Float32Array)]).toEqual([14, 28]);
    expect(() => Library.loadFile(path.join(path.dirname(file), 'absent.cubin'))).toThrow();
  });

  test('a global: its address passed as a pointer, its value read by another kernel', () => {
    const counter = lib.global('counter');
    expect(counter.size).toBe(4);
    using add = lib.kernel('add_to');
    using read = lib.kernel('read_counter');
    using out = DeviceBuffer.alloc(4);
    for (let i = 0; i < 5; i++) add.launch({ grid: 2, block: 64, stream }, [arg.ptr(counter.address), arg.i32(1)]);
    read.launch({ grid: 1, block: 1, stream }, [arg.ptr(out)]);
    stream.synchronizeSync();
    expect(out.readSync(Int32Array)[0]).toBe(5 * 128);
  });

  test('attributes: read, and more dynamic shared memory than the default once allowed', () => {
    using sum = lib.kernel('sum');
    const attrs = sum.attributes();
    expect(attrs.numRegs).toBeGreaterThan(0);
    expect(attrs.maxThreadsPerBlock).toBeGreaterThan(0);
    expect(attrs.maxThreadsPerBlock).toBeLessThanOrEqual(1024);
    expect(attrs.binaryVersion).toBe(Device.get(0).computeCapability.major * 10 + Device.get(0).computeCapability.minor);
    const optIn = Device.get(0).attribute('maxSharedMemoryPerBlockOptin');
    const big = Math.min(96 * 1024, optIn);
    using data = DeviceBuffer.from(new Uint32Array(1024).fill(1));
    using total = DeviceBuffer.from(new BigUint64Array(1));
    const launch = () => sum.launch({ grid: 1, block: 256, sharedMemory: big, stream }, [arg.ptr(data), arg.u32(1024), arg.ptr(total)]);
    if (big > 48 * 1024) {
      let error: CudaError | undefined;
      try { launch(); } catch (e) { error = e as CudaError; }
      expect(error).toBeInstanceOf(CudaError);
      expect(error!.call).toBe('cuLaunchKernel');
    }
    sum.setMaxDynamicSharedMemory(big);
    expect(sum.attribute('maxDynamicSharedSizeBytes')).toBe(big);
    launch();
    stream.synchronizeSync();
    expect(total.readSync(BigUint64Array)[0]).toBe(1024n);
  });

  test('pointers into a buffer (arg.ptr(buffer, offset)) write where they point, in launches, prepared launches and kernel nodes', async () => {
    const n = 64;
    using x = DeviceBuffer.from(Float32Array.from({ length: n }, () => 1));
    using y = DeviceBuffer.from(new Float32Array(n));
    using saxpy = lib.kernel('saxpy');
    saxpy.launch({ grid: 1, block: 32, stream }, [arg.f32(5), arg.ptr(x), arg.ptr(y, 16 * 4), arg.u32(8)]);
    using prepared = saxpy.prepare({ grid: 1, block: 32, stream }, ['f32', 'ptr', 'ptr', 'u32'], [7, x, new MemoryPointer(y, 40 * 4), 4]);
    prepared.launch();
    using graph = Graph.create();
    graph.addKernel(saxpy, { grid: 1, block: 32 }, [arg.f32(9), arg.ptr(x, 8 * 4), arg.ptr(y, 56n * 4n), arg.u32(8)]);
    using exec = graph.instantiate();
    await exec.run(stream);
    // an end pointer (offset == size) may be passed; with n = 0 nothing is read or written through it
    saxpy.launch({ grid: 1, block: 32, stream }, [arg.f32(1), arg.ptr(x, n * 4), arg.ptr(y, n * 4), arg.u32(0)]);
    expect(() => arg.ptr(y, -4)).toThrow(RangeError);
    expect(() => saxpy.launch({ grid: 1, block: 32, stream }, [arg.f32(1), arg.ptr(x), arg.ptr(y, n * 4 + 4), arg.u32(1)]))
      .toThrow(/byteOffset 260 is past the end of memory of 256 bytes/);
    stream.synchronizeSync();
    const out = y.readSync(Float32Array);
    const expected = Float32Array.from({ length: n }, (_, i) => (i >= 16 && i < 24 ? 5 : i >= 40 && i < 44 ? 7 : i >= 56 ? 9 : 0));
    expect(Array.from(out)).toEqual(Array.from(expected));
  });

  test('occupancy of a library kernel on every device, asked by device, without naming a context', () => {
    using saxpy = lib.kernel('saxpy');
    for (const device of Device.all()) {
      const blocks = saxpy.maxActiveBlocksPerMultiprocessor(256, { device });
      expect(blocks).toBeGreaterThan(0);
      expect(blocks).toBe(saxpy.maxActiveBlocksPerMultiprocessor(256, { context: device.primaryContext }));
      expect(blocks * 256).toBeLessThanOrEqual(device.attribute('maxThreadsPerMultiprocessor'));
      const best = saxpy.maxPotentialBlockSize({ device: device.ordinal });
      expect(best.blockSize).toBeGreaterThan(0);
      expect(saxpy.availableDynamicSharedMemoryPerBlock(1, 256, { device })).toBeGreaterThan(0);
    }
  });

  test('occupancy', () => {
    using saxpy = lib.kernel('saxpy');
    const blocks = saxpy.maxActiveBlocksPerMultiprocessor(256);
    expect(blocks).toBeGreaterThan(0);
    expect(blocks * 256).toBeLessThanOrEqual(Device.get(0).attribute('maxThreadsPerMultiprocessor'));
    const best = saxpy.maxPotentialBlockSize();
    expect(best.blockSize).toBeGreaterThan(0);
    expect(best.blockSize).toBeLessThanOrEqual(1024);
    expect(best.minGridSize).toBeGreaterThan(0);
    const asked: number[] = [];
    const withShared = saxpy.maxPotentialBlockSize({ dynamicSharedMemory: (b) => { asked.push(b); return b * 4; }, blockSizeLimit: 512 });
    expect(asked.length).toBeGreaterThan(0);
    expect(withShared.blockSize).toBeLessThanOrEqual(512);
    expect(saxpy.availableDynamicSharedMemoryPerBlock(1, 256)).toBeGreaterThan(0);
  });

  test('loading state: load() makes the kernel resident', () => {
    using sum = lib.kernel('sum');
    sum.load();
    expect(sum.isLoaded()).toBe(true);
    expect(['eager', 'lazy']).toContain(Module.loadingMode());
  });

  test('a driver error names the launch call', () => {
    using saxpy = lib.kernel('saxpy');
    let error: CudaError | undefined;
    try { saxpy.launch({ grid: 1, block: 2048, stream }, [arg.f32(1), arg.ptr(null), arg.ptr(null), arg.u32(0)]); }
    catch (e) { error = e as CudaError; }
    expect(error).toBeInstanceOf(CudaError);
    expect(error).toMatchObject({ code: 'CUDA_ERROR_INVALID_VALUE', call: 'cuLaunchKernel', detail: 'saxpy' });
  });

  test('code stays loaded while a launch still runs it, after every handle is disposed', async () => {
    const rate = Device.get(0).attribute('clockRate'); // kHz
    using done = DeviceBuffer.from(new Uint32Array(1));
    const spinLib = Library.load(compile(source));
    const spin = spinLib.kernel('spin');
    spin.launch({ grid: 1, block: 1, stream }, [arg.i64(rate * 200), arg.ptr(done)]); // about 200 ms
    spin.dispose();
    spinLib.dispose();
    expect(stream.pendingResources).toBeGreaterThanOrEqual(1);
    await stream.synchronize();
    expect(done.readSync(Uint32Array)[0]).toBe(0xc0ffee);
    expect(stream.pendingResources).toBe(0);
  });

  test('launch attributes: priority and programmatic stream serialization are accepted', () => {
    using saxpy = lib.kernel('saxpy');
    const { greatest } = Device.get(0).primaryContext.streamPriorityRange;
    using x = DeviceBuffer.from(new Float32Array([1, 1]));
    using y = DeviceBuffer.from(new Float32Array([0, 0]));
    saxpy.launch({ grid: 1, block: 32, stream, priority: greatest }, [arg.f32(1), arg.ptr(x), arg.ptr(y), arg.u32(2)]);
    if (Device.get(0).computeCapability.major >= 9) {
      saxpy.launch({ grid: 1, block: 32, stream, programmaticStreamSerialization: true }, [arg.f32(1), arg.ptr(x), arg.ptr(y), arg.u32(2)]);
    }
    stream.synchronizeSync();
    expect(y.readSync(Float32Array)[1]).toBe(Device.get(0).computeCapability.major >= 9 ? 2 : 1);
  });
});

describeGpu('library variables', () => {
  test('a __managed__ variable (cuLibraryGetManaged); unified functions are answered by the driver', () => {
    using lib = Library.load(compile(`
      __managed__ int total;
      extern "C" __global__ void bump(int by) { atomicAdd(&total, by); }
      extern "C" __global__ void read_total(int* out) { *out = total; }`, { name: 'managed.cu' }));
    const total = lib.managed('total');
    expect(total.size).toBe(4);
    expect(total.address).not.toBe(0n);
    using stream = Stream.create();
    using bump = lib.kernel('bump');
    using read = lib.kernel('read_total');
    using out = DeviceBuffer.alloc(4);
    bump.launch({ grid: 1, block: 10, stream }, [arg.i32(3)]);
    read.launch({ grid: 1, block: 1, stream }, [arg.ptr(out)]);
    stream.synchronizeSync();
    expect(out.readSync(Int32Array)[0]).toBe(30);
    // No unified function of that name (and most systems have none at all): the driver's own answer.
    let error: CudaError | undefined;
    try { lib.unifiedFunction('bump'); } catch (e) { error = e as CudaError; }
    expect(error).toBeInstanceOf(CudaError);
    // The driver's answer for a kernel that is not a unified function (13.0 says invalid value).
    expect(['CUDA_ERROR_NOT_FOUND', 'CUDA_ERROR_INVALID_VALUE']).toContain(error!.code);
    expect(error).toMatchObject({ call: 'cuLibraryGetUnifiedFunction', detail: 'bump' });
    expect(() => lib.managed('missing')).toThrow(CudaError);
  });
});

describeGpu('cooperative launch', () => {
  test('a grid-wide sync (cooperative_groups) sees every block\'s writes', () => {
    const program = compile(cooperativeSource, { name: 'rotate.cu', includePaths: toolkitIncludes() });
    using lib = Library.load(program);
    using rotate = lib.kernel('rotate');
    using stream = Stream.create();
    const device = Device.get(0);
    expect(device.capabilities.cooperativeLaunch).toBe(true);
    const block = 256;
    const grid = rotate.maxActiveBlocksPerMultiprocessor(block) * device.attribute('multiprocessorCount');
    expect(grid).toBeGreaterThan(0);
    const n = grid * block * 4;
    using a = DeviceBuffer.alloc(n * 4);
    using b = DeviceBuffer.alloc(n * 4);
    rotate.launch({ grid, block, stream, cooperative: true }, [arg.ptr(a), arg.ptr(b), arg.u32(n)]);
    stream.synchronizeSync();
    const out = b.readSync(Uint32Array);
    let wrong = 0;
    for (let i = 0; i < n; i++) if (out[i] !== (((i + 1) % n) * 7) >>> 0) wrong++;
    expect(wrong).toBe(0);
    // More blocks than can be resident at once cannot be cooperative.
    let error: CudaError | undefined;
    try { rotate.launch({ grid: grid * 2 + 1, block, stream, cooperative: true }, [arg.ptr(a), arg.ptr(b), arg.u32(n)]); }
    catch (e) { error = e as CudaError; }
    expect(error).toMatchObject({ code: 'CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE', call: 'cuLaunchCooperativeKernel' });
    // The same through cuLaunchKernelEx, with a prepared launch.
    b.fill(0);
    using prepared = rotate.prepare({ grid, block, stream, cooperative: true, priority: 0 }, ['ptr', 'ptr', 'u32'], [a, b, n]);
    prepared.launch();
    stream.synchronizeSync();
    expect(b.readSync(Uint32Array)[n - 1]).toBe(0);
    expect(b.readSync(Uint32Array)[0]).toBe(7);
  });
});

const hopper = () => Device.get(0).computeCapability.major >= 9;

describeGpu('cluster launch', () => {
  test('blocks are grouped in clusters of the requested size (compute capability 9.0+)', () => {
    if (!hopper()) {
      console.warn(`cluster launch skipped: ${Device.get(0).name} is compute capability ${Device.get(0).computeCapability.major}.x`);
      return;
    }
    using lib = Library.load(compile(clusterSource, { name: 'cluster.cu' }));
    using kernel: Kernel = lib.kernel('cluster_ranks');
    using stream = Stream.create();
    const blocks = 16;
    const shape = { grid: blocks, block: 32, cluster: [2, 1, 1] as [number, number, number] };
    expect(kernel.maxPotentialClusterSize(shape)).toBeGreaterThanOrEqual(2);
    expect(kernel.maxActiveClusters(shape)).toBeGreaterThan(0);
    using out = DeviceBuffer.alloc(blocks * 3 * 4);
    kernel.launch({ ...shape, stream }, [arg.ptr(out)]);
    stream.synchronizeSync();
    const v = out.readSync(Uint32Array);
    for (let b = 0; b < blocks; b++) {
      expect([v[3 * b], v[3 * b + 1], v[3 * b + 2]]).toEqual([b % 2, 2, Math.floor(b / 2)]);
    }
    // A grid that the cluster does not divide is refused by the driver.
    let error: CudaError | undefined;
    try { kernel.launch({ grid: 3, block: 32, cluster: [2], stream }, [arg.ptr(out)]); } catch (e) { error = e as CudaError; }
    expect(error).toBeInstanceOf(CudaError);
    expect(error!.call).toBe('cuLaunchKernelEx');
  });
});
