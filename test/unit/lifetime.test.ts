// Lifetimes against the stand-in driver (test/fixtures/fake-libcuda.c), which
// logs every release: use after dispose, double dispose, handles collected
// undisposed, parents dropped before their children, and the leaks the
// reliability work found (each test names the one it guards). The GPU tier
// (test/gpu/lifetime.test.ts) adds disposal while a kernel still runs.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

const balance = path.resolve(__dirname, '../helpers/resource-balance.ts');
const tsRequire = path.resolve(__dirname, '../helpers/ts-require.js');
// The addon's module-level calls, as the package loads them.
const distNative = path.resolve(__dirname, '../../dist/native.js');

const prelude = `
  require(${JSON.stringify(tsRequire)});
  const { resourceBalance } = require(${JSON.stringify(balance)});
  const fs = require('fs');
  const log = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n').filter((l) => l && !/^(retain|release)$/.test(l));
  const clearLog = () => fs.writeFileSync(process.env.FAKE_CUDA_LOG, '');
  const attempt = (f) => { try { const v = f(); if (v instanceof Promise) { v.catch(() => {}); return 'promise'; } return 'ok'; } catch (e) { return e.constructor.name; } };
  const settle = async () => { for (let i = 0; i < 10; i++) { global.gc?.(); await new Promise((r) => setTimeout(r, 10)); } };
  const unreleased = () => resourceBalance(cuda.callCounters.read());
  const image = 'FAKE\\nkernel k 8,4,8\\nkernel empty';
  cuda.callCounters.enable();
`;

let logFile: string;
beforeEach(() => {
  logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-lifetime-')), 'log');
  fs.writeFileSync(logFile, '');
});

