// Raw legacy IPC handles (lib/ipc/ipc-handles.ts) against the stand-in driver
// (test/fixtures/fake-libcuda.c): a handle's first byte picks the address it
// opens at, handles made here carry this process's id (and are refused here, as
// the driver refuses them), and every open and close is logged. These check the
// pairing of opens and closes, the opening shared with descriptors, the
// refusals, and that hostile bytes never crash the process.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { addonPath, fakeDriver, runScript } from '../helpers/subprocess';

const ipcBase = 0x300000000000n;
const ipcBytes = 1 << 20;
let counter = 0;

// Runs an async body against the stand-in driver; returns its report and the IPC lines of the driver's log.
function run(body: string): { report: any; log: string[] } {
  const logFile = path.join(os.tmpdir(), `fake-ipc-handles-log-${process.pid}-${counter++}`);
  fs.rmSync(logFile, { force: true });
  const r = runScript(`const util = require('util');
    (async () => { ${body} })().catch((e) => { console.error(e && e.stack || e); process.exit(1); });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: logFile }, ['--expose-gc']);
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n') : [];
  fs.rmSync(logFile, { force: true });
  return { report: r.report, log: log.filter((line) => line.startsWith('ipc-')) };
}

describe('raw IPC memory handles', () => {
  test('a handle opens as legacy SharedMemory, shares its opening with descriptors of it, and closes once', () => {
    const { report, log } = run(`
      const handle = Buffer.alloc(64); handle[0] = 5;
      const whole = cuda.openIpcMemHandle(handle);
      const part = cuda.openIpcMemHandle(new Uint8Array(handle), { offset: 4096, bytes: 8192, device: 0 });
      const descriptor = { format: 'cuda-driver/shared-memory', version: 1, id: '0'.repeat(32), exporter: { pid: 1, token: 'ab'.repeat(16) },
        device: { uuid: cuda.Device.get(0).uuid, ordinal: 0 }, size: 4096, kind: 'legacy', handle: handle.toString('base64'), offset: 0 };
      const viaDescriptor = await cuda.openSharedMemory(descriptor);
      const out = {
        whole: { path: whole.path, size: whole.size, address: whole.address.toString(16), descriptor: whole.descriptor === undefined },
        part: { size: part.size, offset: Number(part.address - whole.address) },
        shared: viaDescriptor.address === whole.address,
        inspect: util.inspect(part),
        string: String(part),
      };
      whole.dispose(); whole.dispose(); part.dispose();
      let used; try { whole.size; } catch (e) { used = e.constructor.name; }
      out.used = used;
      out.openAfterOthers = viaDescriptor.size;
      viaDescriptor.dispose();
      report(out);`);
    expect(report).toEqual({
      whole: { path: 'legacy', size: ipcBytes, address: (ipcBase + 5n * BigInt(ipcBytes)).toString(16), descriptor: true },
      part: { size: 8192, offset: 4096 },
      shared: true,
      inspect: 'SharedMemory { device: 0, size: 8192 }',
      string: `SharedMemory(legacy, 8192 bytes at 0x${(ipcBase + 5n * BigInt(ipcBytes) + 4096n).toString(16)})`,
      used: 'DisposedError',
      openAfterOthers: 4096,
    });
    // One opening for the three views, closed when the last one goes.
    expect(log).toEqual(['ipc-open 5 1', 'ipc-close 5 0']);
  });

  test('an opening no one disposes is closed once its views are collected', () => {
    const { report, log } = run(`
      const handle = Buffer.alloc(64); handle[0] = 7;
      (() => { cuda.openIpcMemHandle(handle); cuda.openIpcMemHandle(handle, { bytes: 64 }); })();
      for (let i = 0; i < 10; i++) { await new Promise((r) => setImmediate(r)); globalThis.gc(); }
      await new Promise((r) => setTimeout(r, 50));
      report('collected');`);
    expect(report).toBe('collected');
    expect(log).toEqual(['ipc-open 7 1', 'ipc-close 7 0']);
  });

  test('a buffer\'s handle: 64 bytes the driver made; refused where it has none, and in this process', () => {
    const { report, log } = run(`
      const attempt = (f) => { try { f(); return 'ok'; } catch (e) { return { type: e.constructor.name, reason: e.reason, message: e.message }; } };
      const buffer = cuda.DeviceBuffer.alloc(4096);
      const pitched = cuda.DeviceBuffer.allocPitched(100, 4);
      const handle = cuda.exportIpcMemHandle(buffer);
      const stream = cuda.Stream.create();
      const pooled = cuda.DeviceBuffer.allocAsync(4096, stream);
      const managed = cuda.DeviceBuffer.allocManaged(4096);
      report({
        handle: { type: handle.constructor.name, length: handle.length, pid: Buffer.from(handle).readInt32LE(8) === process.pid },
        pitched: cuda.exportIpcMemHandle(pitched).length,
        here: attempt(() => cuda.openIpcMemHandle(handle)),
        pooled: attempt(() => cuda.exportIpcMemHandle(pooled)),
        managed: attempt(() => cuda.exportIpcMemHandle(managed)),
        host: attempt(() => cuda.exportIpcMemHandle(cuda.HostBuffer.alloc(64))),
        disposed: attempt(() => { const b = cuda.DeviceBuffer.alloc(64); b.dispose(); cuda.exportIpcMemHandle(b); }),
      });`);
    expect(report).toEqual({
      handle: { type: 'Uint8Array', length: 64, pid: true },
      pitched: 64,
      here: { type: 'SharingUnsupportedError', reason: 'same-process', message: expect.stringMatching(/this process as the one that exported it.*open the handle in another process/) },
      pooled: { type: 'SharingUnsupportedError', reason: 'not-ipc-capable', message: expect.stringMatching(/stream-ordered memory has no legacy IPC handle/) },
      managed: { type: 'SharingUnsupportedError', reason: 'managed-memory', message: expect.stringMatching(/managed memory has no legacy IPC handle/) },
      host: { type: 'TypeError', message: 'buffer must be a DeviceBuffer, got HostBuffer' },
      disposed: { type: 'DisposedError', message: expect.stringMatching(/DeviceBuffer/) },
    });
    expect(log).toEqual([]);
  });

  test('hostile handles and ranges are refused with typed errors, by the library and by the raw addon', () => {
    const { report, log } = run(`
      const attempt = (f) => { try { const x = f(); return 'ok ' + (x && x.constructor.name); } catch (e) { return e.constructor.name + ': ' + e.message; } };
      const addon = require(${JSON.stringify(addonPath)});
      const handle = Buffer.alloc(64); handle[0] = 9;
      const wide = Buffer.alloc(128); wide[0] = 9;
      const hostile = { get byteLength() { throw new Error('getter ran'); } };
      report({
        short: attempt(() => cuda.openIpcMemHandle(handle.subarray(0, 63))),
        long: attempt(() => cuda.openIpcMemHandle(wide)),
        view: attempt(() => { const m = cuda.openIpcMemHandle(wide.subarray(64)); m.dispose(); return m; }),
        string: attempt(() => cuda.openIpcMemHandle(handle.toString('hex'))),
        array: attempt(() => cuda.openIpcMemHandle(Array.from(handle))),
        hostile: attempt(() => cuda.openIpcMemHandle(hostile)),
        offset: attempt(() => cuda.openIpcMemHandle(handle, { offset: ${ipcBytes} + 1 })),
        bytes: attempt(() => cuda.openIpcMemHandle(handle, { offset: 4096, bytes: ${ipcBytes} })),
        negative: attempt(() => cuda.openIpcMemHandle(handle, { offset: -1 })),
        device: attempt(() => cuda.openIpcMemHandle(handle, { device: 5 })),
        rawShort: attempt(() => addon.openIpcMemory(0, new Uint8Array(63), 0)),
        rawLong: attempt(() => addon.openIpcMemory(0, new Uint8Array(65), 0)),
        rawBuffer: attempt(() => addon.openIpcMemory(0, new ArrayBuffer(64), 0)),
        rawEvent: attempt(() => addon.openIpcEvent(0, new Uint8Array(65))),
        rawBytes: attempt(() => addon.openIpcMemory(0, handle, 0, -1)),
      });`);
    expect(report).toEqual({
      short: 'RangeError: handle must be 64 bytes, got 63',
      long: 'RangeError: handle must be 64 bytes, got 128',
      view: 'ok SharedMemory',
      string: "TypeError: handle must be a Uint8Array of 64 bytes, got '" + '09' + '00'.repeat(19) + "…'",
      array: 'TypeError: handle must be a Uint8Array of 64 bytes, got Array',
      hostile: 'TypeError: handle must be a Uint8Array of 64 bytes, got Object',
      offset: expect.stringMatching(/^RangeError: the shared range \[1048577, 1048577\+0\) does not fit the 1048576 bytes/),
      bytes: expect.stringMatching(/^RangeError: the shared range \[4096, 4096\+1048576\) does not fit the 1048576 bytes/),
      negative: expect.stringMatching(/^RangeError: options.offset must be between 0/),
      device: 'RangeError: ordinal 5 is out of range: 1 device visible',
      rawShort: 'RangeError: handle must be 64 bytes',
      rawLong: 'RangeError: handle must be 64 bytes',
      rawBuffer: expect.stringMatching(/^TypeError: handle must be a Uint8Array/),
      rawEvent: 'RangeError: handle must be 64 bytes',
      rawBytes: expect.stringMatching(/^RangeError: bytes must be between 0/),
    });
    // Nothing reached the driver but the well-formed handles; a range refused after the open closed it again.
    expect(log).toEqual(['ipc-open 0 1', 'ipc-close 0 0', 'ipc-open 9 1', 'ipc-close 9 0', 'ipc-open 9 1', 'ipc-close 9 0']);
  });
});

describe('raw IPC event handles', () => {
  test('an interprocess event\'s handle opens as an event without timing; other events and zeros are refused', () => {
    const { report, log } = run(`
      const attempt = (f) => { try { f(); return 'ok'; } catch (e) { return { type: e.constructor.name, reason: e.reason, result: e.result }; } };
      const event = cuda.Event.create({ interprocess: true });
      const handle = cuda.exportIpcEventHandle(event);
      const opened = cuda.openIpcEventHandle(handle, { device: 0 });
      const stream = cuda.Stream.create();
      opened.record(stream);
      stream.waitEvent(opened);
      await opened.synchronize();
      const out = {
        handle: { type: handle.constructor.name, length: handle.length },
        opened: { interprocess: opened.interprocess, timing: opened.timing, done: opened.query() },
        inspect: util.inspect(opened),
        timed: attempt(() => cuda.exportIpcEventHandle(cuda.Event.create({ timing: true }))),
        plain: attempt(() => cuda.exportIpcEventHandle(cuda.Event.create())),
        notEvent: attempt(() => cuda.exportIpcEventHandle({})),
        zeros: attempt(() => cuda.openIpcEventHandle(new Uint8Array(64))),
        short: attempt(() => cuda.openIpcEventHandle(new Uint8Array(8))),
      };
      opened.dispose(); opened.dispose();
      let used; try { opened.query(); } catch (e) { used = e.constructor.name; }
      out.used = used;
      report(out);`);
    expect(report).toEqual({
      handle: { type: 'Uint8Array', length: 64 },
      opened: { interprocess: true, timing: false, done: true },
      inspect: 'Event {}',
      timed: { type: 'SharingUnsupportedError', reason: 'event-not-interprocess' },
      plain: { type: 'SharingUnsupportedError', reason: 'event-not-interprocess' },
      notEvent: { type: 'TypeError' },
      zeros: { type: 'CudaError', result: 1 },
      short: { type: 'RangeError' },
      used: 'DisposedError',
    });
    expect(log).toEqual(['ipc-event-open 1 0']);
  });
});
