// What a fault at each call of the scenario may do, and the checks the walk
// makes of every step (used by the unit tier over the stand-in driver and by
// the GPU tier over the real one).
import { resourcePairs } from '../helpers/resource-balance';
import type { FaultStep } from '../helpers/fault-walk';

/** Failures the library absorbs by design, and why. */
export const toleratedFaults: Record<string, string> = {
  cuDriverGetVersion: 'the loader reads the version for messages only',
  cuMemHostGetDevicePointer: 'pinned memory the device cannot address is still copied through its host address',
  cuGraphInstantiate: 'a failed instantiation is asked again through cuGraphInstantiateWithParams, which says why',
  cuStreamGetCaptureInfo: 'work captured while its capture cannot be identified is kept by its stream until idle instead',
};

/**
 * Calls of the release path: when one fails, the resource (and what it keeps
 * alive) stays with the driver, never freed under work that may use it. Making
 * a context current comes first in several releases.
 */
export const releaseCalls: ReadonlySet<string> = new Set([
  ...resourcePairs.flatMap((p) => p.released), 'cuGraphDestroy', 'cuUserObjectRelease', 'cuCtxGetCurrent', 'cuCtxSetCurrent',
]);

/** What is wrong with a step, or undefined when it behaved. */
export function stepProblem(step: FaultStep, code: number): string | undefined {
  const r = step.report;
  if (step.status !== 0 || step.signal || !r) return `the process ended with status ${step.status}, signal ${step.signal}: ${step.stderr.slice(-2000)}`;
  if (!step.injected) return 'no fault was injected (the scenario made fewer calls than counted)';
  const right = (p: { ok: boolean; result?: number[] } | undefined) => p?.ok === true && JSON.stringify(p.result) === JSON.stringify(r.expected);
  if (step.injected === 'cuInit') {
    // The driver loads once per process: after a failed cuInit it stays unavailable, and says so.
    return r.first.error?.class === 'DriverUnavailableError' && r.second?.error?.class === 'DriverUnavailableError' ? undefined
      : `a failed cuInit must leave the driver unavailable: ${JSON.stringify(r)}`;
  }
  if (!r.first.ok) {
    const e = r.first.error!;
    if (!e.cudaError || e.code !== code || e.call !== step.injected) {
      return `the failure of ${step.injected} surfaced as ${e.class} (call ${e.call}, code ${e.code}): ${e.message}`;
    }
  } else if (!right(r.first)) {
    return `${step.injected} failed unseen and the result was wrong: ${JSON.stringify(r.first.result)}`;
  } else if (!(step.injected in toleratedFaults) && !releaseCalls.has(step.injected)) {
    return `the failure of ${step.injected} was swallowed`;
  }
  if (!right(r.second)) return `the run after the fault went wrong: ${JSON.stringify(r.second)}`;
  const leaked = Object.entries(r.unreleased);
  if (leaked.length && !releaseCalls.has(step.injected)) return `resources left unreleased: ${JSON.stringify(r.unreleased)}`;
  if (leaked.some(([, n]) => n < 0)) return `more released than made: ${JSON.stringify(r.unreleased)}`;
  return undefined;
}

/** Counts for the report: faults injected, surfaced as errors, absorbed, and refused releases. */
export function walkSummary(steps: readonly FaultStep[]): { injected: number; surfaced: number; absorbed: number; refusedReleases: number } {
  const ok = (s: FaultStep) => s.report?.first.ok === true;
  return {
    injected: steps.filter((s) => s.injected).length,
    surfaced: steps.filter((s) => s.report && !ok(s)).length,
    absorbed: steps.filter((s) => ok(s) && s.injected && !releaseCalls.has(s.injected)).length,
    refusedReleases: steps.filter((s) => ok(s) && s.injected && releaseCalls.has(s.injected)).length,
  };
}
