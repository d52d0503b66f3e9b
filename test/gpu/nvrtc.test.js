"use strict";
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
// NVRTC against the real library and driver: compiling to CUBIN and PTX,
// loading and running what was compiled (results copied back and compared),
// name expressions, headers and defines, the log of a failed compile.
const lib_1 = require("../../lib");
const tiers_1 = require("../helpers/tiers");
const saxpy = `
extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}`;
function runSaxpy(library, stream) {
    const env_1 = { stack: [], error: void 0, hasError: false };
    try {
        const n = 10000;
        const x = Float32Array.from({ length: n }, (_, i) => i);
        const y = Float32Array.from({ length: n }, (_, i) => 2 * i);
        const dx = __addDisposableResource(env_1, lib_1.DeviceBuffer.from(x), false);
        const dy = __addDisposableResource(env_1, lib_1.DeviceBuffer.from(y), false);
        const kernel = __addDisposableResource(env_1, library instanceof lib_1.Library ? library.kernel('saxpy') : library.function('saxpy'), false);
        kernel.launch({ grid: Math.ceil(n / 256), block: 256, stream }, [lib_1.arg.f32(3), lib_1.arg.ptr(dx), lib_1.arg.ptr(dy), lib_1.arg.u32(n)]);
        stream.synchronizeSync();
        return dy.readSync(Float32Array);
    }
    catch (e_1) {
        env_1.error = e_1;
        env_1.hasError = true;
    }
    finally {
        __disposeResources(env_1);
    }
}
const expectSaxpy = (out) => {
    expect(out.length).toBe(10000);
    for (const i of [0, 1, 255, 256, 9999])
        expect(out[i]).toBe(5 * i);
    expect(out.every((v, i) => v === 5 * i)).toBe(true);
};
(0, tiers_1.describeGpu)('NVRTC', () => {
    test('NVRTC is there and knows the device\'s architecture', () => {
        const status = (0, lib_1.nvrtcStatus)();
        expect(status).toMatchObject({ available: true, detail: '' });
        expect(status.version.major).toBeGreaterThanOrEqual(12);
        const { major, minor } = lib_1.Device.get(0).computeCapability;
        expect(status.supportedArchs.length).toBeGreaterThan(0);
        if (status.supportedArchs.includes(major * 10 + minor))
            expect((0, lib_1.compile)('', {}).arch).toBe(`sm_${major}${minor}`);
    });
    test('saxpy compiled to CUBIN for the device runs, from a library and from a module', () => {
        const env_2 = { stack: [], error: void 0, hasError: false };
        try {
            const stream = __addDisposableResource(env_2, lib_1.Stream.create(), false);
            const program = (0, lib_1.compile)(saxpy, { name: 'saxpy.cu' });
            expect(program.output).toBe('cubin');
            expect(Buffer.from(program.code.subarray(0, 4))).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46])); // ELF
            const lib = __addDisposableResource(env_2, lib_1.Library.load(program), false);
            expectSaxpy(runSaxpy(lib, stream));
            const mod = __addDisposableResource(env_2, lib_1.Module.load(program), false);
            expectSaxpy(runSaxpy(mod, stream));
        }
        catch (e_2) {
            env_2.error = e_2;
            env_2.hasError = true;
        }
        finally {
            __disposeResources(env_2);
        }
    });
    test('saxpy compiled to PTX is compiled by the driver at load, from text or bytes', () => {
        const env_3 = { stack: [], error: void 0, hasError: false };
        try {
            const stream = __addDisposableResource(env_3, lib_1.Stream.create(), false);
            const { major, minor } = lib_1.Device.get(0).computeCapability;
            const supported = (0, lib_1.nvrtcStatus)().supportedArchs.filter((a) => a <= major * 10 + minor);
            const program = (0, lib_1.compile)(saxpy, { arch: `compute_${Math.max(...supported)}` });
            expect(program.output).toBe('ptx');
            expect(program.ptx).toMatch(/\.entry saxpy/);
            const fromText = __addDisposableResource(env_3, lib_1.Library.load(program.ptx, { jit: { generateLineInfo: true, logVerbose: true } }), false);
            expect(typeof fromText.jitLog).toBe('string');
            expectSaxpy(runSaxpy(fromText, stream));
            const fromBytes = __addDisposableResource(env_3, lib_1.Library.load(program.code), false);
            expectSaxpy(runSaxpy(fromBytes, stream));
        }
        catch (e_3) {
            env_3.error = e_3;
            env_3.hasError = true;
        }
        finally {
            __disposeResources(env_3);
        }
    });
    test('compileAsync compiles off the JavaScript thread', async () => {
        const env_4 = { stack: [], error: void 0, hasError: false };
        try {
            let ticks = 0;
            const timer = setInterval(() => ticks++, 1);
            const programs = await Promise.all([1, 2, 3].map((i) => (0, lib_1.compileAsync)(`${saxpy}\n// ${i}`, { options: ['-lineinfo'] })));
            clearInterval(timer);
            expect(programs.map((p) => p.output)).toEqual(['cubin', 'cubin', 'cubin']);
            const stream = __addDisposableResource(env_4, lib_1.Stream.create(), false);
            const lib = __addDisposableResource(env_4, lib_1.Library.load(programs[2]), false);
            expectSaxpy(runSaxpy(lib, stream));
        }
        catch (e_4) {
            env_4.error = e_4;
            env_4.hasError = true;
        }
        finally {
            __disposeResources(env_4);
        }
    });
    test('a failed compile throws CompileError with the compiler\'s log', async () => {
        const bad = 'extern "C" __global__ void k(int* p) {\n  *p = 1;\n  undefined_thing(p);\n}\n';
        let error;
        try {
            (0, lib_1.compile)(bad, { name: 'bad.cu', options: ['-std=c++17'] });
        }
        catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(lib_1.CompileError);
        expect(error).toMatchObject({ name: 'CompileError', result: 6, resultName: 'NVRTC_ERROR_COMPILATION', stage: 'compile',
            programName: 'bad.cu' });
        expect(error.log).toMatch(/bad\.cu\(3\): error: identifier "undefined_thing" is undefined/);
        expect(error.message).toContain(error.log.trim().split('\n')[0]);
        expect(error.options).toContain('-std=c++17');
        await expect((0, lib_1.compileAsync)(bad, { name: 'bad.cu' })).rejects.toThrow(/undefined_thing/);
        expect(() => (0, lib_1.compile)(saxpy, { options: ['--no-such-option'] })).toThrow(lib_1.CompileError);
    });
    test('name expressions give templates\' lowered names; headers and defines reach the source', () => {
        const env_5 = { stack: [], error: void 0, hasError: false };
        try {
            const source = `
#include "scale.h"
template <typename T> __global__ void scale(T* x, T factor, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * factor + OFFSET + EXTRA;
}`;
            const program = (0, lib_1.compile)(source, {
                headers: { 'scale.h': '#define OFFSET 1' }, defines: { EXTRA: 2 }, nameExpressions: ['scale<float>', 'scale<double>'],
            });
            const asFloat = program.loweredName('scale<float>');
            const asDouble = program.loweredName('scale<double>');
            expect(asFloat).toMatch(/^_Z5scaleIfEv/);
            expect(asDouble).toMatch(/^_Z5scaleIdEv/);
            const stream = __addDisposableResource(env_5, lib_1.Stream.create(), false);
            const lib = __addDisposableResource(env_5, lib_1.Library.load(program), false);
            expect(lib.kernels().map((k) => k.name).sort()).toEqual([asDouble, asFloat].sort());
            const f = __addDisposableResource(env_5, lib_1.DeviceBuffer.from(new Float32Array([1, 2, 3])), false);
            const d = __addDisposableResource(env_5, lib_1.DeviceBuffer.from(new Float64Array([1, 2, 3])), false);
            lib.kernel(asFloat).launch({ grid: 1, block: 32, stream }, [lib_1.arg.ptr(f), lib_1.arg.f32(2), lib_1.arg.u32(3)]);
            lib.kernel(asDouble).launch({ grid: 1, block: 32, stream }, [lib_1.arg.ptr(d), lib_1.arg.f64(0.5), lib_1.arg.u32(3)]);
            stream.synchronizeSync();
            expect([...f.readSync(Float32Array)]).toEqual([5, 7, 9]);
            expect([...d.readSync(Float64Array)]).toEqual([3.5, 4, 4.5]);
        }
        catch (e_5) {
            env_5.error = e_5;
            env_5.hasError = true;
        }
        finally {
            __disposeResources(env_5);
        }
    });
    test('PTX the driver rejects comes back with the JIT\'s log', () => {
        let error;
        // With lazy loading (the default) the driver compiles at first use of a kernel, not at load.
        try {
            const broken = lib_1.Library.load('.version 7.0\n.target sm_52\n.address_size 64\n.visible .entry broken() { bogus.instruction; }\n');
            broken.kernel('broken');
        }
        catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(lib_1.CudaError);
        expect(error.name).toBe('CUDA_ERROR_INVALID_PTX');
        if (error.call === 'cuLibraryLoadData')
            expect(error.detail).toMatch(/JIT log: .*ptxas/s);
    });
});
//# sourceMappingURL=nvrtc.test.js.map