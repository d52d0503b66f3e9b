// Virtual memory and sharing against the stand-in driver (test/fixtures/fake-libcuda.c),
// which simulates cuMemCreate/Map/SetAccess/Unmap/Release, address reservations,
// POSIX-descriptor export/import and legacy IPC, and logs each call. These
// check what a real GPU cannot show directly: the order and pairing of
// releases, the undoing of a map-and-grant that fails part-way, the rounding
// reported to the caller, deduplicated openings, and that no descriptor leaks.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript, ScriptResult } from '../helpers/subprocess';

const MiB = 1 << 20;
const hex = (n: number | bigint) => n.toString(16);
let library: string;
let logFile: string;
let counter = 0;

beforeAll(() => {
  library = fakeDriver();
});

// Runs an async body against the stand-in driver; returns its report and the
// driver's log without the primary-context lines.
function run(body: string, env: Record<string, string> = {}): { r: ScriptResult; log: string[] } {
  logFile = path.join(os.tmpdir(), `fake-vmm-log-${process.pid}-${counter++}`);
  fs.rmSync(logFile, { force: true });
  const r = runScript(`const M = 1 << 20; const fs = require('fs');
    const openFds = () => fs.readdirSync('/proc/self/fd').length;
    (async () => { ${body} })().catch((e) => { console.error(e && e.stack || e); process.exit(1); });`,
  { CUDA_DRIVER_LIBRARY: library, FAKE_CUDA_LOG: logFile, ...env });
  if (r.status !== 0) throw new Error(`script failed (${r.status}): ${r.stderr}`);
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n') : [];
  fs.rmSync(logFile, { force: true });
  return { r, log: log.filter((line) => line !== 'retain' && line !== 'release') };
}

// The stand-in's n-th reservation starts here.
const reservation = (n: number) => 0x200000000000n + (BigInt(n) << 36n);

