// Explicit frees of stream-ordered memory and of graph allocations, inside and
// outside a capture, and copies of JavaScript bytes refused while a stream
// captures; over the stand-in driver (test/fixtures/fake-libcuda.c), whose log
// shows each free: "free-async <address> stream=<n>", "free-async captured ..."
// for a free node a capture records, "free graph <address>" for cuMemFree of a
// graph allocation.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

const balance = path.resolve(__dirname, '../helpers/resource-balance.ts');
const tsRequire = path.resolve(__dirname, '../helpers/ts-require.js');

const prelude = `
  require(${JSON.stringify(tsRequire)});
  const { resourceBalance } = require(${JSON.stringify(balance)});
  const fs = require('fs');
  const log = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n').filter((l) => l);
  const frees = (buffer) => log().filter((l) => /^free/.test(l) && l.includes(buffer.toString(16)));
  const t = (f) => { try { f(); return 'ok'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
  const settle = async () => { for (let i = 0; i < 10; i++) { global.gc?.(); await new Promise((r) => setTimeout(r, 10)); } };
  cuda.callCounters.enable();
`;

const run = (body: string, env: Record<string, string> = {}) => {
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-free-')), 'log');
  fs.writeFileSync(logFile, '');
  const r = runScript(`${prelude}(async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
    { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: logFile, ...env }, ['--expose-gc']);
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

describe('DeviceBuffer.freeAsync', () => {
  test('frees once, now, on the stream given; the buffer is then disposed and frees nothing more', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const other = cuda.Stream.create();
      const b = cuda.DeviceBuffer.allocAsync(64, s);
      const address = b.address;
      b.freeAsync(other);
      const right = frees(address);
      const out = { right, disposed: b.disposed, use: t(() => b.size), again: t(() => b.freeAsync(s)), dispose: t(() => b.dispose()) };
      const empty = cuda.DeviceBuffer.allocAsync(0, s);
      out.empty = t(() => empty.freeAsync(s));
      s.dispose(); other.dispose();
      await settle();
      out.after = frees(address);
      out.left = resourceBalance(cuda.callCounters.read());
      report(out);`);
    expect(r.right).toHaveLength(1);
    expect(r.right[0]).toMatch(/^free-async [0-9a-f]+ stream=2$/);
    expect(r).toMatchObject({ disposed: true, dispose: 'ok', empty: 'ok', left: {} });
    expect(r.use).toMatch(/^DisposedError/);
    expect(r.again).toMatch(/^DisposedError/);
    expect(r.after).toEqual(r.right);
  });

  test('takes stream-ordered memory only; a refusal by the driver leaves the buffer as it was', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const plain = cuda.DeviceBuffer.alloc(64);
      const b = cuda.DeviceBuffer.allocAsync(64, s);
      report({ plain: t(() => plain.freeAsync(s)), plainAlive: !plain.disposed,
        refused: t(() => b.freeAsync(s)), alive: !b.disposed, size: b.size, notAStream: t(() => b.freeAsync({})) });`,
    { FAKE_CUDA_FAIL: 'cuMemFreeAsync=1' });
    expect(r.plain).toBe('TypeError: freeAsync frees stream-ordered memory (DeviceBuffer.allocAsync); this buffer is plain: use dispose()');
    expect(r.refused).toMatch(/^CudaError: .*cuMemFreeAsync/);
    expect(r).toMatchObject({ plainAlive: true, alive: true, size: 64 });
    expect(r.notAStream).toMatch(/^TypeError/);
  });

  test('during a capture it is captured as a free node; the graph then owns the free', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const capture = s.beginCapture();
      const b = cuda.DeviceBuffer.allocAsync(64, s);
      const address = b.address;
      cuda.fill(b, 1, { stream: s });
      b.freeAsync(s);
      const during = frees(address);
      const graph = capture.end();
      const exec = graph.instantiate();
      exec.launch(s);
      s.synchronizeSync();
      exec.dispose(); graph.dispose(); s.dispose();
      await settle();
      report({ during, after: frees(address), disposed: b.disposed });`);
    expect(r.during).toHaveLength(1);
    expect(r.during[0]).toMatch(/^free-async captured /);
    expect(r.after).toEqual(r.during);
    expect(r.disposed).toBe(true);
  });

  test('dispose() during a capture records nothing: its free waits for the capture to end', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const b = cuda.DeviceBuffer.allocAsync(64, s);
      const address = b.address;
      const capture = s.beginCapture();
      b.dispose();
      const during = frees(address);
      const graph = capture.end();
      const after = frees(address);
      graph.dispose(); s.dispose();
      await settle();
      report({ during, after, left: resourceBalance(cuda.callCounters.read()) });`);
    expect(r.during).toEqual([]);
    expect(r.after).toHaveLength(1);
    expect(r.after[0]).toMatch(/^free-async [0-9a-f]+ stream=1$/);
    expect(r.left).toEqual({});
  });

  test("a buffer a graph's free node frees frees nothing itself", () => {
    const r = run(`
      const s = cuda.Stream.create();
      let b;
      const made = s.capture((c) => { b = cuda.DeviceBuffer.allocAsync(64, c); });
      const address = b.address;
      const freeing = cuda.Graph.create();
      freeing.addFree(b);
      const out = { again: t(() => b.freeAsync(s)), alive: !b.disposed };
      b.dispose();
      made.dispose(); freeing.dispose(); s.dispose();
      await settle();
      out.frees = frees(address);
      report(out);`);
    expect(r).toEqual({ again: "Error: a graph's free node frees this buffer (Graph.addFree): it is the graph's to free", alive: true, frees: [] });
  });
});

describe('GraphAllocation frees outside a graph', () => {
  test('freeAsync(stream) and free() free it as C does, and dispose the handle', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const graph = cuda.Graph.create();
      const a = graph.addAlloc(64).allocation;
      const b = graph.addAlloc(64).allocation;
      const c = graph.addAlloc(64).allocation;
      const [ia, ib, ic] = [a.address, b.address, c.address];
      // A launch allocates them: only a live allocation may be freed outside its graph.
      const exec = graph.instantiate();
      exec.launch(s);
      a.freeAsync(s);
      b.free();
      const capture = s.beginCapture();
      c.freeAsync(s);
      capture.end().dispose();
      const out = { a: frees(ia), b: frees(ib), c: frees(ic), disposed: [a.disposed, b.disposed, c.disposed],
        use: t(() => a.size), again: t(() => b.free()), dispose: t(() => a.dispose()) };
      exec.dispose(); graph.dispose(); s.dispose();
      report(out);`);
    expect(r.a).toEqual([expect.stringMatching(/^free-async [0-9a-f]+ stream=1$/)]);
    expect(r.b).toEqual([expect.stringMatching(/^free graph /)]);
    expect(r.c).toEqual([expect.stringMatching(/^free-async captured /)]);
    expect(r).toMatchObject({ disposed: [true, true, true], dispose: 'ok' });
    expect(r.use).toMatch(/^DisposedError/);
    expect(r.again).toMatch(/^DisposedError/);
  });

  test('one its own graph frees is refused before the driver is called; one another graph frees is not', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const graph = cuda.Graph.create();
      const own = graph.addAlloc(64);
      graph.addFree(own.allocation, { after: [own.node] });
      const other = graph.addAlloc(64).allocation;
      const freeing = cuda.Graph.create();
      freeing.addFree(other);
      const exec = graph.instantiate();
      exec.launch(s);
      const out = { async: t(() => own.allocation.freeAsync(s)), sync: t(() => own.allocation.free()),
        alive: !own.allocation.disposed, frees: frees(own.allocation.address), other: t(() => other.freeAsync(s)) };
      exec.dispose(); graph.dispose(); freeing.dispose(); s.dispose();
      report(out);`);
    const message = 'a free node of the allocating graph frees this allocation at every launch; freeing it outside too would free it twice';
    expect(r).toEqual({ async: `Error: freeAsync: ${message}`, sync: `Error: free: ${message}`, alive: true, frees: [], other: 'ok' });
  });
});

describe('copies of JavaScript bytes during a capture', () => {
  test('are refused, naming the operand, without breaking the capture; library memory and uncaptured copies go through', () => {
    const r = run(`
      const s = cuda.Stream.create();
      const dev = cuda.DeviceBuffer.alloc(64);
      const pinned = cuda.HostBuffer.alloc(64);
      const registered = cuda.HostBuffer.register(new ArrayBuffer(64));
      const js = new Uint8Array(64).fill(7);
      const capture = s.beginCapture();
      const out = {
        src: t(() => cuda.copy(dev, js, { stream: s })),
        dst: t(() => cuda.copy(js, dev, { stream: s })),
        arrayBuffer: t(() => cuda.copy(dev, js.buffer, { stream: s })),
        twoD: t(() => cuda.copy2D({ memory: dev, pitch: 16 }, { memory: js, pitch: 16 }, 16, 4, { stream: s })),
        threeD: t(() => cuda.copy3D({ memory: js, pitch: 16 }, { memory: dev, pitch: 16 },
          { width: 16, height: 2, depth: 2 }, { stream: s })),
        pinned: t(() => cuda.copy(dev, pinned, { stream: s })),
        view: t(() => cuda.copy(pinned.view(), dev, { stream: s })),
        registered: t(() => cuda.copy(dev, registered, { stream: s })),
      };
      out.ended = t(() => capture.end().dispose());
      out.uncaptured = t(() => cuda.copy(dev, js, { stream: s }));
      s.synchronizeSync();
      out.copied = Array.from(dev.readSync().subarray(0, 4));
      report(out);`);
    const refusal = (side: string) => `TypeError: ${side} is a JavaScript buffer, and the stream is capturing: the graph would reach its memory at every launch, after JavaScript may have freed or moved it. Copy through a HostBuffer (HostBuffer.alloc, or HostBuffer.register to pin the buffer) instead`;
    expect(r).toEqual({
      src: refusal('src'), dst: refusal('dst'), arrayBuffer: refusal('src'), twoD: refusal('src'), threeD: refusal('dst'),
      pinned: 'ok', view: 'ok', registered: 'ok', ended: 'ok', uncaptured: 'ok', copied: [7, 7, 7, 7],
    });
  });
});

describe('memory that is gone cannot be named', () => {
  // The native entries themselves: a caller of the addon that skips lib/ (which
  // disposes the handle right after the free) gets the disposed error, never a
  // copy into freed memory.
  test('the native frees dispose the handle they free', () => {
    const r = run(`
      const { native } = require(${JSON.stringify(path.resolve(__dirname, '../../dist/native'))});
      const s = cuda.Stream.create();
      const b = cuda.DeviceBuffer.allocAsync(64, s);
      native.freeAsync(b.slot, s.slot);
      const graph = cuda.Graph.create();
      const a = graph.addAlloc(64).allocation;
      const exec = graph.instantiate();
      exec.launch(s);
      native.freeGraphAllocation(a.slot, undefined);
      const bytes = new Uint8Array(64);
      const out = { buffer: t(() => cuda.copy(b, bytes)), allocation: t(() => cuda.copy(a, bytes)),
        disposed: [b.disposed, a.disposed], dispose: [t(() => b.dispose()), t(() => a.dispose())] };
      exec.dispose(); graph.dispose(); s.dispose();
      await settle();
      out.left = resourceBalance(cuda.callCounters.read());
      report(out);`);
    expect(r.buffer).toMatch(/^DisposedError/);
    expect(r.allocation).toMatch(/^DisposedError/);
    expect(r).toMatchObject({ disposed: [true, true], dispose: ['ok', 'ok'], left: {} });
  });

  test('a graph allocation whose graph is gone is refused before the driver is called', () => {
    const r = run(`
      const graph = cuda.Graph.create();
      const a = graph.addAlloc(64).allocation;
      const bytes = new Uint8Array(64);
      const before = t(() => cuda.copy(a, bytes));
      graph.dispose();
      const after = { copy: t(() => cuda.copy(a, bytes)), fill: t(() => cuda.fill(a, 1)), size: t(() => a.size), disposed: a.disposed };
      a.dispose();
      report({ before, after });`);
    expect(r.before).toBe('ok');
    expect(r.after.disposed).toBe(false);
    const gone = /^TypeError: GraphAllocation names memory that no longer exists/;
    for (const use of [r.after.copy, r.after.fill, r.after.size]) expect(use).toMatch(gone);
  });
});
