#!/usr/bin/env node
// Graphs from JavaScript against the same work in C (bench/c/graph.c, built
// here) and through NVIDIA's Python bindings (bench/python/graph.py), in one
// run: a chain of N empty-kernel nodes, N = 1, 100, 1000. Host time per launch
// (also against C launching the same executable in this process,
// bench/c/inprocess.c), instantiate and whole-graph update times, the time to
// build the chain node by node and through the data-flow builder, and the host
// time of a kernel-node parameter update on an executable, plain and prepared.
// Usage: node bench/graph.js [passes=3]
'use strict';
const { execFileSync } = require('child_process');
const path = require('path');
const { batchControl, buildChain, crossingControl, cubinFile, describePython, inProcessC, inProcessCFile, inProcessRow, median, now, pairedPerCall, pairedPerItem, perCall, pick, runAlone, runC, runPython } = require('./common');

const sizes = [1, 100, 1000];

// The time to build a chain: the median of seven builds, as bench/c/graph.c
// and bench/python/graph.py take theirs. One build's time moved by 2 to 5
// times with the state of the garbage collector (a scavenge or incremental
// marking under way) and of the JIT (the first builds of a process, and the
// first after other benchmarks changed the shapes the builder sees, run
// before its code is optimized again).
function buildTime(cuda, kernel, n, dataflow, buffer) {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t0 = now();
    const graph = buildChain(cuda, kernel, n, dataflow, buffer);
    times.push(now() - t0);
    graph.dispose();
  }
  return median(times);
}

// The first build of a process: a chain of 1000 built by a fresh Node process
// right after the set-up C's makes (the kernel loaded, a stream and a buffer
// made), and three controls, the same loop (buildChain) over a graph of plain
// objects: with no binding at all (what the engine's first tiers charge the
// benchmark's own loop); entering C's node add once per node through
// bench/c/inprocess.c (a binding that does nothing but the crossing); and with
// no binding in the loop, C then building the whole chain in one call, timed
// in C (the least any binding pays that runs the loop and the driver's work on
// one thread, as one that queued its nodes for a single call would). Each the
// median of nine processes, the kinds in turn: one process's first build
// moved by up to twice from one process to the next.
function firstBuilds(file) {
  const script = (setUp, then = '') => `
    const { buildChain, now } = require(${JSON.stringify(path.join(__dirname, 'common.js'))});
    ${setUp}
    const t0 = now();
    const graph = buildChain(cuda, kernel, 1000, false);
    let ns = now() - t0;
    ${then}
    process.stdout.write(String(ns));
    graph.dispose();`;
  const setUp = `const binding = require(${JSON.stringify(path.join(__dirname, '..'))});
    const libraryKernel = binding.Library.loadFile(${JSON.stringify(file)}).kernel('empty0');
    binding.Stream.create();
    binding.DeviceBuffer.alloc(1024);`;
  const plainObjects = `const stub = { addKernel: (kernel, shape, args, options) => ({ stub, options }), dispose() {} };
      const cuda = { Graph: { create: () => stub } }, kernel = {};`;
  const kinds = {
    binding: script(`${setUp} const cuda = binding, kernel = libraryKernel;`),
    loopAlone: script(plainObjects),
    loopThenC: script(`${setUp} const inC = require(${JSON.stringify(inProcessCFile())}); ${plainObjects}`,
      'ns += inC.chainBuild(libraryKernel.handle, 1000);'),
    crossing: script(`${setUp} const inC = require(${JSON.stringify(inProcessCFile())});
      let cGraph;
      const stub = {
        addKernel: (kernel, shape, args, options) => ({ node: inC.chainNode(cGraph, kernel, options.after === undefined ? 0n : options.after[0].node) }),
        dispose: () => inC.graphDestroy(cGraph),
      };
      const cuda = { Graph: { create: () => { cGraph = inC.graphCreate(); return stub; } } }, kernel = libraryKernel.handle;`),
  };
  const names = Object.keys(kinds);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < 9; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      times[name].push(Number(execFileSync(process.execPath, ['-e', kinds[name]], { encoding: 'utf8' })));
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times[name])]));
}