describe('virtual memory against the stand-in driver', () => {
  test('sizes are rounded up and reported; releases come in the order the driver needs', () => {
    const { r, log } = run(`
      const granularity = { min: cuda.allocationGranularity(), rec: cuda.allocationGranularity({}, 'recommended') };
      const a = cuda.PhysicalAllocation.create(1, { handleTypes: ['posixFileDescriptor'] });
      const small = { size: a.size, props: a.properties() };
      a.dispose();
      const r = cuda.AddressReservation.reserve(M + 1);
      const reserved = r.size; r.dispose();
      const m = cuda.Mapping.alloc(3 * M);
      const info = { size: m.size, address: m.address.toString(16), viaAddress: cuda.memoryAccess(m, 0), access: m.access(0) };
      m.setAccess([{ location: 0, access: 'read' }]);
      info.afterSet = m.access(0, 2 * M);
      const retained = cuda.PhysicalAllocation.retain(m, 2 * M);
      info.retained = { size: retained.size, handle: Number(retained.handle) };
      retained.dispose();
      const segments = m.segments();
      info.segments = segments.map((s) => [s.allocationOffset, s.bytes, s.allocation.size]);
      segments.forEach((s) => s.allocation.dispose());
      m.dispose(); m.dispose();
      let used; try { m.size; } catch (e) { used = e.name; }
      report({ granularity, small, reserved, info, used });`);
    expect(r.report.granularity).toEqual({ min: 2 * MiB, rec: 4 * MiB });
    expect(r.report.small).toEqual({
      size: 2 * MiB,
      props: { locationType: 'device', locationId: 0, handleTypes: ['posixFileDescriptor'], compression: false, gpuDirectRdma: false, hardwareDecompress: false },
    });
    expect(r.report.reserved).toBe(2 * MiB);
    const base = reservation(2);
    expect(r.report.info).toEqual({
      size: 4 * MiB, address: hex(base), viaAddress: 'readwrite', access: 'readwrite', afterSet: 'read',
      retained: { size: 4 * MiB, handle: 2 }, segments: [[0, 4 * MiB, 4 * MiB]],
    });
    expect(r.report.used).toBe('DisposedError');
    expect(log).toEqual([
      `create 1 ${hex(2 * MiB)}`,
      'memrelease 1 0',
      `reserve ${hex(reservation(1))} ${hex(2 * MiB)}`,
      `free ${hex(reservation(1))} ${hex(2 * MiB)}`,
      `create 2 ${hex(4 * MiB)}`,
      `reserve ${hex(base)} ${hex(4 * MiB)}`,
      `map ${hex(base)} ${hex(4 * MiB)}`,
      `access ${hex(base)} ${hex(4 * MiB)}`,
      `access ${hex(base)} ${hex(4 * MiB)}`,
      'retain-allocation 2 0',
      'memrelease 2 1',
      // dispose: unmap, release the handle, free the exact range
      `unmap ${hex(base)} ${hex(4 * MiB)}`,
      'memrelease 2 0',
      `free ${hex(base)} ${hex(4 * MiB)}`,
    ]);
  });

  test('a grant that fails leaves nothing mapped and nothing leaked', () => {
    const { r, log } = run(`
      let e; try { cuda.Mapping.alloc(4 * M); } catch (x) { e = { type: x.constructor.name, call: x.call, code: x.code }; }
      report(e);`, { FAKE_CUDA_FAIL: 'cuMemSetAccess=1' });
    expect(r.report).toEqual({ type: 'CudaError', call: 'cuMemSetAccess', code: 1 });
    const base = reservation(1);
    expect(log).toEqual([
      `create 1 ${hex(4 * MiB)}`,
      `reserve ${hex(base)} ${hex(4 * MiB)}`,
      `map ${hex(base)} ${hex(4 * MiB)}`,
      `unmap ${hex(base)} ${hex(4 * MiB)}`,
      'memrelease 1 0',
      `free ${hex(base)} ${hex(4 * MiB)}`,
    ]);
  });

  test('copies and fills of a growable buffer stop at its size, not at what is mapped', () => {
    // The stand-in maps no bytes behind virtual memory: what is checked is which ranges are refused.
    const { r } = run(`
      const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
      const g = cuda.GrowableBuffer.create({ maxSize: 4 * M, size: M });
      const small = {
        size: g.size, capacity: g.capacity,
        copyOut: t(() => cuda.copy(new Uint8Array(M), g)), fillAll: t(() => cuda.fill(g, 7)),
        copyIn: t(() => cuda.copy(g, new Uint8Array(M + 1))), fillBeyond: t(() => cuda.fill(g, 1, { offset: M, count: 1 })),
        resizeBeyondMapped: t(() => g.native.resize(2 * M + 1)),
      };
      g.resize(2 * M);
      const grown = { size: g.size, copyOut: t(() => cuda.copy(new Uint8Array(2 * M), g)), fill: t(() => cuda.fill(g, 9, { offset: M, count: M })) };
      g.dispose();
      report({ small, grown });`);
    expect(r.report).toEqual({
      small: {
        size: MiB, capacity: 2 * MiB, copyOut: 'no error', fillAll: 'no error',
        copyIn: `RangeError: dst: range [0, 0+${MiB + 1}) exceeds its ${MiB} bytes`,
        fillBeyond: `RangeError: target: range [${MiB}, ${MiB}+1) exceeds its ${MiB} bytes`,
        resizeBeyondMapped: `RangeError: size: range [0, 0+${2 * MiB + 1}) exceeds its ${2 * MiB} bytes`,
      },
      grown: { size: 2 * MiB, copyOut: 'no error', fill: 'no error' },
    });
  });

  test('a growable buffer keeps its address across growth; a failed growth changes nothing', () => {
    const { r, log } = run(`
      const g = cuda.GrowableBuffer.create({ maxSize: 15 * M, size: M });
      const address = g.address;
      const start = { size: g.size, capacity: g.capacity, maxSize: g.maxSize };
      let failed; try { g.resize(5 * M); } catch (x) { failed = x.constructor.name; }
      const afterFailure = { size: g.size, capacity: g.capacity };
      g.resize(5 * M);
      const grown = { size: g.size, capacity: g.capacity, same: g.address === address };
      let tooBig; try { g.resize(17 * M); } catch (x) { tooBig = x.constructor.name; }
      g.resize(16 * M);
      const full = g.capacity;
      g.resize(M);
      const shrunk = { size: g.size, capacity: g.capacity };
      const pieces = g.segments().map((s) => { s.allocation.dispose(); return s.bytes; });
      g.dispose();
      report({ start, failed, afterFailure, grown, tooBig, full, shrunk, pieces });`, { FAKE_MAP_FAIL_AT: '2' });
    expect(r.report).toEqual({
      start: { size: MiB, capacity: 2 * MiB, maxSize: 16 * MiB },
      failed: 'CudaOutOfMemoryError',
      afterFailure: { size: MiB, capacity: 2 * MiB },
      grown: { size: 5 * MiB, capacity: 6 * MiB, same: true },
      tooBig: 'RangeError',
      full: 16 * MiB,
      shrunk: { size: MiB, capacity: 16 * MiB },
      pieces: [2 * MiB, 4 * MiB, 10 * MiB],
    });
    const b = reservation(1);
    const at = (offset: number) => hex(b + BigInt(offset));
    expect(log.slice(0, 12)).toEqual([
      `reserve ${at(0)} ${hex(16 * MiB)}`,
      `create 1 ${hex(2 * MiB)}`, `map ${at(0)} ${hex(2 * MiB)}`, `access ${at(0)} ${hex(2 * MiB)}`,
      `create 2 ${hex(4 * MiB)}`, 'memrelease 2 0',  // the failed growth's allocation is released at once
      `create 3 ${hex(4 * MiB)}`, `map ${at(2 * MiB)} ${hex(4 * MiB)}`, `access ${at(2 * MiB)} ${hex(4 * MiB)}`,
      `create 4 ${hex(10 * MiB)}`, `map ${at(6 * MiB)} ${hex(10 * MiB)}`, `access ${at(6 * MiB)} ${hex(10 * MiB)}`,
    ]);
    // Unmapped piece by piece (last first), each handle released, the range freed last.
    expect(log.slice(12, 15)).toEqual([`unmap ${at(6 * MiB)} ${hex(10 * MiB)}`, `unmap ${at(2 * MiB)} ${hex(4 * MiB)}`, `unmap ${at(0)} ${hex(2 * MiB)}`]);
    expect(log.slice(15, 18).sort()).toEqual(['memrelease 1 0', 'memrelease 3 0', 'memrelease 4 0']);
    expect(log.slice(18)).toEqual([`free ${at(0)} ${hex(16 * MiB)}`]);
  });
});

