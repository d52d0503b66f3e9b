// Fault injection over the stand-in driver: the interposer
// (test/fixtures/fault-libcuda.cc) stands in front of test/fixtures/fake-libcuda.c
// and makes the Nth driver call of the scenario (test/fault/scenario.ts) fail,
// for every N. Each failure must surface as a CudaError naming the call (or be
// one the library absorbs by design: test/fault/expectations.ts), the same
// scenario must then run right, and nothing may be left unreleased, except by a
// release the driver refused.
import { stepProblem, walkSummary } from '../fault/expectations';
import { walkFaults } from '../helpers/fault-walk';
import { fakeDriver, faultDriver } from '../helpers/subprocess';

const code = 2; // CUDA_ERROR_OUT_OF_MEMORY

test('every driver call of the scenario, made to fail in turn', async () => {
  const { calls, steps } = await walkFaults({ interposer: faultDriver(), driver: fakeDriver(), env: 'stand-in', code });
  const problems = steps.map((s) => [s.at, s.injected, stepProblem(s, code)]).filter(([, , p]) => p !== undefined);
  expect(problems).toEqual([]);
  expect(calls.length).toBeGreaterThan(100);
  const summary = walkSummary(steps);
  // eslint-disable-next-line no-console
  console.log(`fault injection: ${calls.length} driver calls walked, ${summary.injected} faults injected, ${summary.surfaced} surfaced as errors, ` +
    `${summary.absorbed} absorbed by design, ${summary.refusedReleases} refused releases, ${problems.length} problems`);
  expect(summary.injected).toBe(calls.length);
  // Most failures surface; the absorbed ones are the handful expectations.ts explains.
  expect(summary.surfaced).toBeGreaterThan(calls.length * 0.6);
  expect(summary.absorbed).toBeLessThan(12);
}, 300000);
