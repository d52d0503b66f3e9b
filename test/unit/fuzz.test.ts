// Fuzzed bad input (test/fuzz), a seeded slice run here: against the stand-in
// driver (test/fixtures/fake-libcuda.c, whose copies and fills abort the process
// on a range outside live memory) and with no driver at all. Every call given
// an argument the library must refuse has to throw; every throw has to be one
// of the library's errors; nothing may crash; and once the run's handles are
// disposed, every resource made has been released. FUZZ_RUNS and FUZZ_SEED widen or
// move the slice (the GPU tier runs the full budget: test/gpu/fuzz.test.ts).
import { describeFuzzFailure, runFuzzProcess } from '../helpers/fuzz';
import { fakeDriver } from '../helpers/subprocess';

const runs = process.env.FUZZ_RUNS ?? '12';
const seed = process.env.FUZZ_SEED ?? '20250601';

describe('fuzzed bad input', () => {
  test('against the stand-in driver: refused arguments are refused, errors are the library\'s, nothing crashes', () => {
    const p = runFuzzProcess({ CUDA_DRIVER_LIBRARY: fakeDriver(), FUZZ_ENV: 'stand-in', FUZZ_RUNS: runs, FUZZ_SEED: seed });
    if (p.status !== 0 || !p.report || p.report.violations.length) throw new Error(describeFuzzFailure(p));
    const r = p.report;
    expect(r.calls).toBeGreaterThan(4000);
    expect(r.outcomes.unexpected ?? 0).toBe(0);
    // The stand-in makes every fixture but the conditional handle (it predates CUDA 12.3's call).
    expect(Object.keys(r.missingFixtures)).toEqual(['conditionalHandle']);
    // Calls that reached the driver and ones refused before it, both in numbers.
    expect(r.outcomes.ok).toBeGreaterThan(500);
    expect(r.outcomes.TypeError).toBeGreaterThan(500);
    expect(r.outcomes.RangeError).toBeGreaterThan(50);
    expect(r.outcomes.DisposedError).toBeGreaterThan(50);
    // Everything made was released, device memory is back where it was, and the device still works.
    expect(r.resourcesMade).toBeGreaterThan(100);
    expect(r.unreleased).toEqual({});
    expect(r.memoryUsed).toEqual({ before: 0, after: 0 });
    expect(r.healthy).toBe(true);
  });

  test('with no driver: the same, and every driver error says the driver is unavailable', () => {
    const p = runFuzzProcess({ CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1', FUZZ_ENV: 'none', FUZZ_RUNS: runs, FUZZ_SEED: seed });
    if (p.status !== 0 || !p.report || p.report.violations.length) throw new Error(describeFuzzFailure(p));
    const r = p.report;
    expect(r.calls).toBeGreaterThan(3000);
    const driverErrors = Object.keys(r.outcomes).filter((o) => o.includes(':CUDA_ERROR_'));
    expect(driverErrors).toEqual(['DriverUnavailableError:CUDA_ERROR_NOT_INITIALIZED']);
  });
});
