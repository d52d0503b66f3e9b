#!/usr/bin/env node
// Graphs from JavaScript against the same work in C (bench/c/graph.c, built
// here), in one run: a chain of N empty-kernel nodes, N = 1, 100, 1000. Host
// time per launch, instantiate and whole-graph update times, and the time to
// build the chain node by node and through the data-flow builder.
// Usage: node bench/graph.js [passes=3]
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const cuda = require('..');
const { median, now, runC, report } = require('./common');

const passes = Number(process.argv[2] || 3);
const sizes = [1, 100, 1000];
const source = 'extern "C" __global__ void empty0() {}';

function chain(kernel, n, dataflow, buffer) {
  const t0 = now();
  const graph = cuda.Graph.create({ dataflow });
  let previous;
  for (let i = 0; i < n; i++) {
    previous = dataflow
      ? graph.addKernel(kernel, { grid: 1, block: 32 }, [], { reads: [buffer], writes: [buffer] })
      : graph.addKernel(kernel, { grid: 1, block: 32 }, [], previous ? { after: [previous] } : {});
  }
  return { graph, ns: now() - t0 };
}

function measureJs(kernel, stream, buffer, n) {
  const rounds = n >= 1000 ? 30 : 200;
  const batch = n >= 1000 ? 5 : 50;
  const built = chain(kernel, n, false);
  const flow = chain(kernel, n, true, buffer);
  const other = chain(kernel, n, false);
  let t0 = now();
  const exec = built.graph.instantiate();
  const instantiate = now() - t0;
  t0 = now();
  exec.update(other.graph);
  const update = now() - t0;
  for (let i = 0; i < batch; i++) exec.launch(stream);
  stream.synchronizeSync();
  const times = [];
  for (let r = 0; r < rounds; r++) {
    t0 = now();
    for (let i = 0; i < batch; i++) exec.launch(stream);
    times.push((now() - t0) / batch);
    stream.synchronizeSync();
  }
  for (const h of [exec, built.graph, flow.graph, other.graph]) h.dispose();
  return { build: built.ns, dataflowBuild: flow.ns, instantiate, update, launch: median(times) };
}

const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-graph-')), 'empty.cubin');
fs.writeFileSync(file, cuda.compile(source, { name: 'graph-bench.cu' }).code);
const lib = cuda.Library.loadFile(file);
const kernel = lib.kernel('empty0');
const stream = cuda.Stream.create();
const buffer = cuda.DeviceBuffer.alloc(4);
const c = [], js = [];
for (let pass = 0; pass < passes; pass++) {
  c.push(runC('graph', [file, ...sizes]));
  js.push(Object.fromEntries(sizes.map((n) => [n, measureJs(kernel, stream, buffer, n)])));
}
const pick = (runs, n, key) => median(runs.map((r) => r[n][key]));
const rows = [];
for (const n of sizes) rows.push([`launch, ${n} node${n === 1 ? '' : 's'}`, pick(js, n, 'launch'), pick(c, n, 'launch'), 'ns/launch']);
rows.push(['instantiate, 1000 nodes', pick(js, 1000, 'instantiate') / 1e3, pick(c, 1000, 'instantiate') / 1e3, 'us']);
rows.push(['whole-graph update, 1000 nodes', pick(js, 1000, 'update') / 1e3, pick(c, 1000, 'update') / 1e3, 'us']);
rows.push(['build 1000 nodes, node by node', pick(js, 1000, 'build') / 1e3, pick(c, 1000, 'build') / 1e3, 'us']);
rows.push(['build 1000 nodes, data-flow', pick(js, 1000, 'dataflowBuild') / 1e3, pick(c, 1000, 'build') / 1e3, 'us']);
report('Graphs', rows);
const ratio = pick(js, 100, 'launch') / pick(c, 100, 'launch');
console.log(`\ngoal: graph launch <= 1.10x C: 100 nodes ${ratio.toFixed(3)}x ${ratio <= 1.1 ? 'met' : 'NOT met'}`);
for (const h of [buffer, stream, kernel, lib]) h.dispose();
