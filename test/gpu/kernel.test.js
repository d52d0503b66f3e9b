"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __addDisposableResource = (this && this.__addDisposableResource) || function (env, value, async) {
    if (value !== null && value !== void 0) {
        if (typeof value !== "object" && typeof value !== "function") throw new TypeError("Object expected.");
        var dispose, inner;
        if (async) {
            if (!Symbol.asyncDispose) throw new TypeError("Symbol.asyncDispose is not defined.");
            dispose = value[Symbol.asyncDispose];
        }
        if (dispose === void 0) {
            if (!Symbol.dispose) throw new TypeError("Symbol.dispose is not defined.");
            dispose = value[Symbol.dispose];
            if (async) inner = dispose;
        }
        if (typeof dispose !== "function") throw new TypeError("Object not disposable.");
        if (inner) dispose = function() { try { inner.call(this); } catch (e) { return Promise.reject(e); } };
        env.stack.push({ value: value, dispose: dispose, async: async });
    }
    else if (async) {
        env.stack.push({ async: true });
    }
    return value;
};
var __disposeResources = (this && this.__disposeResources) || (function (SuppressedError) {
    return function (env) {
        function fail(e) {
            env.error = env.hasError ? new SuppressedError(e, env.error, "An error was suppressed during disposal.") : e;
            env.hasError = true;
        }
        var r, s = 0;
        function next() {
            while (r = env.stack.pop()) {
                try {
                    if (!r.async && s === 1) return s = 0, env.stack.push(r), Promise.resolve().then(next);
                    if (r.dispose) {
                        var result = r.dispose.call(r.value);
                        if (r.async) return s |= 2, Promise.resolve(result).then(next, function(e) { fail(e); return next(); });
                    }
                    else s |= 1;
                }
                catch (e) {
                    fail(e);
                }
            }
            if (s === 1) return env.hasError ? Promise.reject(env.error) : Promise.resolve();
            if (env.hasError) throw env.error;
        }
        return next();
    };
})(typeof SuppressedError === "function" ? SuppressedError : function (error, suppressed, message) {
    var e = new Error(message);
    return e.name = "SuppressedError", e.error = error, e.suppressed = suppressed, e;
});
Object.defineProperty(exports, "__esModule", { value: true });
// Kernels against the real driver: compiled with NVRTC, launched with typed
// arguments, results copied back and compared. Saxpy, a reduction with dynamic
// shared memory, a struct by value, every scalar type, a cooperative grid sync,
// a cluster launch (compute capability 9.0+), prepared launches, globals,
// attributes, occupancy, and the refusal of a mismatched argument list.
const lib_1 = require("../../lib");
const fs = __importStar(require("fs"));
const os = __importStar(require("os"));
const path = __importStar(require("path"));
const toolkit_1 = require("../helpers/toolkit");
const tiers_1 = require("../helpers/tiers");
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
(0, tiers_1.describeGpu)('kernels', () => {
    let lib;
    let stream;
    beforeAll(() => {
        lib = lib_1.Library.load((0, lib_1.compile)(source, { name: 'kernels.cu' }));
        stream = lib_1.Stream.create();
    });
    afterAll(() => {
        stream?.dispose();
        lib?.dispose();
    });
    test('the driver reports each kernel\'s parameter layout', () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            expect(lib.kernelCount).toBe(7);
            expect(lib.kernels().map((k) => k.name).sort()).toEqual(['add_to', 'affine', 'read_counter', 'saxpy', 'scalars', 'spin', 'sum']);
            const saxpy = __addDisposableResource(env_1, lib.kernel('saxpy'), false);
            expect(saxpy.kind).toBe('library');
            expect(saxpy.params).toEqual([{ offset: 0, size: 4 }, { offset: 8, size: 8 }, { offset: 16, size: 8 }, { offset: 24, size: 4 }]);
            const affine = __addDisposableResource(env_1, lib.kernel('affine'), false);
            expect(affine.params).toEqual([{ offset: 0, size: 32 }, { offset: 32, size: 8 }, { offset: 40, size: 4 }]);
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('saxpy', () => {
        const env_2 = { stack: [], error: void 0, hasError: false };
        try {
            const n = 100_000;
            const x = __addDisposableResource(env_2, lib_1.DeviceBuffer.from(Float32Array.from({ length: n }, (_, i) => i)), false);
            const y = __addDisposableResource(env_2, lib_1.DeviceBuffer.from(Float32Array.from({ length: n }, () => 1)), false);
            const saxpy = __addDisposableResource(env_2, lib.kernel('saxpy'), false);
            saxpy.launch({ grid: Math.ceil(n / 256), block: 256, stream }, [lib_1.arg.f32(0.5), lib_1.arg.ptr(x), lib_1.arg.ptr(y), lib_1.arg.u32(n)]);
            stream.synchronizeSync();
            const out = y.readSync(Float32Array);
            expect(out.every((v, i) => v === 0.5 * i + 1)).toBe(true);
        }
        catch (e_2) {
            env_2.error = e_2;
            env_2.hasError = true;
        }
        finally {
            __disposeResources(env_2);
        }
    });
    test('a reduction with dynamic shared memory', () => {
        const env_3 = { stack: [], error: void 0, hasError: false };
        try {
            const n = 1 << 20;
            const input = Uint32Array.from({ length: n }, (_, i) => i);
            const data = __addDisposableResource(env_3, lib_1.DeviceBuffer.from(input), false);
            const total = __addDisposableResource(env_3, lib_1.DeviceBuffer.from(new BigUint64Array(1)), false);
            const sum = __addDisposableResource(env_3, lib.kernel('sum'), false);
            const block = 256;
            sum.launch({ grid: 120, block, sharedMemory: block * 8, stream }, [lib_1.arg.ptr(data), lib_1.arg.u32(n), lib_1.arg.ptr(total)]);
            stream.synchronizeSync();
            expect(total.readSync(BigUint64Array)[0]).toBe((BigInt(n) * BigInt(n - 1)) / 2n);
        }
        catch (e_3) {
            env_3.error = e_3;
            env_3.hasError = true;
        }
        finally {
            __disposeResources(env_3);
        }
    });
    test('a struct by value', () => {
        const env_4 = { stack: [], error: void 0, hasError: false };
        try {
            const n = 30;
            // struct Params { double scale; int offset; char flag; float bias[3]; }: 32 bytes, 8-aligned
            const params = new DataView(new ArrayBuffer(32));
            params.setFloat64(0, 0.5, true);
            params.setInt32(8, 100, true);
            params.setInt8(12, 3);
            [10, 20, 30].forEach((b, i) => params.setFloat32(16 + 4 * i, b, true));
            const out = __addDisposableResource(env_4, lib_1.DeviceBuffer.alloc(n * 4), false);
            const affine = __addDisposableResource(env_4, lib.kernel('affine'), false);
            affine.launch({ grid: 1, block: 32, stream }, [lib_1.arg.bytes(params, 8), lib_1.arg.ptr(out), lib_1.arg.u32(n)]);
            stream.synchronizeSync();
            const values = out.readSync(Float32Array);
            for (let i = 0; i < n; i++)
                expect(values[i]).toBe(0.5 * i + 100 + [10, 20, 30][i % 3] + 3);
        }
        catch (e_4) {
            env_4.error = e_4;
            env_4.hasError = true;
        }
        finally {
            __disposeResources(env_4);
        }
    });
    test('every scalar type arrives as written, f16 and bf16 as bits', () => {
        const env_5 = { stack: [], error: void 0, hasError: false };
        try {
            const out = __addDisposableResource(env_5, lib_1.DeviceBuffer.alloc(12 * 8), false);
            const scalars = __addDisposableResource(env_5, lib.kernel('scalars'), false);
            scalars.launch({ grid: 1, block: 1, stream }, [
                lib_1.arg.i8(-100), lib_1.arg.u8(200), lib_1.arg.i16(-30000), lib_1.arg.u16(60000), lib_1.arg.i32(-2_000_000_000), lib_1.arg.u32(4_000_000_000),
                lib_1.arg.i64(-(2 ** 40)), lib_1.arg.u64(2n ** 53n - 1n), lib_1.arg.f32(1.25), lib_1.arg.f64(Math.PI), lib_1.arg.f16((0, lib_1.toFloat16Bits)(-0.333)),
                lib_1.arg.bf16((0, lib_1.toBFloat16Bits)(3.14159)), lib_1.arg.ptr(out),
            ]);
            stream.synchronizeSync();
            const v = out.readSync(Float64Array);
            expect([...v.subarray(0, 10)]).toEqual([-100, 200, -30000, 60000, -2_000_000_000, 4_000_000_000, -(2 ** 40), 2 ** 53 - 1, 1.25, Math.PI]);
            expect(v[10]).toBe((0, lib_1.fromFloat16Bits)((0, lib_1.toFloat16Bits)(-0.333)));
            expect(v[11]).toBe(3.140625);
        }
        catch (e_5) {
            env_5.error = e_5;
            env_5.hasError = true;
        }
        finally {
            __disposeResources(env_5);
        }
    });
    test('a mismatched argument list is refused before launch, and nothing runs', () => {
        const env_6 = { stack: [], error: void 0, hasError: false };
        try {
            const y = __addDisposableResource(env_6, lib_1.DeviceBuffer.from(new Float32Array([1, 2, 3])), false);
            const saxpy = __addDisposableResource(env_6, lib.kernel('saxpy'), false);
            const config = { grid: 1, block: 32, stream };
            expect(() => saxpy.launch(config, [lib_1.arg.f32(2), lib_1.arg.ptr(y), lib_1.arg.ptr(y)])).toThrow(lib_1.KernelArgumentError);
            expect(() => saxpy.launch(config, [lib_1.arg.f32(2), lib_1.arg.ptr(y), lib_1.arg.ptr(y), lib_1.arg.u32(3), lib_1.arg.u32(0)])).toThrow('saxpy: takes 4 arguments (4 bytes, 8 bytes, 8 bytes, 4 bytes); 5 given');
            expect(() => saxpy.launch(config, [lib_1.arg.f64(2), lib_1.arg.ptr(y), lib_1.arg.ptr(y), lib_1.arg.u32(3)])).toThrow('saxpy: argument 0 is f64 (8 bytes) but parameter 0 takes 4 bytes');
            expect(() => saxpy.prepare(config, ['f32', 'ptr', 'ptr', 'u64'])).toThrow(lib_1.KernelArgumentError);
            stream.synchronizeSync();
            expect([...y.readSync(Float32Array)]).toEqual([1, 2, 3]);
        }
        catch (e_6) {
            env_6.error = e_6;
            env_6.hasError = true;
        }
        finally {
            __disposeResources(env_6);
        }
    });
    test('a prepared launch: values updated in place between launches', () => {
        const env_7 = { stack: [], error: void 0, hasError: false };
        try {
            const n = 1000;
            const x = __addDisposableResource(env_7, lib_1.DeviceBuffer.from(Float32Array.from({ length: n }, () => 1)), false);
            const y = __addDisposableResource(env_7, lib_1.DeviceBuffer.from(new Float32Array(n)), false);
            const saxpy = __addDisposableResource(env_7, lib.kernel('saxpy'), false);
            const launch = __addDisposableResource(env_7, saxpy.prepare({ grid: 4, block: 256, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, x, y, n]), false);
            for (let i = 1; i <= 10; i++)
                launch.set(0, i).launch(); // y = 1 + 2 + ... + 10
            launch.set(3, n / 2).set(0, 100).launch(); // first half only
            stream.synchronizeSync();
            const out = y.readSync(Float32Array);
            expect(out[0]).toBe(155);
            expect(out[n / 2 - 1]).toBe(155);
            expect(out[n / 2]).toBe(55);
            expect(out[n - 1]).toBe(55);
        }
        catch (e_7) {
            env_7.error = e_7;
            env_7.hasError = true;
        }
        finally {
            __disposeResources(env_7);
        }
    });
    test('a module\'s function launches like a library\'s kernel', () => {
        const env_8 = { stack: [], error: void 0, hasError: false };
        try {
            const mod = __addDisposableResource(env_8, lib_1.Module.load((0, lib_1.compile)(source)), false);
            const saxpy = __addDisposableResource(env_8, mod.function('saxpy'), false);
            expect(saxpy.kind).toBe('module');
            const x = __addDisposableResource(env_8, lib_1.DeviceBuffer.from(new Float32Array([1, 2, 3])), false);
            const y = __addDisposableResource(env_8, lib_1.DeviceBuffer.from(new Float32Array([1, 1, 1])), false);
            saxpy.launch({ grid: 1, block: 32, stream }, [lib_1.arg.f32(2), lib_1.arg.ptr(x), lib_1.arg.ptr(y), lib_1.arg.u32(3)]);
            stream.synchronizeSync();
            expect([...y.readSync(Float32Array)]).toEqual([3, 5, 7]);
            expect(mod.functionCount).toBe(7);
            expect(mod.global('counter').size).toBe(4);
            // Enumerated functions are named by the driver (cuModuleEnumerateFunctions, cuFuncGetName).
            const all = mod.functions();
            expect(all.map((f) => f.name).sort()).toEqual(['add_to', 'affine', 'read_counter', 'saxpy', 'scalars', 'spin', 'sum']);
            for (const f of all)
                f.dispose();
            // A module function's attributes are its context's device's (cuFuncGetAttribute / cuFuncSetAttribute).
            expect(saxpy.attribute('numRegs')).toBeGreaterThan(0);
            expect(saxpy.attribute('maxThreadsPerBlock')).toBeGreaterThanOrEqual(32);
            saxpy.setAttribute('preferredSharedMemoryCarveout', 50);
            expect(saxpy.attribute('preferredSharedMemoryCarveout')).toBe(50);
        }
        catch (e_8) {
            env_8.error = e_8;
            env_8.hasError = true;
        }
        finally {
            __disposeResources(env_8);
        }
    });
    test('a library from a file, and its module in a context', () => {
        const env_9 = { stack: [], error: void 0, hasError: false };
        try {
            const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-lib-')), 'kernels.cubin');
            fs.writeFileSync(file, (0, lib_1.compile)(source, { name: 'kernels.cu' }).code);
            const fromFile = __addDisposableResource(env_9, lib_1.Library.loadFile(file), false);
            const saxpy = __addDisposableResource(env_9, fromFile.kernel('saxpy'), false);
            const mod = __addDisposableResource(env_9, fromFile.module(), false);
            expect(mod.ownedByLibrary).toBe(true);
            const viaModule = __addDisposableResource(env_9, mod.function('saxpy'), false);
            expect(viaModule.kind).toBe('module');
            const x = __addDisposableResource(env_9, lib_1.DeviceBuffer.from(new Float32Array([1, 2])), false);
            const y = __addDisposableResource(env_9, lib_1.DeviceBuffer.from(new Float32Array([10, 20])), false);
            saxpy.launch({ grid: 1, block: 32, stream }, [lib_1.arg.f32(1), lib_1.arg.ptr(x), lib_1.arg.ptr(y), lib_1.arg.u32(2)]);
            viaModule.launch({ grid: 1, block: 32, stream }, [lib_1.arg.f32(3), lib_1.arg.ptr(x), lib_1.arg.ptr(y), lib_1.arg.u32(2)]);
            stream.synchronizeSync();
            expect([...y.readSync(Float32Array)]).toEqual([14, 28]);
            expect(() => lib_1.Library.loadFile(path.join(path.dirname(file), 'absent.cubin'))).toThrow();
        }
        catch (e_9) {
            env_9.error = e_9;
            env_9.hasError = true;
        }
        finally {
            __disposeResources(env_9);
        }
    });
    test('a global: its address passed as a pointer, its value read by another kernel', () => {
        const env_10 = { stack: [], error: void 0, hasError: false };
        try {
            const counter = lib.global('counter');
            expect(counter.size).toBe(4);
            const add = __addDisposableResource(env_10, lib.kernel('add_to'), false);
            const read = __addDisposableResource(env_10, lib.kernel('read_counter'), false);
            const out = __addDisposableResource(env_10, lib_1.DeviceBuffer.alloc(4), false);
            for (let i = 0; i < 5; i++)
                add.launch({ grid: 2, block: 64, stream }, [lib_1.arg.ptr(counter.address), lib_1.arg.i32(1)]);
            read.launch({ grid: 1, block: 1, stream }, [lib_1.arg.ptr(out)]);
            stream.synchronizeSync();
            expect(out.readSync(Int32Array)[0]).toBe(5 * 128);
        }
        catch (e_10) {
            env_10.error = e_10;
            env_10.hasError = true;
        }
        finally {
            __disposeResources(env_10);
        }
    });
    test('attributes: read, and more dynamic shared memory than the default once allowed', () => {
        const env_11 = { stack: [], error: void 0, hasError: false };
        try {
            const sum = __addDisposableResource(env_11, lib.kernel('sum'), false);
            const attrs = sum.attributes();
            expect(attrs.numRegs).toBeGreaterThan(0);
            expect(attrs.maxThreadsPerBlock).toBeGreaterThan(0);
            expect(attrs.maxThreadsPerBlock).toBeLessThanOrEqual(1024);
            expect(attrs.binaryVersion).toBe(lib_1.Device.get(0).computeCapability.major * 10 + lib_1.Device.get(0).computeCapability.minor);
            const optIn = lib_1.Device.get(0).attribute('maxSharedMemoryPerBlockOptin');
            const big = Math.min(96 * 1024, optIn);
            const data = __addDisposableResource(env_11, lib_1.DeviceBuffer.from(new Uint32Array(1024).fill(1)), false);
            const total = __addDisposableResource(env_11, lib_1.DeviceBuffer.from(new BigUint64Array(1)), false);
            const launch = () => sum.launch({ grid: 1, block: 256, sharedMemory: big, stream }, [lib_1.arg.ptr(data), lib_1.arg.u32(1024), lib_1.arg.ptr(total)]);
            if (big > 48 * 1024) {
                let error;
                try {
                    launch();
                }
                catch (e) {
                    error = e;
                }
                expect(error).toBeInstanceOf(lib_1.CudaError);
                expect(error.call).toBe('cuLaunchKernel');
            }
            sum.setMaxDynamicSharedMemory(big);
            expect(sum.attribute('maxDynamicSharedSizeBytes')).toBe(big);
            launch();
            stream.synchronizeSync();
            expect(total.readSync(BigUint64Array)[0]).toBe(1024n);
        }
        catch (e_11) {
            env_11.error = e_11;
            env_11.hasError = true;
        }
        finally {
            __disposeResources(env_11);
        }
    });
    test('occupancy', () => {
        const env_12 = { stack: [], error: void 0, hasError: false };
        try {
            const saxpy = __addDisposableResource(env_12, lib.kernel('saxpy'), false);
            const blocks = saxpy.maxActiveBlocksPerMultiprocessor(256);
            expect(blocks).toBeGreaterThan(0);
            expect(blocks * 256).toBeLessThanOrEqual(lib_1.Device.get(0).attribute('maxThreadsPerMultiprocessor'));
            const best = saxpy.maxPotentialBlockSize();
            expect(best.blockSize).toBeGreaterThan(0);
            expect(best.blockSize).toBeLessThanOrEqual(1024);
            expect(best.minGridSize).toBeGreaterThan(0);
            const asked = [];
            const withShared = saxpy.maxPotentialBlockSize({ dynamicSharedMemory: (b) => { asked.push(b); return b * 4; }, blockSizeLimit: 512 });
            expect(asked.length).toBeGreaterThan(0);
            expect(withShared.blockSize).toBeLessThanOrEqual(512);
            expect(saxpy.availableDynamicSharedMemoryPerBlock(1, 256)).toBeGreaterThan(0);
        }
        catch (e_12) {
            env_12.error = e_12;
            env_12.hasError = true;
        }
        finally {
            __disposeResources(env_12);
        }
    });
    test('loading state: load() makes the kernel resident', () => {
        const env_13 = { stack: [], error: void 0, hasError: false };
        try {
            const sum = __addDisposableResource(env_13, lib.kernel('sum'), false);
            sum.load();
            expect(sum.isLoaded()).toBe(true);
            expect(['eager', 'lazy']).toContain(lib_1.Module.loadingMode());
        }
        catch (e_13) {
            env_13.error = e_13;
            env_13.hasError = true;
        }
        finally {
            __disposeResources(env_13);
        }
    });
    test('a driver error names the launch call', () => {
        const env_14 = { stack: [], error: void 0, hasError: false };
        try {
            const saxpy = __addDisposableResource(env_14, lib.kernel('saxpy'), false);
            let error;
            try {
                saxpy.launch({ grid: 1, block: 2048, stream }, [lib_1.arg.f32(1), lib_1.arg.ptr(null), lib_1.arg.ptr(null), lib_1.arg.u32(0)]);
            }
            catch (e) {
                error = e;
            }
            expect(error).toBeInstanceOf(lib_1.CudaError);
            expect(error).toMatchObject({ name: 'CUDA_ERROR_INVALID_VALUE', call: 'cuLaunchKernel', detail: 'saxpy' });
        }
        catch (e_14) {
            env_14.error = e_14;
            env_14.hasError = true;
        }
        finally {
            __disposeResources(env_14);
        }
    });
    test('code stays loaded while a launch still runs it, after every handle is disposed', async () => {
        const env_15 = { stack: [], error: void 0, hasError: false };
        try {
            const rate = lib_1.Device.get(0).attribute('clockRate'); // kHz
            const done = __addDisposableResource(env_15, lib_1.DeviceBuffer.from(new Uint32Array(1)), false);
            const spinLib = lib_1.Library.load((0, lib_1.compile)(source));
            const spin = spinLib.kernel('spin');
            spin.launch({ grid: 1, block: 1, stream }, [lib_1.arg.i64(rate * 200), lib_1.arg.ptr(done)]); // about 200 ms
            spin.dispose();
            spinLib.dispose();
            expect(stream.native.pendingResources()).toBeGreaterThanOrEqual(1);
            await stream.synchronize();
            expect(done.readSync(Uint32Array)[0]).toBe(0xc0ffee);
            expect(stream.native.pendingResources()).toBe(0);
        }
        catch (e_15) {
            env_15.error = e_15;
            env_15.hasError = true;
        }
        finally {
            __disposeResources(env_15);
        }
    });
    test('launch attributes: priority and programmatic stream serialization are accepted', () => {
        const env_16 = { stack: [], error: void 0, hasError: false };
        try {
            const saxpy = __addDisposableResource(env_16, lib.kernel('saxpy'), false);
            const { greatest } = lib_1.Device.get(0).primaryContext.streamPriorityRange;
            const x = __addDisposableResource(env_16, lib_1.DeviceBuffer.from(new Float32Array([1, 1])), false);
            const y = __addDisposableResource(env_16, lib_1.DeviceBuffer.from(new Float32Array([0, 0])), false);
            saxpy.launch({ grid: 1, block: 32, stream, priority: greatest }, [lib_1.arg.f32(1), lib_1.arg.ptr(x), lib_1.arg.ptr(y), lib_1.arg.u32(2)]);
            if (lib_1.Device.get(0).computeCapability.major >= 9) {
                saxpy.launch({ grid: 1, block: 32, stream, programmaticStreamSerialization: true }, [lib_1.arg.f32(1), lib_1.arg.ptr(x), lib_1.arg.ptr(y), lib_1.arg.u32(2)]);
            }
            stream.synchronizeSync();
            expect(y.readSync(Float32Array)[1]).toBe(lib_1.Device.get(0).computeCapability.major >= 9 ? 2 : 1);
        }
        catch (e_16) {
            env_16.error = e_16;
            env_16.hasError = true;
        }
        finally {
            __disposeResources(env_16);
        }
    });
});
(0, tiers_1.describeGpu)('library variables', () => {
    test('a __managed__ variable (cuLibraryGetManaged); unified functions are answered by the driver', () => {
        const env_17 = { stack: [], error: void 0, hasError: false };
        try {
            const lib = __addDisposableResource(env_17, lib_1.Library.load((0, lib_1.compile)(`
      __managed__ int total;
      extern "C" __global__ void bump(int by) { atomicAdd(&total, by); }
      extern "C" __global__ void read_total(int* out) { *out = total; }`, { name: 'managed.cu' })), false);
            const total = lib.managed('total');
            expect(total.size).toBe(4);
            expect(total.address).not.toBe(0n);
            const stream = __addDisposableResource(env_17, lib_1.Stream.create(), false);
            const bump = __addDisposableResource(env_17, lib.kernel('bump'), false);
            const read = __addDisposableResource(env_17, lib.kernel('read_total'), false);
            const out = __addDisposableResource(env_17, lib_1.DeviceBuffer.alloc(4), false);
            bump.launch({ grid: 1, block: 10, stream }, [lib_1.arg.i32(3)]);
            read.launch({ grid: 1, block: 1, stream }, [lib_1.arg.ptr(out)]);
            stream.synchronizeSync();
            expect(out.readSync(Int32Array)[0]).toBe(30);
            // No unified function of that name (and most systems have none at all): the driver's own answer.
            let error;
            try {
                lib.unifiedFunction('bump');
            }
            catch (e) {
                error = e;
            }
            expect(error).toBeInstanceOf(lib_1.CudaError);
            // The driver's answer for a kernel that is not a unified function (13.0 says invalid value).
            expect(['CUDA_ERROR_NOT_FOUND', 'CUDA_ERROR_INVALID_VALUE']).toContain(error.name);
            expect(error).toMatchObject({ call: 'cuLibraryGetUnifiedFunction', detail: 'bump' });
            expect(() => lib.managed('missing')).toThrow(lib_1.CudaError);
        }
        catch (e_17) {
            env_17.error = e_17;
            env_17.hasError = true;
        }
        finally {
            __disposeResources(env_17);
        }
    });
});
(0, tiers_1.describeGpu)('cooperative launch', () => {
    test('a grid-wide sync (cooperative_groups) sees every block\'s writes', () => {
        const env_18 = { stack: [], error: void 0, hasError: false };
        try {
            const program = (0, lib_1.compile)(cooperativeSource, { name: 'rotate.cu', includePaths: (0, toolkit_1.toolkitIncludes)() });
            const lib = __addDisposableResource(env_18, lib_1.Library.load(program), false);
            const rotate = __addDisposableResource(env_18, lib.kernel('rotate'), false);
            const stream = __addDisposableResource(env_18, lib_1.Stream.create(), false);
            const device = lib_1.Device.get(0);
            expect(device.capabilities.cooperativeLaunch).toBe(true);
            const block = 256;
            const grid = rotate.maxActiveBlocksPerMultiprocessor(block) * device.attribute('multiprocessorCount');
            expect(grid).toBeGreaterThan(0);
            const n = grid * block * 4;
            const a = __addDisposableResource(env_18, lib_1.DeviceBuffer.alloc(n * 4), false);
            const b = __addDisposableResource(env_18, lib_1.DeviceBuffer.alloc(n * 4), false);
            rotate.launch({ grid, block, stream, cooperative: true }, [lib_1.arg.ptr(a), lib_1.arg.ptr(b), lib_1.arg.u32(n)]);
            stream.synchronizeSync();
            const out = b.readSync(Uint32Array);
            let wrong = 0;
            for (let i = 0; i < n; i++)
                if (out[i] !== (((i + 1) % n) * 7) >>> 0)
                    wrong++;
            expect(wrong).toBe(0);
            // More blocks than can be resident at once cannot be cooperative.
            let error;
            try {
                rotate.launch({ grid: grid * 2 + 1, block, stream, cooperative: true }, [lib_1.arg.ptr(a), lib_1.arg.ptr(b), lib_1.arg.u32(n)]);
            }
            catch (e) {
                error = e;
            }
            expect(error).toMatchObject({ name: 'CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE', call: 'cuLaunchCooperativeKernel' });
            // The same through cuLaunchKernelEx, with a prepared launch.
            b.fill(0);
            const prepared = __addDisposableResource(env_18, rotate.prepare({ grid, block, stream, cooperative: true, priority: 0 }, ['ptr', 'ptr', 'u32'], [a, b, n]), false);
            prepared.launch();
            stream.synchronizeSync();
            expect(b.readSync(Uint32Array)[n - 1]).toBe(0);
            expect(b.readSync(Uint32Array)[0]).toBe(7);
        }
        catch (e_18) {
            env_18.error = e_18;
            env_18.hasError = true;
        }
        finally {
            __disposeResources(env_18);
        }
    });
});
const hopper = () => lib_1.Device.get(0).computeCapability.major >= 9;
(0, tiers_1.describeGpu)('cluster launch', () => {
    test('blocks are grouped in clusters of the requested size (compute capability 9.0+)', () => {
        const env_19 = { stack: [], error: void 0, hasError: false };
        try {
            if (!hopper()) {
                console.warn(`cluster launch skipped: ${lib_1.Device.get(0).name} is compute capability ${lib_1.Device.get(0).computeCapability.major}.x`);
                return;
            }
            const lib = __addDisposableResource(env_19, lib_1.Library.load((0, lib_1.compile)(clusterSource, { name: 'cluster.cu' })), false);
            const kernel = __addDisposableResource(env_19, lib.kernel('cluster_ranks'), false);
            const stream = __addDisposableResource(env_19, lib_1.Stream.create(), false);
            const blocks = 16;
            const shape = { grid: blocks, block: 32, cluster: [2, 1, 1] };
            expect(kernel.maxPotentialClusterSize(shape)).toBeGreaterThanOrEqual(2);
            expect(kernel.maxActiveClusters(shape)).toBeGreaterThan(0);
            const out = __addDisposableResource(env_19, lib_1.DeviceBuffer.alloc(blocks * 3 * 4), false);
            kernel.launch({ ...shape, stream }, [lib_1.arg.ptr(out)]);
            stream.synchronizeSync();
            const v = out.readSync(Uint32Array);
            for (let b = 0; b < blocks; b++) {
                expect([v[3 * b], v[3 * b + 1], v[3 * b + 2]]).toEqual([b % 2, 2, Math.floor(b / 2)]);
            }
            // A grid that the cluster does not divide is refused by the driver.
            let error;
            try {
                kernel.launch({ grid: 3, block: 32, cluster: [2], stream }, [lib_1.arg.ptr(out)]);
            }
            catch (e) {
                error = e;
            }
            expect(error).toBeInstanceOf(lib_1.CudaError);
            expect(error.call).toBe('cuLaunchKernelEx');
        }
        catch (e_19) {
            env_19.error = e_19;
            env_19.hasError = true;
        }
        finally {
            __disposeResources(env_19);
        }
    });
});
//# sourceMappingURL=kernel.test.js.map