#!/usr/bin/env node
// Host time per launch of an empty kernel with 0, 4 and 16 arguments, from
// JavaScript against the same launches in C (bench/c/launch.c, built here) and
// through NVIDIA's Python bindings (bench/python/launch.py), in one run. All
// load the same CUBIN (common.cubinFile) as a library. Each figure is the
// median over rounds of (host time of a batch of launches) / batch; the
// stream is drained between batches, outside the timing. The sides take turns
// for `passes` passes and the median pass is reported. The prepared
// and plain (kernel.launch()) 4- and 16-argument launches are also measured against C
// launching the same kernel in this process (bench/c/inprocess.c), batch by
// batch in turn, with two controls that have nothing of the binding on either
// side: C's launch loop entered from JavaScript once per launch against the
// same loop entered once per batch, and C's batch against C's batch, timed as
// the stream.submit() row is.
// Usage: node bench/launch.js [batch=200] [rounds=300] [passes=3]
'use strict';
const { batchControl, crossingControl, cubinFile, describePython, inProcessC, inProcessRow, pairedPerCall, pairedPerItem, perCall, pick, runAlone, runC, runPython } = require('./common');

function measureJs(cuda, lib, stream, buffer, batch, rounds) {
  const k0 = lib.kernel('empty0');
  const k4 = lib.kernel('empty4');
  const k16 = lib.kernel('empty16');
  const shape = { grid: 1, block: 32, stream };
  const { arg } = cuda;
  const args4 = [buffer, buffer, 2, 1000];
  const args16 = [buffer, buffer, buffer, buffer, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const types16 = ['ptr', 'ptr', 'ptr', 'ptr', 'f32', 'f32', 'f32', 'f32', 'i32', 'i32', 'i32', 'i32', 'u64', 'u64', 'f64', 'f64'];
  const p0 = k0.prepare(shape, []);
  const p4 = k4.prepare(shape, ['ptr', 'ptr', 'f32', 'u32'], args4);
  const p16 = k16.prepare(shape, types16, args16);
  const typed4 = [arg.ptr(buffer), arg.ptr(buffer), arg.f32(2), arg.u32(1000)];
  const typed16 = types16.map((t, i) => new cuda.KernelArg(t, args16[i]));
  const drain = () => stream.synchronizeSync();
  const per = (launch) => perCall(launch, batch, rounds, drain);
  // The 4- and 16-argument launches, prepared and plain, also against C
  // launching the same kernel on the same stream in this process, in turn
  // (bench/c/inprocess.c).
  const inC = inProcessC();
  const kernel4 = k4.handle, streamHandle = stream.handle, address = buffer.address;
  const launch4InC = (count) => inC.kernelLaunches(kernel4, streamHandle, 4, address, count);
  const paired4 = pairedPerCall(() => p4.launch(), launch4InC, batch, rounds, drain);
  const pairedPlain4 = pairedPerCall(() => k4.launch(shape, typed4), launch4InC, batch, rounds, drain);
  const kernel16 = k16.handle;
  const launch16InC = (count) => inC.kernelLaunches(kernel16, streamHandle, 16, address, count);
  const paired16 = pairedPerCall(() => p16.launch(), launch16InC, batch, rounds, drain);
  const pairedPlain16 = pairedPerCall(() => k16.launch(shape, typed16), launch16InC, batch, rounds, drain);
  // A batch of the same prepared launch, queued by one stream.submit() call.
  const items = new Array(batch).fill(p4);
  const submitted4 = pairedPerItem(() => stream.submit(items), launch4InC, batch, rounds, drain);
  // The controls: what calling once per launch from a JavaScript loop costs
  // C's own launch, and how far the pairing reads between identical code.
  const crossing4 = crossingControl(launch4InC, batch, rounds, drain);
  const cAgainstC4 = batchControl(launch4InC, batch, rounds, drain);
  const out = {
    prepared0: per(() => p0.launch()),
    prepared4: paired4.js,
    prepared4InProcessC: paired4.c,
    prepared16: paired16.js,
    prepared16InProcessC: paired16.c,
    updated4: per((i) => p4.set(3, i & 1023).launch()),
    plain0: per(() => k0.launch(shape)),
    plain4: pairedPlain4.js,
    plain4InProcessC: pairedPlain4.c,
    plain16: pairedPlain16.js,
    plain16InProcessC: pairedPlain16.c,
    submitted4: submitted4.js,
    submitted4InProcessC: submitted4.c,
    crossing4: crossing4.js,
    crossing4InProcessC: crossing4.c,
    cAgainstC4: cAgainstC4.js,
    cAgainstC4InProcessC: cAgainstC4.c,
  };
  for (const handle of [p0, p4, p16, k0, k4, k16]) handle.dispose();
  return out;
}

/** Runs the launch benchmark; returns its section of the report. */
async function measure({ batch = 200, rounds = 300, passes = 3 } = {}) {
  const cuda = require('..');
  const file = cubinFile(cuda);
  const lib = cuda.Library.loadFile(file);
  const stream = cuda.Stream.create();
  const buffer = cuda.DeviceBuffer.alloc(1024);
  const c = [], js = [], py = [];
  for (let pass = 0; pass < passes; pass++) {
    c.push(runC('launch', [file, batch, rounds]));
    js.push(measureJs(cuda, lib, stream, buffer, batch, rounds));
    py.push(runPython('launch', [file, batch, rounds]));
  }
  buffer.dispose();
  stream.dispose();
  lib.dispose();
  const b = (key) => pick(py, (r) => r?.bindings[key]);
  const core = (key) => pick(py, (r) => r?.core[key]);
  const row = (label, jsKey, cKey, bindingsKey, extra = {}) => ({
    label, unit: 'ns', better: 'lower', perCall: true,
    js: pick(js, jsKey), c: pick(c, cKey), bindings: b(bindingsKey), core: core(cKey), ...extra,
  });
  return [{
    title: 'Kernel launch host time',
    rows: [
      row('launch, 0 arguments, prepared', 'prepared0', '0', 'prepared0'),
      row('launch, 4 arguments, prepared', 'prepared4', '4', 'prepared4', { target: { maxRatio: 1.15 } }),
      inProcessRow('launch, 4 arguments, prepared', pick(js, 'prepared4'), pick(js, 'prepared4InProcessC'), 1.15),
      row('launch, 16 arguments, prepared', 'prepared16', '16', 'prepared16'),
      inProcessRow('launch, 16 arguments, prepared', pick(js, 'prepared16'), pick(js, 'prepared16InProcessC'), 1.15),
      row('launch, 4 arguments, prepared, one set() each', 'updated4', '4', 'prepared4'),
      row('launch, 0 arguments, kernel.launch()', 'plain0', '0', '0'),
      row('launch, 4 arguments, kernel.launch()', 'plain4', '4', '4'),
      inProcessRow('launch, 4 arguments, kernel.launch()', pick(js, 'plain4'), pick(js, 'plain4InProcessC'), 1.15, 150),
      row('launch, 16 arguments, kernel.launch()', 'plain16', '16', '16'),
      inProcessRow('launch, 16 arguments, kernel.launch()', pick(js, 'plain16'), pick(js, 'plain16InProcessC'), 1.15, 300),
      inProcessRow(`launch, 4 arguments, prepared, stream.submit() of ${batch}, per launch`, pick(js, 'submitted4'),
        pick(js, 'submitted4InProcessC'), 1.02),
      {
        label: 'control: C\'s launch entered once per launch from JavaScript (JS column), 4 arguments, C in this process',
        unit: 'ns', better: 'lower', js: pick(js, 'crossing4'), c: pick(js, 'crossing4InProcessC'),
      },
      {
        label: `control: C's batch of ${batch} launches (JS column) against C's batch, 4 arguments, per launch, C in this process`,
        unit: 'ns', better: 'lower', js: pick(js, 'cAgainstC4'), c: pick(js, 'cAgainstC4InProcessC'),
      },
    ],
    notes: [
      `batch ${batch}, ${rounds} rounds, median of ${passes} passes`,
      '"C in this process": bench/c/inprocess.c, a Node-API module in C, launches the kernel JavaScript launches, on its stream, ' +
        'batch by batch in turn with JavaScript (the other rows\' C runs as a process of its own, at another moment of the host and the GPU).',
      'stream.submit() row: one call queues the batch of prepared launches; C launches the same batch in a loop.',
      'control rows: nothing of the binding on either side. C\'s own launch loop entered from JavaScript one launch at a time, ' +
        'against the same loop entered once per batch; and C\'s batch against C\'s batch, timed as the stream.submit() row is: ' +
        'what the pairing itself reads where both sides are the same code.',
      'C: cuLaunchKernel with a kernelParams array made once. cuda.bindings: prepared rows pass a void** array made once; ' +
        'kernel.launch() rows pass (values, ctypes types), packed at every launch. cuda.core: launch(stream, config, kernel, *args).',
      'the "one set() each" row changes the last argument before every launch, but its C, cuda.bindings and cuda.core figures ' +
        'are the 4-argument launches of the rows above, which change no argument: its JS/C and xJS include the set().',
      describePython(py.find(Boolean)),
    ],
  }];
}

module.exports = { measure };

if (require.main === module) {
  const [batch, rounds, passes] = process.argv.slice(2).map(Number);
  runAlone(measure, { batch: batch || undefined, rounds: rounds || undefined, passes: passes || undefined });
}
