// The fuzzer as a process: `node -r ./test/helpers/ts-require.js test/fuzz/main.ts`.
// It loads the built package (dist/), so that the driver it gets (the stand-in
// through CUDA_DRIVER_LIBRARY, none, or the real one) is this process's alone,
// and prints its report as one JSON line after "@@". Settings:
//   FUZZ_ENV      none | stand-in | gpu (default gpu)
//   FUZZ_RUNS     property runs per target (default 20)
//   FUZZ_SEED     the seed (default 1)
//   FUZZ_TIME_MS  stop starting targets after this long (default 10 minutes)
//   FUZZ_ONLY     only targets whose name contains this
//   FUZZ_TRACE    a file that gets each call before it is made (to find what crashed)
import * as fs from 'fs';
import * as path from 'path';
import { runFuzz } from './run';
import type { Environment } from './world';

async function main(): Promise<void> {
  const dist = path.resolve(__dirname, '../../dist');
  const cuda = require(dist);
  const addon = require(path.join(dist, 'native')).native;
  const traceFile = process.env.FUZZ_TRACE;
  const traceFd = traceFile ? fs.openSync(traceFile, 'w') : undefined;
  const report = await runFuzz(cuda, {
    env: (process.env.FUZZ_ENV ?? 'gpu') as Environment,
    runs: Number(process.env.FUZZ_RUNS ?? 20),
    seed: Number(process.env.FUZZ_SEED ?? 1),
    timeLimitMs: Number(process.env.FUZZ_TIME_MS ?? 600000),
    only: process.env.FUZZ_ONLY,
    trace: traceFd === undefined ? undefined : (line) => fs.writeSync(traceFd, line + '\n'),
  }, addon);
  process.stdout.write('\n@@' + JSON.stringify(report) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error?.stack ?? error) + '\n');
  process.exitCode = 1;
});
