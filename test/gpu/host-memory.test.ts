// Host memory against the real driver, where queued copies really run after
// the call: a registration takes its ArrayBuffer over, views of pinned memory
// keep it while queued work uses it, shared memory is copied both ways, and a
// getter that frees what a call named ends in a clear error (the conditional
// node, which the stand-in driver cannot make). Each script runs in its own
// process: a write into freed memory would crash it, not the run.
import * as path from 'path';
import { distPath, runScript } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';

function run(body: string): any {
  const r = runScript(`
    const attempt = (f) => { try { const v = f(); return v === undefined ? 'no error' : v; } catch (e) { return e.constructor.name + ': ' + e.message; } };
    const settle = async () => { for (let i = 0; i < 5; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); } };
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`, {}, ['--expose-gc']);
  if (r.status !== 0 || r.signal || r.report === undefined) throw new Error(`the child ended with ${r.signal ?? r.status}:\n${r.stderr}`);
  return r.report;
}

const MiB = 1 << 20;

describeGpu('registered host memory', () => {
  test('the registration keeps the memory it took, whatever happens to the buffer passed; queued copies land in it', () => {
    expect(run(`
      const { Worker } = require('worker_threads');
      const bytes = new Uint8Array(${16 * MiB});
      const registered = cuda.HostBuffer.register(bytes, { mapped: true });
      const worker = new Worker('require("worker_threads").parentPort.once("message", () => process.exit(0))', { eval: true });
      if (attempt(() => worker.postMessage(bytes.buffer, [bytes.buffer])) !== 'no error') worker.postMessage(null);
      await new Promise((resolve) => worker.once('exit', resolve));
      await settle();
      const stream = cuda.Stream.create();
      const device = cuda.DeviceBuffer.alloc(${16 * MiB});
      device.fill(0x3c, { stream });
      cuda.copy(registered, device, { stream });
      await stream.synchronize();
      const view = registered.view();
      report({ length: bytes.length, values: [view[0], view[${8 * MiB}], view[${16 * MiB - 1}]],
        mapped: registered.devicePointer !== 0n, memoryType: cuda.pointerAttribute(registered, 'memoryType') });`))
      .toEqual({ length: 0, values: [0x3c, 0x3c, 0x3c], mapped: true, memoryType: 'host' });
  });

  test('a resizable buffer, a view of one and shared memory are refused before anything is pinned', () => {
    expect(run(`
      const resizable = new ArrayBuffer(${MiB}, { maxByteLength: ${4 * MiB} });
      report({
        resizable: attempt(() => cuda.HostBuffer.register(new Uint8Array(resizable))),
        shared: attempt(() => cuda.HostBuffer.register(new Uint8Array(new SharedArrayBuffer(${MiB})))),
        intact: resizable.byteLength,
      });`)).toEqual({
      resizable: 'TypeError: buffer must not be resizable, nor a view of a resizable ArrayBuffer',
      shared: expect.stringMatching(/^TypeError: buffer must not be a SharedArrayBuffer/),
      intact: MiB,
    });
  });
});

describeGpu('views of pinned memory in queued copies', () => {
  test('a view given as plain bytes is held by the stream; disposing and collecting it meanwhile frees nothing in use', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const device = cuda.DeviceBuffer.alloc(${64 * MiB});
      device.fill(7, { stream });
      let pinned = cuda.HostBuffer.alloc(${64 * MiB});
      let registered = cuda.HostBuffer.register(new ArrayBuffer(${64 * MiB}));
      for (let i = 0; i < 8; i++) {
        cuda.copy(pinned.view(), device, { stream });
        cuda.copy(device, registered.view(), { stream });
      }
      const held = stream.pendingResources;
      pinned.dispose();
      registered.dispose();
      pinned = registered = undefined;
      await settle();
      await stream.synchronize();
      const back = device.readSync();
      report({ held, after: stream.pendingResources, zeros: back[0] === 0 && back[${64 * MiB - 1}] === 0 });`);
    // The device buffer and both host memories (before, the views held nothing).
    expect(r.held).toBeGreaterThanOrEqual(3);
    expect(r).toEqual(expect.objectContaining({ after: 0, zeros: true }));
  });
});

describeGpu('shared memory in copies', () => {
  test('views of a SharedArrayBuffer, and a bare one, are copied to and from, synchronously and on a stream', () => {
    expect(run(`
      const shared = new SharedArrayBuffer(${4 * MiB});
      const floats = new Float32Array(shared);
      floats.forEach((_, i) => { floats[i] = i; });
      const device = cuda.DeviceBuffer.alloc(${4 * MiB});
      const stream = cuda.Stream.create();
      cuda.copy(device, floats, { stream });
      const out = new SharedArrayBuffer(${4 * MiB});
      cuda.copy(out, device, { stream });
      await stream.synchronize();
      const back = new Float32Array(out);
      const sync = new Float32Array(new SharedArrayBuffer(16));
      cuda.copy(sync, device, { srcOffset: 400, bytes: 16 });
      report({ same: back.every((v, i) => v === i), sync: Array.from(sync) });`))
      .toEqual({ same: true, sync: [100, 101, 102, 103] });
  });
});

describeGpu('a getter that frees what the call already named', () => {
  test('a conditional node\'s kind getter disposes its handle', () => {
    expect(run(`
      const { native } = require(${JSON.stringify(path.join(distPath, 'native.js'))});
      const graph = cuda.Graph.create();
      const handle = graph.conditionalHandle();
      const params = { type: 13, handle: handle.slot, size: 1, get kind() { handle.dispose(); global.gc(); return 0; } };
      report(attempt(() => native.addNode(graph.slot, undefined, undefined, params, false)));`))
      // A handle disposed in the task that made it frees its slot at once: the
      // number the call read then names no handle (lib/disposable.ts).
      .toMatch(/^(DisposedError: ConditionalHandle has been disposed|TypeError: handle must be a ConditionalHandle)$/);
  });
});
