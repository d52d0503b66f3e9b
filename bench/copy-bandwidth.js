#!/usr/bin/env node
// Host<->device copy bandwidth from JavaScript against the same copies in C
// (bench/c/bandwidth.c, built here) and through cuda.bindings
// (bench/python/bandwidth.py), in one run: synchronous copies between a device
// buffer and pinned (HostBuffer) or pageable (a JavaScript ArrayBuffer) host
// memory, 4 KiB to 256 MiB. Each figure is the median over repetitions of one
// copy's bandwidth; repetitions fall with the size (the given count at 256 MiB,
// more for small copies, at most 2000).
// Usage: node bench/copy-bandwidth.js [repetitions=20] [largest=268435456]
'use strict';
const { describePython, median, now, pick, runAlone, runC, runPython, sizesUpTo } = require('./common');

/** The repetitions for a copy of bytes (as bandwidth.c computes them). */
function repetitionsFor(bytes, base) {
  const scaled = (base * 2 ** 28) / bytes;
  return scaled > 2000 ? 2000 : scaled < base ? base : Math.floor(scaled);
}

function measureJs(cuda, host, device, sizes, base) {
  const out = {};
  for (const bytes of sizes) {
    const reps = repetitionsFor(bytes, base);
    const h2d = [], d2h = [];
    const options = { bytes };
    cuda.copy(device, host, options);
    cuda.copy(host, device, options);
    for (let i = 0; i < reps; i++) {
      const t0 = now();
      cuda.copy(device, host, options);
      const t1 = now();
      cuda.copy(host, device, options);
      const t2 = now();
      h2d.push(bytes / (t1 - t0));
      d2h.push(bytes / (t2 - t1));
    }
    out[bytes] = { h2d: median(h2d), d2h: median(d2h) };
  }
  return out;
}

/** Runs the bandwidth benchmark; returns its sections of the report (pinned, pageable). */
async function measure({ repetitions = 20, largest = 256 << 20 } = {}) {
  const cuda = require('..');
  const sizes = sizesUpTo(largest);
  const device = cuda.DeviceBuffer.alloc(largest);
  const sections = [];
  for (const kind of ['pinned', 'pageable']) {
    const host = kind === 'pinned' ? cuda.HostBuffer.alloc(largest) : new Uint8Array(largest).fill(1);
    const js = measureJs(cuda, host, device, sizes, repetitions);
    if (kind === 'pinned') host.dispose();
    const c = runC('bandwidth', [kind, repetitions, ...sizes]);
    const py = runPython('bandwidth', [kind, repetitions, ...sizes]);
    const rows = [];
    for (const bytes of sizes) {
      const size = bytes >= 2 ** 20 ? `${bytes / 2 ** 20} MiB` : `${bytes / 1024} KiB`;
      for (const [direction, label] of [['h2d', 'host to device'], ['d2h', 'device to host']]) {
        rows.push({
          label: `${kind} ${label}, ${size}`, unit: 'GB/s', better: 'higher', bytes, direction,
          js: js[bytes][direction], c: c[bytes]?.[direction], bindings: pick([py], (r) => r?.bindings[`${bytes}.${direction}`]),
          target: kind === 'pinned' && bytes === largest ? { minRatio: 0.95 } : undefined,
        });
      }
    }
    sections.push({
      title: `Copy bandwidth, ${kind} host memory`,
      rows,
      notes: [
        `synchronous copies (cuMemcpyHtoD / cuMemcpyDtoH); ${repetitions} repetitions at ${largest / 2 ** 20} MiB, more for smaller copies`,
        kind === 'pinned' ? 'JavaScript: HostBuffer.alloc (cuMemAllocHost); C and cuda.bindings: cuMemAllocHost'
          : 'JavaScript: a Uint8Array; C: malloc; cuda.bindings: a ctypes buffer',
        ...(kind === 'pinned' ? [] : ['host to device: from pageable memory cuMemcpyHtoD returns once the bytes are staged, before the DMA has run; '
          + 'copy() without a stream returns once they have landed (it synchronizes the legacy stream), and so do C and cuda.bindings here '
          + '(cuStreamSynchronize after each copy, timed: a figure of bytes staged but not landed is no bandwidth)']),
        describePython(py),
      ],
    });
  }
  device.dispose();
  return sections;
}

module.exports = { measure };

if (require.main === module) {
  const [repetitions, largest] = process.argv.slice(2).map(Number);
  runAlone(measure, { repetitions: repetitions || undefined, largest: largest || undefined });
}
