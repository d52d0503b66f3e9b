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
// Then fifty workers, a pool's day in small, each end with a kernel still
// running over its memory: once the kernels are over, every driver resource
// they made is released (by the reaper, native/core/reaper.h) and the device memory
// this process holds is back where it started. A worker whose work copies
// into a buffer it registered waits for that work before its memory goes.
import * as path from 'path';
import { runChild } from '../helpers/child';
import { runScript } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';
import type { WorkersReport } from '../workers/main';

const helpers = path.resolve(__dirname, '../helpers');
const dist = path.resolve(__dirname, '../../dist');
// The start of a child script: the library with its calls counted, and the code
// of a kernel that spins for spinCycles (about 0.3 s) before it fills out[i] = i.
const spinningPrelude = `
  require(${JSON.stringify(path.join(helpers, 'ts-require.js'))});
  const { resourceBalance, settledBalance } = require(${JSON.stringify(path.join(helpers, 'resource-balance.ts'))});
  const { Worker } = require('worker_threads');
  cuda.callCounters.enable();
  const code = cuda.compile(\`
    extern "C" __global__ void spin_fill(unsigned* out, unsigned n, long long cycles) {
      long long start = clock64();
      while (clock64() - start < cycles) {}
      for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = i;
    }\`, { name: 'spin_fill.cu' }).code;
  const spinCycles = cuda.Device.get(0).attribute('clockRate') * 300;`;

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
    // The abandoned worker's stream, kernel, library and memory too, released by the reaper once its kernel ended.
    expect(report.unreleased).toEqual({});
  }, 330000);

  test('fifty workers that end with kernels still running leave nothing behind once the kernels are over', () => {
    const r = runScript(`${spinningPrelude}
      const { deviceMemoryInUse } = require(${JSON.stringify(path.join(helpers, 'device-memory.ts'))});
      const before = deviceMemoryInUse(cuda);
      // Each worker: a stream, a library, 64 MiB of device memory, 16 MiB stream-ordered, 4 MiB pinned with a view,
      // a kernel spinning over them, copies queued behind it; then it ends: by process.exit with waits pending
      // (one in two), or by running out of JavaScript to run.
      const body = \`
        const cuda = require(${JSON.stringify(dist)});
        const { workerData } = require('worker_threads');
        const stream = cuda.Stream.create();
        const library = cuda.Library.load(workerData.code);
        const n = 16 << 20;
        const big = cuda.DeviceBuffer.alloc(n * 4);
        const ordered = cuda.DeviceBuffer.allocAsync(4 << 20 << 2, stream);
        const pinned = cuda.HostBuffer.alloc(4 << 20);
        new Uint8Array(pinned.view()).fill(1);
        library.kernel('spin_fill').launch({ grid: 64, block: 256, stream }, [cuda.arg.ptr(big), cuda.arg.u32(n), cuda.arg.i64(workerData.spinCycles)]);
        cuda.copy(ordered, pinned, { stream, bytes: 4 << 20 });
        cuda.copy(pinned, big, { stream, bytes: 4 << 20 });
        globalThis.kept = [stream, library, big, ordered, pinned];
        if (workerData.exit) {
          globalThis.pending = [stream.synchronize(), cuda.Event.create().record(stream).synchronize()];
          process.exit(0);
        }\`;
      (async () => {
        const codes = [];
        for (let batch = 0; batch < 5; batch++) {
          codes.push(...await Promise.all(Array.from({ length: 10 }, (_, i) => new Promise((resolve, reject) => {
            const w = new Worker(body, { eval: true, workerData: { code, spinCycles, exit: i % 2 === 1 } });
            w.on('error', reject);
            w.on('exit', resolve);
          }))));
        }
        const atEnd = deviceMemoryInUse(cuda);
        cuda.Device.get(0).primaryContext.synchronize(); // every worker's kernel is over
        const unreleased = await settledBalance(() => cuda.callCounters.read(), 15000);
        cuda.Device.get(0).primaryContext.synchronize(); // the stream-ordered pool gives its freed memory back
        report({ codes: [...new Set(codes)], unreleased, before, atEnd, after: deviceMemoryInUse(cuda) });
      })().catch((e) => { console.error(e); process.exitCode = 1; });`, {}, ['--expose-gc']);
    if (r.status !== 0 || !r.report) throw new Error(`the script failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
    const { codes, unreleased, before, atEnd, after } = r.report;
    // eslint-disable-next-line no-console
    console.log(`fifty workers: device memory ${before / 2 ** 20} MiB before, ${atEnd / 2 ** 20} MiB as the last ended, ${after / 2 ** 20} MiB after`);
    expect(codes).toEqual([0]);
    expect(unreleased).toEqual({});
    // Fifty workers' 80 MiB each would be 4000 MiB; the context's own allocations may move a little.
    expect(Math.abs(after - before)).toBeLessThanOrEqual(32 * 2 ** 20);
  }, 300000);

  test('a worker that ends with a copy into its registered buffer in flight lets the registration go once the copy is over', () => {
    const r = runScript(`${spinningPrelude}
      // The ArrayBuffer's memory goes back to the heap with the worker: the
      // copy behind the spinning kernel must be over by then.
      const body = \`
        const cuda = require(${JSON.stringify(dist)});
        const { workerData } = require('worker_threads');
        const stream = cuda.Stream.create();
        const library = cuda.Library.load(workerData.code);
        const n = 1 << 20;
        const device = cuda.DeviceBuffer.alloc(n * 4);
        library.kernel('spin_fill').launch({ grid: 64, block: 256, stream }, [cuda.arg.ptr(device), cuda.arg.u32(n), cuda.arg.i64(workerData.spinCycles)]);
        cuda.copy(cuda.HostBuffer.register(new ArrayBuffer(n * 4)), device, { stream });
        globalThis.kept = [stream, library, device];
        if (workerData.exit) {
          globalThis.pending = [stream.synchronize()];
          process.exit(0);
        }\`;
      const end = (exit) => new Promise((resolve, reject) => {
        const w = new Worker(body, { eval: true, workerData: { code, spinCycles, exit } });
        w.on('error', reject);
        w.on('exit', (code) => resolve({ code, registered: resourceBalance(cuda.callCounters.read())['registered host memory'] ?? 0 }));
      });
      (async () => {
        report({ ended: [await end(true), await end(false)] });
      })().catch((e) => { console.error(e); process.exitCode = 1; });`, {}, ['--expose-gc']);
    if (r.status !== 0 || !r.report) throw new Error(`the script failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
    // Each worker's thread waited for its copy and unregistered the buffer itself before it ended.
    expect(r.report.ended).toEqual([{ code: 0, registered: 0 }, { code: 0, registered: 0 }]);
  }, 120000);
});