// Host time per launch of exec, a chain of n nodes, from JavaScript and from C
// in this process on the same executable and stream, in turn: {launch,
// launchInProcessC}; per launch of a batch queued by one stream.submit() call
// against C's loop of the same launches: {submitted, submittedInProcessC};
// and the controls, each {js, c}: {crossing, cAgainstC}.
function launchTimes(exec, stream, n) {
  const inC = inProcessC();
  const execHandle = exec.handle, streamHandle = stream.handle;
  const cLaunches = (count) => inC.graphLaunches(execHandle, streamHandle, count);
  // As many rounds at every size: from one batch to the next, a launch's host
  // time falls near one of two values, whichever side launches, and over half
  // as many rounds the median moved between them (bench/RESULTS.md, Z45).
  const batch = n >= 1000 ? 5 : 50, rounds = 200;
  const drain = () => stream.synchronizeSync();
  const one = pairedPerCall(() => exec.launch(stream), cLaunches, batch, rounds, drain);
  const items = new Array(batch).fill(exec);
  const submitted = pairedPerItem(() => stream.submit(items), cLaunches, batch, rounds, drain);
  // Controls without the binding: C's launch entered once per launch from
  // JavaScript, and C's batch against C's batch (the pairing's own bias).
  const crossing = crossingControl(cLaunches, batch, rounds, drain);
  const cAgainstC = batchControl(cLaunches, batch, rounds, drain);
  return { launch: one.js, launchInProcessC: one.c, submitted: submitted.js, submittedInProcessC: submitted.c, crossing, cAgainstC };
}

function measureChain(cuda, kernel, stream, buffer, n) {
  const build = buildTime(cuda, kernel, n, false);
  const dataflowBuild = buildTime(cuda, kernel, n, true, buffer);
  const graph = buildChain(cuda, kernel, n, false);
  const other = buildChain(cuda, kernel, n, false);
  let t0 = now();
  const exec = graph.instantiate();
  const instantiate = now() - t0;
  t0 = now();
  exec.update(other);
  const update = now() - t0;
  const launches = launchTimes(exec, stream, n);
  for (const h of [exec, graph, other]) h.dispose();
  return { build, dataflowBuild, instantiate, update, ...launches };
}

// Rounds of the paired whole-graph update: a first update is one call per
// round, and with a third as many its median moved from run to run.
const updateRounds = 31;

// The whole-graph update against C making the same cuGraphExecUpdate in this
// process (bench/c/inprocess.c) on the same graphs, paired: each round builds
// two chains of n nodes, instantiates the first twice (one executable for each
// side) and updates both from the second, then updates both six times more,
// the source alternating; which side goes first alternates. One update's time
// moves by half between rounds with the host, so each figure is the median of
// the pairs' rounds. {first, repeated} for JavaScript against C, each {js, c},
// and the control: C's same call timed from JavaScript (js) against timed in C
// (c), which is what any call from JavaScript reads over one timed inside C.
function updatePairs(cuda, kernel, n, rounds) {
  const inC = inProcessC();
  const fromJs = (exec, source) => {
    const t0 = now();
    exec.update(source);
    return now() - t0;
  };
  const inCTimed = (exec, source) => inC.graphUpdate(exec.handle, source.handle);
  const inCTimedFromJs = (exec, source) => {
    const execHandle = exec.handle, sourceHandle = source.handle;
    const t0 = now();
    inC.graphUpdate(execHandle, sourceHandle);
    return now() - t0;
  };
  const paired = (jsSide, cSide) => {
    const times = { first: { js: [], c: [] }, repeated: { js: [], c: [] } };
    for (let round = 0; round < rounds; round++) {
      const graph = buildChain(cuda, kernel, n, false);
      const other = buildChain(cuda, kernel, n, false);
      const sides = [['js', jsSide], ['c', cSide]];
      const inTurn = (k) => (k % 2 ? [sides[1], sides[0]] : sides);
      const execs = {};
      for (const [side, update] of inTurn(round)) {
        execs[side] = graph.instantiate();
        times.first[side].push(update(execs[side], other));
      }
      for (let i = 0; i < 6; i++) {
        for (const [side, update] of inTurn(round + i)) times.repeated[side].push(update(execs[side], i % 2 ? other : graph));
      }
      for (const h of [execs.js, execs.c, graph, other]) h.dispose();
    }
    const medians = (t) => ({ js: median(t.js), c: median(t.c) });
    return { first: medians(times.first), repeated: medians(times.repeated) };
  };
  return { binding: paired(fromJs, inCTimed), control: paired(inCTimedFromJs, inCTimed) };
}

