// The soak as a process: `node --expose-gc -r ./test/helpers/ts-require.js test/soak/main.ts`.
// Runs every kind of test/soak/cycles.ts SOAK_CYCLES times (scaled by its
// weight; in two halves) after a short warm-up, and prints, as a JSON line after
// "@@", what the process held before, between the halves and after: device
// memory in use, resident memory, open file descriptors, and driver resources
// made but not released.
//   SOAK_ENV     stand-in | gpu (default gpu)
//   SOAK_CYCLES  cycles per kind at weight 1 (default 200)
//   SOAK_ONLY    only kinds whose name contains this
//   SOAK_SHARD   i/n: only every n-th kind from the i-th (n processes share the kinds)
import * as fs from 'fs';
import * as path from 'path';
import type * as Cuda from '../../lib';
import { deviceMemoryInUse } from '../helpers/device-memory';
import { drain } from '../helpers/gc';
import { resourceBalance } from '../helpers/resource-balance';
import { kernelSource, standInImage } from '../fuzz/world';
import { Fixtures, kinds } from './cycles';

export interface Held {
  /** Device memory this process holds (nvidia-smi's per-process figure, else the card's total − free), bytes. */
  deviceMemory: number;
  /** Resident set size after a collection, bytes. */
  rss: number;
  /** Open file descriptors (/proc/self/fd). */
  fds: number;
  /** Driver resources made and not released, by kind. */
  resources: Record<string, number>;
}

export interface SoakReport {
  /** Cycles run per kind, both halves together. */
  cycles: Record<string, number>;
  totalCycles: number;
  elapsedMs: number;
  /** After the warm-up, after the first half of the cycles, after the second. */
  before: Held;
  middle: Held;
  after: Held;
}

function held(cuda: typeof Cuda): Held {
  try {
    cuda.MemoryPool.defaultFor(0).trimTo(0);
    cuda.trimGraphMemory(0);
  } catch {
    // no pools here
  }
  return {
    deviceMemory: deviceMemoryInUse(cuda),
    rss: process.memoryUsage().rss,
    fds: fs.readdirSync('/proc/self/fd').length,
    resources: resourceBalance(cuda.callCounters.read(), true),
  };
}

async function main(): Promise<void> {
  const cuda: typeof Cuda = require(path.resolve(__dirname, '../../dist'));
  cuda.callCounters.enable();
  const gpu = (process.env.SOAK_ENV ?? 'gpu') === 'gpu';
  const cycles = Number(process.env.SOAK_CYCLES ?? 200);
  const code = gpu ? cuda.compile(kernelSource, { name: 'soak.cu' }).code : standInImage;
  const graph = cuda.Graph.create();
  graph.addEmpty();
  const library = cuda.Library.load(code);
  const fixtures: Fixtures = {
    stream: cuda.Stream.create(), graph, library, kernel: library.kernel('k'), buffer: cuda.DeviceBuffer.alloc(4096), code,
    granularity: cuda.allocationGranularity(), server: cuda.FdChannelServer.listen(), compile: gpu, conditional: gpu,
  };
  const [shard, shards] = (process.env.SOAK_SHARD ?? '0/1').split('/').map(Number);
  const all = Object.entries(kinds(cuda, fixtures))
    .filter(([name], i) => (!process.env.SOAK_ONLY || name.includes(process.env.SOAK_ONLY)) && i % shards === shard);
  // The stream is waited for now and then, as a program does: until then it keeps what its work uses.
  const runKind = async (cycle: () => void | Promise<void>, n: number) => {
    for (let i = 0; i < n; i++) {
      await cycle();
      if (i % 32 === 31) fixtures.stream.synchronizeSync();
    }
    fixtures.stream.synchronizeSync();
  };
  // Warm-up: first uses fill caches (module loading, pools, JIT, V8's code) that are no leak.
  for (const [, kind] of all) await runKind(kind.cycle, Math.max(2, Math.ceil(cycles * kind.weight * 0.05)));
  await drain();
  const before = held(cuda);
  const started = Date.now();
  const counts: Record<string, number> = {};
  // Two halves: memory the allocators keep for reuse grows in the first and levels off; a leak grows in both.
  const half = async () => {
    for (const [name, kind] of all) {
      const n = Math.max(1, Math.round((cycles * kind.weight) / 2));
      counts[name] = (counts[name] ?? 0) + n;
      await runKind(kind.cycle, n);
    }
    await drain();
    return held(cuda);
  };
  const middle = await half();
  const after = await half();
  const report: SoakReport = {
    cycles: counts, totalCycles: Object.values(counts).reduce((a, b) => a + b, 0), elapsedMs: Date.now() - started, before, middle, after,
  };
  for (const f of [fixtures.kernel, fixtures.library, fixtures.graph, fixtures.buffer, fixtures.stream, fixtures.server]) f.dispose();
  process.stdout.write('\n@@' + JSON.stringify(report) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error?.stack ?? error) + '\n');
  process.exitCode = 1;
});
