#!/usr/bin/env node
// Stream capture and graph update. The work queued on a stream inside
// stream.capture() becomes a graph; the graph is instantiated once and
// launched. To change a parameter, the same work is captured again and the
// executable updated in place (cuGraphExecUpdate: far cheaper than a new
// instantiation). A capture with a different shape is refused with the
// driver's reason, and updateOrReinstantiate() falls back to a new executable.
//
//   node examples/capture-update.js
'use strict';
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { arg } = cuda;

requireGpu(cuda);

const n = 1 << 16;
const library = cuda.Library.load(cuda.compile(`
  extern "C" __global__ void axpb(float* y, const float* x, float a, float b, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
  }`, { name: 'capture-update.cu' }));
const axpb = library.kernel('axpb');
const stream = cuda.Stream.create();
const x = cuda.DeviceBuffer.from(Float32Array.from({ length: n }, (_, i) => i));
const y = cuda.DeviceBuffer.alloc(n * 4);
const result = cuda.HostBuffer.alloc(n * 4);
const shape = { grid: Math.ceil(n / 256), block: 256 };

// y = a·x + b, then y copied to pinned host memory; with twice, the kernel runs twice.
function capture(a, b, twice = false) {
  return stream.capture((s) => {
    axpb.launch({ ...shape, stream: s }, [arg.ptr(y), arg.ptr(x), arg.f32(a), arg.f32(b), arg.u32(n)]);
    if (twice) axpb.launch({ ...shape, stream: s }, [arg.ptr(y), arg.ptr(x), arg.f32(a), arg.f32(b), arg.u32(n)]);
    cuda.copy(result, y, { stream: s });
  });
}

function check(what, a, b) {
  const out = result.view(Float32Array);
  const wrong = out.findIndex((v, i) => v !== a * i + b);
  console.log(`${what}: y[100] = ${out[100]} (expected ${a * 100 + b}) ${wrong < 0 ? 'ok' : `WRONG at ${wrong}`}`);
  if (wrong >= 0) process.exitCode = 1;
}

const microseconds = (from) => (Number(process.hrtime.bigint() - from) / 1000).toFixed(1);

async function main() {
  const first = capture(2, 1);
  console.log(`captured a graph of ${first.nodeCount} nodes: ${first.nodes().map((node) => node.type).join(', ')}`);
  let t = process.hrtime.bigint();
  let exec = first.instantiate();
  console.log(`instantiated in ${microseconds(t)} µs`);
  await exec.run(stream);
  check('launch', 2, 1);

  // Same topology, new parameters: update the executable in place.
  const second = capture(3, 5);
  t = process.hrtime.bigint();
  exec.update(second);
  console.log(`updated in place in ${microseconds(t)} µs`);
  await exec.run(stream);
  check('after update', 3, 5);

  // Another node: the update is refused, and says why.
  const third = capture(4, 2, true);
  try {
    exec.update(third);
  } catch (error) {
    if (!(error instanceof cuda.GraphUpdateError)) throw error;
    console.log(`update refused as expected: ${error.reason}`);
  }
  exec = exec.updateOrReinstantiate(third);  // disposes the old executable when it makes a new one
  await exec.run(stream);
  check('after re-instantiation', 4, 2);

  for (const handle of [exec, first, second, third, stream, x, y, result, axpb, library]) handle.dispose();
  console.log('done');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
