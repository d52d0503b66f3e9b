#!/usr/bin/env node
// Completion-wait latency: `await stream.synchronize()` (a wait thread plus the
// hand-back to the event loop) against the blocking synchronizeSync(), on the
// same tiny piece of queued work, in one run.
// Usage: node bench/wait-latency.js [iterations=2000]
'use strict';
const cuda = require('..');
const { median, now } = require('./common');
const fs = require('fs');
const path = require('path');

const iterations = Number(process.argv[2] || 2000);

async function main() {
  const stream = cuda.Stream.create();
  const word = cuda.DeviceBuffer.alloc(4);
  const blocking = [], promise = [], eventPromise = [];
  const event = cuda.Event.create();
  for (let i = 0; i < iterations + 100; i++) {
    let t0 = now();
    cuda.fill(word, i & 0xff, { stream });
    stream.synchronizeSync();
    if (i >= 100) blocking.push(now() - t0);

    t0 = now();
    cuda.fill(word, i & 0xff, { stream });
    await stream.synchronize();
    if (i >= 100) promise.push(now() - t0);

    t0 = now();
    cuda.fill(word, i & 0xff, { stream });
    event.record(stream);
    await event.synchronize();
    if (i >= 100) eventPromise.push(now() - t0);
  }
  const us = (ns) => ns / 1000;
  const rows = {
    blocking: us(median(blocking)),
    promise: us(median(promise)),
    eventPromise: us(median(eventPromise)),
  };
  console.log('\nCompletion wait: enqueue a 4-byte fill, then wait (median microseconds)');
  console.log(`  stream.synchronizeSync()          ${rows.blocking.toFixed(1)} us`);
  console.log(`  await stream.synchronize()        ${rows.promise.toFixed(1)} us  (+${(rows.promise - rows.blocking).toFixed(1)} us)`);
  console.log(`  record + await event.synchronize() ${rows.eventPromise.toFixed(1)} us  (+${(rows.eventPromise - rows.blocking).toFixed(1)} us)`);
  if (process.env.BENCH_OUT) {
    fs.mkdirSync(process.env.BENCH_OUT, { recursive: true });
    fs.writeFileSync(path.join(process.env.BENCH_OUT, 'wait-latency.json'), JSON.stringify(rows, null, 1));
  }
  stream.dispose();
  word.dispose();
  event.dispose();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
