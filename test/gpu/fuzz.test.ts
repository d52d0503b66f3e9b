// Fuzzed bad input on the GPU (test/fuzz): the whole API, and the addon itself,
// called with refused, accepted and unclaimed arguments against the real
// driver, in a child process. Refused arguments must be refused, every error
// must be the library's, nothing may crash, everything made must be released,
// device memory in use must come back to where it was, and the device must
// still compute right afterwards.
//   FUZZ_RUNS       property runs per target (default 30: about 13,000 calls;
//                   `npm run test:reliability` runs 300: about 125,000)
//   FUZZ_SEED       the seed (default a fixed one; a failure prints how to replay it)
//   FUZZ_MIN_CALLS  fail if fewer calls were made (the reliability command asks for 100,000)
import { describeFuzzFailure, runFuzzProcess } from '../helpers/fuzz';
import { describeGpu } from '../helpers/tiers';

const runs = process.env.FUZZ_RUNS ?? '30';
const seed = process.env.FUZZ_SEED ?? '20250601';
const minCalls = Number(process.env.FUZZ_MIN_CALLS ?? 5000);
// Driver caches (module code, pool bookkeeping) that may stay after everything was released.
const memorySlack = 64 << 20;

describeGpu('fuzzed bad input on the GPU', () => {
  test('refused arguments are refused, errors are the library\'s, nothing crashes, leaks or breaks the device', () => {
    const p = runFuzzProcess({ FUZZ_ENV: 'gpu', FUZZ_RUNS: runs, FUZZ_SEED: seed }, 55 * 60 * 1000);
    if (p.status !== 0 || !p.report || p.report.violations.length) {
      throw new Error(`${describeFuzzFailure(p)}\nreplay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npx jest --selectProjects gpu -t 'fuzzed bad input'`);
    }
    const r = p.report;
    // eslint-disable-next-line no-console
    console.log(`fuzz: ${r.calls} calls over ${r.targets} targets in ${(r.elapsedMs / 1000).toFixed(1)} s (seed ${seed}); ` +
      `resources made ${r.resourcesMade}, unreleased ${JSON.stringify(r.unreleased)}; device memory in use ` +
      `${r.memoryUsed?.before} → ${r.memoryUsed?.after} bytes; outcomes ${JSON.stringify(r.outcomes)}`);
    expect(r.skippedTargets).toEqual([]);
    expect(r.missingFixtures).toEqual({});
    expect(r.calls).toBeGreaterThanOrEqual(minCalls);
    expect(r.outcomes.unexpected ?? 0).toBe(0);
    expect(r.unreleased).toEqual({});
    expect(r.healthy).toBe(true);
    expect(r.memoryUsed!.after - r.memoryUsed!.before).toBeLessThanOrEqual(memorySlack);
  }, 60 * 60 * 1000);
});
