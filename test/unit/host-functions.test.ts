// Host functions and host nodes over the stand-in driver, which runs them in
// stream order on threads of its own, as the driver does, and keeps the stream
// busy until they return. A waiting callback (the default) holds the stream
// until the JavaScript has run; blocking waits on the JavaScript thread throw
// while one is pending instead of hanging; { wait: false } only hands the call
// over. A captured host function becomes a host node run at every launch.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { distPath, expectPromptExit, fakeDriver, runScript, timeExit } from '../helpers/subprocess';

const helpers = `
  const codeOf = (f) => { try { f(); return 'returned'; } catch (e) { return e.code ?? e.constructor.name; } };
  const launch = (stream) => {
    const library = cuda.Library.load('FAKE\\nkernel k 8');
    library.kernel('k').launch({ grid: 1, block: 1, stream }, [cuda.arg.u64(0n)]);
  };`;

function run(body: string, env: Record<string, string> = {}) {
  const r = runScript(`${helpers}
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), ...env });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
}

describe('host functions on a stream', () => {
  test('the stream waits for the JavaScript callback, which runs after the work before it', () => {
    const report = run(`
      const stream = cuda.Stream.create();
      launch(stream);
      const before = cuda.Event.create().record(stream);
      const seen = [];
      stream.launchHostFunction(() => seen.push({ beforeDone: before.query(), streamIdle: stream.query() }));
      const after = cuda.Event.create().record(stream);
      await after.synchronize();
      report({ seen, idle: stream.query() });`, { FAKE_CUDA_WORK_MS: '30' });
    // Inside the callback the stream is still busy: CUDA's thread waits for it.
    expect(report).toEqual({ seen: [{ beforeDone: true, streamIdle: false }], idle: true });
  });

  test('a blocking wait while a waiting callback is pending throws ERR_CUDA_HOST_CALLBACK_PENDING, naming the fix', () => {
    const report = run(`
      const stream = cuda.Stream.create();
      const event = cuda.Event.create();
      const device = cuda.DeviceBuffer.alloc(16);
      let inside;
      stream.launchHostFunction(() => { inside = codeOf(() => stream.synchronizeSync()); });
      event.record(stream);
      let message;
      let kind;
      try { stream.synchronizeSync(); } catch (e) {
        message = e.message;
        kind = { class: e instanceof cuda.HostCallbackPendingError, name: e.name, operation: e.operation };
      }
      const refused = { stream: codeOf(() => stream.synchronizeSync()), event: codeOf(() => event.synchronizeSync()),
        copy: codeOf(() => device.readSync()), fill: codeOf(() => cuda.fill(device, 1)) };
      await stream.synchronize();
      report({ message, kind, refused, inside, after: codeOf(() => stream.synchronizeSync()), eventAfter: codeOf(() => event.synchronizeSync()) });`);
    expect(report.refused).toEqual({ stream: 'ERR_CUDA_HOST_CALLBACK_PENDING', event: 'ERR_CUDA_HOST_CALLBACK_PENDING',
      copy: 'ERR_CUDA_HOST_CALLBACK_PENDING', fill: 'ERR_CUDA_HOST_CALLBACK_PENDING' });
    expect(report.kind).toEqual({ class: true, name: 'HostCallbackPendingError', operation: 'Stream.synchronizeSync()' });
    expect(report.message).toMatch(/^Stream\.synchronizeSync\(\) would block the JavaScript thread while a host callback the GPU waits for is pending/);
    expect(report.message).toMatch(/Await the promise form .* or queue the callback with \{ wait: false \}/);
    // The callback itself counts: a blocking wait inside it would never end either.
    expect(report.inside).toBe('ERR_CUDA_HOST_CALLBACK_PENDING');
    expect(report).toMatchObject({ after: 'returned', eventAfter: 'returned' });
  });

  test('{ wait: false } hands the call over: the stream completes while the JavaScript thread is blocked', () => {
    const report = run(`
      const stream = cuda.Stream.create();
      let ran = false;
      stream.launchHostFunction(() => { ran = true; }, { wait: false });
      stream.synchronizeSync();
      const ranDuringSync = ran;
      await new Promise((resolve) => setTimeout(resolve, 20));
      const statuses = [];
      stream.addCallback((error) => statuses.push(error), { wait: false });
      stream.synchronizeSync();
      await new Promise((resolve) => setTimeout(resolve, 20));
      report({ ranDuringSync, ran, statuses,
        badWait: codeOf(() => stream.launchHostFunction(() => {}, { wait: 1 })),
        typo: (() => { try { stream.launchHostFunction(() => {}, { wiat: false }); } catch (e) { return e.message; } })(),
        addCallbackTypo: codeOf(() => stream.addCallback(() => {}, { after: [] })) });`);
    expect(report).toMatchObject({ ranDuringSync: false, ran: true, statuses: [null], badWait: 'TypeError', addCallbackTypo: 'TypeError' });
    expect(report.typo).toBe('options.wiat is not an option of launchHostFunction; its options are wait');
  });

  test('addCallback waits too, and gets null for work that succeeded', () => {
    const report = run(`
      const stream = cuda.Stream.create();
      const seen = [];
      stream.addCallback((error) => seen.push({ error, idle: stream.query() }));
      const refused = codeOf(() => stream.synchronizeSync());
      await stream.synchronize();
      report({ seen, refused });`);
    expect(report).toEqual({ seen: [{ error: null, idle: false }], refused: 'ERR_CUDA_HOST_CALLBACK_PENDING' });
  });

  test('a callback that throws is an uncaught exception, and the stream goes on', () => {
    const report = run(`
      const errors = [];
      process.on('uncaughtException', (e) => errors.push(e.message));
      const stream = cuda.Stream.create();
      const ran = [];
      stream.launchHostFunction(() => { ran.push(1); throw new Error('callback failed'); });
      stream.launchHostFunction(() => ran.push(2));
      await stream.synchronize();
      await new Promise((resolve) => setImmediate(resolve));
      report({ errors, ran, idle: stream.query(), sync: codeOf(() => stream.synchronizeSync()) });`);
    expect(report).toEqual({ errors: ['callback failed'], ran: [1, 2], idle: true, sync: 'returned' });
  });

  test('releases wait while a waiting callback is pending: a free may synchronize the device, which waits for the callback', () => {
    const log = path.join(os.tmpdir(), `host-functions-${process.pid}.log`);
    fs.writeFileSync(log, '');
    const report = run(`
      const frees = () => require('fs').readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n').filter((l) => l.startsWith('free ')).length;
      const stream = cuda.Stream.create();
      const buffer = cuda.DeviceBuffer.alloc(64);
      let inside;
      stream.launchHostFunction(() => { inside = frees(); });
      buffer.dispose();
      const whilePending = frees();
      await stream.synchronize();
      report({ whilePending, inside, after: frees() });`, { FAKE_CUDA_LOG: log });
    fs.rmSync(log, { force: true });
    expect(report).toEqual({ whilePending: 0, inside: 0, after: 1 });
  });

  test('each worker has its own guard: a callback pending in a worker does not refuse the main thread', () => {
    const report = run(`
      const { Worker } = require('worker_threads');
      const worker = new Worker(\`
        const cuda = require(${JSON.stringify(JSON.stringify(distPath)).slice(1, -1)});
        const { parentPort } = require('worker_threads');
        const stream = cuda.Stream.create();
        let ran = false;
        stream.launchHostFunction(() => { ran = true; });
        let refused;
        try { stream.synchronizeSync(); } catch (e) { refused = e.code; }
        parentPort.postMessage('queued');
        parentPort.once('message', async () => {
          await stream.synchronize();
          parentPort.postMessage({ refused, ran });
        });\`, { eval: true });
      await new Promise((resolve) => worker.once('message', resolve));
      const main = cuda.Stream.create();
      const mainSync = codeOf(() => main.synchronizeSync());
      worker.postMessage('go');
      const fromWorker = await new Promise((resolve) => worker.once('message', resolve));
      await worker.terminate();
      report({ mainSync, fromWorker });`);
    expect(report).toEqual({ mainSync: 'returned', fromWorker: { refused: 'ERR_CUDA_HOST_CALLBACK_PENDING', ran: true } });
  });
});

