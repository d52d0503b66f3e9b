#!/usr/bin/env node
// A small GPU pipeline as a graph: upload, two independent kernels, a kernel
// that joins them, download. The graph is built with data-flow edges: each node
// says what it reads and writes, and the graph orders them (and drops the
// edges that are implied). Launched three times, it updates one kernel's
// parameter in place between launches. Run: node examples/graph-pipeline.js
// (with --dot pipeline.dot it also writes the graph as DOT, which
// `npx cuda-driver dot pipeline.dot -o pipeline.svg` draws).
'use strict';
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { writeDotIfAsked } = require('./common/write-dot');

requireGpu(cuda);

const n = 1 << 20;
const { arg } = cuda;
const library = cuda.Library.load(cuda.compile(`
  extern "C" __global__ void scale(float* y, const float* x, float a, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
  }
  extern "C" __global__ void add(float* out, const float* a, const float* b, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
  }`, { name: 'pipeline.cu' }));
const scale = library.kernel('scale');
const add = library.kernel('add');

const input = cuda.HostBuffer.alloc(n * 4);
const output = cuda.HostBuffer.alloc(n * 4);
const [x, a, b, sum] = [0, 1, 2, 3].map(() => cuda.DeviceBuffer.alloc(n * 4));
input.view(Float32Array).forEach((_, i, v) => (v[i] = i));

const shape = { grid: Math.ceil(n / 256), block: 256 };
const graph = cuda.Graph.create({ dataflow: true });
graph.addCopy(x, input, {}, { label: 'upload x' });
const twice = graph.addKernel(scale, shape, [arg.ptr(a), arg.ptr(x), arg.f32(2), arg.u32(n)], { reads: [x], writes: [a], label: 'a = 2x' });
graph.addKernel(scale, shape, [arg.ptr(b), arg.ptr(x), arg.f32(3), arg.u32(n)], { reads: [x], writes: [b], label: 'b = 3x' });
graph.addKernel(add, shape, [arg.ptr(sum), arg.ptr(a), arg.ptr(b), arg.u32(n)], { reads: [a, b], writes: [sum], label: 'sum = a + b' });
graph.addCopy(output, sum, {}, { label: 'download sum' });
console.log(`graph: ${graph.nodeCount} nodes, ${graph.edges().length} edges, levels: ${graph.levels().map((l) => l.length).join(' / ')}`);
writeDotIfAsked(graph);

const stream = cuda.Stream.create();
const exec = graph.instantiate();

async function main() {
  for (const factor of [2, 4, 8]) {
    exec.setParams(twice, { type: 'kernel', kernel: scale, ...shape, args: [arg.ptr(a), arg.ptr(x), arg.f32(factor), arg.u32(n)] });
    await exec.run(stream);
    const out = output.view(Float32Array);
    const expected = (factor + 3) * 12345;
    console.log(`a = ${factor}x: sum[12345] = ${out[12345]} (expected ${expected}) ${out[12345] === expected ? 'ok' : 'WRONG'}`);
    if (out[12345] !== expected) process.exitCode = 1;
  }
  for (const handle of [exec, graph, stream, x, a, b, sum, input, output, scale, add, library]) handle.dispose();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