const run = (body: string) => {
  const r = runScript(`${prelude}(async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
    { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: logFile }, ['--expose-gc']);
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

// One of every handle kind the stand-in can make, with a call that needs it alive.
const everyKind = `
  const M = 2 << 20;
  const stream = cuda.Stream.create();
  const library = cuda.Library.load(image);
  const kernel = library.kernel('k');
  const graph = cuda.Graph.create();
  const buffer = cuda.DeviceBuffer.alloc(256);
  const mappingForExport = cuda.Mapping.alloc(M, { handleTypes: ['posixFileDescriptor'] });
  const exported = cuda.shareMemory(mappingForExport);
  const kinds = {
    context: [() => cuda.Device.get(0).createContext(), (x) => x.apiVersion],
    stream: [() => cuda.Stream.create(), (x) => x.query()],
    event: [() => cuda.Event.create(), (x) => x.query()],
    deviceBuffer: [() => cuda.DeviceBuffer.alloc(64), (x) => x.fill(1)],
    pitchedBuffer: [() => cuda.DeviceBuffer.allocPitched(64, 2), (x) => x.address],
    asyncBuffer: [() => cuda.DeviceBuffer.allocAsync(64, stream), (x) => x.readSync()],
    hostBuffer: [() => cuda.HostBuffer.alloc(64), (x) => x.view()],
    registeredBuffer: [() => cuda.HostBuffer.register(new ArrayBuffer(64)), (x) => x.devicePointer],
    pool: [() => cuda.MemoryPool.create(), (x) => x.trimTo(0)],
    graph: [() => cuda.Graph.create(), (x) => x.nodeCount],
    node: [() => graph.addEmpty(), (x) => x.type],
    exec: [() => graph.instantiate(), (x) => x.launch(stream)],
    graphAllocation: [() => cuda.Graph.create().addAlloc(64).allocation, (x) => x.address],
    userObject: [() => cuda.UserObject.create(() => {}), (x) => x.references],
    library: [() => cuda.Library.load(image), (x) => x.kernelCount],
    module: [() => cuda.Module.load(image), (x) => x.functionCount],
    kernel: [() => library.kernel('k'), (x) => x.attribute('maxThreadsPerBlock')],
    preparedLaunch: [() => kernel.prepare({ grid: 1, block: 1, stream }, ['ptr', 'i32', 'f64']), (x) => x.set(0, null)],
    physicalAllocation: [() => cuda.PhysicalAllocation.create(M), (x) => x.properties()],
    reservation: [() => cuda.AddressReservation.reserve(M), (x) => x.address],
    mapping: [() => cuda.Mapping.alloc(M), (x) => x.segments()],
    growable: [() => cuda.GrowableBuffer.create({ maxSize: 4 * M, size: M }), (x) => x.resize(2 * M)],
    ownedFd: [() => mappingForExport.segments()[0].allocation.exportFd(), (x) => x.fd],
    fdServer: [() => cuda.FdChannelServer.listen(), (x) => x.accept({ timeoutMs: 0 })],
    tensorMap: [() => cuda.TensorMap.tiled({ memory: buffer, dataType: 'float32', dims: [16, 4], box: [4, 4] }), (x) => x.replaceAddress(buffer)],
  };
`;

describe('handles after dispose', () => {
  test('every kind: dispose twice is quiet, then each use throws DisposedError and reaches no driver call', () => {
    const r = run(`${everyKind}
      const out = {};
      const total = () => cuda.callCounters.read().reduce((n, c) => n + c.calls, 0);
      // What earlier kinds left to release when their streams went idle runs on
      // other threads (the counters count every thread): wait until the counts
      // stop moving, so that only the use after dispose is counted.
      const settled = async () => {
        let last;
        let now = total();
        do {
          last = now;
          await new Promise((resolve) => setTimeout(resolve, 20));
          now = total();
        } while (now !== last);
        return now;
      };
      for (const [name, [make, use]] of Object.entries(kinds)) {
        const x = make();
        const before = attempt(() => use(x));
        x.dispose();
        const second = attempt(() => x.dispose());
        const calls = await settled();
        let after;
        try { const v = use(x); after = v instanceof Promise ? await v.then(() => 'resolved', (e) => e.constructor.name) : 'ok'; }
        catch (e) { after = e.constructor.name; }
        const reached = total() - calls;
        out[name] = { before, second, after, disposed: x.disposed, reached, text: String(x) };
      }
      report(out);`);
    for (const [name, o] of Object.entries(r as Record<string, { before: string; second: string; after: string; disposed: boolean; reached: number; text: string }>)) {
      expect([name, o.before === 'ok' || o.before === 'promise']).toEqual([name, true]);
      expect([name, o.second, o.after, o.disposed, o.reached]).toEqual([name, 'ok', 'DisposedError', true, 0]);
      expect(o.text).toContain('disposed');
    }
  });

  test('handles collected undisposed are released by their finalizers', () => {
    const r = run(`${everyKind}
      const made = [];
      (() => { for (const [, [make]] of Object.entries(kinds)) made.push(make()); })();
      made.length = 0;
      for (const x of [stream, library, kernel, graph, buffer]) void x;
      await settle();
      const left = unreleased();
      report({ left, freed: log().filter((l) => l.startsWith('free ')).length });`);
    // Only what the script still holds remains: a stream, a library, a buffer and the exported mapping.
    expect(r.left).toEqual({ stream: 1, library: 1, 'device memory': 1, mapping: 1, 'physical allocation': 1, 'address reservation': 1 });
  });

  test('a stream collected with work queued lets go of what the work used, a buffer freed on it included', () => {
    const r = run(`
      (() => {
        const s = cuda.Stream.create();
        const b = cuda.DeviceBuffer.allocAsync(256, s);
        cuda.fill(b, 1, { stream: s });
        const library = cuda.Library.load(image);
        const prepared = library.kernel('k').prepare({ grid: 1, block: 1, stream: s }, ['ptr', 'i32', 'f64'], [b, 1, 2]);
        prepared.launch();
      })();
      await settle();
      report({ left: unreleased() });`);
    expect(r.left).toEqual({});
  });
});

describe('parents dropped before their children', () => {
  test('a buffer outlives its pool; the pool is destroyed after the buffer is freed', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const pool = cuda.MemoryPool.create();
      const b = cuda.DeviceBuffer.allocAsync(256, stream, { pool });
      pool.dispose();
      b.write(new Uint8Array(256).fill(3), { stream });
      const back = b.readSync().every((x) => x === 3);
      clearLog();
      b.dispose();
      stream.synchronizeSync();
      stream.dispose();
      await settle();
      report({ back, order: log().map((l) => l.split(' ')[0] + ' ' + l.split(' ')[1]), left: unreleased() });`);
    expect(r.back).toBe(true);
    expect(r.order.filter((l: string) => /^(free-async|pool destroy)/.test(l))).toEqual([expect.stringMatching(/^free-async/), 'pool destroy']);
    expect(r.left).toEqual({});
  });

  test('an executable outlives its graph, kernel and library; the library is unloaded after the executable goes', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const library = cuda.Library.load(image);
      const kernel = library.kernel('k');
      const buffer = cuda.DeviceBuffer.alloc(64);
      const graph = cuda.Graph.create();
      graph.addKernel(kernel, { grid: 1, block: 1 }, [cuda.arg.ptr(buffer), cuda.arg.i32(1), cuda.arg.f64(2)]);
      const exec = graph.instantiate();
      graph.dispose(); kernel.dispose(); library.dispose(); buffer.dispose();
      await settle();
      const beforeLaunch = log().filter((l) => /unload|^free|graph destroy/.test(l));
      exec.launch(stream);
      exec.dispose();
      await stream.synchronize();
      stream.dispose();
      await settle();
      report({ beforeLaunch, after: log().filter((l) => /unload|^free|exec destroy/.test(l)).map((l) => l.split(' ').slice(0, 2).join(' ')), left: unreleased() });`);
    // Dropping the graph releases the driver's graph; the executable keeps the kernel, library and buffer.
    expect(r.beforeLaunch.filter((l: string) => /unload|^free/.test(l))).toEqual([]);
    expect(r.after).toEqual(expect.arrayContaining(['library unload', 'exec destroy']));
    expect(r.after.some((l: string) => l.startsWith('free'))).toBe(true);
    expect(r.left).toEqual({});
  });

  test('a prepared launch whose stream was disposed refuses to launch; nothing it held is left behind', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const library = cuda.Library.load(image);
      const kernel = library.kernel('k');
      const buffer = cuda.DeviceBuffer.alloc(64);
      const prepared = kernel.prepare({ grid: 1, block: 1, stream }, ['ptr', 'i32', 'f64'], [buffer, 1, 2]);
      prepared.launch();
      stream.dispose();
      let refused;
      try { prepared.launch(); } catch (e) { refused = e.constructor.name + ': ' + e.message; }
      for (const h of [prepared, kernel, library, buffer]) h.dispose();
      await settle();
      report({ refused, left: unreleased() });`);
    expect(r.refused).toBe("DisposedError: the prepared launch's Stream has been disposed");
    expect(r.left).toEqual({});
  });

  test('a stream outlives the Context object of its primary context; the context is not reset while it lives', () => {
    const r = run(`
      const device = cuda.Device.get(0);
      const stream = cuda.Stream.create();
      device.primaryContext.dispose();
      const query = stream.query();
      const reset = attempt(() => device.resetPrimaryContext());
      stream.dispose();
      report({ query, reset, left: unreleased() });`);
    expect(r).toEqual({ query: true, reset: 'Error', left: {} });
  });

  test('a mapping outlives its reservation and allocation; dispose unmaps, then releases and frees', () => {
    const r = run(`
      const M = 2 << 20;
      const reservation = cuda.AddressReservation.reserve(M);
      const allocation = cuda.PhysicalAllocation.create(M);
      const mapping = cuda.Mapping.map(reservation, allocation);
      reservation.dispose(); allocation.dispose();
      clearLog();
      const segments = mapping.segments().length;
      mapping.dispose();
      await settle();
      report({ segments, order: log().map((l) => l.split(' ')[0]), left: unreleased() });`);
    expect(r.segments).toBe(1);
    const order = r.order.filter((l: string) => ['unmap', 'memrelease', 'free'].includes(l));
    expect(order[0]).toBe('unmap');
    expect(order.slice(1).sort()).toEqual(['free', 'memrelease']);
    expect(r.left).toEqual({});
  });
});

