#!/usr/bin/env node
// What deciding on the GPU saves: a data-dependent loop of K iterations, each
// a one-thread kernel that advances a value and says whether to go on.
// Driven from the host, every iteration is a launch, a copy of the flag back
// and a decision in JavaScript; decided on the device, one host launch starts
// a device graph that tail-launches itself until the kernel says stop. The
// figure is time per iteration (the whole loop over K); both loops are checked
// to have run exactly K iterations.
// Usage: node bench/device-launch.js [iterations=1000]
'use strict';
const { median, now, runAlone, standIn } = require('./common');

const source = `
#include <cuda_device_runtime_api.h>
// One iteration: advance, and say whether another is needed.
extern "C" __global__ void step(unsigned* value, unsigned* more, unsigned target) {
  unsigned v = ++*value;
  *more = v < target;
}
// The same iteration, which queues its own graph again while another is needed.
extern "C" __global__ void stepOnDevice(unsigned* value, unsigned target) {
  if (++*value < target) cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
}
extern "C" __global__ void start(cudaGraphExec_t loop) { cudaGraphLaunch(loop, cudaStreamGraphTailLaunch); }
`;

/** Runs the device-launch benchmark; returns its section of the report. */
async function measure({ iterations = 1000, repetitions = 7 } = {}) {
  const title = 'Data-dependent loop: host round trips against device tail launches';
  if (standIn()) return [{ title, rows: [], notes: ['skipped over the stand-in driver: device graph launch needs a GPU and NVRTC'] }];
  const cuda = require('..');
  const { arg } = cuda;
  const runtime = cuda.deviceRuntime();
  const program = cuda.compile(source, { name: 'device-launch.cu', relocatable: true, includePaths: [...runtime.includePaths] });
  const library = cuda.Library.load(cuda.link([program, runtime.library]));
  const stream = cuda.Stream.create();
  const value = cuda.DeviceBuffer.alloc(4);
  const more = cuda.DeviceBuffer.alloc(4);
  const flag = cuda.HostBuffer.alloc(4);
  const flagView = flag.view(Uint32Array);
  const one = { grid: 1, block: 1, stream };

  // From the host: launch, copy the flag back, wait, decide.
  const step = library.kernel('step');
  const hostLoop = () => {
    value.fill(0, { elementBytes: 4 });
    let count = 0;
    const t0 = now();
    do {
      step.launch(one, [arg.ptr(value), arg.ptr(more), arg.u32(iterations)]);
      cuda.copy(flag, more, { stream });
      stream.synchronizeSync();
      count++;
    } while (flagView[0] !== 0);
    const elapsed = now() - t0;
    if (count !== iterations) throw new Error(`the host-driven loop ran ${count} iterations, not ${iterations}`);
    return elapsed;
  };

  // On the device: one launch of a host graph that tail-launches the loop graph.
  const loop = cuda.Graph.create();
  loop.addKernel(library.kernel('stepOnDevice'), { grid: 1, block: 1 }, [arg.ptr(value), arg.u32(iterations)]);
  const loopExec = loop.instantiate({ deviceLaunch: true, upload: stream });
  const starter = cuda.Graph.create();
  starter.addKernel(library.kernel('start'), { grid: 1, block: 1 }, [arg.graphExec(loopExec)]);
  const starterExec = starter.instantiate();
  const deviceLoop = () => {
    value.fill(0, { elementBytes: 4 });
    stream.synchronizeSync();
    const t0 = now();
    starterExec.launch(stream);
    stream.synchronizeSync();
    const elapsed = now() - t0;
    const count = value.readSync(Uint32Array)[0];
    if (count !== iterations) throw new Error(`the device-driven loop ran ${count} iterations, not ${iterations}`);
    return elapsed;
  };

  hostLoop();
  deviceLoop();
  const host = [], device = [];
  for (let r = 0; r < repetitions; r++) {
    host.push(hostLoop());
    device.push(deviceLoop());
  }
  for (const handle of [starterExec, starter, loopExec, loop, stream, value, more, flag, library]) handle.dispose();
  const perIteration = (ns) => ns / iterations / 1000;
  return [{
    title,
    rows: [
      { label: 'host-driven: launch + copy flag + wait + decide', unit: 'us', better: 'lower', js: perIteration(median(host)) },
      { label: 'device-driven: tail launch decided by the kernel', unit: 'us', better: 'lower', js: perIteration(median(device)) },
    ],
    notes: [`time per iteration: medians of ${repetitions} loops of ${iterations} iterations each, the two kinds in turn`],
  }];
}

module.exports = { measure };

if (require.main === module) runAlone(measure, { iterations: Number(process.argv[2]) || undefined });
