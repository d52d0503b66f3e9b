#!/usr/bin/env node
// Completion-wait latency: `await stream.synchronize()` (a wait thread plus the
// hand-back to the event loop) and `await event.synchronize()` against the
// blocking synchronizeSync(), on the same tiny piece of queued work (a 4-byte
// fill), in one run; the awaited stream wait also with completion polling off
// (each completion wakes the event loop); the blocking wait also in C
// (bench/c/calls.c wait) and through cuda.bindings (bench/python/calls.py wait).
// Usage: node bench/wait-latency.js [iterations=2000]
'use strict';
const { describePython, median, now, runAlone, runC, runPython } = require('./common');

/** Runs the wait benchmark; returns its section of the report. */
async function measure({ iterations = 2000 } = {}) {
  const cuda = require('..');
  const stream = cuda.Stream.create();
  const word = cuda.DeviceBuffer.alloc(4);
  const event = cuda.Event.create();
  const blocking = [], promise = [], eventPromise = [], unpolled = [];
  // The blocking waits back to back, as C and Python time them; then the awaited ones.
  for (let i = 0; i < iterations + 100; i++) {
    const t0 = now();
    cuda.fill(word, i & 0xff, { stream });
    stream.synchronizeSync();
    if (i >= 100) blocking.push(now() - t0);
  }
  for (let i = 0; i < iterations + 100; i++) {
    let t0 = now();
    cuda.fill(word, i & 0xff, { stream });
    await stream.synchronize();
    if (i >= 100) promise.push(now() - t0);

    t0 = now();
    cuda.fill(word, i & 0xff, { stream });
    event.record(stream);
    await event.synchronize();
    if (i >= 100) eventPromise.push(now() - t0);
  }
  const window = cuda.completionPolling();
  cuda.setCompletionPolling(0);
  for (let i = 0; i < iterations + 100; i++) {
    const t0 = now();
    cuda.fill(word, i & 0xff, { stream });
    await stream.synchronize();
    if (i >= 100) unpolled.push(now() - t0);
  }
  cuda.setCompletionPolling(window);
  stream.dispose();
  word.dispose();
  event.dispose();
  // As many blocking waits in C and Python as here.
  const c = runC('calls', [0, iterations, 'wait']);
  const py = runPython('calls', [0, iterations, 'wait']);
  const us = (ns) => (ns === undefined ? undefined : ns / 1000);
  const blockingJs = us(median(blocking));
  return [{
    title: 'Completion wait latency',
    rows: [
      { label: 'fill + blocking synchronize', unit: 'us', better: 'lower', js: blockingJs, c: us(c.blockingWait), bindings: us(py?.bindings.blockingWait) },
      {
        label: 'fill + await stream.synchronize()', unit: 'us', better: 'lower', js: us(median(promise)),
        target: { maxAbove: 4, reference: blockingJs, of: 'the blocking wait' },
      },
      {
        label: 'fill + record + await event.synchronize()', unit: 'us', better: 'lower', js: us(median(eventPromise)),
        target: { maxAbove: 4, reference: blockingJs, of: 'the blocking wait' },
      },
      { label: 'fill + await stream.synchronize(), completion polling off', unit: 'us', better: 'lower', js: us(median(unpolled)) },
    ],
    notes: [
      `medians of ${iterations} waits each (JavaScript: the blocking waits back to back, then the awaited ones, then ` +
        'the awaited stream waits with completion polling off; ' +
        'C and cuda.bindings: cuMemsetD8Async + cuStreamSynchronize back to back)',
      describePython(py),
    ],
  }];
}

module.exports = { measure };

if (require.main === module) runAlone(measure, { iterations: Number(process.argv[2]) || undefined });
