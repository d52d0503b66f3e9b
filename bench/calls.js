#!/usr/bin/env node
// Host time per call of events, streams and stream-ordered memory, from
// JavaScript against the same calls in C (bench/c/calls.c, built here) and
// through NVIDIA's Python bindings (bench/python/calls.py), in one run:
//   event.record(stream) + event.query()          (an event without timing)
//   Stream.create() + stream.dispose()            (non-blocking)
//   DeviceBuffer.allocAsync(256, stream) + dispose()  (freed on the stream)
// Each figure is the median over rounds of (host time of a batch) / batch; the
// stream is drained between batches. The sides take turns for `passes` passes.
// The event and stream-ordered memory pairs are also measured against C making
// the same calls on the same event and stream in this process
// (bench/c/inprocess.c), batch by batch in turn, with a control that has
// nothing of the binding on either side: C's loop entered from JavaScript once
// per pair against the same loop entered once per batch.
// Usage: node bench/calls.js [batch=200] [rounds=300] [passes=3]
'use strict';
const { crossingControl, describePython, inProcessC, inProcessRow, pairedPerCall, perCall, pick, runAlone, runC, runPython } = require('./common');

const allocBytes = 256;

function measureJs(cuda, batch, rounds) {
  const stream = cuda.Stream.create();
  const event = cuda.Event.create();
  const drain = () => stream.synchronizeSync();
  const per = (op) => perCall(op, batch, rounds, drain);
  const inC = inProcessC();
  const eventHandle = event.handle, streamHandle = stream.handle;
  const recordQueriesInC = (count) => inC.eventRecordQueries(eventHandle, streamHandle, count);
  const allocFreesInC = (count) => inC.allocFrees(streamHandle, allocBytes, count);
  const recordQuery = pairedPerCall(() => event.record(stream).query(), recordQueriesInC, batch, rounds, drain);
  const allocFree = pairedPerCall(() => cuda.DeviceBuffer.allocAsync(allocBytes, stream).dispose(), allocFreesInC, batch, rounds, drain);
  // The controls: what calling once per pair from a JavaScript loop costs C's own pair.
  const recordQueryCrossing = crossingControl(recordQueriesInC, batch, rounds, drain);
  const allocFreeCrossing = crossingControl(allocFreesInC, batch, rounds, drain);
  // And with the allocation and the free each a call of its own, as the binding makes them.
  const allocFreeTwoCalls = pairedPerCall(() => inC.freeOne(streamHandle, inC.allocOne(streamHandle, allocBytes)), allocFreesInC, batch, rounds, drain);
  const out = {
    eventRecordQuery: recordQuery.js,
    eventRecordQueryInProcessC: recordQuery.c,
    streamCreateDestroy: per(() => cuda.Stream.create().dispose()),
    allocFreeAsync: allocFree.js,
    allocFreeAsyncInProcessC: allocFree.c,
    eventRecordQueryCrossing: recordQueryCrossing.js,
    eventRecordQueryCrossingInProcessC: recordQueryCrossing.c,
    allocFreeAsyncCrossing: allocFreeCrossing.js,
    allocFreeAsyncCrossingInProcessC: allocFreeCrossing.c,
    allocFreeAsyncTwoCalls: allocFreeTwoCalls.js,
    allocFreeAsyncTwoCallsInProcessC: allocFreeTwoCalls.c,
  };
  event.dispose();
  stream.dispose();
  return out;
}

/** Runs the per-call benchmark; returns its section of the report. */
async function measure({ batch = 200, rounds = 300, passes = 3 } = {}) {
  const cuda = require('..');
  const c = [], js = [], py = [];
  for (let pass = 0; pass < passes; pass++) {
    c.push(runC('calls', [batch, rounds]));
    js.push(measureJs(cuda, batch, rounds));
    py.push(runPython('calls', [batch, rounds]));
  }
  const row = (label, key) => ({
    label, unit: 'ns', better: 'lower', perCall: true,
    js: pick(js, key), c: pick(c, key), bindings: pick(py, (r) => r?.bindings[key]), core: pick(py, (r) => r?.core[key]),
  });
  const inProcess = (label, key) => inProcessRow(label, pick(js, key), pick(js, `${key}InProcessC`), 1.05, 100);
  const control = (what, key) => ({
    label: `control: C's ${what} entered once per pair from JavaScript (JS column), C in this process`,
    unit: 'ns', better: 'lower', js: pick(js, `${key}Crossing`), c: pick(js, `${key}CrossingInProcessC`),
  });
  const alloc = `stream-ordered alloc + free (${allocBytes} B)`;
  return [{
    title: 'Events, streams and stream-ordered memory',
    rows: [
      row('event record + query', 'eventRecordQuery'),
      inProcess('event record + query', 'eventRecordQuery'),
      row('stream create + destroy', 'streamCreateDestroy'),
      row(alloc, 'allocFreeAsync'),
      inProcess(alloc, 'allocFreeAsync'),
      control('event record + query', 'eventRecordQuery'),
      control(alloc, 'allocFreeAsync'),
      {
        label: `control: C's alloc and C's free each entered once from JavaScript (JS column), ${alloc}, C in this process`,
        unit: 'ns', better: 'lower', js: pick(js, 'allocFreeAsyncTwoCalls'), c: pick(js, 'allocFreeAsyncTwoCallsInProcessC'),
      },
    ],
    notes: [
      `batch ${batch}, ${rounds} rounds, median of ${passes} passes`,
      '"C in this process": bench/c/inprocess.c, a Node-API module in C, makes the same calls on the event and stream JavaScript uses ' +
        '(cuEventRecord + cuEventQuery; cuMemAllocAsync from the device\'s current pool, as allocAsync without a pool, + cuMemFreeAsync), ' +
        'batch by batch in turn with JavaScript (the other rows\' C runs as a process of its own, at another moment of the host and the GPU).',
      'control rows: nothing of the binding on either side. C\'s own loop of the pair entered from JavaScript one pair at a time, ' +
        'against the same loop entered once per batch: what calling once per pair from a JavaScript loop costs, whatever the binding; ' +
        'and C\'s allocation and free entered as two calls (the address returned as a number), as allocAsync() and dispose() are two.',
      'cuda.core: stream.record(event) + event.is_done; device.create_stream() + close(); device.allocate(256, stream=) + close(stream).',
      describePython(py.find(Boolean)),
    ],
  }];
}

module.exports = { measure };

if (require.main === module) {
  const [batch, rounds, passes] = process.argv.slice(2).map(Number);
  runAlone(measure, { batch: batch || undefined, rounds: rounds || undefined, passes: passes || undefined });
}
