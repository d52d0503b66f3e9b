// Waits a service can live with, on the GPU, each in a child process: a kernel
// that faults rejects the awaited wait with a ContextLostError (the context is
// unusable afterwards, so the fault gets a process of its own); a wait for a
// long kernel is given up by its timeout or signal while the kernel runs on;
// and a wait for work that can never end (an event behind a stream memory wait
// nothing satisfies) is given up, after which the process exits, though that
// work is still queued.
import { expectPromptExit, runScript, timeExit } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';

const describeError = `const d = (e) => ({ type: e.constructor.name, name: e.name, code: e.code, result: e.result, message: e.message,
  operation: e.operation, isLost: e instanceof cuda.ContextLostError, isCuda: e instanceof cuda.CudaError });
  const outcome = (p) => p.then(() => 'resolved', d);`;

function child(body: string) {
  const r = runScript(`${describeError}
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 3; });`);
  if (r.status !== 0 || r.report === undefined) throw new Error(`the child failed (${r.status}, ${r.signal}):\n${r.stderr}`);
  return r.report;
}

describeGpu('waits on the GPU', () => {
  test('a kernel writing through a bad pointer rejects the awaited wait with a ContextLostError; later calls fail the same way', () => {
    const report = child(`
      const library = cuda.Library.load(cuda.compile(\`
        extern "C" __global__ void scribble(unsigned* p) { *p = 0xdeadu; }\`, { name: 'fault.cu' }));
      const stream = cuda.Stream.create();
      // An address no allocation holds (the first page is never mapped).
      library.kernel('scribble').launch({ grid: 1, block: 1, stream }, [cuda.arg.u64(0x10n)]);
      const awaited = await outcome(stream.synchronize());
      let later;
      try {
        cuda.Event.create().record(stream).synchronizeSync();
        later = 'no error';
      } catch (e) {
        later = d(e);
      }
      report({ awaited, later });`);
    expect(report.awaited).toMatchObject({ type: 'ContextLostError', result: 700, code: 'CUDA_ERROR_ILLEGAL_ADDRESS', isLost: true, isCuda: true });
    expect(report.awaited.message).toMatch(/^cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS: .*\(the CUDA context is lost: .*restart the process to use the GPU again\)$/);
    expect(report.later).toMatchObject({ type: 'ContextLostError', result: 700, isLost: true });
  });

  test('a wait for a long kernel is given up by its timeout or its signal; the kernel runs on, and a later wait sees it end', () => {
    const report = child(`
      const rate = cuda.Device.get(0).attribute('clockRate'); // kHz
      const library = cuda.Library.load(cuda.compile(\`
        extern "C" __global__ void spin(long long cycles, unsigned* done) {
          long long start = clock64();
          while (clock64() - start < cycles) {}
          *done = 1u;
        }\`, { name: 'spin.cu' }));
      const stream = cuda.Stream.create();
      const done = cuda.DeviceBuffer.alloc(4);
      done.fill(0);
      const began = Date.now();
      library.kernel('spin').launch({ grid: 1, block: 1, stream }, [cuda.arg.i64(rate * 1500), cuda.arg.ptr(done)]); // about 1.5 s
      const timedOut = await outcome(stream.synchronize({ timeoutMs: 100 }));
      const timedOutMs = Date.now() - began;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const aborted = await outcome(cuda.Event.create().record(stream).synchronize({ signal: controller.signal }));
      const abortedMs = Date.now() - began;
      const runningThen = !stream.query();
      await stream.synchronize();
      report({ timedOut, timedOutMs, aborted, abortedMs, runningThen, endedMs: Date.now() - began, done: done.readSync(Uint32Array)[0] });`);
    expect(report.timedOut).toMatchObject({ type: 'TimeoutError', operation: 'Stream.synchronize' });
    expect(report.aborted).toMatchObject({ type: 'AbortError', operation: 'Event.synchronize' });
    expect(report.timedOutMs).toBeLessThan(1000);
    expect(report.abortedMs).toBeLessThan(1200);
    expect(report.runningThen).toBe(true);
    expect(report.endedMs).toBeGreaterThanOrEqual(1000);
    expect(report.done).toBe(1);
  });

  test('a wait for work that can never end is given up, and the process then exits with that work still queued', async () => {
    const r = await timeExit(`${describeError}
      (async () => {
        const stream = cuda.Stream.create();
        const flag = cuda.DeviceBuffer.alloc(4);
        flag.fill(0);
        stream.waitValue32(flag, 1, { condition: 'eq' }); // nothing ever writes 1
        const event = cuda.Event.create().record(stream);
        const byTimeout = await outcome(event.synchronize({ timeoutMs: 200 }));
        const bySignal = await outcome(stream.synchronize({ signal: AbortSignal.timeout(200) }));
        const stillQueued = !event.query();
        globalThis.kept = { stream, flag, event };
        report({ exiting: true, byTimeout, bySignal, stillQueued });
      })().catch((e) => { console.error(e); process.exit(3); });`, {}, '"exiting":true');
    expect(r.report).toMatchObject({
      byTimeout: { type: 'TimeoutError', operation: 'Event.synchronize' },
      bySignal: { type: 'AbortError', operation: 'Stream.synchronize' },
      stillQueued: true,
    });
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPromptExit(r, 5000);
  });
});
