#!/usr/bin/env node
// Host time per call of events, streams and stream-ordered memory, from
// JavaScript against the same calls in C (bench/c/calls.c, built here) and
// through NVIDIA's Python bindings (bench/python/calls.py), in one run:
//   event.record(stream) + event.query()          (an event without timing)
//   Stream.create() + stream.dispose()            (non-blocking)
//   DeviceBuffer.allocAsync(256, stream) + dispose()  (freed on the stream)
// Each figure is the median over rounds of (host time of a batch) / batch; the
// stream is drained between batches. The sides take turns for `passes` passes.
// Usage: node bench/calls.js [batch=200] [rounds=300] [passes=3]
'use strict';
const { describePython, perCall, pick, runAlone, runC, runPython } = require('./common');

function measureJs(cuda, batch, rounds) {
  const stream = cuda.Stream.create();
  const event = cuda.Event.create();
  const drain = () => stream.synchronizeSync();
  const per = (op) => perCall(op, batch, rounds, drain);
  const out = {
    eventRecordQuery: per(() => event.record(stream).query()),
    streamCreateDestroy: per(() => cuda.Stream.create().dispose()),
    allocFreeAsync: per(() => cuda.DeviceBuffer.allocAsync(256, stream).dispose()),
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
  return [{
    title: 'Events, streams and stream-ordered memory',
    rows: [
      row('event record + query', 'eventRecordQuery'),
      row('stream create + destroy', 'streamCreateDestroy'),
      row('stream-ordered alloc + free (256 B)', 'allocFreeAsync'),
    ],
    notes: [
      `batch ${batch}, ${rounds} rounds, median of ${passes} passes`,
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
