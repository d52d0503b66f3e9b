#!/usr/bin/env node
// CUDA C++ in a JavaScript template string. The tagged template cu`...`
// compiles its source with NVRTC the first time it sees it and caches the
// loaded library, so kernels can be specialized by interpolation (a type, an
// expression, a block size) and cost a compile only once per variant.
//
//   node examples/nvrtc-template.js
'use strict';
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { arg } = cuda;

requireGpu(cuda);

// Loaded libraries by source text. (compileAsync does the same work on a
// worker thread, for servers that must not block their event loop.)
const cache = new Map();
let compiles = 0;
function cu(strings, ...values) {
  const source = String.raw(strings, ...values);
  let library = cache.get(source);
  if (!library) {
    library = cuda.Library.load(cuda.compile(source, { name: `template-${cache.size}.cu` }));
    cache.set(source, library);
    compiles += 1;
  }
  return library;
}

// An elementwise map over any element type, with the operation as a C++ expression of x.
function map(type, expression) {
  return cu`
    extern "C" __global__ void map(${type}* out, const ${type}* in, unsigned n) {
      unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) { ${type} x = in[i]; out[i] = ${expression}; }
    }`;
}

const n = 1 << 16;
const stream = cuda.Stream.create();
function run(type, Type, expression, expected) {
  const library = map(type, expression);
  const kernel = library.kernel('map');
  const input = cuda.DeviceBuffer.from(Type.from({ length: n }, (_, i) => i % 1000));
  const output = cuda.DeviceBuffer.alloc(n * Type.BYTES_PER_ELEMENT);
  kernel.launch({ grid: Math.ceil(n / 256), block: 256, stream }, [arg.ptr(output), arg.ptr(input), arg.u32(n)]);
  stream.synchronizeSync();
  const out = output.readSync(Type);
  const wrong = out.findIndex((v, i) => v !== expected(i % 1000));
  console.log(`map<${type}>(x => ${expression}): out[999] = ${out[999]} ${wrong < 0 ? 'ok' : `WRONG at ${wrong}`} (${compiles} compile(s) so far)`);
  if (wrong >= 0) process.exitCode = 1;
  for (const handle of [kernel, input, output]) handle.dispose();
}

const started = process.hrtime.bigint();
run('float', Float32Array, 'x * x + 1.0f', (x) => x * x + 1);
const first = Number(process.hrtime.bigint() - started) / 1e6;
const again = process.hrtime.bigint();
run('float', Float32Array, 'x * x + 1.0f', (x) => x * x + 1);  // the same source: from the cache
const second = Number(process.hrtime.bigint() - again) / 1e6;
run('unsigned', Uint32Array, 'x << 3', (x) => x << 3);      // a new variant: compiled
console.log(`first run ${first.toFixed(1)} ms (compile included), cached run ${second.toFixed(1)} ms; ` +
  `${compiles === 2 ? 'compiled once per variant: ok' : `WRONG: ${compiles} compiles`}`);
if (compiles !== 2) process.exitCode = 1;

for (const library of cache.values()) library.dispose();
stream.dispose();
