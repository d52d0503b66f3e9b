// Polling for awaited completions (lib/completion-polling.ts), against the
// stand-in driver with work in flight (FAKE_CUDA_WORK_MS keeps each launch's
// stream busy). Polling shows as an immediate the event loop holds: there
// while a polled wait is pending and the window has not passed, gone once the
// waits have settled, never for a wait the driver sleeps in.
import { fakeDriver, runScript } from '../helpers/subprocess';

const prelude = `
  const kernel = cuda.Library.load('FAKE\\nkernel k 8').kernel('k');
  const launch = (stream) => kernel.launch({ grid: 1, block: 1, stream }, [cuda.arg.u64(0n)]);
  // An immediate held: the poll's, once those that free new handles' slots have run (settle()).
  const polling = () => process.getActiveResourcesInfo().includes('Immediate');
  const turns = async (n) => { for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r)); };
  const settle = () => turns(2);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));`;

function run(body: string, workMs = 30) {
  const r = runScript(`${prelude}
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_WORK_MS: String(workMs) });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
}

describe('completion polling', () => {
  test('the window: 1000 microseconds unless set, any whole number of microseconds up to 2^32 - 1, 0 for none', () => {
    const report = run(`
      const errorOf = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
      const initial = cuda.completionPolling();
      cuda.setCompletionPolling(0);
      const off = cuda.completionPolling();
      cuda.setCompletionPolling(0xffffffff);
      const most = cuda.completionPolling();
      report({ initial, off, most, errors: [-1, 1.5, 2 ** 32, '5', undefined, NaN].map((v) => errorOf(() => cuda.setCompletionPolling(v))),
        after: cuda.completionPolling() });`);
    expect(report.initial).toBe(1000);
    expect(report.off).toBe(0);
    expect(report.most).toBe(0xffffffff);
    expect(report.errors).toEqual([
      'RangeError: microseconds must be between 0 and 4294967295, got -1',
      'TypeError: microseconds must be an integer, got 1.5',
      'RangeError: microseconds must be between 0 and 4294967295, got 4294967296',
      "TypeError: microseconds must be an integer, got '5'",
      'TypeError: microseconds must be an integer, got undefined',
      'TypeError: microseconds must be an integer, got NaN',
    ]);
    expect(report.after).toBe(0xffffffff);
  });

  test('the loop polls while a stream or event wait is pending, and stops once the waits have settled', () => {
    const report = run(`
      cuda.setCompletionPolling(10000000);
      const stream = cuda.Stream.create();
      const event = cuda.Event.create();
      await settle();
      const before = polling();
      launch(stream);
      const waiting = stream.synchronize();
      const duringStream = polling();
      await waiting;
      const idle = stream.query();
      await settle();
      const afterStream = polling();
      launch(stream);
      event.record(stream);
      const eventWait = event.synchronize();
      const duringEvent = polling();
      await eventWait;
      const eventDone = event.query();
      await settle();
      report({ before, duringStream, idle, afterStream, duringEvent, eventDone, afterEvent: polling() });`);
    expect(report).toEqual({ before: false, duringStream: true, idle: true, afterStream: false, duringEvent: true, eventDone: true, afterEvent: false });
  });

  test('many waits in flight at once all settle, each on its own stream, polled or not', () => {
    const report = run(`
      const results = {};
      for (const window of [10000000, 0]) {
        cuda.setCompletionPolling(window);
        const streams = Array.from({ length: 24 }, () => cuda.Stream.create());
        streams.forEach(launch);
        await Promise.all(streams.map((s, i) => (i % 2 ? s.synchronize() : cuda.Event.create().record(s).synchronize())));
        results[window] = streams.every((s) => s.query());
        await settle();
        results[window + ' after'] = polling();
      }
      report(results);`, 20);
    expect(report).toEqual({ 10000000: true, '10000000 after': false, 0: true, '0 after': false });
  });

  test('no polling with the window at 0, nor for an event made with blockingSync; the waits still settle', () => {
    const report = run(`
      const stream = cuda.Stream.create();
      const blocking = cuda.Event.create({ blockingSync: true });
      await settle();
      launch(stream);
      blocking.record(stream);
      const blockingWait = blocking.synchronize();
      const forBlocking = polling();
      await blockingWait;
      cuda.setCompletionPolling(0);
      launch(stream);
      const offWait = stream.synchronize();
      const whenOff = polling();
      await offWait;
      report({ forBlocking, blockingDone: blocking.query(), whenOff, streamDone: stream.query() });`);
    expect(report).toEqual({ forBlocking: false, blockingDone: true, whenOff: false, streamDone: true });
  });

  test('polling stops once the window passes without a completion; the wait then settles through the wake-up', () => {
    const report = run(`
      cuda.setCompletionPolling(2000);
      const stream = cuda.Stream.create();
      await settle();
      launch(stream);
      const wait = stream.synchronize();
      const at0 = polling();
      await sleep(40);
      const later = polling();
      await wait;
      report({ at0, later, done: stream.query() });`, 300);
    expect(report).toEqual({ at0: true, later: false, done: true });
  });

  test('a wait given up (dispose, an abort, a timeout) no longer keeps the loop polling; the next wait polls again', () => {
    const report = run(`
      cuda.setCompletionPolling(10000000);
      const outcome = (p) => p.then(() => 'resolved', (e) => e.name);
      const disposed = cuda.Stream.create();
      launch(disposed);
      const w1 = outcome(disposed.synchronize());
      disposed.dispose();
      const aborted = cuda.Stream.create();
      launch(aborted);
      const controller = new AbortController();
      const w2 = outcome(aborted.synchronize({ signal: controller.signal }));
      controller.abort();
      const timedOut = cuda.Stream.create();
      launch(timedOut);
      const w3 = outcome(timedOut.synchronize({ timeoutMs: 1 }));
      const outcomes = await Promise.all([w1, w2, w3]);
      await settle();
      const afterGivenUp = polling();
      const next = cuda.Stream.create();
      await settle();
      launch(next);
      const w4 = next.synchronize();
      const again = polling();
      await w4;
      await turns(2);
      report({ outcomes, afterGivenUp, again, settled: next.query(), end: polling() });`, 200);
    expect(report).toEqual({ outcomes: ['DisposedError', 'AbortError', 'TimeoutError'], afterGivenUp: false, again: true, settled: true, end: false });
  });
});
