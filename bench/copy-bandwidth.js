#!/usr/bin/env node
// Pinned host<->device copy bandwidth from JavaScript against the same copies
// in C (bench/c/bandwidth.c, built here), measured in one run.
// Usage: node bench/copy-bandwidth.js [bytes=268435456] [repetitions=20]
'use strict';
const cuda = require('..');
const { median, now, runC, report } = require('./common');

const bytes = Number(process.argv[2] || 256 << 20);
const reps = Number(process.argv[3] || 20);

const device = cuda.DeviceBuffer.alloc(bytes);
const pinned = cuda.HostBuffer.alloc(bytes);
cuda.copy(device, pinned);
cuda.copy(pinned, device);
const h2d = [], d2h = [];
for (let i = 0; i < reps; i++) {
  const t0 = now();
  cuda.copy(device, pinned);
  const t1 = now();
  cuda.copy(pinned, device);
  const t2 = now();
  h2d.push(bytes / (t1 - t0));
  d2h.push(bytes / (t2 - t1));
}
device.dispose();
pinned.dispose();
const c = runC('bandwidth', [bytes, reps]);
report(`Pinned copy bandwidth, ${bytes / 2 ** 20} MiB`, [
  ['host to device', median(h2d), c.h2d, 'GB/s'],
  ['device to host', median(d2h), c.d2h, 'GB/s'],
]);