describe('captured host functions and host nodes', () => {
  test('a host function queued while capturing becomes a host node, run at every launch', () => {
    const report = run(`
      const stream = cuda.Stream.create();
      const calls = [];
      const graph = stream.capture((s) => {
        s.launchHostFunction(() => calls.push({ waiting: true, idle: stream.query() }));
        s.launchHostFunction(() => calls.push({ waiting: false }), { wait: false });
      });
      const nodes = graph.nodes().map((n) => ({ type: n.type, wait: n.params().wait, hasCallback: n.params().hasCallback }));
      const exec = graph.instantiate();
      for (let i = 0; i < 3; i++) exec.launch(stream);
      await stream.synchronize();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const capturing = cuda.Stream.create();
      const callbackInCapture = capturing.beginCapture();
      const refused = (() => { try { capturing.addCallback(() => {}); } catch (e) { return e.message; } })();
      callbackInCapture.end().dispose();
      report({ nodes, calls, refused });`);
    expect(report.nodes).toEqual([{ type: 'host', wait: true, hasCallback: true }, { type: 'host', wait: false, hasCallback: true }]);
    expect(report.calls.filter((c: { waiting: boolean }) => c.waiting)).toEqual([{ waiting: true, idle: false }, { waiting: true, idle: false }, { waiting: true, idle: false }]);
    expect(report.calls.filter((c: { waiting: boolean }) => !c.waiting)).toHaveLength(3);
    expect(report.refused).toMatch(/stream callbacks cannot be captured; use launchHostFunction/);
  });

  test('addHost waits by default; a blocking wait on a launch that reaches it throws; { wait: false } does not wait', () => {
    const report = run(`
      const stream = cuda.Stream.create();
      const graph = cuda.Graph.create();
      let calls = 0;
      const host = graph.addHost(() => calls++);
      const loose = graph.addHost(() => calls++, { wait: false, after: [host] });
      const params = [host.params(), loose.params()].map((p) => ({ type: p.type, wait: p.wait }));
      const exec = graph.instantiate();
      exec.launch(stream);
      // Whether the launch reached the node before the wait began or during it, the wait throws.
      const blocked = codeOf(() => stream.synchronizeSync());
      await stream.synchronize();
      await new Promise((resolve) => setTimeout(resolve, 20));
      const after = codeOf(() => stream.synchronizeSync());
      const noWait = cuda.Graph.create();
      let looseCalls = 0;
      noWait.addHost(() => looseCalls++, { wait: false });
      noWait.instantiate().launch(stream);
      stream.synchronizeSync();
      const looseDuringSync = looseCalls;
      await new Promise((resolve) => setTimeout(resolve, 20));
      report({ params, blocked, calls, after, looseDuringSync, looseCalls,
        badOption: (() => { try { graph.addHost(() => {}, { wiat: false }); } catch (e) { return e.message; } })(),
        badWait: codeOf(() => graph.addNode({ type: 'host', callback: () => {}, wait: 'yes' })) });`);
    expect(report.params).toEqual([{ type: 'host', wait: true }, { type: 'host', wait: false }]);
    expect(report).toMatchObject({ blocked: 'ERR_CUDA_HOST_CALLBACK_PENDING', calls: 2, after: 'returned', looseDuringSync: 0, looseCalls: 1,
      badWait: 'TypeError' });
    expect(report.badOption).toMatch(/options\.wiat is not an option of addHost/);
  });
});

