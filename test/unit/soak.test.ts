// The soak (test/soak) against the stand-in driver: every handle kind created,
// used and disposed SOAK_CYCLES times (default 1000 here), in a child process.
// Driver resources made and released must balance exactly, open descriptors and
// device memory must come back exactly, and resident memory may grow by at most
// the bound of test/soak/limits.ts over the second half of the cycles.
import { runChild } from '../helpers/child';
import { fakeDriver } from '../helpers/subprocess';
import type { SoakReport } from '../soak/main';
import { kindNames } from '../soak/cycles';
import { soakLimits, soakProblems, soakSummary } from '../soak/limits';

test('create, use and dispose every kind of handle, many times: nothing accumulates', () => {
  const r = runChild<SoakReport>('soak', { CUDA_DRIVER_LIBRARY: fakeDriver(), SOAK_ENV: 'stand-in', SOAK_CYCLES: process.env.SOAK_CYCLES ?? '1000' });
  if (r.status !== 0 || !r.report) throw new Error(`the soak failed (${r.status}, ${r.signal}): ${r.stderr.slice(-3000)}`);
  // eslint-disable-next-line no-console
  if (process.env.SOAK_CYCLES) console.log(soakSummary(r.report));
  const sanitized = /libasan/.test(process.env.LD_PRELOAD ?? '');
  expect(soakProblems(r.report, soakLimits(false, sanitized))).toEqual([]);
  expect(Object.keys(r.report.cycles).length).toBeGreaterThanOrEqual(25);
  // Every kind of test/soak/cycles.ts that needs no GPU ran: 27 of them (the GPU-only two are NVRTC compiles and conditional handles).
  const standInKinds = kindNames({ compile: false, conditional: false });
  expect(standInKinds).toHaveLength(27);
  expect(kindNames({ compile: true, conditional: true }).filter((k) => !standInKinds.includes(k)).sort()).toEqual(['compile', 'conditionalHandle']);
  expect(Object.keys(r.report.cycles).sort()).toEqual([...standInKinds].sort());
}, 300000);
