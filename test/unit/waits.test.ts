// Ways out of an awaited wait, against the stand-in driver with work in flight
// (FAKE_CUDA_WORK_MS: each launch keeps its stream busy; -1 for good, as a
// kernel that never ends would). An AbortSignal or a timeout gives up a wait
// (stream, event, graph launch, compile), dispose() rejects the waits on its
// handle, and a process whose waits were given up exits even though the GPU
// work they waited for never ends. A GPU fault rejects the wait with a
// ContextLostError.
import { fakeDriver, fakeNvrtc, runScript } from '../helpers/subprocess';

const describeError = `const d = (e) => ({ type: e.constructor.name, name: e.name, code: e.code, result: e.result, message: e.message,
  operation: e.operation, timeoutMs: e.timeoutMs, cause: e.cause, isError: e instanceof Error,
  isCuda: e instanceof cuda.CudaError });
  const outcome = (p) => p.then(() => 'resolved', d);
  const since = (t) => Date.now() - t;
  const launch = (stream) => {
    const library = cuda.Library.load('FAKE\\nkernel k 8');
    library.kernel('k').launch({ grid: 1, block: 1, stream }, [cuda.arg.u64(0n)]);
  };`;

function run(body: string, env: Record<string, string> = {}) {
  const started = Date.now();
  const r = runScript(`${describeError}
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), ...env });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return { report: r.report, ms: Date.now() - started };
}

describe('giving up a wait for work that never ends', () => {
  const never = { FAKE_CUDA_WORK_MS: '-1' };

  test('timeoutMs rejects with a TimeoutError, and the process then exits though the work goes on', () => {
    const { report, ms } = run(`
      const stream = cuda.Stream.create();
      launch(stream);
      let t = Date.now();
      const stream50 = await outcome(stream.synchronize({ timeoutMs: 50 }));
      const streamMs = since(t);
      const event = cuda.Event.create().record(stream);
      t = Date.now();
      const event30 = await outcome(event.synchronize({ timeoutMs: 30 }));
      const eventMs = since(t);
      const graph = cuda.Graph.create();
      graph.addEmpty();
      const run20 = await outcome(graph.instantiate().run(stream, { timeoutMs: 20 }));
      report({ stream50, streamMs, event30, eventMs, run20, busy: !stream.query() });`, never);
    expect(report.stream50).toEqual({ type: 'TimeoutError', name: 'TimeoutError', code: 'ERR_CUDA_TIMEOUT', message: 'Stream.synchronize timed out after 50 ms',
      operation: 'Stream.synchronize', timeoutMs: 50, isError: true, isCuda: false });
    expect(report.event30).toMatchObject({ type: 'TimeoutError', operation: 'Event.synchronize', timeoutMs: 30 });
    expect(report.run20).toMatchObject({ type: 'TimeoutError', operation: 'GraphExec.run', timeoutMs: 20 });
    expect(report.streamMs).toBeGreaterThanOrEqual(45);
    expect(report.eventMs).toBeGreaterThanOrEqual(25);
    expect(report.busy).toBe(true);
    // The pending driver calls (three threads waiting for good) hold nothing the event loop waits for.
    expect(ms).toBeLessThan(20000);
  });

  test('an aborted signal rejects with an AbortError whose cause is its reason; one aborted already rejects at once', () => {
    const { report } = run(`
      const stream = cuda.Stream.create();
      launch(stream);
      const reason = new Error('client went away');
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason), 20);
      let t = Date.now();
      const aborted = await outcome(stream.synchronize({ signal: controller.signal }));
      const abortedMs = since(t);
      const causeIsReason = (await stream.synchronize({ signal: controller.signal }).catch((e) => e)).cause === reason;
      const event = cuda.Event.create().record(stream);
      const already = await outcome(event.synchronize({ signal: AbortSignal.abort() }));
      const compiled = await outcome(cuda.compileAsync('__global__ void k() {}', { signal: AbortSignal.abort('late') }));
      // Nothing starts: not even the launch of a run.
      const idle = cuda.Stream.create();
      const graph = cuda.Graph.create();
      graph.addEmpty();
      const run = await outcome(graph.instantiate().run(idle, { signal: AbortSignal.abort() }));
      const launched = !idle.query();
      // Node's own timeout signal: its reason is a DOMException named TimeoutError.
      const byTimeoutSignal = await outcome(stream.synchronize({ signal: AbortSignal.timeout(10) }));
      report({ aborted, abortedMs, causeIsReason, already, compiled, run, launched,
        byTimeoutSignal: { type: byTimeoutSignal.type, cause: byTimeoutSignal.cause?.name } });`,
    { ...never, NVRTC_LIBRARY: fakeNvrtc() });
    expect(report.aborted).toEqual({ type: 'AbortError', name: 'AbortError', code: 'ABORT_ERR', message: 'Stream.synchronize was aborted',
      operation: 'Stream.synchronize', cause: {}, isError: true, isCuda: false });
    expect(report.abortedMs).toBeGreaterThanOrEqual(15);
    expect(report.causeIsReason).toBe(true);
    expect(report.already).toMatchObject({ type: 'AbortError', operation: 'Event.synchronize' });
    expect(report.compiled).toMatchObject({ type: 'AbortError', operation: 'compileAsync', cause: 'late' });
    expect(report.run).toMatchObject({ type: 'AbortError', operation: 'GraphExec.run' });
    expect(report.launched).toBe(false);
    expect(report.byTimeoutSignal).toEqual({ type: 'AbortError', cause: 'TimeoutError' });
  });

  test('dispose() of a stream or an event rejects the waits on it with a DisposedError; later waits elsewhere are not affected', () => {
    const { report } = run(`
      const stream = cuda.Stream.create();
      launch(stream);
      const event = cuda.Event.create().record(stream);
      const waits = [stream.synchronize(), stream.synchronize({ timeoutMs: 60000 }), event.synchronize(), event.synchronize({ signal: new AbortController().signal })];
      const other = cuda.Stream.create();
      const otherWait = other.synchronize();
      setTimeout(() => { stream.dispose(); event.dispose(); }, 20);
      const settled = await Promise.all(waits.map(outcome));
      report({ settled: settled.map((e) => [e.type, e.message]), other: await outcome(otherWait) });`, never);
    expect(report.settled).toEqual([
      ['DisposedError', 'Stream has been disposed'], ['DisposedError', 'Stream has been disposed'],
      ['DisposedError', 'Event has been disposed'], ['DisposedError', 'Event has been disposed'],
    ]);
    expect(report.other).toBe('resolved');
  });

  test('a wait never given up keeps the process alive (the GPU may still finish): a child that only awaits is killed by its timeout', () => {
    const r = runScript(`${describeError}
      const stream = cuda.Stream.create();
      launch(stream);
      setTimeout(() => process.kill(process.pid, 'SIGTERM'), 1500).unref();
      stream.synchronize().then(() => console.log('resolved'));`,
    { CUDA_DRIVER_LIBRARY: fakeDriver(), ...never });
    expect(r).toMatchObject({ status: null, signal: 'SIGTERM' });
    expect(r.stdout).not.toContain('resolved');
  });
});

describe('waits that end in time', () => {
  test('resolve as without options; the abort listener and the timer go with the wait (the process does not stay for the timer)', () => {
    const { report, ms } = run(`
      const { getEventListeners } = require('events');
      const stream = cuda.Stream.create();
      const controller = new AbortController();
      launch(stream);
      const streamWait = await outcome(stream.synchronize({ signal: controller.signal, timeoutMs: 60000 }));
      launch(stream);
      const event = cuda.Event.create().record(stream);
      const eventWait = await outcome(event.synchronize({ signal: controller.signal, timeoutMs: 60000 }));
      const listeners = getEventListeners(controller.signal, 'abort').length;
      controller.abort();
      report({ streamWait, eventWait, listeners, idle: stream.query() });`, { FAKE_CUDA_WORK_MS: '30' });
    expect(report).toEqual({ streamWait: 'resolved', eventWait: 'resolved', listeners: 0, idle: true });
    expect(ms).toBeLessThan(30000);
  });

  test('compileAsync with a signal and a timeout compiles as without', () => {
    const { report } = run(`
      const program = await cuda.compileAsync('extern "C" __global__ void k() {}', { signal: new AbortController().signal, timeoutMs: 60000 });
      report({ output: program.output, bytes: program.code.length > 0 });`, { NVRTC_LIBRARY: fakeNvrtc() });
    expect(report).toEqual({ output: 'cubin', bytes: true });
  });

  test('bad options are refused before anything waits', () => {
    const { report } = run(`
      const stream = cuda.Stream.create();
      const attempt = (f) => { try { f(); return 'no error'; } catch (e) { return [e.constructor.name, e.message]; } };
      report({
        signal: attempt(() => stream.synchronize({ signal: {} })),
        nullSignal: attempt(() => stream.synchronize({ signal: null })),
        negative: attempt(() => stream.synchronize({ timeoutMs: -1 })),
        text: attempt(() => stream.synchronize({ timeoutMs: '5' })),
        options: attempt(() => stream.synchronize(5)),
      });`);
    expect(report).toEqual({
      signal: ['TypeError', 'options.signal must be an AbortSignal'],
      nullSignal: ['TypeError', 'options.signal must be an AbortSignal'],
      negative: ['RangeError', 'options.timeoutMs must be between 0 and 2147483647 ms or Infinity, got -1'],
      text: ['TypeError', "options.timeoutMs must be a number of milliseconds or Infinity, got '5'"],
      options: ['TypeError', expect.stringContaining('options must be an object')],
    });
  });
});

test('a GPU fault rejects an awaited wait with a ContextLostError that says to restart the process', () => {
  const { report } = run(`
    const stream = cuda.Stream.create();
    const awaited = await outcome(stream.synchronize());
    const abandonable = await outcome(stream.synchronize({ timeoutMs: 60000 }));
    let blocking; try { stream.synchronizeSync(); } catch (e) { blocking = d(e); }
    report({ awaited, abandonable, blocking });`, { FAKE_CUDA_FAIL: 'cuStreamSynchronize=700' });
  const lost = {
    type: 'ContextLostError', name: 'ContextLostError', code: 'CUDA_ERROR_ILLEGAL_ADDRESS', result: 700, isCuda: true,
    message: 'cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS (the CUDA context is lost: every later call that uses it fails the same way; ' +
      'restart the process to use the GPU again)',
  };
  expect(report.awaited).toMatchObject(lost);
  expect(report.abandonable).toMatchObject(lost);
  expect(report.blocking).toMatchObject(lost);
});