describe('graph nodes: one object each, their slots freed with their graph', () => {
  test('the builder and nodes() agree on each node\'s object, which names its graph', () => {
    const r = run(`
      const graph = cuda.Graph.create();
      const a = graph.addEmpty();
      const b = graph.addEmpty({ after: [a] });
      const listed = graph.nodes();
      report({ listed: [a, b].map((n) => listed.indexOf(n)).sort(), again: graph.nodes().every((n, i) => n === listed[i]), graph: a.graph === graph });`);
    expect(r).toEqual({ listed: [0, 1], again: true, graph: true });
  });

  test('a node outlives its graph\'s disposal as an object that throws; the slots go when graph and nodes are collected', () => {
    const r = run(`
      const alive = (slot) => { try { return native.handleAlive(slot); } catch (e) { return e.message; } };
      const { native } = require(${JSON.stringify(distNative)});
      let slots, kept;
      (() => {
        const graph = cuda.Graph.create();
        const nodes = [graph.addEmpty(), graph.addEmpty()];
        graph.nodes();
        slots = [graph.slot, ...nodes.map((n) => n.slot)];
        kept = graph.addEmpty({ after: nodes });
        graph.dispose();
      })();
      const disposedGraph = [attempt(() => kept.type), kept.disposed, kept.graph.disposed];
      await settle();
      const whileKept = slots.map(alive);
      kept = undefined;
      await settle();
      report({ disposedGraph, whileKept, collected: slots.map(alive) });`);
    const stale = 'slot must name a live handle';
    expect(r).toEqual({ disposedGraph: ['DisposedError', false, true], whileKept: [false, true, true], collected: [stale, stale, stale] });
  });

  test('a disposed graph lets go of its nodes\' objects; a disposed data-flow graph still says so and refuses nodes as disposed', () => {
    const r = run(`
      const graph = cuda.Graph.create({ dataflow: true });
      const buffer = cuda.DeviceBuffer.alloc(64);
      let first = graph.addFill(buffer, 1);
      const second = graph.addFill(buffer, 2);
      const weak = new WeakRef(first);
      first = undefined;
      graph.dispose();
      await settle();
      report({
        collected: weak.deref() === undefined, kept: attempt(() => second.type),
        dataflow: graph.dataflow, add: attempt(() => graph.addFill(buffer, 3)),
        kernel: attempt(() => graph.addEmpty({ reads: [buffer] })),
      });`);
    expect(r).toEqual({ collected: true, kept: 'DisposedError', dataflow: true, add: 'DisposedError', kernel: 'DisposedError' });
  });

  test('nodes added before and after a listing, thousands of them, are one object each; a destroyed node\'s address reused is a new node', () => {
    const r = run(`
      const graph = cuda.Graph.create();
      const made = [graph.addEmpty()];
      for (let i = 1; i < 20; i++) made.push(graph.addEmpty({ after: [made[i - 1]] }));
      const early = graph.nodes();
      // The stand-in has 4096 nodes in all: the last add takes the one destroy frees.
      while (made.length < 4096) made.push(graph.addEmpty({ after: [made[19]] }));
      const listed = graph.nodes();
      const all = new Set(made);
      const destroyed = made[7];
      destroyed.destroy();
      const reused = graph.addEmpty();
      const after = graph.nodes();
      report({
        early: early.length === 20 && early.every((n) => all.has(n)),
        listed: listed.length === 4096 && new Set(listed).size === 4096 && listed.every((n) => all.has(n)),
        sameAddress: reused.handle === destroyed.handle, reusedNew: reused !== destroyed,
        after: after.length === 4096 && after.includes(reused) && !after.includes(destroyed),
        destroyedUse: attempt(() => destroyed.type), reusedType: reused.type,
      });`);
    expect(r).toEqual({ early: true, listed: true, sameAddress: true, reusedNew: true, after: true, destroyedUse: 'TypeError', reusedType: 'empty' });
  });

  test('a node object disposed is replaced by a new one for the same node', () => {
    const r = run(`
      const graph = cuda.Graph.create();
      const a = graph.addEmpty();
      a.dispose();
      const [again] = graph.nodes();
      report({ same: again === a, used: attempt(() => a.type), type: again.type, listed: graph.nodes()[0] === again });`);
    expect(r).toEqual({ same: false, used: 'DisposedError', type: 'empty', listed: true });
  });
});

