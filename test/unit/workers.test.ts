// Worker threads using the library at the same time (test/workers), over the
// stand-in driver in a child process. The stand-in keeps its tables unguarded,
// so it is reached through the fault interposer with FAULT_SERIALIZE=1 (every
// call under one lock, none failed). Four workers and the main thread make,
// use and dispose handles of many kinds at once, launch kernels with
// their slice of one shared buffer (allocated by the main thread) as an
// argument, and check their copies; one more worker ends its thread with its
// handles live and its work queued. Nothing may crash, every worker must end
// cleanly, and once all is over every driver resource made has been released.
// Workers that end with work still in flight (FAKE_CUDA_WORK_MS) leave what it
// uses to the reaper (native/core/reaper.h), which releases it once the work is
// over; work that holds JavaScript values (a registered buffer) is waited for by
// the ending worker itself, for a bounded time.
// The GPU tier (test/gpu/workers.test.ts) checks the values the kernels wrote.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runChild } from '../helpers/child';
import { fakeDriver, faultDriver, parseReport, runScript, startScript } from '../helpers/subprocess';
import type { WorkersReport } from '../workers/main';

test('workers and the main thread make, use and dispose handles at once; a worker ends with work pending; nothing leaks', () => {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-workers-')), 'log');
  const rounds = 12;
  const r = runChild<WorkersReport>('workers', {
    CUDA_DRIVER_LIBRARY: faultDriver(), FAULT_DRIVER_LIBRARY: fakeDriver(), FAULT_SERIALIZE: '1', FAKE_CUDA_LOG: log,
    WORKERS_ENV: 'stand-in', WORKERS_COUNT: '4', WORKERS_ROUNDS: String(rounds), WORKERS_CHURN: '10',
  }, 120000);
  fs.rmSync(path.dirname(log), { recursive: true, force: true });
  if (r.status !== 0 || !r.report) throw new Error(`the workers program failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
  const report = r.report;
  for (const w of report.workers) {
    expect(w.error).toBeUndefined();
    expect(w).toMatchObject({ exitCode: 0, result: { rounds, mismatches: 0 } });
    expect(w.result!.handlesMade).toBeGreaterThan(rounds * 90);
  }
  expect(report.abandoned).toEqual({ exitCode: 0, queued: true });
  // Each worker launched on its own slice: the read-back kernel every round (fill launches add more), the abandoned one once.
  report.launchesBySlice.slice(0, 4).forEach((n) => expect(n).toBeGreaterThanOrEqual(rounds));
  expect(report.launchesBySlice[4]).toBe(1);
  expect(report.mainThreadCycles).toBeGreaterThan(0);
  // Everything the workers (the abandoned one's pending work included) and the main thread made is released.
  expect(report.unreleased).toEqual({});
  expect(report.deviceMemory).toEqual({ before: 0, after: 0 });
}, 150000);

test('workers that end with work queued on their streams, naturally or by process.exit: no crash, nothing left unreleased', () => {
  const balance = path.resolve(__dirname, '../helpers/resource-balance.ts');
  const tsRequire = path.resolve(__dirname, '../helpers/ts-require.js');
  const dist = path.resolve(__dirname, '../../dist');
  // Twenty workers in turn; before the fix about one in two crashed the process as it tore down.
  const r = runScript(`
    require(${JSON.stringify(tsRequire)});
    const { resourceBalance } = require(${JSON.stringify(balance)});
    const { Worker } = require('worker_threads');
    cuda.callCounters.enable();
    const body = \`
      const cuda = require(${JSON.stringify(dist)});
      const { workerData } = require('worker_threads');
      const s = cuda.Stream.create();
      const library = cuda.Library.load('FAKE\\\\nkernel k 8,4,8');
      const b = cuda.DeviceBuffer.alloc(64);
      library.kernel('k').launch({ grid: 1, block: 1, stream: s }, [cuda.arg.ptr(b), cuda.arg.i32(1), cuda.arg.f64(1)]);
      cuda.copy(b, new Uint8Array(64), { stream: s });
      globalThis.kept = [s, library, b, cuda.DeviceBuffer.allocAsync(64, s)];
      if (workerData.exit) process.exit(0);\`;
    (async () => {
      const codes = [];
      for (let i = 0; i < 20; i++) {
        codes.push(await new Promise((resolve, reject) => {
          const w = new Worker(body, { eval: true, workerData: { exit: i % 2 === 1 } });
          w.on('error', reject);
          w.on('exit', resolve);
        }));
      }
      for (let i = 0; i < 5; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); }
      report({ codes: [...new Set(codes)], unreleased: resourceBalance(cuda.callCounters.read()) });
    })().catch((e) => { console.error(e); process.exitCode = 1; });`, { CUDA_DRIVER_LIBRARY: fakeDriver() }, ['--expose-gc']);
  if (r.status !== 0 || !r.report) throw new Error(`the script failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
  expect(r.report).toEqual({ codes: [0], unreleased: {} });
}, 60000);

test('workers that end with work in flight: what it uses is released once the work is over, not before', () => {
  const balance = path.resolve(__dirname, '../helpers/resource-balance.ts');
  const tsRequire = path.resolve(__dirname, '../helpers/ts-require.js');
  const dist = path.resolve(__dirname, '../../dist');
  const workMs = 1500;
  // Each launch keeps its stream busy for workMs. The workers end at once, half
  // by process.exit with waits pending, half by running out of work.
  const r = runScript(`
    require(${JSON.stringify(tsRequire)});
    const { resourceBalance, settledBalance } = require(${JSON.stringify(balance)});
    const { Worker } = require('worker_threads');
    cuda.callCounters.enable();
    const body = \`
      const cuda = require(${JSON.stringify(dist)});
      const { parentPort, workerData } = require('worker_threads');
      const stream = cuda.Stream.create();
      const library = cuda.Library.load('FAKE\\\\nkernel k 8,4,8');
      const buffer = cuda.DeviceBuffer.alloc(1 << 20);
      const ordered = cuda.DeviceBuffer.allocAsync(4096, stream);
      const pinned = cuda.HostBuffer.alloc(4096);
      new Uint8Array(pinned.view()).fill(7);
      library.kernel('k').launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(buffer), cuda.arg.i32(1), cuda.arg.f64(1)]);
      const prepared = library.kernel('k').prepare({ grid: 1, block: 1, stream }, ['ptr', 'i32', 'f64'], [ordered, 2, 2]);
      prepared.launch();
      cuda.copy(ordered, pinned, { stream, bytes: 4096 });
      const event = cuda.Event.create().record(stream);
      globalThis.kept = [stream, library, buffer, ordered, pinned, prepared, event];
      parentPort.postMessage(Date.now());
      if (workerData.exit) {
        globalThis.pending = [stream.synchronize(), event.synchronize()];
        process.exit(0);
      }\`;
    (async () => {
      let lastLaunch = 0;
      const codes = await Promise.all(Array.from({ length: 12 }, (_, i) => new Promise((resolve, reject) => {
        const w = new Worker(body, { eval: true, workerData: { exit: i % 2 === 1 } });
        w.on('message', (at) => (lastLaunch = Math.max(lastLaunch, at)));
        w.on('error', reject);
        w.on('exit', resolve);
      })));
      const atExit = resourceBalance(cuda.callCounters.read());
      const sinceLaunch = Date.now() - lastLaunch;
      const left = await settledBalance(() => cuda.callCounters.read(), 20000);
      report({ codes: [...new Set(codes)], sinceLaunch, atExit, left, settledMs: Date.now() - lastLaunch });
    })().catch((e) => { console.error(e); process.exitCode = 1; });`, {
    CUDA_DRIVER_LIBRARY: faultDriver(), FAULT_DRIVER_LIBRARY: fakeDriver(), FAULT_SERIALIZE: '1', FAKE_CUDA_WORK_MS: String(workMs),
  }, ['--expose-gc']);
  if (r.status !== 0 || !r.report) throw new Error(`the script failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
  const report = r.report;
  expect(report.codes).toEqual([0]);
  // The last worker's work was still running when all had ended: its stream and memory were still held.
  if (report.sinceLaunch < workMs - 300) {
    expect(report.atExit).toMatchObject({ stream: expect.any(Number), 'device memory': expect.any(Number), library: expect.any(Number) });
  }
  // Then, once it was over, the reaper released everything.
  expect(report.left).toEqual({});
  expect(report.settledMs).toBeGreaterThanOrEqual(workMs - 50);
}, 60000);

test('a worker that ends with a registered buffer in its work waits for the work, then unregisters it; work that never ends holds it up for a bounded time only', async () => {
  const balance = path.resolve(__dirname, '../helpers/resource-balance.ts');
  const tsRequire = path.resolve(__dirname, '../helpers/ts-require.js');
  const dist = path.resolve(__dirname, '../../dist');
  // The buffer's memory goes back to the heap with the worker's isolate: it
  // must not while a copy into it may still run. The worker's own thread waits
  // for that work and lets the registrations go itself. One worker ends by
  // process.exit with waits pending, one by running out of work, one by running
  // out of work after disposing its streams (their work is then watched by
  // other threads); each has such work on three streams.
  const script = `
    require(${JSON.stringify(tsRequire)});
    const { resourceBalance } = require(${JSON.stringify(balance)});
    const { Worker } = require('worker_threads');
    cuda.callCounters.enable();
    const body = \`
      const cuda = require(${JSON.stringify(dist)});
      const { parentPort, workerData } = require('worker_threads');
      const library = cuda.Library.load('FAKE\\\\nkernel k 8');
      const device = cuda.DeviceBuffer.alloc(4096);
      const streams = [0, 1, 2].map(() => cuda.Stream.create());
      for (const stream of streams) {
        library.kernel('k').launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(device)]);
        cuda.copy(cuda.HostBuffer.register(new ArrayBuffer(4096)), device, { stream, bytes: 4096 });
      }
      globalThis.kept = [streams, library, device];
      parentPort.postMessage(Date.now());
      if (workerData.dispose) for (const stream of streams) stream.dispose();
      if (workerData.exit) {
        globalThis.pending = streams.map((stream) => stream.synchronize());
        process.exit(0);
      }\`;
    const end = (exit, dispose) => new Promise((resolve, reject) => {
      let launched = 0;
      const w = new Worker(body, { eval: true, workerData: { exit, dispose } });
      w.on('message', (at) => (launched = at));
      w.on('error', reject);
      w.on('exit', (code) => resolve({ code, afterLaunch: Date.now() - launched,
        registered: resourceBalance(cuda.callCounters.read())['registered host memory'] ?? 0 }));
    });
    (async () => {
      const ended = [];
      for (const way of JSON.parse(process.env.WORKER_WAYS)) ended.push(await end(way.exit, way.dispose));
      report({ ended });
    })().catch((e) => { console.error(e); process.exitCode = 1; });`;
  type Ended = { code: number; afterLaunch: number; registered: number };
  const ways = [{ exit: true, dispose: false }, { exit: false, dispose: false }, { exit: false, dispose: true }];
  const run = async (workMs: number, workerWays: typeof ways): Promise<Ended[]> => {
    const r = await startScript(script, {
      CUDA_DRIVER_LIBRARY: faultDriver(), FAULT_DRIVER_LIBRARY: fakeDriver(), FAULT_SERIALIZE: '1', FAKE_CUDA_WORK_MS: String(workMs),
      WORKER_WAYS: JSON.stringify(workerWays),
    }, ['--expose-gc']).result;
    if (r.status !== 0 || !r.report) throw new Error(`the script failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
    return r.report.ended as Ended[];
  };
  // Work that ends: each worker ended after it, with its registrations let go.
  const workMs = 1000;
  for (const ended of await run(workMs, ways)) {
    expect(ended).toMatchObject({ code: 0, registered: 0 });
    expect(ended.afterLaunch).toBeGreaterThanOrEqual(workMs - 50);
  }
  // Work that never ends: the worker still ends, its three streams' waits
  // bounded together (ten seconds, not thirty), and its registrations are left
  // (their memory is not unregistered under the GPU). Each way runs in a
  // process of its own: the heap may hand a left registration's memory to a
  // later buffer, which the driver then refuses to register again.
  const endless = await Promise.all(ways.map((way) => run(-1, [way])));
  for (const [ended] of endless) {
    expect(ended).toMatchObject({ code: 0, registered: 3 });
    expect(ended.afterLaunch).toBeLessThan(20000);
  }
}, 120000);

test('the addon stays loaded when the only workers that loaded it end: its threads outlive them', () => {
  const dist = path.resolve(__dirname, '../../dist');
  // The main thread never loads the library. Node closes the addons a worker
  // loaded when it ends; the wait threads the workers' awaits ran on (still
  // looking for the next wait when a worker exits) must find their code there.
  const body = `
    const cuda = require(${JSON.stringify(dist)});
    const { workerData } = require('worker_threads');
    const kernel = cuda.Library.load('FAKE\\nkernel k 8').kernel('k');
    const stream = cuda.Stream.create();
    (async () => {
      for (let i = 0; i < 4; i++) {
        kernel.launch({ grid: 1, block: 1, stream }, [cuda.arg.u64(0n)]);
        await stream.synchronize();
      }
      if (workerData.exit) process.exit(0);
    })();`;
  const script = `
    const fs = require('fs');
    const { Worker } = require('worker_threads');
    const loaded = () => fs.readFileSync('/proc/self/maps', 'utf8').includes('cuda_driver.node');
    (async () => {
      const codes = [];
      for (let i = 0; i < 12; i++) {
        codes.push(await new Promise((resolve, reject) => {
          const w = new Worker(${JSON.stringify(body)}, { eval: true, workerData: { exit: i % 2 === 1 } });
          w.on('error', reject);
          w.on('exit', resolve);
        }));
      }
      await new Promise((r) => setTimeout(r, 50));
      process.stdout.write('\\n@@' + JSON.stringify({ codes: [...new Set(codes)], loaded: loaded() }) + '\\n');
    })().catch((e) => { console.error(e); process.exitCode = 1; });`;
  const r = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8', env: { ...process.env, CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_WORK_MS: '1' }, timeout: 60000,
  });
  if (r.status !== 0) throw new Error(`the script failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
  expect(parseReport(r.stdout)).toEqual({ codes: [0], loaded: true });
}, 60000);

test('workers terminated while their awaits settle: no crash', () => {
  const dist = path.resolve(__dirname, '../../dist');
  // worker.terminate() stops a worker's JavaScript at once: what the addon's
  // entries and the completion poll then throw cannot reach JavaScript, and is
  // dropped (an error that could not be thrown used to end the process).
  const body = `
    const cuda = require(${JSON.stringify(dist)});
    const { parentPort } = require('worker_threads');
    const kernel = cuda.Library.load('FAKE\\nkernel k 8').kernel('k');
    const streams = Array.from({ length: 8 }, () => cuda.Stream.create());
    (async () => {
      for (;;) {
        await Promise.all(streams.map((stream) => {
          kernel.launch({ grid: 1, block: 1, stream }, [cuda.arg.u64(0n)]);
          return stream.synchronize();
        }));
      }
    })();
    setTimeout(() => parentPort.postMessage('running'), 5);`;
  const r = runScript(`
    const { Worker } = require('worker_threads');
    (async () => {
      let ended = 0;
      for (let i = 0; i < 12; i++) {
        await new Promise((resolve, reject) => {
          const w = new Worker(${JSON.stringify(body)}, { eval: true });
          w.on('message', () => w.terminate());
          w.on('error', reject);
          w.on('exit', resolve);
        });
        ended++;
      }
      report({ ended });
    })().catch((e) => { console.error(e); process.exitCode = 1; });`, { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_WORK_MS: '1' });
  if (r.status !== 0 || !r.report) throw new Error(`the script failed (${r.status}, ${r.signal}):\n${r.stderr.slice(-3000)}`);
  expect(r.report).toEqual({ ended: 12 });
}, 60000);