describe('sharing against the stand-in driver', () => {
  const foreign = `const foreign = (d, token = 'ab') => ({ ...d, exporter: { pid: 1, token: token.repeat(16) } });`;

  test('virtual memory: export, import elsewhere, alias here; no descriptor leaks', () => {
    const { r, log } = run(`${foreign}
      const before = openFds();
      const plain = cuda.Mapping.alloc(2 * M);
      let refused; try { cuda.shareMemory(plain); } catch (x) { refused = { type: x.constructor.name, reason: x.reason }; }
      const m = cuda.Mapping.alloc(4 * M, { handleTypes: ['posixFileDescriptor'] });
      const exp = cuda.shareMemory(m, { offset: M, bytes: 2 * M });
      const d = exp.descriptor;
      const held = openFds() - before;
      const opened = await cuda.openSharedMemory(JSON.parse(JSON.stringify(foreign(d))), { fds: exp.fds });
      const alias = await cuda.openSharedMemory(d);
      const out = { kind: d.kind, handleType: d.handleType, segments: d.segments, offset: d.offset, size: d.size, fds: exp.fds.length, held,
        opened: { path: opened.path, size: opened.size, address: opened.address.toString(16) },
        alias: { path: alias.path, size: alias.size, at: alias.address === m.address + BigInt(M) } };
      try { await cuda.openSharedMemory(foreign(d)); } catch (x) { out.noFds = x.constructor.name; }
      try { await cuda.openSharedMemory(foreign(d), { fds: [] }); } catch (x) { out.wrongFds = x.constructor.name; }
      opened.dispose(); alias.dispose(); exp.dispose();
      let afterDispose; try { exp.fds; } catch (x) { afterDispose = x.name; }
      m.dispose(); plain.dispose();
      let gone; try { await cuda.openSharedMemory(d); } catch (x) { gone = x.reason; }
      report({ ...out, refused, afterDispose, gone, leaked: openFds() - before });`);
    expect(r.report).toEqual({
      kind: 'vmm', handleType: 'posixFileDescriptor', segments: [{ allocationSize: 4 * MiB, allocationOffset: 0, bytes: 4 * MiB }],
      offset: MiB, size: 2 * MiB, fds: 1, held: 1,
      opened: { path: 'vmm', size: 2 * MiB, address: hex(reservation(3) + BigInt(MiB)) },
      alias: { path: 'alias', size: 2 * MiB, at: true },
      noFds: 'TypeError', wrongFds: 'TypeError',
      refused: { type: 'SharingUnsupportedError', reason: 'handle-type-not-requested' },
      afterDispose: 'DisposedError', gone: 'same-process', leaked: 0,
    });
    const imported = reservation(3);
    expect(log).toEqual(expect.arrayContaining(['export 2 0', 'import 3 0', `map ${hex(imported)} ${hex(4 * MiB)}`]));
    // The importer's mapping is undone like any other: unmap, release, free.
    const i = log.indexOf(`unmap ${hex(imported)} ${hex(4 * MiB)}`);
    expect(log.slice(i, i + 3)).toEqual([`unmap ${hex(imported)} ${hex(4 * MiB)}`, 'memrelease 3 0', `free ${hex(imported)} ${hex(4 * MiB)}`]);
  });

  test('an import that fails part-way unmaps what it mapped and releases what it imported', () => {
    const { r, log } = run(`${foreign}
      const g = cuda.GrowableBuffer.create({ maxSize: 8 * M, size: 2 * M, handleTypes: ['posixFileDescriptor'] });
      g.resize(4 * M);  // a second piece of 2 MiB
      const exp = cuda.shareMemory(g);
      const before = openFds();
      let failed; try { await cuda.openSharedMemory(foreign(exp.descriptor), { fds: exp.fds }); } catch (x) { failed = x.constructor.name; }
      const segments = exp.descriptor.segments.length;
      exp.dispose(); g.dispose();
      report({ failed, segments, leaked: openFds() - before });`, { FAKE_MAP_FAIL_AT: '4' });
    expect(r.report).toEqual({ failed: 'CudaOutOfMemoryError', segments: 2, leaked: -2 });
    const imported = reservation(2);
    const start = log.indexOf(`reserve ${hex(imported)} ${hex(4 * MiB)}`);
    expect(log.slice(start, start + 7)).toEqual([
      `reserve ${hex(imported)} ${hex(4 * MiB)}`,
      'import 3 0', 'import 4 0',
      `map ${hex(imported)} ${hex(2 * MiB)}`,
      `unmap ${hex(imported)} ${hex(2 * MiB)}`,
      ...['memrelease 3 0', 'memrelease 4 0'],
    ]);
    expect(log[start + 7]).toBe(`free ${hex(imported)} ${hex(4 * MiB)}`);
  });

  test('descriptors and their file descriptors travel over an FdChannel; crossed messages are caught', () => {
    const { r } = run(`${foreign}
      const server = cuda.FdChannelServer.listen();
      const [a, b] = await Promise.all([server.accept(), cuda.FdChannel.connect(server.address)]);
      const m = cuda.Mapping.alloc(2 * M, { handleTypes: ['posixFileDescriptor'] });
      const exp = cuda.shareMemory(m);
      const before = openFds();
      await a.send(foreign(exp.descriptor, 'cd'), exp.fds);
      const received = await cuda.receiveSharedMemory(b);
      const afterReceive = openFds() - before;
      await a.send(foreign(exp.descriptor, 'cd'), exp.fds);
      const viaChannel = await cuda.openSharedMemory(foreign(exp.descriptor, 'cd'), { channel: b });
      await a.send({ ...foreign(exp.descriptor, 'cd'), id: '1'.repeat(32) }, exp.fds);
      let crossed; try { await cuda.openSharedMemory(foreign(exp.descriptor, 'cd'), { channel: b }); } catch (x) { crossed = { type: x.constructor.name, field: x.field }; }
      await exp.send(a);
      const here = await cuda.receiveSharedMemory(b);
      const out = { received: received.path, viaChannel: viaChannel.path, here: here.path, crossed, afterReceive, leaked: openFds() - before };
      [received, viaChannel, here, exp, m, a, b, server].forEach((x) => x.dispose());
      report(out);`);
    expect(r.report).toEqual({
      received: 'vmm', viaChannel: 'vmm', here: 'alias',
      crossed: { type: 'InvalidDescriptorError', field: 'id' },
      afterReceive: 0, leaked: 0,
    });
  });

  test('legacy IPC: one opening per handle, shared by its views, closed once with the last view; claims are checked', () => {
    const { r, log } = run(`
      const handle = (first) => { const h = Buffer.alloc(64); h[0] = first; return h.toString('base64'); };
      const d = { format: 'cuda-driver/shared-memory', version: 1, id: '0'.repeat(32), exporter: { pid: 1, token: 'ab'.repeat(16) },
        device: { uuid: cuda.Device.get(0).uuid, ordinal: 0 }, size: 4096, kind: 'legacy', handle: handle(7), offset: 8192 };
      const a = await cuda.openSharedMemory(d);
      const b = await cuda.openSharedMemory({ ...d, offset: 0, size: M });
      const out = { a: a.address.toString(16), b: b.address.toString(16), path: a.path, size: a.size };
      try { await cuda.openSharedMemory({ ...d, offset: M - 10 }); } catch (x) { out.pastEnd = x.constructor.name; }
      a.dispose();
      out.bStillUsable = b.size;
      b.dispose();
      try { await cuda.openSharedMemory({ ...d, handle: handle(9), offset: 0, size: 2 * M }); } catch (x) { out.tooLarge = x.constructor.name; }
      try { await cuda.openSharedMemory({ ...d, device: { uuid: 'GPU-00000000-0000-0000-0000-000000000000', ordinal: 0 } }); } catch (x) { out.noDevice = x.reason; }
      try { await cuda.openSharedMemory({ ...d, version: 2 }); } catch (x) { out.version = x.field; }
      report(out);`);
    expect(r.report).toEqual({
      a: hex(0x300000000000n + 7n * BigInt(MiB) + 8192n), b: hex(0x300000000000n + 7n * BigInt(MiB)), path: 'legacy', size: 4096,
      pastEnd: 'RangeError', bStillUsable: MiB, tooLarge: 'RangeError', noDevice: 'device-not-visible', version: 'version',
    });
    expect(log).toEqual(['ipc-open 7 1', 'ipc-close 7 0', 'ipc-open 9 1', 'ipc-close 9 0']);
  });

  test('what cannot be shared says why and what to do', () => {
    const { r } = run(`
      const out = {};
      const m = cuda.Mapping.alloc(2 * M, { handleTypes: ['posixFileDescriptor'] });
      for (const [name, f] of Object.entries({
        notMemory: () => cuda.shareMemory({}),
        pastEnd: () => cuda.shareMemory(m, { offset: 2 * M }),
        empty: () => cuda.shareMemory(m, { bytes: 0 }),
        badType: () => cuda.shareMemory(m, { handleType: 'win32' }),
        fabric: () => cuda.shareMemory(m, { handleType: 'fabric' }),
      })) {
        try { f(); out[name] = 'accepted'; } catch (x) { out[name] = { type: x.constructor.name, reason: x.reason, remedy: x.remedy }; }
      }
      m.dispose();
      report(out);`);
    expect(r.report.notMemory.type).toBe('TypeError');
    expect(r.report.pastEnd.type).toBe('RangeError');
    expect(r.report.empty.type).toBe('RangeError');
    expect(r.report.badType.type).toBe('RangeError');
    // The stand-in claims every capability (attributes are non-zero) but this machine has no IMEX channel,
    // or its allocation was not created for fabric export: either way the error names the remedy.
    expect(r.report.fabric.type).toBe('SharingUnsupportedError');
    expect(['fabric-unavailable', 'handle-type-not-requested']).toContain(r.report.fabric.reason);
    expect(r.report.fabric.remedy).toMatch(/posixFileDescriptor|handleTypes/);
  });
});
