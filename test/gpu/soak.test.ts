// The soak (test/soak) on the GPU: every handle kind created, used and disposed
// SOAK_CYCLES times (scaled per kind by the weights in test/soak/cycles.ts:
// contexts 1%, NVRTC compiles 0.2%), in a child process. Default 1000 in the
// normal GPU run; the full soak (`npm run test:soak`) runs 100,000. Driver
// resources made and released must balance exactly, open descriptors must come
// back exactly, device memory within 8 MiB and resident memory may grow by at
// most 32 MiB over the second half of the cycles (test/soak/limits.ts), in each
// process: SOAK_PROCESSES (default 1) share the kinds between them and run side by side.
import { startChild } from '../helpers/child';
import { describeGpu } from '../helpers/tiers';
import type { SoakReport } from '../soak/main';
import { kindNames } from '../soak/cycles';
import { soakLimits, soakProblems, soakSummary } from '../soak/limits';

describeGpu('soak', () => {
  test('create, use and dispose every kind of handle, many times: nothing accumulates', async () => {
    const processes = Number(process.env.SOAK_PROCESSES ?? 1);
    const runs = await Promise.all(Array.from({ length: processes }, (_, i) =>
      startChild<SoakReport>('soak', { SOAK_ENV: 'gpu', SOAK_CYCLES: process.env.SOAK_CYCLES ?? '1000', SOAK_SHARD: `${i}/${processes}` }, 4 * 60 * 60 * 1000)));
    const kindsRun = new Set<string>();
    const problems: string[] = [];
    for (const r of runs) {
      if (r.status !== 0 || !r.report) throw new Error(`the soak failed (${r.status}, ${r.signal}): ${r.stderr.slice(-3000)}`);
      const summary = soakSummary(r.report);
      // eslint-disable-next-line no-console
      console.log(summary);
      problems.push(...soakProblems(r.report, soakLimits(true)).map((p) => `${p} [${summary}]`));
      for (const kind of Object.keys(r.report.cycles)) kindsRun.add(kind);
    }
    expect(problems).toEqual([]);
    expect(kindsRun.size).toBeGreaterThanOrEqual(28);
    // Every kind of test/soak/cycles.ts ran in one of the processes: on a GPU, all 29 (NVRTC compiles and conditional handles included).
    const gpuKinds = kindNames({ compile: true, conditional: true });
    expect(gpuKinds).toHaveLength(29);
    expect([...kindsRun].sort()).toEqual([...gpuKinds].sort());
  }, 5 * 60 * 60 * 1000);
});
