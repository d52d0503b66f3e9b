#!/usr/bin/env node
// The binding's own cost per call, measured anywhere (no GPU needed): the calls
// of the hot paths run against the stand-in driver (test/fixtures/fake-libcuda.c,
// built here), whose entry points return at once, so what is measured is the
// JavaScript layer, the N-API crossing and the native layer: the most a call
// can add to the same call made from C.
//
// Usage: node bench/binding-overhead.js [filter] [--calls=N] [--instructions]
//   filter          only the calls whose label contains it
//   --calls=N       calls per pass (default 200000; five passes, the lowest counts)
//   --instructions  count instructions per call under valgrind (callgrind)
//                   instead of timing: slow, but the same on a busy machine
//   node --cpu-prof bench/binding-overhead.js ... profiles the calls.
'use strict';
const { execFileSync, spawnSync } = require('child_process');
const { buildChain, median, now, standInEnv, standInImage, writeJson } = require('./common');

const options = process.argv.slice(2);
const filter = options.find((a) => !a.startsWith('--')) ?? '';
const calls = Number(options.find((a) => a.startsWith('--calls='))?.slice(8) ?? 200000);
// In a counting child: run exactly this many calls of the one call named by filter.
const countOnly = process.env.BENCH_OVERHEAD_COUNT === undefined ? undefined : Number(process.env.BENCH_OVERHEAD_COUNT);

/** The calls measured: [label, set-up returning the call (i) => void, calls it counts as]. */
function callsOf(cuda) {
  const lib = cuda.Library.load(standInImage);
  const stream = cuda.Stream.create();
  const buffer = cuda.DeviceBuffer.alloc(1 << 20);
  const pinned = cuda.HostBuffer.alloc(4096);
  const k0 = lib.kernel('empty0'), k4 = lib.kernel('empty4'), k16 = lib.kernel('empty16');
  const shape = { grid: 1, block: 32, stream };
  const types4 = ['ptr', 'ptr', 'f32', 'u32'];
  const args4 = [buffer, buffer, 2, 1000];
  const types16 = ['ptr', 'ptr', 'ptr', 'ptr', 'f32', 'f32', 'f32', 'f32', 'i32', 'i32', 'i32', 'i32', 'u64', 'u64', 'f64', 'f64'];
  const args16 = [buffer, buffer, buffer, buffer, 1, 2, 3, 4, 5, 6, 7, 8, 9n, 10n, 11, 12];
  const typed4 = types4.map((t, i) => new cuda.KernelArg(t, args4[i]));
  const typed16 = types16.map((t, i) => new cuda.KernelArg(t, args16[i]));
  const p0 = k0.prepare(shape, []);
  const p4 = k4.prepare(shape, types4, args4);
  const p16 = k16.prepare(shape, types16, args16);
  const graph = cuda.Graph.create();
  const node = graph.addKernel(k4, { grid: 1, block: 32 }, typed4);
  const exec = graph.instantiate();
  const event = cuda.Event.create();
  const nodeParams = { type: 'kernel', kernel: k4, grid: 1, block: 32, args: typed4 };
  const build = (dataflow) => () => buildChain(cuda, k0, 1000, dataflow, buffer).dispose();
  const chain = buildChain(cuda, k0, 1000, false, buffer);
  const exec1000 = chain.instantiate();
  const launches = new Array(100).fill(p4);
  const graphLaunches = new Array(100).fill(exec);
  return [
    ['kernel.launch(), 0 arguments', () => k0.launch(shape)],
    ['kernel.launch(), 4 arguments', () => k4.launch(shape, typed4)],
    ['kernel.launch(), 16 arguments', () => k16.launch(shape, typed16)],
    ['prepared launch, 0 arguments', () => p0.launch()],
    ['prepared launch, 4 arguments', () => p4.launch()],
    ['prepared launch, 16 arguments', () => p16.launch()],
    ['prepared set(3, n) + launch', (i) => p4.set(3, i & 1023).launch()],
    ['graphExec.launch(stream)', () => exec.launch(stream)],
    // The same as with one node: nothing a launch does in the binding depends on the graph's size.
    ['graphExec.launch(stream), 1000 nodes', () => exec1000.launch(stream)],
    // One call queues 100 launches; figures are per launch.
    ['stream.submit(100 prepared launches)', () => stream.submit(launches), 100],
    ['stream.submit(100 graph launches)', () => stream.submit(graphLaunches), 100],
    ['graphExec.setParams(kernel node)', () => exec.setParams(node, nodeParams)],
    ['graphExec.setParams(prepared), set(3, n)', (i) => exec.setParams(node, p4.set(3, i & 1023))],
    ['event.record(stream) + query()', () => event.record(stream).query()],
    ['Stream.create() + dispose()', () => cuda.Stream.create().dispose()],
    ['DeviceBuffer.allocAsync() + dispose()', () => cuda.DeviceBuffer.allocAsync(256, stream).dispose()],
    // 256 bytes: the stand-in does fill its memory, and all of the 1 MiB buffer took it a millisecond a call.
    ['fill(buffer, v, { stream, count: 256 })', (i) => cuda.fill(buffer, i & 0xff, { stream, count: 256 })],
    ['copy(device, pinned, { stream })', () => cuda.copy(buffer, pinned, { stream })],
    ['copy(device, pinned)', () => cuda.copy(buffer, pinned)],
    ['stream.synchronizeSync()', () => stream.synchronizeSync()],
    // A launch after a wait: the stream stamps what the launch uses anew.
    ['graph launch + synchronizeSync()', () => {
      exec.launch(stream);
      stream.synchronizeSync();
    }],
    ['kernel.launch(4 args) + synchronizeSync()', () => {
      k4.launch(shape, typed4);
      stream.synchronizeSync();
    }],
    // One call builds a 1000-node chain; figures are per node.
    ['graph build, per node (node by node)', build(false), 1000],
    ['graph build, per node (data-flow)', build(true), 1000],
  ];
}

