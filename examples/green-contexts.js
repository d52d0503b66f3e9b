#!/usr/bin/env node
// Two pipelines sharing one GPU on disjoint sets of SMs: a small
// "latency" pipeline keeps its SMs however much work a "batch" pipeline
// queues on the rest. The device's SMs are split into two groups and a
// remainder; the latency pipeline gets one group as a green context, the batch
// pipeline the other group and the remainder. Every kernel records the SM each
// of its blocks ran on, and the host checks that each pipeline stayed on its
// SMs and that the two never shared one. The batch pipeline's last step waits
// for the latency pipeline through an event recorded on its green context.
//
//   node examples/green-contexts.js
'use strict';
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { arg } = cuda;

requireGpu(cuda);

const source = `
  // y = a * x, and the SM each block ran on.
  extern "C" __global__ void scale(const float* x, float* y, float a, unsigned n, unsigned* smOfBlock) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (threadIdx.x == 0) smOfBlock[blockIdx.x] = sm;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i];
  }
  // z = y1 + y2, and the SM each block ran on.
  extern "C" __global__ void add(const float* y1, const float* y2, float* z, unsigned n, unsigned* smOfBlock) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    if (threadIdx.x == 0) smOfBlock[blockIdx.x] = sm;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) z[i] = y1[i] + y2[i];
  }`;

const device = cuda.Device.get(0);
const all = device.smResource();
console.log(`${device.name}: ${all.smCount} SMs (groups of at least ${all.minPartitionSize}, ` +
  `in multiples of ${all.coscheduledAlignment})`);

// Two groups of about a quarter of the device each; the SMs left over join the batch pipeline.
const { groups, remainder } = cuda.splitSmResource(all, { minCount: Math.floor(all.smCount / 4), groups: 2 });
const latency = cuda.GreenContext.create(device, groups[0]);
const batch = cuda.GreenContext.create(device, remainder ? [groups[1], remainder] : [groups[1]]);
const latencyStream = latency.createStream();
const batchStream = batch.createStream();

// A library's kernels run in the context of the stream they are launched on.
const library = cuda.Library.load(cuda.compile(source, { name: 'green-contexts.cu' }));
const scale = library.kernel('scale');
const add = library.kernel('add');

const n = 1 << 22;
const blocks = 1024;
const x = cuda.DeviceBuffer.from(Float32Array.from({ length: n }, (_, i) => i % 1000));
const [y1, y2, z] = [0, 1, 2].map(() => cuda.DeviceBuffer.alloc(n * 4));
const smsOf = { latency: cuda.DeviceBuffer.alloc(blocks * 4 * 8), batch: cuda.DeviceBuffer.alloc(blocks * 4 * 8) };
const shape = (stream) => ({ grid: blocks, block: 256, stream });
const smArg = (pipeline, launch) => arg.ptr(smsOf[pipeline], launch * blocks * 4);

// The latency pipeline: y1 = 2x, a few times over, on its own SMs.
for (let launch = 0; launch < 4; launch++) {
  scale.launch(shape(latencyStream), [arg.ptr(x), arg.ptr(y1), arg.f32(2), arg.u32(n), smArg('latency', launch)]);
}
const latencyDone = cuda.Event.create();
latency.recordEvent(latencyDone);

// The batch pipeline: y2 = 3x on the other SMs, meanwhile; then z = y1 + y2
// once the latency pipeline's work is done.
for (let launch = 0; launch < 4; launch++) {
  scale.launch(shape(batchStream), [arg.ptr(x), arg.ptr(y2), arg.f32(3), arg.u32(n), smArg('batch', launch)]);
}
batch.waitEvent(latencyDone);
add.launch(shape(batchStream), [arg.ptr(y1), arg.ptr(y2), arg.ptr(z), arg.u32(n), smArg('batch', 4)]);

async function main() {
  await Promise.all([latencyStream.synchronize(), batchStream.synchronize()]);
  const used = {
    latency: new Set(smsOf.latency.readSync(Uint32Array, { bytes: 4 * blocks * 4 })),
    batch: new Set(smsOf.batch.readSync(Uint32Array, { bytes: 5 * blocks * 4 })),
  };
  const sizes = { latency: groups[0].smCount, batch: groups[1].smCount + (remainder ? remainder.smCount : 0) };
  for (const pipeline of ['latency', 'batch']) {
    const ok = used[pipeline].size <= sizes[pipeline];
    console.log(`${pipeline} pipeline: green context of ${sizes[pipeline]} SMs; its blocks ran on ` +
      `${used[pipeline].size} of them ${ok ? 'ok' : 'WRONG'}`);
    if (!ok) process.exitCode = 1;
  }
  const shared = [...used.latency].filter((sm) => used.batch.has(sm)).length;
  console.log(`SMs both pipelines ran on: ${shared} ${shared === 0 ? 'ok' : 'WRONG'}`);
  const out = z.readSync(Float32Array);
  const wrong = out.findIndex((v, i) => v !== 5 * (i % 1000));
  console.log(`z = 2x + 3x after the batch pipeline waited for the latency pipeline: ${wrong < 0 ? 'ok' : `WRONG at ${wrong}`}`);
  if (shared !== 0 || wrong >= 0) process.exitCode = 1;
  for (const handle of [x, y1, y2, z, smsOf.latency, smsOf.batch, latencyDone, scale, add, library,
    latencyStream, batchStream, latency, batch]) {
    handle.dispose();
  }
  console.log('done');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