describe('exit with host callbacks pending', () => {
  test('process.exit while a launch waits for a host node exits promptly', async () => {
    const r = await timeExit(`
      const stream = cuda.Stream.create();
      const graph = cuda.Graph.create();
      graph.addHost(() => {});
      graph.instantiate().launch(stream);
      stream.launchHostFunction(() => {});
      report('exiting');
      process.exit(0);`, { CUDA_DRIVER_LIBRARY: fakeDriver() }, '@@"exiting"');
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPromptExit(r, 2000);
  });

  test('a script that ends with launches of a graph with a host node in flight exits cleanly', () => {
    // The host nodes of launches still queued run on the driver's threads while
    // the process exits: what they reach stays allocated until it is gone.
    // Several processes, as the end of each races with its launches.
    const statuses = Array.from({ length: 5 }, () => {
      const r = runScript(`
        const kernel = cuda.Library.load('FAKE\\nkernel k 8').kernel('k');
        const streams = Array.from({ length: 6 }, () => cuda.Stream.create());
        const graph = cuda.Graph.create();
        graph.addKernel(kernel, { grid: 1, block: 1 }, [cuda.arg.u64(1n)]);
        graph.addHost(() => {});
        const exec = graph.instantiate();
        for (let i = 0; i < 30; i++) exec.launch(streams[i % 6]);`,
      { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_WORK_MS: '2' });
      return `${r.status} ${r.signal} ${r.stderr.trim()}`;
    });
    expect(new Set(statuses)).toEqual(new Set(['0 null ']));
  });
});