/** Nanoseconds of this process's CPU time per call (less disturbed than wall-clock time by other work on the machine). */
function cpuTimePerCall(op, per) {
  const n = Math.max(1, Math.round(calls / per));
  for (let i = 0; i < Math.min(n, 20000); i++) op(i);
  let best = Infinity;
  for (let pass = 0; pass < 5; pass++) {
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) op(i);
    const used = process.cpuUsage(start);
    best = Math.min(best, ((used.user + used.system) * 1000) / (n * per));
  }
  return best;
}

// Instructions per call: two runs under callgrind, of n and 3n calls after the
// same set-up, warm-up and full garbage collection; the difference is 2n
// calls' worth (collections the calls cause included, start-up excluded).
// Optimizing compilation is done on the calling thread: callgrind runs one
// thread at a time, and V8's background compiler finished so late that the
// counts were of the unoptimized code. With n = 20,000 calls, counts of one
// tree scattered by up to 300 instructions and read higher than with 40,000
// (a call of a batch counts as its calls; builds of 1000 nodes take n = 4).
function instructionsPerCall(label, per) {
  const n = per >= 1000 ? 4 : Math.ceil(40000 / per);
  const refs = (k) => {
    const run = spawnSync('valgrind', ['--tool=callgrind', '--smc-check=all-non-file', '--callgrind-out-file=/dev/null',
      process.execPath, '--expose-gc', '--no-concurrent-recompilation', __filename, label], { env: { ...process.env, BENCH_OVERHEAD_COUNT: String(k) }, encoding: 'utf8' });
    const match = /I\s+refs:\s+([\d,]+)/.exec(run.stderr ?? '');
    if (run.status !== 0 || !match) throw new Error(`callgrind gave no count for ${label}:\n${`${run.stdout}${run.stderr}`.slice(-2000)}`);
    return Number(match[1].replace(/,/g, ''));
  };
  return (refs(3 * n) - refs(n)) / (2 * n * per);
}

async function main() {
  const cuda = require('..');
  const measured = callsOf(cuda).filter(([label]) => label.includes(filter));
  if (countOnly !== undefined) {
    const [, op] = measured[0];
    // Warm-up: the JIT has compiled the call (twenty builds at least: after two, optimizing
    // compilation was still under way, and counted).
    for (let i = 0; i < Math.max(2000 / (measured[0][2] ?? 1), 20); i++) op(i);
    global.gc();
    for (let i = 0; i < countOnly; i++) op(i);
    return;
  }
  const instructions = options.includes('--instructions');
  const unit = instructions ? 'instructions' : 'ns';
  console.log(`Binding overhead over the stand-in driver (node ${process.version}; ${unit} per call)`);
  const rows = [];
  const print = (label, value) => {
    rows.push([label, value]);
    console.log(`${label.padEnd(40)} ${value.toFixed(instructions ? 0 : 1).padStart(10)} ${unit}`);
  };
  for (const [label, op, per = 1] of measured) print(label, instructions ? instructionsPerCall(label, per) : cpuTimePerCall(op, per));
  if (!instructions && 'await stream.synchronize()'.includes(filter)) print('await stream.synchronize() (wall)', await awaitLatency(cuda));
  writeJson(instructions ? 'binding-overhead-instructions' : 'binding-overhead', Object.fromEntries(rows));
}

// Wall-clock nanoseconds from awaiting an idle stream to running again: the
// wait thread's hand-back to the event loop.
async function awaitLatency(cuda) {
  const stream = cuda.Stream.create();
  for (let i = 0; i < 500; i++) await stream.synchronize();
  const times = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = now();
    await stream.synchronize();
    times.push(now() - t0);
  }
  stream.dispose();
  return median(times);
}

// The driver loads once per process: start again with the stand-in unless it is loaded.
if (!process.env.CUDA_DRIVER_LIBRARY) {
  execFileSync(process.execPath, [...process.execArgv, __filename, ...process.argv.slice(2)], { stdio: 'inherit', env: standInEnv() });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
