#!/usr/bin/env node
// Host<->device copy bandwidth from JavaScript against the same copies in C
// (bench/c/bandwidth.c, built here) and through cuda.bindings
// (bench/python/bandwidth.py), in one run: synchronous copies between a device
// buffer and pinned (HostBuffer) or pageable (a JavaScript ArrayBuffer) host
// memory, 4 KiB to 256 MiB. Each figure is the median over repetitions of one
// copy's bandwidth; repetitions fall with the size (the given count at 256 MiB,
// more for small copies, at most 2000). The small pinned copies are also
// measured against C making the same copies in this process, on the same
// buffers (bench/c/inprocess.c), batch by batch in turn: a C process of its
// own meets another moment of the host.
// Usage: node bench/copy-bandwidth.js [repetitions=20] [largest=268435456]
'use strict';
const { crossingControl, describePython, inProcessC, median, now, pairedPerCall, pick, runAlone, runC, runPython, sizesUpTo } = require('./common');

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

/** The sizes of the small pinned copies measured against C in this process. */
const inProcessSizes = [4 << 10, 16 << 10, 64 << 10];

/**
 * The copies of bytes in both directions between host (a HostBuffer) and
 * device, from JavaScript and from C in this process (bench/c/inprocess.c),
 * batch by batch in turn on these buffers: {h2d, d2h}, each {js, c} in
 * nanoseconds per copy.
 */
function measureInProcess(cuda, host, device, bytes, batch = 20, rounds = 300) {
  const inC = inProcessC();
  const options = { bytes };
  const deviceAddress = device.address, hostAddress = host.address;
  const none = () => {};
  const inCToDevice = (count) => inC.copies(true, deviceAddress, hostAddress, bytes, count);
  const inCToHost = (count) => inC.copies(false, deviceAddress, hostAddress, bytes, count);
  return {
    h2d: pairedPerCall(() => cuda.copy(device, host, options), inCToDevice, batch, rounds, none),
    d2h: pairedPerCall(() => cuda.copy(host, device, options), inCToHost, batch, rounds, none),
    // The control: C's own copy entered from JavaScript once per copy, against C's loop.
    h2dCrossing: crossingControl(inCToDevice, batch, rounds, none),
    d2hCrossing: crossingControl(inCToHost, batch, rounds, none),
  };
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
    const paired = kind === 'pinned' ? inProcessSizes.filter((bytes) => bytes <= largest).map((bytes) => [bytes, measureInProcess(cuda, host, device, bytes)]) : [];
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
    for (const [bytes, { h2d, d2h }] of paired) {
      for (const [label, { js: jsNs, c: cNs }] of [['host to device', h2d], ['device to host', d2h]]) {
        rows.push({
          label: `pinned ${label}, ${bytes / 1024} KiB, C in this process`, unit: 'GB/s', better: 'higher',
          js: bytes / jsNs, c: bytes / cNs, target: { minRatio: 0.98 },
        });
      }
    }
    for (const [bytes, { h2dCrossing, d2hCrossing }] of paired) {
      for (const [label, { js: jsNs, c: cNs }] of [['host to device', h2dCrossing], ['device to host', d2hCrossing]]) {
        rows.push({
          label: `control: C's copy entered once per copy from JavaScript (JS column), pinned ${label}, ${bytes / 1024} KiB, C in this process`,
          unit: 'GB/s', better: 'higher', js: bytes / jsNs, c: bytes / cNs,
        });
      }
    }
    sections.push({
      title: `Copy bandwidth, ${kind} host memory`,
      rows,
      notes: [
        `synchronous copies (cuMemcpyHtoD / cuMemcpyDtoH); ${repetitions} repetitions at ${largest / 2 ** 20} MiB, more for smaller copies`,
        ...(kind === 'pinned' ? ['JavaScript: HostBuffer.alloc (cuMemAllocHost); C and cuda.bindings: cuMemAllocHost',
          '"C in this process": bench/c/inprocess.c, a Node-API module in C, makes the same copies on the same buffers in the '
          + 'JavaScript process, batches of 20 from each side in turn (which side goes first alternating); each figure is the bytes '
          + 'over the median time of a copy; the control rows have nothing of the binding on either side: C\'s own copy loop entered '
          + 'from JavaScript one copy at a time (each entry also reads C\'s clock twice), against the same loop entered once per batch']
          : ['JavaScript: a Uint8Array; C: malloc; cuda.bindings: a ctypes buffer',
            'host to device: from pageable memory cuMemcpyHtoD returns once the bytes are staged, before the DMA has run; '
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
