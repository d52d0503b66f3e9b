// The disposable base against the stand-in driver (test/fixtures/fake-libcuda.c):
// dispose() is idempotent, [Symbol.dispose] releases at the end of a block
// (also on a throw), a handle's object adopts its slot once, and the slot functions
// lib/disposable.ts calls refuse what is not a live handle's number.
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

const distNative = path.resolve(__dirname, '../../dist/native.js');

const run = (body: string) => {
  const r = runScript(`
    const { native } = require(${JSON.stringify(distNative)});
    const attempt = (f) => { try { f(); return 'ok'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
    // What lib/disposable.ts's registry does once an owner is collected: an entry in the handle queue.
    const ownerCollected = (slot) => { const q = native.handleQueue(); q[++q[0]] = -1 - slot; native.drainHandleQueue(); };
    const destroys = () => cuda.callCounters.read().find((c) => c.name === 'cuStreamDestroy')?.calls ?? 0;
    cuda.callCounters.enable();
    ${body}`, { CUDA_DRIVER_LIBRARY: fakeDriver() }, ['--expose-gc']);
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

test('dispose is idempotent and reflected by disposed; the driver handle is released once', () => {
  const report = run(`
    const stream = cuda.Stream.create();
    const before = stream.disposed;
    stream.dispose();
    stream.dispose();
    report({ before, after: stream.disposed, destroys: destroys(), use: attempt(() => stream.query()) });
  `);
  expect(report).toEqual({ before: false, after: true, destroys: 1, use: 'DisposedError: Stream has been disposed' });
});

test('the legacy and per-thread streams belong to the driver: no way of disposing them ends them', () => {
  const report = run(`
    const legacy = cuda.Stream.legacy();
    const perThread = cuda.Stream.perThread();
    legacy.dispose();
    legacy[Symbol.dispose]();
    native.disposeHandle(legacy.slot);
    native.disposeHandle(perThread.slot);
    ownerCollected(legacy.slot);
    ownerCollected(perThread.slot);
    const buffer = cuda.DeviceBuffer.alloc(16);
    report({
      disposed: [legacy.disposed, perThread.disposed],
      same: cuda.Stream.legacy() === legacy,
      use: [attempt(() => legacy.synchronizeSync()), attempt(() => perThread.synchronizeSync()),
        attempt(() => buffer.fill(1, { stream: legacy })), attempt(() => buffer.fill(2, { stream: perThread }))],
      destroys: destroys(),
    });
  `);
  expect(report).toEqual({ disposed: [false, false], same: true, use: ['ok', 'ok', 'ok', 'ok'], destroys: 0 });
});

// Node 20 has no `using` syntax: the blocks below are what TypeScript emits for it.
test('[Symbol.dispose], which `using` calls, releases at the end of the block, also when it throws', () => {
  const report = run(`
    let kept;
    { const stream = cuda.Stream.create(); try { kept = stream; } finally { stream[Symbol.dispose](); } }
    const afterBlock = [kept.disposed, destroys()];
    const thrown = attempt(() => {
      const stream = cuda.Stream.create();
      try { kept = stream; throw new Error('inside'); } finally { stream[Symbol.dispose](); }
    });
    report({ afterBlock, thrown, afterThrow: [kept.disposed, destroys()] });
  `);
  expect(report).toEqual({ afterBlock: [true, 1], thrown: 'Error: inside', afterThrow: [true, 2] });
});

test('a handle is named by its slot; a disposed one still, to throw the disposed error', () => {
  const report = run(`
    (async () => {
      const stream = cuda.Stream.create();
      const event = cuda.Event.create();
      const slot = stream.slot;
      await null; // past the task that made it: registered for its collection
      stream.dispose();
      report({
        number: Number.isInteger(slot) && slot >= 0,
        same: stream.slot === slot,
        byNumber: attempt(() => native.eventRecord(event.slot, slot)),
        wrongClass: attempt(() => native.eventRecord(slot, event.slot)),
      });
    })();
  `);
  expect(report).toEqual({
    number: true,
    same: true,
    byNumber: 'DisposedError: Stream has been disposed',
    wrongClass: 'TypeError: event must be an Event',
  });
});

test('a handle disposed in the task that made it frees its slot; its object names its class\'s disposed slot', () => {
  const report = run(`
    const event = cuda.Event.create();
    const legacy = cuda.Stream.legacy();
    const stream = cuda.Stream.create();
    const slot = stream.slot;
    stream.dispose();
    const index = (n) => n % 2 ** 24;
    const next = cuda.Stream.create();
    const reused = index(next.slot) === index(slot) && next.slot !== slot;
    next.dispose();
    report({
      destroys: destroys(),
      reused,
      standIn: stream.slot !== slot && stream.slot === next.slot,
      disposed: [stream.disposed, next.disposed],
      byObject: attempt(() => event.record(stream)),
      query: attempt(() => stream.query()),
      wrongClass: attempt(() => native.eventRecord(stream.slot, event.slot)),
      oldNumber: attempt(() => native.eventRecord(event.slot, slot)),
      // Its stand-in stays disposed, whatever names it: a dispose, or a collection written to the queue.
      again: (stream.dispose(), native.disposeHandle(stream.slot), native.disposeUnregistered(stream.slot) === stream.slot && !native.handleAlive(stream.slot)),
      forged: (ownerCollected(stream.slot), native.handleAlive(stream.slot)),
      legacy: [native.disposeUnregistered(legacy.slot) === legacy.slot, legacy.disposed],
    });
  `);
  expect(report).toEqual({
    destroys: 2,
    reused: true,
    standIn: true,
    disposed: [true, true],
    byObject: 'DisposedError: Stream has been disposed',
    query: 'DisposedError: Stream has been disposed',
    wrongClass: 'TypeError: event must be an Event',
    oldNumber: 'TypeError: stream must be a Stream',
    again: true,
    forged: false,
    legacy: [true, false],
  });
});

test('the slot functions refuse numbers that name no live handle', () => {
  const report = run(`
    const stream = cuda.Stream.create();
    const notSlots = [-1, 0.5, 2 ** 60, NaN, 'x', undefined, {}];
    report({
      refused: notSlots.map((s) => [attempt(() => native.disposeHandle(s)), attempt(() => native.handleAlive(s))]),
      query: native.streamQuery(stream.slot),
    });
  `);
  const refusal = 'TypeError: slot must name a live handle';
  expect(report.refused).toEqual(Array(7).fill([refusal, refusal]));
  expect(report.query).toBe(true);
});

test('a handle collected undisposed is released by its object\'s finalizer; its slot number does not keep it', () => {
  const report = run(`
    (async () => {
      let slot;
      (() => { slot = cuda.Stream.create().slot; })();
      for (let i = 0; i < 10 && destroys() === 0; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); }
      report({ destroys: destroys(), use: attempt(() => native.streamQuery(slot)) });
    })();
  `);
  expect(report).toEqual({ destroys: 1, use: 'TypeError: stream must be a Stream' });
});

test('a disposed handle keeps its slot until its object is collected; a stale number then names nothing', () => {
  const report = run(`
    (async () => {
      const holder = { stream: cuda.Stream.create() };
      const slot = holder.stream.slot;
      await null; // past the task that made it: registered for its collection
      holder.stream.dispose();
      holder.stream = undefined;
      const alive = () => { try { return native.handleAlive(slot); } catch (e) { return e.message; } };
      const disposed = [destroys(), alive()];
      for (let i = 0; i < 10 && alive() === false; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); }
      const collected = alive();
      ownerCollected(slot); // a second, late one: ignored
      const next = cuda.Stream.create();
      const index = (n) => n % 2 ** 24;
      report({ disposed, collected, reused: index(next.slot) === index(slot) && next.slot !== slot, stale: alive(), next: next.disposed });
    })();
  `);
  expect(report).toEqual({ disposed: [1, false], collected: 'slot must name a live handle', reused: true,
    stale: 'slot must name a live handle', next: false });
});

test('a new handle nobody adopts is released on the event loop\'s next turn', () => {
  const report = run(`
    native.createStream(0, 1);
    const slot = native.createStream(0, 1);
    const sameTurn = [destroys(), native.handleAlive(slot)];
    setImmediate(() => setImmediate(() => report({ sameTurn, nextTurn: [destroys(), attempt(() => native.handleAlive(slot))] })));
  `);
  expect(report).toEqual({ sameTurn: [0, true], nextTurn: [2, 'TypeError: slot must name a live handle'] });
});

test('the handle queue: an adoption written there keeps the slot past the sweep; what names nothing is ignored', () => {
  const report = run(`
    const q = native.handleQueue();
    const adopted = native.createStream(0, 1);
    const stream = cuda.Stream.create();
    q[++q[0]] = adopted;
    q[++q[0]] = adopted;          // a second adoption: ignored
    q[++q[0]] = -1 - 2 ** 60;     // a collection naming nothing
    q[++q[0]] = NaN;
    q[++q[0]] = 0.5;
    const afterEntries = [q[0], destroys()];
    native.drainHandleQueue();
    const drained = q[0];
    const counts = [NaN, -3, 1e9, q.length, Infinity].map((count) => { q[0] = count; native.drainHandleQueue(); return [q[0], destroys()]; });
    setImmediate(() => setImmediate(() => {
      report({ afterEntries, drained, counts, kept: native.handleAlive(adopted), stream: stream.query() });
    }));
  `);
  expect(report).toEqual({
    afterEntries: [6, 0], drained: 0, counts: Array(5).fill([0, 0]), kept: true, stream: true,
  });
});

test('a handle collected undisposed is released without another call into the addon', () => {
  const report = run(`
    (async () => {
      (() => { cuda.Stream.create(); cuda.Event.create(); })();
      for (let i = 0; i < 10 && destroys() === 0; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); }
      const events = cuda.callCounters.read().find((c) => c.name === 'cuEventDestroy')?.calls ?? 0;
      report({ destroys: destroys(), events, queued: native.handleQueue()[0] });
    })();
  `);
  expect(report).toEqual({ destroys: 1, events: 1, queued: 0 });
});
