// The library's wait threads (native/core/waiter.cc) against the stand-in driver,
// whose waits return at once. An idle wait thread looks for the next wait for
// a moment before it sleeps, and a wait submitted while it looks wakes no
// other thread: a wake-up lost between the two would leave a promise pending
// (here, until the child's timeout). Bursts of awaited completions follow one
// another with and without a pause longer than the look, while a socket wait
// holds another thread of the pool, so every path of the hand-off is taken.
import { fakeDriver, runScript } from '../helpers/subprocess';

const rounds = 3000;
const streams = 6;

test('bursts of awaited completions all settle, whether an idle wait thread is still looking or asleep', () => {
  const r = runScript(`
    (async () => {
      const streams = Array.from({ length: ${streams} }, () => cuda.Stream.create());
      const event = cuda.Event.create();
      const server = cuda.FdChannelServer.listen();
      let timeouts = 0;
      const hold = () => server.accept({ timeoutMs: 20 }).catch((e) => {
        if (e.name !== 'TimeoutError') throw e;
        timeouts++;
      });
      let holding = hold();
      let waits = 0;
      const values = new Set();
      for (let round = 0; round < ${rounds}; round++) {
        const pending = streams.slice(0, 1 + (round % streams.length)).map((s) => s.synchronize());
        if (round % 3 === 0) {
          event.record(streams[0]);
          pending.push(event.synchronize());
        }
        for (const value of await Promise.all(pending)) values.add(String(value));
        waits += pending.length;
        // A millisecond: the looking thread has gone to sleep before the next burst.
        if (round % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        if (round % 50 === 0) {
          await holding;
          holding = hold();
        }
      }
      await holding;
      server.dispose();
      event.dispose();
      for (const s of streams) s.dispose();
      report({ waits, timeouts, values: [...values] });
    })();`, { CUDA_DRIVER_LIBRARY: fakeDriver() });
  if (r.status !== 0) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}`);
  let waits = 0;
  for (let round = 0; round < rounds; round++) waits += 1 + (round % streams) + (round % 3 === 0 ? 1 : 0);
  // Each hold is an accept that nobody answers: one to start, and one more every 50 rounds.
  expect(r.report).toEqual({ waits, timeouts: 1 + rounds / 50, values: ['undefined'] });
});
