// The fuzzer as a process: `node --expose-gc -r ./test/helpers/ts-require.js test/fuzz/main.ts`.
// It loads the built package (dist/), so that the driver it gets (the stand-in
// through CUDA_DRIVER_LIBRARY, none, or the real one) is this process's alone,
// and prints its report as one JSON line after "@@": the fuzzer's report, the
// resources made and left unreleased (from the driver call counters), device
// memory in use before and after, and whether the device still works. Settings:
//   FUZZ_ENV      none | stand-in | gpu (default gpu)
//   FUZZ_RUNS     property runs per target (default 20)
//   FUZZ_SEED     the seed (default 1)
//   FUZZ_TIME_MS  stop starting targets after this long (default 10 minutes)
//   FUZZ_ONLY     only targets whose name contains this
//   FUZZ_TRACE    a file that gets each call before it is made (to find what crashed)
import * as fs from 'fs';
import * as path from 'path';
import type * as Cuda from '../../lib';
import { deviceMemoryInUse } from '../helpers/device-memory';
import { drain } from '../helpers/gc';
import { resourceBalance, resourcesMade } from '../helpers/resource-balance';
import { FuzzReport, runFuzz } from './run';
import type { Environment } from './world';

export interface FuzzProcessReport extends FuzzReport {
  /** Resources made by successful driver calls during the run. */
  resourcesMade: number;
  /** Kinds of resource made and not released by the end (made − released). */
  unreleased: Record<string, number>;
  /** Device memory in use (total − free) before the run and after everything was released. */
  memoryUsed?: { before: number; after: number };
  /** A copy, a fill and a kernel launch after the run gave the right results. */
  healthy?: boolean;
  healthError?: string;
}

function used(cuda: typeof Cuda): number | undefined {
  try {
    return deviceMemoryInUse(cuda);
  } catch {
    return undefined;
  }
}

function checkHealth(cuda: typeof Cuda): void {
  using buffer = cuda.DeviceBuffer.alloc(256);
  buffer.fill(7);
  const back = buffer.readSync();
  if (!back.every((b) => b === 7)) throw new Error('a fill read back wrong');
  using stream = cuda.Stream.create();
  buffer.write(new Uint8Array(256).fill(9), { stream });
  stream.synchronizeSync();
  if (!buffer.readSync().every((b) => b === 9)) throw new Error('a stream copy read back wrong');
  cuda.Stream.legacy().synchronizeSync();
}

// Memory pools and graph memory keep what they freed for reuse: give it back
// before device memory in use is compared.
function trim(cuda: typeof Cuda): void {
  try {
    cuda.MemoryPool.defaultFor(0).trimTo(0);
    cuda.trimGraphMemory(0);
  } catch {
    // no pools here
  }
}

async function main(): Promise<void> {
  const dist = path.resolve(__dirname, '../../dist');
  const cuda: typeof Cuda = require(dist);
  const addon = require(path.join(dist, 'native')).native;
  const env = (process.env.FUZZ_ENV ?? 'gpu') as Environment;
  const traceFile = process.env.FUZZ_TRACE;
  const traceFd = traceFile ? fs.openSync(traceFile, 'w') : undefined;
  cuda.callCounters.enable();
  const before = env === 'none' ? undefined : used(cuda);
  const fuzzed = await runFuzz(cuda, {
    env,
    runs: Number(process.env.FUZZ_RUNS ?? 20),
    seed: Number(process.env.FUZZ_SEED ?? 1),
    timeLimitMs: Number(process.env.FUZZ_TIME_MS ?? 600000),
    only: process.env.FUZZ_ONLY,
    trace: traceFd === undefined ? undefined : (line) => fs.writeSync(traceFd, line + '\n'),
  }, addon);
  await drain(10, 20); // what the library releases later (a stream seen idle, a capture ended, a finalizer) gets its turn
  const counts = cuda.callCounters.read();
  const report: FuzzProcessReport = { ...fuzzed, resourcesMade: resourcesMade(counts), unreleased: resourceBalance(counts) };
  if (env !== 'none') {
    trim(cuda);
    const after = used(cuda);
    if (before !== undefined && after !== undefined) report.memoryUsed = { before, after };
    try {
      checkHealth(cuda);
      report.healthy = true;
    } catch (error) {
      report.healthy = false;
      report.healthError = String((error as Error)?.message ?? error);
    }
  }
  process.stdout.write('\n@@' + JSON.stringify(report) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error?.stack ?? error) + '\n');
  process.exitCode = 1;
});
