// NVRTC against the real library and driver: compiling to CUBIN and PTX,
// loading and running what was compiled (results copied back and compared),
// name expressions, headers and defines, the log of a failed compile.
import {
  arg,
  CompileError,
  compile,
  compileAsync,
  CudaError,
  Device,
  DeviceBuffer,
  Library,
  Module,
  nvrtcStatus,
  Stream,
} from '../../lib';
import { describeGpu } from '../helpers/tiers';

const saxpy = `
extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}`;

function runSaxpy(library: Library | Module, stream: Stream): Float32Array {
  const n = 10000;
  const x = Float32Array.from({ length: n }, (_, i) => i);
  const y = Float32Array.from({ length: n }, (_, i) => 2 * i);
  using dx = DeviceBuffer.from(x);
  using dy = DeviceBuffer.from(y);
  using kernel = library instanceof Library ? library.kernel('saxpy') : library.function('saxpy');
  kernel.launch({ grid: Math.ceil(n / 256), block: 256, stream }, [arg.f32(3), arg.ptr(dx), arg.ptr(dy), arg.u32(n)]);
  stream.synchronizeSync();
  return dy.readSync(Float32Array);
}

const expectSaxpy = (out: Float32Array) => {
  expect(out.length).toBe(10000);
  for (const i of [0, 1, 255, 256, 9999]) expect(out[i]).toBe(5 * i);
  expect(out.every((v, i) => v === 5 * i)).toBe(true);
};

describeGpu('NVRTC', () => {
  test('NVRTC is there and knows the device\'s architecture', () => {
    const status = nvrtcStatus();
    expect(status).toMatchObject({ available: true, detail: '' });
    expect(status.version!.major).toBeGreaterThanOrEqual(12);
    const { major, minor } = Device.get(0).computeCapability;
    expect(status.supportedArchs.length).toBeGreaterThan(0);
    if (status.supportedArchs.includes(major * 10 + minor)) expect(compile('', {}).arch).toBe(`sm_${major}${minor}`);
  });

  test('saxpy compiled to CUBIN for the device runs, from a library and from a module', () => {
    using stream = Stream.create();
    const program = compile(saxpy, { name: 'saxpy.cu' });
    expect(program.output).toBe('cubin');
    expect(Buffer.from(program.code.subarray(0, 4))).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46])); // ELF
    using lib = Library.load(program);
    expectSaxpy(runSaxpy(lib, stream));
    using mod = Module.load(program);
    expectSaxpy(runSaxpy(mod, stream));
  });

  test('saxpy compiled to PTX is compiled by the driver at load, from text or bytes', () => {
    using stream = Stream.create();
    const { major, minor } = Device.get(0).computeCapability;
    const supported = nvrtcStatus().supportedArchs.filter((a) => a <= major * 10 + minor);
    const program = compile(saxpy, { arch: `compute_${Math.max(...supported)}` });
    expect(program.output).toBe('ptx');
    expect(program.ptx).toMatch(/\.entry saxpy/);
    using fromText = Library.load(program.ptx, { jit: { generateLineInfo: true, logVerbose: true } });
    expect(typeof fromText.jitLog).toBe('string');
    expectSaxpy(runSaxpy(fromText, stream));
    using fromBytes = Library.load(program.code);
    expectSaxpy(runSaxpy(fromBytes, stream));
  });

  test('compileAsync compiles off the JavaScript thread', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const programs = await Promise.all([1, 2, 3].map((i) => compileAsync(`${saxpy}\n// ${i}`, { options: ['-lineinfo'] })));
    clearInterval(timer);
    expect(programs.map((p) => p.output)).toEqual(['cubin', 'cubin', 'cubin']);
    using stream = Stream.create();
    using lib = Library.load(programs[2]);
    expectSaxpy(runSaxpy(lib, stream));
  });

  test('a failed compile throws CompileError with the compiler\'s log', async () => {
    const bad = 'extern "C" __global__ void k(int* p) {\n  *p = 1;\n  undefined_thing(p);\n}\n';
    let error: CompileError | undefined;
    try { compile(bad, { name: 'bad.cu', options: ['-std=c++17'] }); } catch (e) { error = e as CompileError; }
    expect(error).toBeInstanceOf(CompileError);
    expect(error).toMatchObject({ name: 'CompileError', result: 6, resultName: 'NVRTC_ERROR_COMPILATION', stage: 'compile',
      programName: 'bad.cu' });
    expect(error!.log).toMatch(/bad\.cu\(3\): error: identifier "undefined_thing" is undefined/);
    expect(error!.message).toContain(error!.log.trim().split('\n')[0]);
    expect(error!.options).toContain('-std=c++17');
    await expect(compileAsync(bad, { name: 'bad.cu' })).rejects.toThrow(/undefined_thing/);
    expect(() => compile(saxpy, { options: ['--no-such-option'] })).toThrow(CompileError);
  });

  test('name expressions give templates\' lowered names; headers and defines reach the source', () => {
    const source = `
#include "scale.h"
template <typename T> __global__ void scale(T* x, T factor, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * factor + OFFSET + EXTRA;
}`;
    const program = compile(source, {
      headers: { 'scale.h': '#define OFFSET 1' }, defines: { EXTRA: 2 }, nameExpressions: ['scale<float>', 'scale<double>'],
    });
    const asFloat = program.loweredName('scale<float>');
    const asDouble = program.loweredName('scale<double>');
    expect(asFloat).toMatch(/^_Z5scaleIfEv/);
    expect(asDouble).toMatch(/^_Z5scaleIdEv/);
    using stream = Stream.create();
    using lib = Library.load(program);
    expect(lib.kernels().map((k) => k.name).sort()).toEqual([asDouble, asFloat].sort());
    using f = DeviceBuffer.from(new Float32Array([1, 2, 3]));
    using d = DeviceBuffer.from(new Float64Array([1, 2, 3]));
    lib.kernel(asFloat).launch({ grid: 1, block: 32, stream }, [arg.ptr(f), arg.f32(2), arg.u32(3)]);
    lib.kernel(asDouble).launch({ grid: 1, block: 32, stream }, [arg.ptr(d), arg.f64(0.5), arg.u32(3)]);
    stream.synchronizeSync();
    expect([...f.readSync(Float32Array)]).toEqual([5, 7, 9]);
    expect([...d.readSync(Float64Array)]).toEqual([3.5, 4, 4.5]);
  });

  test('PTX the driver rejects comes back with the JIT\'s log', () => {
    let error: CudaError | undefined;
    // With lazy loading (the default) the driver compiles at first use of a kernel, not at load.
    try {
      const broken = Library.load('.version 7.0\n.target sm_52\n.address_size 64\n.visible .entry broken() { bogus.instruction; }\n');
      broken.kernel('broken');
    } catch (e) { error = e as CudaError; }
    expect(error).toBeInstanceOf(CudaError);
    expect(error!.code).toBe('CUDA_ERROR_INVALID_PTX');
    if (error!.call === 'cuLibraryLoadData') expect(error!.detail).toMatch(/JIT log: .*ptxas/s);
  });
});