// Builds of a chain of n nodes against C building the same chain in this
// process (bench/c/inprocess.c chainBuild), in turn over rounds, the order
// rotating: JavaScript node by node and through the data-flow builder, C, and
// the control: the same build with C's node add entered from JavaScript once
// per node (nothing of the binding in it; the graph made and destroyed by C).
// Medians of the rounds, ns: {nodeByNode, dataflow, c, crossing}.
function buildPairs(cuda, kernel, n, rounds, buffer) {
  const inC = inProcessC();
  const kernelHandle = kernel.handle;
  const timedJs = (dataflow) => () => {
    const t0 = now();
    const graph = buildChain(cuda, kernel, n, dataflow, buffer);
    const ns = now() - t0;
    graph.dispose();
    return ns;
  };
  const crossing = () => {
    const t0 = now();
    const graph = inC.graphCreate();
    let previous = 0n;
    for (let i = 0; i < n; i++) previous = inC.chainNode(graph, kernelHandle, previous);
    const ns = now() - t0;
    inC.graphDestroy(graph);
    return ns;
  };
  const sides = [['nodeByNode', timedJs(false)], ['dataflow', timedJs(true)], ['c', () => inC.chainBuild(kernelHandle, n)], ['crossing', crossing]];
  const times = Object.fromEntries(sides.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sides.length; k++) {
      const [name, build] = sides[(round + k) % sides.length];
      times[name].push(build());
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)]));
}

// exec.setParams on a one-node graph of empty4, a new last argument each time
// (as graph.c and graph.py do): one params object and one argument array,
// whose last argument (an immutable KernelArg) is the only thing made per call.
// The prepared form: a PreparedLaunch's last argument set, then the update.
// Each form is also paired with C updating the same node of the same
// executable in this process (bench/c/inprocess.c nodeUpdates), with the
// control of C's update entered from JavaScript once per update.
function measureNodeUpdate(cuda, kernel4, buffer, stream) {
  const { arg } = cuda;
  const shape = { grid: 1, block: 32 };
  const graph = cuda.Graph.create();
  const args = [arg.ptr(buffer), arg.ptr(buffer), arg.f32(2), arg.u32(1000)];
  const node = graph.addKernel(kernel4, shape, args);
  const exec = graph.instantiate();
  const params = { type: 'kernel', kernel: kernel4, grid: 1, block: 32, args };
  const updatePlain = (i) => {
    args[3] = arg.u32(i & 1023);
    exec.setParams(node, params);
  };
  const prepared = kernel4.prepare({ ...shape, stream }, ['ptr', 'ptr', 'f32', 'u32'], [buffer, buffer, 2, 1000]);
  const updatePrepared = (i) => {
    prepared.set(3, i & 1023);
    exec.setParams(node, prepared);
  };
  const inC = inProcessC();
  inC.nodeUpdateTarget(exec.handle, node.handle, kernel4.handle, buffer.address);
  const cUpdates = (count) => inC.nodeUpdates(count);
  const nothingQueued = () => {};
  const figures = {
    plain: perCall(updatePlain, 100, 300),
    prepared: perCall(updatePrepared, 100, 300),
    plainPaired: pairedPerCall(updatePlain, cUpdates, 100, 300, nothingQueued),
    preparedPaired: pairedPerCall(updatePrepared, cUpdates, 100, 300, nothingQueued),
    crossing: crossingControl(cUpdates, 100, 300, nothingQueued),
  };
  prepared.dispose();
  exec.dispose();
  graph.dispose();
  return figures;
}

// Launch times alone, for each size: the extra passes of the launch rows.
function measureLaunches(cuda, kernel, stream) {
  return Object.fromEntries(sizes.map((n) => {
    const graph = buildChain(cuda, kernel, n, false);
    const exec = graph.instantiate();
    const launches = launchTimes(exec, stream, n);
    exec.dispose();
    graph.dispose();
    return [n, launches];
  }));
}

