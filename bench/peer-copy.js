#!/usr/bin/env node
// Peer-copy bandwidth between devices 0 and 1 from JavaScript against the same
// copies in C (bench/c/peer-copy.c, built here, cuMemcpyPeerAsync) and through
// cuda.bindings (bench/python/peer_copy.py), in one run:
// copy(dst, src, { stream }) between a buffer on each device, each way, on a
// stream of the source device, synchronized after each copy inside the timing,
// 4 KiB to 1 GiB. Peer access is enabled both ways where the devices allow it
// (in each process). Each figure is the median over repetitions of one copy's
// bandwidth; repetitions fall with the size (the given count at 256 MiB and
// above, more for small copies, at most 2000). Skipped, with the reason, where
// fewer than two devices are visible.
// Usage: node bench/peer-copy.js [repetitions=20] [largest=1073741824]
'use strict';
const { describePython, median, now, pick, runAlone, runC, runPython, sizesUpTo } = require('./common');

const title = 'Copy bandwidth, between two devices';

/** The repetitions for a copy of bytes (as peer-copy.c computes them). */
function repetitionsFor(bytes, base) {
  const scaled = (base * 2 ** 28) / bytes;
  return scaled > 2000 ? 2000 : scaled < base ? base : Math.floor(scaled);
}

/** Lets each device map the other's memory where it can (a second enable is refused: ignored). */
function enablePeerAccess(cuda, devices) {
  for (const [from, to] of [[devices[0], devices[1]], [devices[1], devices[0]]]) {
    if (!from.canAccessPeer(to)) continue;
    try {
      from.primaryContext.enablePeerAccess(to.primaryContext);
    } catch (error) {
      if (!(error instanceof cuda.CudaError && error.code === 'CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED')) throw error;
    }
  }
}

function measureJs(copy, buffers, streams, sizes, base) {
  const out = {};
  for (const bytes of sizes) {
    const reps = repetitionsFor(bytes, base);
    out[bytes] = {};
    for (const [src, direction] of [[0, '0to1'], [1, '1to0']]) {
      const dst = buffers[1 - src], from = buffers[src], stream = streams[src];
      const options = { bytes, stream };
      copy(dst, from, options);  // warm-up
      stream.synchronizeSync();
      const gbs = new Array(reps);
      for (let i = 0; i < reps; i++) {
        const t0 = now();
        copy(dst, from, options);
        stream.synchronizeSync();
        gbs[i] = bytes / (now() - t0);
      }
      out[bytes][direction] = median(gbs);
    }
  }
  return out;
}

/** Runs the peer-copy benchmark; returns its section of the report (no rows, and why, on fewer than two devices). */
async function measure({ repetitions = 20, largest = 1 << 30 } = {}) {
  const cuda = require('..');
  const count = cuda.Device.count();
  if (count < 2) {
    const why = `skipped: two devices needed, ${count} visible`;
    console.log(`[peer] ${why}`);
    return [{ title, rows: [], notes: [why] }];
  }
  const devices = [cuda.Device.get(0), cuda.Device.get(1)];
  enablePeerAccess(cuda, devices);
  const sizes = sizesUpTo(largest);
  const buffers = devices.map((device) => cuda.DeviceBuffer.alloc(largest, { device }));
  buffers.forEach((b) => cuda.fill(b, 1));
  const streams = devices.map((device) => cuda.Stream.create({ device }));
  const js = measureJs(cuda.copy, buffers, streams, sizes, repetitions);
  [...buffers, ...streams].forEach((h) => h.dispose());
  const c = runC('peer-copy', [repetitions, ...sizes]);
  const py = runPython('peer_copy', [repetitions, ...sizes]);
  const rows = [];
  for (const bytes of sizes) {
    const size = bytes >= 2 ** 30 ? `${bytes / 2 ** 30} GiB` : bytes >= 2 ** 20 ? `${bytes / 2 ** 20} MiB` : `${bytes / 1024} KiB`;
    for (const [direction, label] of [['0to1', 'device 0 to 1'], ['1to0', 'device 1 to 0']]) {
      rows.push({
        label: `peer ${label}, ${size}`, unit: 'GB/s', better: 'higher', bytes, direction,
        js: js[bytes][direction], c: c[bytes]?.[direction], bindings: pick([py], (r) => r?.bindings[`${bytes}.${direction}`]),
        target: bytes === largest ? { minRatio: 0.95 } : undefined,
      });
    }
  }
  const link = devices[0].canAccessPeer(devices[1]) && devices[1].canAccessPeer(devices[0])
    ? `peer access enabled both ways (performance rank ${devices[0].p2pAttribute(devices[1], 'performanceRank')})`
    : 'no peer access between the devices: the driver stages the copies';
  return [{
    title,
    rows,
    notes: [
      `stream-ordered copies (cuMemcpyPeerAsync) on a stream of the source device, each synchronized inside the timing; ${repetitions} repetitions at 256 MiB and above, more for smaller copies`,
      `${devices[0].name} and ${devices[1].name}; ${link}`,
      'JavaScript: copy(dst, src, { bytes, stream }) between two DeviceBuffers; C and cuda.bindings: cuMemcpyPeerAsync between two cuMemAlloc buffers',
      describePython(py),
    ],
  }];
}

module.exports = { measure };

if (require.main === module) {
  const [repetitions, largest] = process.argv.slice(2).map(Number);
  runAlone(measure, { repetitions: repetitions || undefined, largest: largest || undefined });
}
