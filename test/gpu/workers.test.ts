// Worker threads using the library at the same time on the GPU (test/workers),
// in a child process. The main thread allocates one device buffer; four workers,
// each with its own streams, write their disjoint slices of it through its
// device address (kernels take raw addresses), by a direct launch, a prepared
// launch and a graph in turn, read them back with another kernel and copy the
// result to pinned memory, checking every element, while they and the main
// thread make and dispose handles of many kinds. A fifth worker queues a kernel
// that spins for about 150 ms before filling its slice, and ends its thread at
// once. The main thread then checks every element of the shared buffer.
//   WORKERS_COUNT, WORKERS_ROUNDS, WORKERS_CHURN widen the run.
import { runChild } from '../helpers/child';
import { describeGpu } from '../helpers/tiers';
import { unexpectedUnreleased } from '../workers/expectations';
import type { WorkersReport } from '../workers/main';

const rounds = Number(process.env.WORKERS_ROUNDS ?? 30);
const count = Number(process.env.WORKERS_COUNT ?? 4);

describeGpu('worker threads', () => {
  test('workers write and read disjoint slices of one buffer at once, results checked; a worker ends with a kernel running', () => {
    const r = runChild<WorkersReport>('workers', { WORKERS_ENV: 'gpu', WORKERS_COUNT: String(count), WORKERS_ROUNDS: String(rounds) }, 300000);
    if (r.status !== 0 || !r.report) throw new Error(`the workers program failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
    const report = r.report;
    // eslint-disable-next-line no-console
    console.log(`workers: ${count} workers × ${rounds} rounds, ${report.workers.reduce((n, w) => n + (w.result?.handlesMade ?? 0), 0)} handles made, ` +
      `main thread ${report.mainThreadCycles} cycles, ${(report.elapsedMs / 1000).toFixed(1)} s; unreleased ${JSON.stringify(report.unreleased)}`);
    expect(report.workers).toHaveLength(count);
    for (const w of report.workers) {
      expect(w.error).toBeUndefined();
      expect(w).toMatchObject({ exitCode: 0, result: { rounds, mismatches: 0 } });
    }
    expect(report.abandoned).toEqual({ exitCode: 0, queued: true });
    // Every element of every slice, the abandoned worker's included: its kernel finished after its thread ended.
    expect(report.sharedMismatches).toBe(0);
    expect(report.mainThreadCycles).toBeGreaterThan(0);
    // What the abandoned worker made may stay, leaked by design when its thread ended (test/workers/expectations.ts).
    expect(unexpectedUnreleased(report.unreleased)).toEqual({});
  }, 330000);
});
