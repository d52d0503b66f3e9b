// Page-locked host memory against the stand-in driver, which logs each pin and
// free: a registration takes its ArrayBuffer over, so that no transfer can free
// memory the driver still has pinned; what it cannot take it refuses; views of
// pinned memory, wherever they go, keep the memory while work may still use it.
// Each script runs in its own process: a write into freed memory would crash it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

function run(body: string): any {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-host-')), 'log');
  fs.writeFileSync(log, '');
  const r = runScript(`
    const fs = require('fs');
    const attempt = (f) => { try { const v = f(); return v === undefined ? 'no error' : v; } catch (e) { return e.constructor.name + ': ' + e.message; } };
    // The pins and frees the stand-in logged so far, with addresses left out.
    const releases = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n')
      .filter((l) => /^(register|unregister|free-host)/.test(l)).map((l) => l.split(' ')[0]);
    const settle = async () => { for (let i = 0; i < 5; i++) { global.gc(); await new Promise((r) => setTimeout(r, 10)); } };
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: log }, ['--expose-gc']);
  if (r.status !== 0 || r.signal || r.report === undefined) throw new Error(`the child ended with ${r.signal ?? r.status}:\n${r.stderr}`);
  return r.report;
}

describe('HostBuffer.register takes the memory over', () => {
  test('the buffer and its views are detached; moving the buffer to a worker that ends frees nothing the registration uses', () => {
    // Before, the worker took the memory with it and freed it when it ended: the copy below then wrote 1 MiB into freed memory.
    const r = run(`
      const { Worker } = require('worker_threads');
      const bytes = new Uint8Array(1 << 20);
      bytes.fill(7);
      const other = new Float64Array(bytes.buffer);
      const registered = cuda.HostBuffer.register(bytes, { mapped: true });
      const lengths = [bytes.length, other.length];
      const worker = new Worker('require("worker_threads").parentPort.once("message", () => process.exit(0))', { eval: true });
      // Moving a detached buffer moves nothing (Node 20) or is refused (later versions).
      const posted = attempt(() => worker.postMessage(bytes.buffer, [bytes.buffer]));
      if (posted !== 'no error') worker.postMessage(null);
      await new Promise((resolve) => worker.once('exit', resolve));
      const cloned = attempt(() => structuredClone(bytes.buffer, { transfer: [bytes.buffer] }).byteLength);
      await settle();
      const before = registered.view()[12345];
      const device = cuda.DeviceBuffer.alloc(1 << 20);
      device.fill(0x3c);
      cuda.copy(registered, device);
      const view = registered.view();
      report({ lengths, cloned, before, after: [view[0], view[12345], view[(1 << 20) - 1]], size: registered.size,
        registered: registered.registered, same: registered.arrayBuffer === registered.arrayBuffer, releases: releases() });`);
    expect(r.cloned === 0 || /^DataCloneError/.test(r.cloned)).toBe(true);
    expect(r).toEqual(expect.objectContaining({ lengths: [0, 0], before: 7, after: [0x3c, 0x3c, 0x3c], size: 1 << 20, registered: true,
      same: true, releases: ['register'] }));
  });

  test('a view registers its own range; dispose detaches the views handed out and unregisters', () => {
    expect(run(`
      const whole = new Uint8Array(16384);
      whole.fill(1, 4096, 12288);
      const registered = cuda.HostBuffer.register(whole.subarray(4096, 12288));
      const view = registered.view();
      const device = cuda.DeviceBuffer.alloc(8192);
      cuda.copy(device, registered);
      const back = new Uint8Array(8192);
      cuda.copy(back, device);
      const size = view.length;
      registered.dispose();
      report({ size, ones: back.every((b) => b === 1), afterDispose: view.length, view: attempt(() => registered.view()),
        releases: releases() });`))
      .toEqual({ size: 8192, ones: true, afterDispose: 0, view: 'DisposedError: HostBuffer has been disposed',
        releases: ['register', 'unregister'] });
  });

  test('what it cannot take is refused with a TypeError naming buffer, and left as it was', () => {
    expect(run(`
      const shared = new SharedArrayBuffer(4096);
      const resizable = new ArrayBuffer(4096, { maxByteLength: 1 << 20 });
      const pooled = Buffer.from('pooled bytes');
      const pinned = cuda.HostBuffer.alloc(4096);
      const detached = new ArrayBuffer(64);
      structuredClone(detached, { transfer: [detached] });
      const outcomes = {
        sharedView: attempt(() => cuda.HostBuffer.register(new Uint8Array(shared))),
        shared: attempt(() => cuda.HostBuffer.register(shared)),
        resizableView: attempt(() => cuda.HostBuffer.register(new Uint8Array(resizable, 0, 1024))),
        resizable: attempt(() => cuda.HostBuffer.register(resizable)),
        pooled: attempt(() => cuda.HostBuffer.register(pooled)),
        pinnedView: attempt(() => cuda.HostBuffer.register(pinned.view())),
        wasm: attempt(() => cuda.HostBuffer.register(new WebAssembly.Memory({ initial: 1 }).buffer)),
        detached: attempt(() => cuda.HostBuffer.register(detached)),
        empty: attempt(() => cuda.HostBuffer.register(new Uint8Array(0))),
      };
      // A shrunk resizable buffer is no danger now: nothing registered it.
      resizable.resize(0);
      report({ outcomes, intact: [shared.byteLength, pooled.toString(), pinned.view().length], releases: releases() });`))
      .toEqual({
        outcomes: {
          sharedView: expect.stringMatching(/^TypeError: buffer must not be a SharedArrayBuffer/),
          shared: expect.stringMatching(/^TypeError: buffer must be an ArrayBuffer or a view of one/),
          resizableView: 'TypeError: buffer must not be resizable, nor a view of a resizable ArrayBuffer',
          resizable: 'TypeError: buffer must not be resizable, nor a view of a resizable ArrayBuffer',
          pooled: expect.stringMatching(/^TypeError: buffer cannot be taken over/),
          pinnedView: expect.stringMatching(/^TypeError: buffer cannot be taken over/),
          wasm: expect.stringMatching(/^TypeError: buffer cannot be taken over/),
          detached: 'TypeError: buffer must not be detached',
          empty: 'RangeError: buffer must not be empty',
        },
        intact: [4096, 'pooled bytes', 4096],
        releases: [],
      });
  });
});

describe('views of pinned memory', () => {
  test('a view given to a queued copy as plain bytes keeps the memory until the stream is known idle', () => {
    // Before, such a copy kept nothing: dispose freed (or unregistered) the memory under the queued copy.
    expect(run(`
      const stream = cuda.Stream.create();
      const device = cuda.DeviceBuffer.alloc(4096);
      let allocated = cuda.HostBuffer.alloc(4096);
      let registered = cuda.HostBuffer.register(new ArrayBuffer(4096));
      cuda.copy(device, allocated.view(), { stream });
      cuda.copy(registered.view(), device, { stream });
      allocated.dispose();
      registered.dispose();
      allocated = registered = undefined;
      await settle();
      const queued = releases();
      stream.synchronizeSync();
      await settle();
      report({ queued, done: releases().sort() });`))
      .toEqual({ queued: ['register'], done: ['free-host', 'register', 'unregister'] });
  });

  test('a view posted to a worker or cloned with transfer stays here, whole; dispose detaches it', () => {
    const r = run(`
      const { Worker } = require('worker_threads');
      const pinned = cuda.HostBuffer.alloc(4096);
      const view = pinned.arrayBuffer;
      new Uint8Array(view).fill(9);
      // Node 20 copies what it marks untransferable; later versions refuse to move it (DataCloneError).
      const outcome = (f) => { try { f(); return 'copied'; } catch (e) { return e.name; } };
      let cloned = view;
      const cloning = outcome(() => { cloned = structuredClone(view, { transfer: [view] }); });
      const worker = new Worker('require("worker_threads").parentPort.once("message", (b) => process.exit(new Uint8Array(b)[100]))', { eval: true });
      const posting = outcome(() => worker.postMessage(view, [view]));
      if (posting !== 'copied') worker.postMessage(view.slice(0));
      const code = await new Promise((resolve) => worker.once('exit', resolve));
      const here = view.byteLength;
      pinned.dispose();
      report({ cloning, posting, seen: [new Uint8Array(cloned)[100], code], here, afterDispose: view.byteLength, releases: releases() });`);
    expect(['copied', 'DataCloneError']).toContain(r.cloning);
    expect(['copied', 'DataCloneError']).toContain(r.posting);
    expect(r).toEqual(expect.objectContaining({ seen: [9, 9], here: 4096, afterDispose: 0, releases: ['free-host'] }));
  });

  (typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function' ? test : test.skip)(
    'a view moved to another ArrayBuffer (transfer()) keeps the memory until that one is collected', () => {
      expect(run(`
        const pinned = cuda.HostBuffer.alloc(4096);
        new Uint8Array(pinned.arrayBuffer).fill(9);
        let moved = pinned.arrayBuffer.transfer();
        const fresh = pinned.arrayBuffer.byteLength;
        pinned.dispose();
        await settle();
        const whileMoved = releases();
        const readable = new Uint8Array(moved)[100];
        moved = undefined;
        await settle();
        report({ fresh, whileMoved, readable, collected: releases() });`))
        .toEqual({ fresh: 4096, whileMoved: [], readable: 9, collected: ['free-host'] });
    });
});
