#!/usr/bin/env node
// A scheduler that runs on the GPU: after each step, a one-thread kernel looks
// at the data and picks which of two device graphs runs next, launching it
// with cudaGraphLaunch as a tail launch, so no decision waits for the host.
// While some value is 64 or more the "halve" graph runs, then the "decrement"
// graph until every value is 0. One host launch runs the whole schedule; the
// host checks the choices the GPU made against the same rule run in
// JavaScript.
//
// Device code that launches graphs is compiled as relocatable device code and
// linked with the toolkit's device runtime (libcudadevrt.a), which
// cuda.deviceRuntime() finds through CUDA_PATH (default /usr/local/cuda).
//
//   node examples/device-scheduler.js
'use strict';
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { arg } = cuda;

requireGpu(cuda);

let runtime;
try {
  runtime = cuda.deviceRuntime();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const source = `
  #include <cuda_device_runtime_api.h>
  extern "C" __global__ void halve(unsigned* values, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) values[i] >>= 1;
  }
  extern "C" __global__ void decrement(unsigned* values, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) if (values[i]) --values[i];
  }
  // Picks the next step from the data: 0 halve, 1 decrement, or none when all is 0.
  // next holds the device graphs to choose from; trace records each choice.
  extern "C" __global__ void schedule(const unsigned* values, unsigned n, const cudaGraphExec_t* next,
                                      unsigned* trace, unsigned* steps) {
    unsigned largest = 0;
    for (unsigned i = 0; i < n; ++i) largest = values[i] > largest ? values[i] : largest;
    if (largest == 0) return;
    unsigned choice = largest >= 64 ? 0 : 1;
    trace[(*steps)++] = choice;
    cudaGraphLaunch(next[choice], cudaStreamGraphTailLaunch);
  }`;

const program = cuda.compile(source, { name: 'device-scheduler.cu', relocatable: true, includePaths: [...runtime.includePaths] });
const library = cuda.Library.load(cuda.link([program, runtime.library]));
const [halve, decrement, schedule] = ['halve', 'decrement', 'schedule'].map((name) => library.kernel(name));

const n = 4096;
const values = cuda.DeviceBuffer.alloc(n * 4);
const next = cuda.DeviceBuffer.alloc(2 * 8);
const trace = cuda.DeviceBuffer.alloc(1024 * 4);
const steps = cuda.DeviceBuffer.alloc(4);
const stream = cuda.Stream.create();
const one = { grid: 1, block: 1 };
const schedulerArgs = [arg.ptr(values), arg.u32(n), arg.ptr(next), arg.ptr(trace), arg.ptr(steps)];

// Each step graph does its work, then asks the scheduler what comes next.
function stepGraph(kernel) {
  const graph = cuda.Graph.create();
  const work = graph.addKernel(kernel, { grid: 16, block: 256 }, [arg.ptr(values), arg.u32(n)]);
  graph.addKernel(schedule, one, schedulerArgs, { after: [work] });
  return graph.instantiate({ deviceLaunch: true, upload: stream });
}
const choices = [stepGraph(halve), stepGraph(decrement)];
// A graph cannot take its own executable as an argument before it exists, so
// the scheduler reads the handles from a table written once they do; the
// executables stay alive until the end of the program.
next.write(new BigUint64Array(choices.map((exec) => exec.handle)));

// The start: a host graph whose scheduler makes the first choice. (A kernel
// that takes one device graph as an argument gets it as arg.graphExec(exec),
// and then the launch keeps it alive; a table in memory is the program's to keep.)
const start = cuda.Graph.create();
start.addKernel(schedule, one, schedulerArgs);
const startExec = start.instantiate();

// The same rule on the host: the choices the GPU should make for this data.
function expectedChoices(data) {
  const v = Uint32Array.from(data);
  const out = [];
  for (;;) {
    const largest = v.reduce((a, b) => Math.max(a, b), 0);
    if (largest === 0) return out;
    const choice = largest >= 64 ? 0 : 1;
    out.push(choice);
    for (let i = 0; i < v.length; i++) v[i] = choice === 0 ? v[i] >>> 1 : Math.max(0, v[i] - 1);
  }
}

async function run(limit) {
  const data = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) % limit);
  values.write(data);
  steps.fill(0, { elementBytes: 4 });
  await startExec.run(stream);
  const count = steps.readSync(Uint32Array)[0];
  const made = [...trace.readSync(Uint32Array, { bytes: count * 4 })];
  const expected = expectedChoices(data);
  const left = values.readSync(Uint32Array).filter((v) => v !== 0).length;
  const halvings = made.filter((c) => c === 0).length;
  const ok = made.join() === expected.join() && left === 0;
  console.log(`values below ${limit}: the GPU chose ${halvings} halvings then ${count - halvings} decrements ` +
    `(${count} steps, one host launch), ${left} values left ${ok ? 'ok' : 'WRONG'}`);
  if (!ok) process.exitCode = 1;
}

async function main() {
  await run(1000);
  await run(50);
  // The device graphs go last: a launch of the start graph may still reach them until it is done.
  for (const handle of [startExec, start, ...choices, stream, values, next, trace, steps, halve, decrement, schedule, library]) handle.dispose();
  console.log('done');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
