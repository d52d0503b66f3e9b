#!/usr/bin/env node
// A loop that runs on the GPU with no round trip to the host: a graph with a
// while node (CUDA 12.4+ drivers). Its body halves every value of a vector,
// then a one-thread kernel decides whether to go on: it sets the loop's
// condition with cudaGraphSetConditional, from the device runtime header,
// which NVRTC finds in the CUDA toolkit's include directory. One launch runs
// as many iterations as the data needs: 20 for values below 2^20, 10 for
// values below 2^10, with the same executable.
//
//   node examples/while-loop.js        (CUDA_PATH: the toolkit, default /usr/local/cuda)
'use strict';
const fs = require('fs');
const path = require('path');
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { arg } = cuda;

requireGpu(cuda);

// NVRTC does not bundle the device runtime's headers: point it at the toolkit's.
const toolkit = [process.env.CUDA_PATH, process.env.CUDA_HOME, '/usr/local/cuda'].filter(Boolean)
  .map((root) => path.join(root, 'include'))
  .find((dir) => fs.existsSync(path.join(dir, 'cuda_device_runtime_api.h')));
if (!toolkit) {
  console.error('cuda_device_runtime_api.h not found: set CUDA_PATH to the CUDA toolkit');
  process.exit(1);
}

const library = cuda.Library.load(cuda.compile(`
  #include <cuda_device_runtime_api.h>
  // One step: halve every value; note whether any is still above zero.
  extern "C" __global__ void halve(unsigned* values, unsigned n, unsigned* more) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
      unsigned v = values[i] >> 1;
      values[i] = v;
      if (v != 0) *more = 1;
    }
  }
  // Decide: loop again while something is left; count the iterations.
  extern "C" __global__ void decide(unsigned* more, unsigned* iterations, cudaGraphConditionalHandle loop) {
    ++*iterations;
    cudaGraphSetConditional(loop, *more);
    *more = 0;
  }`, { name: 'while-loop.cu', includePaths: [toolkit, path.join(toolkit, 'cccl')].filter((dir) => fs.existsSync(dir)) }));
const halve = library.kernel('halve');
const decide = library.kernel('decide');

const n = 1 << 20;
const values = cuda.DeviceBuffer.alloc(n * 4);
const more = cuda.DeviceBuffer.from(new Uint32Array([0]));
const iterations = cuda.DeviceBuffer.alloc(4);

// The graph: a while node whose body is halve → decide. The handle starts each
// launch at 1, so the body runs at least once.
const graph = cuda.Graph.create();
const loop = graph.conditionalHandle({ defaultValue: 1 });
const { body } = graph.addWhile(loop);
const step = body.addKernel(halve, { grid: Math.ceil(n / 256), block: 256 }, [arg.ptr(values), arg.u32(n), arg.ptr(more)]);
body.addKernel(decide, { grid: 1, block: 1 }, [arg.ptr(more), arg.ptr(iterations), arg.u64(loop.value)], { after: [step] });
const exec = graph.instantiate();
const stream = cuda.Stream.create();

async function run(limit) {
  values.write(Uint32Array.from({ length: n }, (_, i) => i % limit));
  iterations.fill(0, { elementBytes: 4 });
  await exec.run(stream);
  const count = iterations.readSync(Uint32Array)[0];
  const left = values.readSync(Uint32Array).filter((v) => v !== 0).length;
  const expected = Math.ceil(Math.log2(limit));
  const ok = count === expected && left === 0;
  console.log(`values below ${limit}: the loop ran ${count} iterations (expected ${expected}), ${left} values left ${ok ? 'ok' : 'WRONG'}`);
  if (!ok) process.exitCode = 1;
}

async function main() {
  await run(1 << 20);
  await run(1 << 10);
  for (const handle of [exec, graph, loop, stream, values, more, iterations, halve, decide, library]) handle.dispose();
  console.log('done');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
