#!/usr/bin/env node
// This tree against another checkout of the library, in one process: both
// trees' addons loaded side by side, the hot paths of each measured in turn,
// round after round, so that both see the same machine at the same moments.
// On the GPU host, whose speed swings between runs by more than a change
// moves a figure (C's own launch from 2.8 to 4.1 µs), runs of two trees made
// one after the other compare the host as much as the trees.
//
// Usage: node bench/ab.js OTHER_TREE [rounds=15] [filter]
//   OTHER_TREE  another checkout, built (its dist/ and build/Release/)
//   filter      only the operations whose name contains it
// Prints, per operation, the median of each tree (ns; builds and waits in µs)
// and this tree's difference. Load order favours one side by a few percent: run it a
// second time with the trees the other way round (from the other checkout).
'use strict';
const path = require('path');
const { buildChain, cubinFile, median, now, perCall, writeJson } = require('./common');

const [other, roundsText = '15', filter = ''] = process.argv.slice(2);
if (!other) throw new Error('usage: node bench/ab.js OTHER_TREE [rounds] [filter]');
const rounds = Number(roundsText);
if (!Number.isInteger(rounds) || rounds < 1) throw new RangeError('rounds must be a positive integer');

/** The operations measured with the library at root: name -> () => figure. */
function operations(root) {
  const cuda = require(root);
  const { arg } = cuda;
  const lib = cuda.Library.loadFile(cubinFile(cuda));
  const [k0, k4, k16] = ['empty0', 'empty4', 'empty16'].map((name) => lib.kernel(name));
  const stream = cuda.Stream.create();
  const buffer = cuda.DeviceBuffer.alloc(1 << 20);
  const shape = { grid: 1, block: 32, stream };
  const args4 = [arg.ptr(buffer), arg.ptr(buffer), arg.f32(2), arg.u32(1000)];
  const args16 = [arg.ptr(buffer), arg.ptr(buffer), arg.ptr(buffer), arg.ptr(buffer), arg.f32(1), arg.f32(2), arg.f32(3), arg.f32(4),
    arg.i32(5), arg.i32(6), arg.i32(7), arg.i32(8), arg.u64(9n), arg.u64(10n), arg.f64(11), arg.f64(12)];
  const prepared = k4.prepare(shape, ['ptr', 'ptr', 'f32', 'u32'], [buffer, buffer, 2, 1000]);
  const drain = () => stream.synchronizeSync();
  const graph = cuda.Graph.create();
  const node = graph.addKernel(k4, { grid: 1, block: 32 }, args4);
  const exec = graph.instantiate();
  const params = { type: 'kernel', kernel: k4, grid: 1, block: 32, args: args4.slice() };
  const event = cuda.Event.create();
  const per = (op, wait) => () => perCall(op, 100, 30, wait);
  const build = (dataflow) => () => {
    const t0 = now();
    const g = buildChain(cuda, k0, 1000, dataflow, buffer);
    const us = (now() - t0) / 1000;
    g.dispose();
    return us;
  };
  return {
    'kernel.launch(), 0 arguments': per(() => k0.launch(shape), drain),
    'kernel.launch(), 4 arguments': per(() => k4.launch(shape, args4), drain),
    'kernel.launch(), 16 arguments': per(() => k16.launch(shape, args16), drain),
    'prepared launch, 4 arguments': per(() => prepared.launch(), drain),
    'kernel-node update, params object': per((i) => {
      params.args[3] = arg.u32(i & 1023);
      exec.setParams(node, params);
    }),
    'kernel-node update, prepared': per((i) => exec.setParams(node, prepared.set(3, i & 1023))),
    'event record + query': per(() => event.record(stream).query(), drain),
    'stream create + destroy': per(() => cuda.Stream.create().dispose()),
    'stream-ordered alloc + free': per(() => cuda.DeviceBuffer.allocAsync(256, stream).dispose(), drain),
    'build 1000 nodes, node by node (µs)': build(false),
    'build 1000 nodes, data-flow (µs)': build(true),
    ...completions(cuda, lib, stream),
  };
}

/**
 * Awaited completions against blocking ones, per wait (µs): a small fill, and
 * a request of the service's shape (bench/service.js: 1 MiB up, a graph of 20
 * kernel nodes, 1 MiB down). Each operation returns a promise of its figure.
 */
function completions(cuda, lib, stream) {
  const { arg } = cuda;
  const words = 1 << 18;
  const small = cuda.DeviceBuffer.alloc(4096);
  const input = cuda.HostBuffer.alloc(words * 4), output = cuda.HostBuffer.alloc(words * 4);
  const device = cuda.DeviceBuffer.alloc(words * 4);
  const affine = lib.kernel('affine');
  const graph = cuda.Graph.create();
  let previous;
  for (let i = 0; i < 20; i++) {
    previous = graph.addKernel(affine, { grid: words / 256, block: 256 }, [arg.ptr(device), arg.u32(3), arg.u32(1), arg.u32(words)],
      previous ? { after: [previous] } : {});
  }
  const exec = graph.instantiate();
  const event = cuda.Event.create();
  const fill = () => cuda.fill(small, 1, { stream });
  const request = () => {
    cuda.copy(device, input, { stream });
    exec.launch(stream);
    cuda.copy(output, device, { stream });
  };
  const waits = 300;
  const per = (queue, wait) => async () => {
    for (let i = 0; i < 20; i++) {
      queue();
      await wait();
    }
    const t0 = now();
    for (let i = 0; i < waits; i++) {
      queue();
      await wait();
    }
    return (now() - t0) / waits / 1000;
  };
  return {
    'fill + blocking synchronize (µs)': per(fill, () => stream.synchronizeSync()),
    'fill + await stream.synchronize() (µs)': per(fill, () => stream.synchronize()),
    'fill + record + await event.synchronize() (µs)': per(fill, () => event.record(stream).synchronize()),
    'request + blocking synchronize (µs)': per(request, () => stream.synchronizeSync()),
    'request + await stream.synchronize() (µs)': per(request, () => stream.synchronize()),
  };
}

async function main() {
  const trees = [path.resolve(other), path.resolve(__dirname, '..')];
  const measured = trees.map(operations);
  const names = Object.keys(measured[1]).filter((name) => name in measured[0] && name.includes(filter));
  const samples = names.map(() => [[], []]);
  // Three untimed rounds first: the optimizing compiler has done its work.
  for (let round = 0; round < 3; round++) for (const name of names) for (const ops of measured) await ops[name]();
  for (let round = 0; round < rounds; round++) {
    for (const [i, name] of names.entries()) {
      for (const t of round % 2 ? [1, 0] : [0, 1]) samples[i][t].push(await measured[t][name]());
    }
  }
  // Figures in µs keep two decimals.
  const round = (name, value) => (name.includes('µs') ? +value.toFixed(2) : Math.round(value));
  const rows = names.map((name, i) => {
    const [theirs, ours] = samples[i].map(median);
    return { operation: name, other: round(name, theirs), this: round(name, ours), difference: round(name, ours - theirs), ratio: +(ours / theirs).toFixed(3) };
  });
  console.log(`this tree (${trees[1]}) against ${trees[0]}: medians of ${rounds} rounds, ns (rows marked µs in µs)`);
  console.table(rows);
  writeJson('ab', rows);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
