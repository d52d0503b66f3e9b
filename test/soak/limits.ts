// What a soak may leave behind: the stated bounds, and the check of a report.
import type { SoakReport } from './main';

export interface SoakLimits {
  /** Growth of resident memory over the second half of the cycles (allocators level off in the first). */
  rssBytes: number;
  /** Change of device memory in use from before to after. */
  deviceBytes: number;
}

/**
 * The bounds the tests state: 32 MiB of resident memory, no device memory (the
 * stand-in) or 8 MiB (driver caches). Under the sanitizers (scripts/asan.sh)
 * resident memory is their allocator's: freed blocks wait in its quarantine and
 * its shadow grows with what is mapped, so that over the second half of a soak
 * without any leak it moved by -40 to +55 MiB; the bound there is 256 MiB, and
 * the exact checks (resources, descriptors, device memory) are the same.
 */
export const soakLimits = (gpu: boolean, sanitized = false): SoakLimits =>
  ({ rssBytes: (sanitized ? 256 : 32) << 20, deviceBytes: gpu ? 8 << 20 : 0 });

/** What the soak left beyond the bounds (empty when nothing). */
export function soakProblems(r: SoakReport, limits: SoakLimits): string[] {
  const problems: string[] = [];
  for (const [kind, made] of Object.entries(r.after.resources)) {
    if (made !== r.before.resources[kind]) problems.push(`${kind}: ${r.before.resources[kind]} unreleased before, ${made} after`);
  }
  if (r.after.fds !== r.before.fds) problems.push(`open file descriptors: ${r.before.fds} before, ${r.after.fds} after`);
  const device = r.after.deviceMemory - r.before.deviceMemory;
  if (Math.abs(device) > limits.deviceBytes) problems.push(`device memory in use changed by ${device} bytes (bound ${limits.deviceBytes})`);
  const rss = r.after.rss - r.middle.rss;
  if (rss > limits.rssBytes) problems.push(`resident memory grew by ${rss} bytes over the second half (bound ${limits.rssBytes})`);
  return problems;
}

/** One line for the log: cycles, time and the deltas. */
export function soakSummary(r: SoakReport): string {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(1)} MiB`;
  const kinds = Object.keys(r.cycles);
  return `soak: ${r.totalCycles} create/use/dispose cycles over ${kinds.length} kinds${kinds.length <= 4 ? ` (${kinds.join(', ')})` : ''} in ${(r.elapsedMs / 1000).toFixed(1)} s; ` +
    `device memory ${r.after.deviceMemory - r.before.deviceMemory} bytes, resident memory +${mib(r.middle.rss - r.before.rss)} then ` +
    `+${mib(r.after.rss - r.middle.rss)}, file descriptors ${r.after.fds - r.before.fds}, unreleased resources ` +
    `${Object.keys(r.after.resources).filter((k) => r.after.resources[k] !== r.before.resources[k]).length} kinds changed`;
}