describe('leaks the reliability work found, fixed', () => {
  test('a stream disposed while capturing ends its capture, and releases deferred by it go ahead', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const b = cuda.DeviceBuffer.allocAsync(256, s);
      const plain = cuda.DeviceBuffer.alloc(256);
      const capture = s.beginCapture();
      b.dispose();
      s.dispose();
      plain.dispose();
      await settle();
      report({ log: log().map((l) => l.split(' ').slice(0, 2).join(' ')), left: unreleased() });`);
    expect(r.log).toEqual(expect.arrayContaining(['capture end', 'stream destroy']));
    expect(r.log.filter((l: string) => /^free/.test(l)).map((l: string) => l.split(' ')[0]).sort()).toEqual(['free', 'free-async']);
    expect(r.left).toEqual({});
  });

  test("the graph a capture builds: nodes added to it mid-capture, end() hands it over, a discarded one throws", () => {
    const r = run(`
      const s = cuda.Stream.create();
      const b = cuda.DeviceBuffer.alloc(64);
      const capture = s.beginCapture();
      cuda.fill(b, 1, { stream: s });
      const info = capture.info();
      const marker = info.graph.addEmpty({ after: info.dependencies });
      cuda.fill(b, 2, { stream: s });
      const graph = capture.end();
      const out = { status: info.status, isGraph: info.graph instanceof cuda.Graph, same: graph === info.graph,
        deps: Array.isArray(info.dependencies), edges: info.edges.length === info.dependencies.length,
        listed: graph.nodes().includes(marker), markerType: marker.type, ended: attempt(() => capture.graph) };
      graph.dispose();
      const discarded = s.beginCapture();
      const view = discarded.graph;
      const node = view.addEmpty();
      discarded.dispose();
      out.viewAfter = attempt(() => view.addEmpty());
      out.nodeAfter = attempt(() => node.type);
      out.status2 = s.captureStatus;
      view.dispose(); b.dispose(); s.dispose();
      await settle();
      out.left = unreleased();
      report(out);`);
    expect(r).toMatchObject({ status: 'active', isGraph: true, same: true, deps: true, edges: true, listed: true, markerType: 'empty',
      ended: 'Error', nodeAfter: 'DisposedError', status2: 'none', left: {} });
    expect(r.viewAfter).toMatch(/Error/);
  });

  test('a StreamCapture collected while open ends its capture', () => {
    const r = run(`
      const s = cuda.Stream.create();
      (() => { s.beginCapture(); })();
      const held = cuda.DeviceBuffer.alloc(64);
      held.dispose(); // deferred while the capture is open
      const during = log().some((l) => l.startsWith('free'));
      await settle();
      report({ during, status: s.captureStatus, after: log().some((l) => l.startsWith('free')), ended: log().includes('capture end 1') });`);
    expect(r).toEqual({ during: false, status: 'none', after: true, ended: true });
  });

  test("a prepared launch and a stream-ordered buffer kept by their own stream's work are released when all is disposed", () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const library = cuda.Library.load(image);
      const kernel = library.kernel('k');
      const b = cuda.DeviceBuffer.allocAsync(64, stream);
      const p = kernel.prepare({ grid: 1, block: 1, stream }, ['ptr', 'i32', 'f64'], [b, 1, 2]);
      p.launch();
      kernel.launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(b), cuda.arg.i32(1), cuda.arg.f64(1)]);
      p.dispose(); b.dispose(); kernel.dispose(); library.dispose(); stream.dispose();
      await settle();
      report({ left: unreleased(), unloaded: log().includes('library unload') });`);
    expect(r).toEqual({ left: {}, unloaded: true });
  });

  test('an event that completed lets go of what its stream kept for the work before the record', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const event = cuda.Event.create();
      const b = cuda.DeviceBuffer.alloc(64);
      b.write(new Uint8Array(64), { stream });
      b.dispose();
      const kept = stream.pendingResources;
      event.record(stream);
      event.synchronizeSync();
      const afterSync = stream.pendingResources;
      const b2 = cuda.DeviceBuffer.alloc(64);
      b2.write(new Uint8Array(64), { stream });
      b2.dispose();
      event.record(stream);
      await event.synchronize();
      report({ kept, afterSync, afterAwait: stream.pendingResources, frees: log().filter((l) => l.startsWith('free ')).length });`);
    expect(r).toEqual({ kept: 1, afterSync: 0, afterAwait: 0, frees: 2 });
  });

  test('a wait on an event recorded again since it began lets go of nothing: it cannot tell which record it saw complete', () => {
    const r = run(`
      const first = cuda.Stream.create();
      const second = cuda.Stream.create();
      const event = cuda.Event.create();
      const b = cuda.DeviceBuffer.alloc(64);
      b.write(new Uint8Array(64), { stream: first });
      b.dispose();
      event.record(first);
      const wait = event.synchronize();
      event.record(second);
      await wait;
      const afterAwait = first.pendingResources;
      first.synchronizeSync();
      report({ afterAwait, afterSync: first.pendingResources });`);
    expect(r).toEqual({ afterAwait: 1, afterSync: 0 });
  });

  test('an event that others may record (a graph record node, a captured record, another process) lets go of nothing', () => {
    const r = run(`
      const keptThroughWait = (event, wait) => {
        const stream = cuda.Stream.create();
        const b = cuda.DeviceBuffer.alloc(64);
        b.write(new Uint8Array(64), { stream });
        b.dispose();
        event.record(stream);
        wait(event);
        const kept = stream.pendingResources;
        stream.synchronizeSync();
        return [kept, stream.pendingResources];
      };
      const inGraph = cuda.Event.create();
      const graph = cuda.Graph.create();
      graph.addEventRecord(inGraph);
      const captured = cuda.Event.create();
      const capturing = cuda.Stream.create();
      const capture = capturing.beginCapture();
      captured.record(capturing);
      capture.end().dispose();
      const plain = cuda.Event.create();
      report({
        graphNode: keptThroughWait(inGraph, (e) => e.synchronizeSync()),
        captured: keptThroughWait(captured, (e) => e.query()),
        interprocess: keptThroughWait(cuda.Event.create({ interprocess: true }), (e) => e.synchronizeSync()),
        plain: keptThroughWait(plain, (e) => e.synchronizeSync()),
      });`);
    expect(r).toEqual({ graphNode: [1, 0], captured: [1, 0], interprocess: [1, 0], plain: [0, 0] });
  });

  test('memory launched with again after a synchronization is kept again (the stamps of an earlier epoch do not count)', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const library = cuda.Library.load(image);
      const kernel = library.kernel('k');
      const b = cuda.DeviceBuffer.alloc(64);
      const launch = () => kernel.launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(b), cuda.arg.i32(1), cuda.arg.f64(1)]);
      launch();
      launch();
      const first = stream.pendingResources;
      stream.synchronizeSync();
      const afterSync = stream.pendingResources;
      launch();
      const again = stream.pendingResources;
      b.dispose();
      const freedWhileQueued = log().filter((l) => l.startsWith('free ')).length;
      stream.synchronizeSync();
      report({ first, afterSync, again, freedWhileQueued, freed: log().filter((l) => l.startsWith('free ')).length });`);
    expect(r).toEqual({ first: 2, afterSync: 0, again: 2, freedWhileQueued: 0, freed: 1 });
  });

  test('what a wait let go is freed at its dispose, though the stream keeps its place for the next launch', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const library = cuda.Library.load(image);
      const kernel = library.kernel('k');
      const frees = () => log().filter((l) => l.startsWith('free ')).length;
      const launchWith = (b) => kernel.launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(b), cuda.arg.i32(1), cuda.arg.f64(1)]);
      const b = cuda.DeviceBuffer.alloc(64);
      launchWith(b);
      stream.synchronizeSync();
      b.dispose();
      const freedAtDispose = frees();
      stream.synchronizeSync();
      stream.synchronizeSync();
      const b2 = cuda.DeviceBuffer.alloc(64);
      launchWith(b2);
      const kept = stream.pendingResources;
      b2.dispose();
      const freedWhileQueued = frees();
      stream.synchronizeSync();
      report({ freedAtDispose, kept, freedWhileQueued, freed: frees(), pendingAfter: stream.pendingResources });`);
    expect(r).toEqual({ freedAtDispose: 1, kept: 2, freedWhileQueued: 1, freed: 2, pendingAfter: 0 });
  });

  test('graph nodes nobody disposes are collected (a finalizer entry kept each one, and its native object, for good)', () => {
    const r = run(`
      const phase = async () => {
        for (let i = 0; i < 5000; i++) { const g = cuda.Graph.create(); g.addEmpty(); g.addEmpty(); g.dispose(); }
        await settle();
        return process.memoryUsage().heapUsed;
      };
      await phase();
      const a = await phase();
      const b = await phase();
      report({ growth: b - a });`);
    // 10,000 nodes kept would be about 5 MB.
    expect(r.growth).toBeLessThan(1 << 20);
  });

  test('a graph retaining and releasing a user object again and again keeps none of them', () => {
    const r = run(`
      const g = cuda.Graph.create();
      for (let i = 0; i < 300; i++) {
        const u = cuda.UserObject.create(() => {});
        g.retainUserObject(u, { count: 2 });
        g.releaseUserObject(u, 2);
        u.dispose();
      }
      await settle();
      report({ resources: g.resourceCount, destroyed: log().filter((l) => l.endsWith('destroyed')).length });`);
    expect(r).toEqual({ resources: 0, destroyed: 300 });
  });

  test('a user object that holds no references can be retained neither by itself nor by a graph', () => {
    const r = run(`
      const u = cuda.UserObject.create(() => {});
      const g = cuda.Graph.create();
      g.retainUserObject(u, { move: true });
      report({ references: u.references, retain: attempt(() => u.retain(1)), graphRetain: attempt(() => cuda.Graph.create().retainUserObject(u)) });`);
    expect(r).toEqual({ references: 0, retain: 'RangeError', graphRetain: 'RangeError' });
  });

  test('a pointer offset near 2^64 is refused, not wrapped around to before the parameter bytes', () => {
    const r = run(`
      const { native } = require(${JSON.stringify(distNative)});
      const stream = cuda.Stream.create();
      const kernel = cuda.Library.load(image).kernel('k');
      const b = cuda.DeviceBuffer.alloc(64);
      const { packedRecord } = require(${JSON.stringify(path.resolve(__dirname, '../../dist/kernel/kernel'))});
      const p = kernel.prepare({ grid: 1, block: 1, stream }, ['ptr', 'i32', 'f64']);
      // The record a launch takes (native/kernel/launch.h KernelCall): 24 bytes of parameters, one
      // [offset, memory slot, byte offset] MemoryArgument (counts [24, 1]), the kernel and stream.
      const launch = (offset) => {
        const packed = packedRecord(24, 1);
        packed.config.set([1, 1, 1, 1, 1, 1]);
        packed.pointers.set([offset, b.slot, 0]);
        packed.fields[1] = 1;
        packed.launch.set([kernel.slot, stream.slot]);
        return native.kernelLaunch(packed.record);
      };
      report({
        launch: attempt(() => launch(2 ** 64 - 8)),
        setPointer: attempt(() => native.preparedLaunchSetPointer(p.slot, 2n ** 64n - 8n, b.slot, 0)),
        setNull: attempt(() => native.preparedLaunchSetPointer(p.slot, 2n ** 64n - 8n, null, 0)),
        fits: attempt(() => launch(16)),
      });`);
    expect(r).toEqual({ launch: 'RangeError', setPointer: 'RangeError', setNull: 'RangeError', fits: 'ok' });
  });

  test('a copy between two JavaScript buffers works as the first call of a process', () => {
    const r = run(`
      const dst = new Uint8Array(4);
      cuda.copy(dst, new Uint8Array([1, 2, 3, 4]));
      report(Array.from(dst));`);
    expect(r).toEqual([1, 2, 3, 4]);
  });

  test('a graph copy node between overlapping ranges of one buffer is refused, as a copy is', () => {
    const r = run(`
      const b = cuda.DeviceBuffer.alloc(64);
      const g = cuda.Graph.create();
      report({ node: attempt(() => g.addCopy(b, b, { srcOffset: 0, dstOffset: 8, bytes: 16 })), copy: attempt(() => cuda.copy(b, b, { dstOffset: 8, bytes: 16 })),
        apart: attempt(() => g.addCopy(b, b, { dstOffset: 32, bytes: 16 })) });`);
    expect(r).toEqual({ node: 'RangeError', copy: 'RangeError', apart: 'ok' });
  });

  test('a zero-byte stream-ordered allocation takes nothing, so its release frees nothing', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const pool = cuda.MemoryPool.create();
      const made = [cuda.DeviceBuffer.allocAsync(0, stream), cuda.DeviceBuffer.allocAsync(0, stream, { pool })];
      const shape = made.map((b) => [b.size, String(b.address)]);
      made.forEach((b) => b.dispose());
      stream.synchronizeSync();
      stream.dispose();
      pool.dispose();
      await settle();
      const calls = (name) => cuda.callCounters.read().find((c) => c.name === name)?.calls ?? 0;
      report({ shape, allocs: calls('cuMemAllocAsync') + calls('cuMemAllocFromPoolAsync'), frees: calls('cuMemFreeAsync'), unreleased: unreleased() });`);
    expect(r).toEqual({ shape: [[0, '0'], [0, '0']], allocs: 0, frees: 0, unreleased: {} });
  });
});