/** Runs the graph benchmark; returns its section of the report. */
async function measure({ passes = 3 } = {}) {
  const cuda = require('..');
  const file = cubinFile(cuda);
  const lib = cuda.Library.loadFile(file);
  const kernel = lib.kernel('empty0');
  const kernel4 = lib.kernel('empty4');
  const stream = cuda.Stream.create();
  const buffer = cuda.DeviceBuffer.alloc(1024);
  const c = [], js = [], py = [];
  // Untimed builds first, as the other rows warm up before they time: a
  // process's first builds run before the JIT has optimized the builder
  // (the first of a process is timed in processes of its own).
  const first = firstBuilds(file);
  for (let i = 0; i < 20; i++) for (const dataflow of [false, true]) buildChain(cuda, kernel, 1000, dataflow, buffer).dispose();
  for (let pass = 0; pass < passes; pass++) {
    c.push(runC('graph', [file, ...sizes]));
    const run = Object.fromEntries(sizes.map((n) => [n, measureChain(cuda, kernel, stream, buffer, n)]));
    run.nodeUpdates = measureNodeUpdate(cuda, kernel4, buffer, stream);
    run.updatePairs = updatePairs(cuda, kernel, 1000, updateRounds);
    run.buildPairs = buildPairs(cuda, kernel, 1000, 21, buffer);
    js.push(run);
    py.push(runPython('graph', [file, ...sizes]));
  }
  // A graph launch's host time swings by tens of percent from pass to pass, in
  // C as in JavaScript (it follows the GPU's state), so the launch rows take
  // four times the passes, C and JavaScript in turn.
  const launchesC = [...c], launchesJs = [...js];
  for (let pass = 0; pass < 3 * passes; pass++) {
    launchesC.push(runC('graph', [file, ...sizes]));
    launchesJs.push(measureLaunches(cuda, kernel, stream));
  }
  for (const h of [buffer, stream, kernel, kernel4, lib]) h.dispose();

  const us = (value) => (value === undefined ? undefined : value / 1e3);
  const jsOf = (n, key) => pick(js, (r) => r[n][key]);
  const cOf = (n, key) => pick(c, (r) => r.chains[n][key]);
  const pyOf = (api, n, key) => pick(py, (r) => r?.[api][`chains.${n}.${key}`]);
  const rows = [];
  for (const n of sizes) {
    const label = `graph launch, ${n} node${n === 1 ? '' : 's'}`;
    const js = pick(launchesJs, (r) => r[n].launch);
    rows.push({
      label, unit: 'ns', better: 'lower', perCall: true,
      js, c: pick(launchesC, (r) => r.chains[n].launch), bindings: pyOf('bindings', n, 'launch'), core: pyOf('core', n, 'launch'),
      target: { maxRatio: 1.1 },
    });
    rows.push(inProcessRow(label, js, pick(launchesJs, (r) => r[n].launchInProcessC), 1.1));
  }
  for (const n of sizes) {
    rows.push(inProcessRow(`graph launch, ${n} node${n === 1 ? '' : 's'}, stream.submit() of ${n >= 1000 ? 5 : 50}, per launch`,
      pick(launchesJs, (r) => r[n].submitted), pick(launchesJs, (r) => r[n].submittedInProcessC), 1.02));
  }
  for (const n of sizes) {
    rows.push({
      label: `control: C's graph launch entered once per launch from JavaScript (JS column), ${n} node${n === 1 ? '' : 's'}, C in this process`,
      unit: 'ns', better: 'lower', js: pick(launchesJs, (r) => r[n].crossing.js), c: pick(launchesJs, (r) => r[n].crossing.c),
    });
  }
  for (const n of sizes) {
    rows.push({
      label: `control: C's batch of ${n >= 1000 ? 5 : 50} launches (JS column) against C's batch, ${n} node${n === 1 ? '' : 's'}, per launch, C in this process`,
      unit: 'ns', better: 'lower', js: pick(launchesJs, (r) => r[n].cAgainstC.js), c: pick(launchesJs, (r) => r[n].cAgainstC.c),
    });
  }
  const once = (label, jsKey, key, extra = {}) => ({
    label, unit: 'us', better: 'lower',
    js: us(jsOf(1000, jsKey)), c: us(cOf(1000, key)), bindings: us(pyOf('bindings', 1000, key)), core: us(pyOf('core', 1000, key)), ...extra,
  });
  rows.push(once('instantiate, 1000 nodes', 'instantiate', 'instantiate'));
  rows.push(once('whole-graph update, 1000 nodes', 'update', 'update'));
  for (const kind of ['first', 'repeated']) {
    const pairs = (key, side) => us(pick(js, (r) => r.updatePairs[key][kind][side]));
    const what = kind === 'first' ? 'right after instantiation' : 'repeated';
    rows.push({
      label: `whole-graph update, 1000 nodes, ${what}, paired with C in this process on the same graphs`, unit: 'us', better: 'lower',
      js: pairs('binding', 'js'), c: pairs('binding', 'c'), target: { maxRatio: 1.05 },
    });
    rows.push({
      label: `control: C's whole-graph update timed from JavaScript (JS column) against timed in C, 1000 nodes, ${what}`, unit: 'us', better: 'lower',
      js: pairs('control', 'js'), c: pairs('control', 'c'),
    });
  }
  const updateBaselines = { c: pick(c, 'kernelNodeUpdate'), bindings: pick(py, (r) => r?.bindings.kernelNodeUpdate) };
  const updates = (key, side) => pick(js, (r) => (side === undefined ? r.nodeUpdates[key] : r.nodeUpdates[key][side]));
  rows.push({
    label: 'kernel-node update on an executable', unit: 'ns', better: 'lower', perCall: true,
    js: updates('plain'), ...updateBaselines,
  });
  rows.push({
    label: 'kernel-node update, prepared', unit: 'ns', better: 'lower', perCall: true,
    js: updates('prepared'), ...updateBaselines,
  });
  rows.push({
    label: 'kernel-node update on an executable, C in this process', unit: 'ns', better: 'lower',
    js: updates('plainPaired', 'js'), c: updates('plainPaired', 'c'),
  });
  rows.push(inProcessRow('kernel-node update, prepared', updates('preparedPaired', 'js'), updates('preparedPaired', 'c'), 1.05, 100));
  rows.push({
    label: 'control: C\'s kernel-node update entered once per update from JavaScript (JS column), C in this process',
    unit: 'ns', better: 'lower', js: updates('crossing', 'js'), c: updates('crossing', 'c'),
  });
  rows.push(once('build 1000 nodes, node by node', 'build', 'build'));
  rows.push(once('build 1000 nodes, data-flow builder', 'dataflowBuild', 'build'));
  const built = (key) => us(pick(js, (r) => r.buildPairs[key]));
  rows.push({
    label: 'build 1000 nodes, node by node, C in this process', unit: 'us', better: 'lower',
    js: built('nodeByNode'), c: built('c'), target: { maxRatio: 1.3 },
  });
  rows.push({
    label: 'build 1000 nodes, data-flow builder, C in this process', unit: 'us', better: 'lower',
    js: built('dataflow'), c: built('c'), target: { maxRatio: 1.6 },
  });
  rows.push({
    label: 'control: C\'s node add entered once per node from JavaScript (JS column), build 1000 nodes, C in this process',
    unit: 'us', better: 'lower', js: built('crossing'), c: built('c'),
  });
  const cFirst = us(pick(c, (r) => r.firstBuild.ns));
  rows.push({
    label: 'build 1000 nodes, first of a process', unit: 'us', better: 'lower',
    js: us(first.binding), c: cFirst, bindings: us(pick(py, (r) => r?.bindings.firstBuild)), core: us(pick(py, (r) => r?.core.firstBuild)),
    target: { maxRatio: 2 },
  });
  rows.push({
    label: 'control: the same loop over plain JavaScript objects, no binding (JS column), first of a process',
    unit: 'us', better: 'lower', js: us(first.loopAlone), c: cFirst,
  });
  rows.push({
    label: 'control: the same loop entering C\'s node add once per node (JS column), first of a process',
    unit: 'us', better: 'lower', js: us(first.crossing), c: cFirst,
  });
  rows.push({
    label: 'control: the same loop over plain JavaScript objects, then C\'s build of the chain in one call (JS column), first of a process',
    unit: 'us', better: 'lower', js: us(first.loopThenC), c: cFirst,
  });
  return [{
    title: 'Graphs',
    rows,
    notes: [
      `chains of empty-kernel nodes; median of ${passes} passes (instantiate and update are single timings per pass, ` +
        'builds the median of seven per pass, JavaScript\'s after 40 untimed builds; the first of a process: ' +
        'each side\'s first graph work after loading the kernel, JavaScript\'s the median of nine Node processes of their own, ' +
        'cuda.core\'s right after cuda.bindings\' in the same process); ' +
        `JavaScript and C launches: median of ${4 * passes} passes, taken in turn`,
      '"C in this process": bench/c/inprocess.c, a Node-API module in C, launches the executable JavaScript launches, on its stream, ' +
        'batch by batch in turn with JavaScript (the other launch rows\' C runs as a process of its own, at another moment of the host and the GPU).',
      'stream.submit() rows: one call queues the batch of launches of one executable; C launches the same batch in a loop.',
      'control rows: nothing of the binding on either side. C\'s own launch loop entered from JavaScript one launch at a time, ' +
        'against the same loop entered once per batch; and C\'s batch against C\'s batch, timed as the stream.submit() rows are: ' +
        'what the pairing itself reads where both sides are the same code.',
      'in-process rows take each side\'s reading of its own clock off its batches (a batch of 5 launches of 1000 nodes was charged ' +
        'tens of nanoseconds a launch for process.hrtime.bigint()).',
      'C builds with cuGraphAddNode as the JavaScript builder does; cuda.bindings with cuGraphAddKernelNode; ' +
        'cuda.core builds by stream capture (GraphBuilder), instantiates with complete() and has no per-node executable update.',
      'the first build\'s controls run the benchmark\'s loop (bench/common.js buildChain) over a graph of plain objects, as the ' +
        'first build of a fresh Node process (the median of nine, in turn with JavaScript\'s): one whose addKernel returns a new object, no binding loaded ' +
        '(what the engine\'s first tiers charge the loop itself), and one whose addKernel enters C\'s node add ' +
        '(bench/c/inprocess.c chainNode, the node returned as a bigint): a binding that only crosses; and the loop over plain objects ' +
        'followed by C\'s build of the whole chain in one call (bench/c/inprocess.c chainBuild, timed in C and added to the loop\'s time): ' +
        'the least a binding that runs the loop and the driver\'s work on one thread can cost.',
      'the data-flow row compares with the same node-by-node chain in C (the edges it infers are that chain).',
      'builds, C in this process: bench/c/inprocess.c builds the same chain of the same library kernel in 21 rounds, in turn with ' +
        'both JavaScript builds and the control (the order rotating); medians of the rounds. The control makes C\'s chain with ' +
        'a call from JavaScript per node (each returning the node as a bigint): what any builder entered once per node reads.',
      'whole-graph update, paired: the same cuGraphExecUpdate from JavaScript and from C in this process (bench/c/inprocess.c), ' +
        `each on its own executable of the same JavaScript-built chains, side by side in ${updateRounds} rounds (first updates, then six each, ` +
        'the source alternating, the side that goes first alternating); medians of the rounds. The control times C\'s same call ' +
        'from JavaScript around the call and inside C: what a call made from JavaScript reads over one timed inside C.',
      'kernel-node updates change the last argument each time: C and cuda.bindings in a parameter struct made once; ' +
        'the prepared row through PreparedLaunch.set() and exec.setParams(node, prepared), the other with a params object. ' +
        'Paired with C in this process: bench/c/inprocess.c updates the same node of the same executable (cuGraphExecNodeSetParams), ' +
        '100 updates a batch in turn with JavaScript, 300 rounds; the control enters that C loop from JavaScript once per update.',
      describePython(py.find(Boolean)),
    ],
  }];
}

module.exports = { measure };

if (require.main === module) runAlone(measure, { passes: Number(process.argv[2]) || undefined });
