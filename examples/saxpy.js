#!/usr/bin/env node
// Compiles a kernel with NVRTC, launches it with typed arguments, checks the
// result, then times a prepared launch. Run: node examples/saxpy.js
'use strict';
const cuda = require('..');
const { arg, compile, DeviceBuffer, Library, Stream } = cuda;
const { requireGpu } = require('./common/require-gpu');

requireGpu(cuda);

const program = compile(`
  extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
  }`, { name: 'saxpy.cu' });
console.log(`compiled ${program.name} for ${program.arch} (${program.code.length} bytes of ${program.output})`);

const n = 1 << 20;
const lib = Library.load(program);
const saxpy = lib.kernel('saxpy');
const stream = Stream.create();
const x = DeviceBuffer.from(Float32Array.from({ length: n }, (_, i) => i));
const y = DeviceBuffer.from(new Float32Array(n).fill(1));
const config = { grid: Math.ceil(n / 256), block: 256, stream };
console.log('parameters:', saxpy.params.map((p) => `${p.size} bytes at ${p.offset}`).join(', '));

saxpy.launch(config, [arg.f32(2), arg.ptr(x), arg.ptr(y), arg.u32(n)]);
stream.synchronizeSync();
const out = y.readSync(Float32Array);
const wrong = out.findIndex((v, i) => v !== 2 * i + 1);
console.log(wrong < 0 ? 'y = 2x + 1: correct' : `wrong at ${wrong}: ${out[wrong]}`);

const step = saxpy.prepare(config, ['f32', 'ptr', 'ptr', 'u32'], [1, x, y, n]);
const launches = 10000;
const t0 = process.hrtime.bigint();
for (let i = 0; i < launches; i++) step.launch();
const t1 = process.hrtime.bigint();
stream.synchronizeSync();
console.log(`${launches} prepared launches: ${(Number(t1 - t0) / launches / 1000).toFixed(2)} µs of host time each`);
console.log('y[10] =', y.readSync(Float32Array, { offset: 40, bytes: 4 })[0], `(expected ${2 * 10 + 1 + launches * 10})`);

for (const handle of [step, x, y, stream, saxpy, lib]) handle.dispose();
