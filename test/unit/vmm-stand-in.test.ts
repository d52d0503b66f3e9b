// Virtual memory and sharing against the stand-in driver (test/fixtures/fake-libcuda.c),
// which simulates cuMemCreate/Map/SetAccess/Unmap/Release, address reservations,
// POSIX-descriptor export/import and legacy IPC, and logs each call. These
// check what a real GPU cannot show directly: the order and pairing of
// releases, the undoing of a map-and-grant that fails part-way, the rounding
// reported to the caller, deduplicated openings, and that no descriptor leaks.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { distPath, fakeDriver, runScript, ScriptResult } from '../helpers/subprocess';

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
      let e; try { cuda.Mapping.alloc(4 * M); } catch (x) { e = { type: x.constructor.name, call: x.call, result: x.result, code: x.code }; }
      report(e);`, { FAKE_CUDA_FAIL: 'cuMemSetAccess=1' });
    expect(r.report).toEqual({ type: 'CudaError', call: 'cuMemSetAccess', result: 1, code: 'CUDA_ERROR_INVALID_VALUE' });
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
        resizeBeyondMapped: t(() => require(${JSON.stringify(path.join(distPath, 'native'))}).native.virtualMemoryResize(g.slot, 2 * M + 1)),
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
  // A descriptor as another exporter would have made it: another token, and by default another pid.
  const foreign = `const foreign = (d, token = 'ab', pid = 1) => ({ ...d, exporter: { pid, token: token.repeat(16) } });`;

  test('virtual memory: export, import elsewhere, alias here; no descriptor leaks', () => {
    const { r, log } = run(`${foreign}
      const before = openFds();
      const plain = cuda.Mapping.alloc(2 * M);
      let refused; try { cuda.shareMemory(plain); } catch (x) { refused = { type: x.constructor.name, reason: x.reason }; }
      const m = cuda.Mapping.alloc(4 * M, { handleTypes: ['posixFileDescriptor'] });
      const exp = cuda.shareMemory(m, { viewOffset: M, viewBytes: 2 * M });
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

  test('what an importer reaches: every physical allocation under the view, whatever view the descriptor gives, and no other', () => {
    const { r } = run(`${foreign}
      // Two pieces of 2 MiB; the view is 1 MiB inside the second.
      const g = cuda.GrowableBuffer.create({ maxSize: 16 * M, size: 2 * M, handleTypes: ['posixFileDescriptor'] });
      g.resize(4 * M);
      const piece = cuda.shareMemory(g, { viewOffset: 2 * M + 4096, viewBytes: M });
      // One 8 MiB allocation; the view is 2 MiB of it.
      const m = cuda.Mapping.alloc(8 * M, { handleTypes: ['posixFileDescriptor'] });
      const part = cuda.shareMemory(m, { viewOffset: 2 * M, viewBytes: 2 * M });
      const out = {
        piece: { segments: piece.descriptor.segments, offset: piece.descriptor.offset, fds: piece.fds.length, reachable: piece.reachableBytes },
        part: { reachable: part.reachableBytes },
      };
      const attempt = async (d, fds) => { try { const s = await cuda.openSharedMemory(foreign(d), { fds }); const size = s.size; s.dispose(); return size; } catch (x) { return x.constructor.name; } };
      // Rewritten views: the whole piece opens; past it, or another piece, does not.
      out.piece.whole = await attempt({ ...piece.descriptor, offset: 0, size: 2 * M }, piece.fds);
      out.piece.past = await attempt({ ...piece.descriptor, offset: 0, size: 2 * M + 1 }, piece.fds);
      out.piece.another = await attempt({ ...piece.descriptor, segments: [...piece.descriptor.segments, ...piece.descriptor.segments] }, piece.fds);
      out.part.whole = await attempt({ ...part.descriptor, offset: 0, size: 8 * M }, part.fds);
      [piece, part, g, m].forEach((x) => x.dispose());
      report(out);`);
    expect(r.report).toEqual({
      piece: { segments: [{ allocationSize: 2 * MiB, allocationOffset: 0, bytes: 2 * MiB }], offset: 4096, fds: 1, reachable: 2 * MiB,
        whole: 2 * MiB, past: 'InvalidDescriptorError', another: 'TypeError' },
      part: { reachable: 8 * MiB, whole: 8 * MiB },
    });
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
      // Both ends are this process: a descriptor of "another" exporter names this pid, as its peer.
      const fromPeer = foreign(exp.descriptor, 'cd', process.pid);
      const before = openFds();
      await a.send(fromPeer, exp.fds);
      const received = await cuda.receiveSharedMemory(b);
      const afterReceive = openFds() - before;
      await a.send(fromPeer, exp.fds);
      const viaChannel = await cuda.openSharedMemory(fromPeer, { channel: b });
      await a.send({ ...fromPeer, id: '1'.repeat(32) }, exp.fds);
      let crossed; try { await cuda.openSharedMemory(fromPeer, { channel: b }); } catch (x) { crossed = { type: x.constructor.name, field: x.field }; }
      await a.send({ ...fromPeer, size: M }, exp.fds);
      let altered; try { await cuda.openSharedMemory(fromPeer, { channel: b }); } catch (x) { altered = { type: x.constructor.name, message: x.message }; }
      await exp.send(a);
      const here = await cuda.receiveSharedMemory(b);
      const out = { received: received.path, viaChannel: viaChannel.path, here: here.path, crossed, altered, afterReceive, leaked: openFds() - before };
      [received, viaChannel, here, exp, m, a, b, server].forEach((x) => x.dispose());
      report(out);`);
    expect(r.report).toEqual({
      received: 'vmm', viaChannel: 'vmm', here: 'alias',
      crossed: { type: 'InvalidDescriptorError', field: 'id' },
      altered: { type: 'InvalidDescriptorError', message: expect.stringMatching(/differs from the one received with its file descriptors/) },
      afterReceive: 0, leaked: 0,
    });
  });

  test('a descriptor is opened only from the peer that exported it, unless the importer accepts relays', () => {
    const { r, log } = run(`${foreign}
      const server = cuda.FdChannelServer.listen();
      const [a, b] = await Promise.all([server.accept(), cuda.FdChannel.connect(server.address)]);
      const m = cuda.Mapping.alloc(2 * M, { handleTypes: ['posixFileDescriptor'] });
      const exp = cuda.shareMemory(m);
      const someoneElse = foreign(exp.descriptor, 'cd', 1);   // exported by pid 1, sent by this process
      const before = openFds();
      const refused = [];
      await a.send(someoneElse, exp.fds);
      try { await cuda.receiveSharedMemory(b); } catch (x) { refused.push({ type: x.constructor.name, field: x.field, message: x.message }); }
      await a.send(someoneElse, exp.fds);
      try { await cuda.openSharedMemory(someoneElse, { channel: b }); } catch (x) { refused.push({ type: x.constructor.name, field: x.field }); }
      await a.send(someoneElse, exp.fds);
      const message = await b.receive();
      try { await cuda.openSharedMemory(someoneElse, { fds: message.fds }); } catch (x) { refused.push({ type: x.constructor.name, field: x.field }); }
      // A descriptor that names this process as exporter is opened here only as the alias it is.
      const back = { ...exp.descriptor, exporter: { pid: 1, token: exp.descriptor.exporter.token } };
      try { await cuda.openSharedMemory(back, { fds: message.fds }); } catch (x) { refused.push({ type: x.constructor.name, field: x.field }); }
      const relayed = await cuda.openSharedMemory(someoneElse, { fds: message.fds, exporterIsPeer: false });
      message.dispose();
      await a.send(someoneElse, exp.fds);
      const relayedToo = await cuda.receiveSharedMemory(b, { exporterIsPeer: false });
      let badOption; try { await cuda.openSharedMemory(someoneElse, { fds: [], exporterIsPeer: 'no' }); } catch (x) { badOption = x.constructor.name; }
      // A legacy descriptor brings no file descriptors: the channel it came over names its sender.
      const handle = Buffer.alloc(64, 7).toString('base64');
      await a.send({ ...someoneElse, kind: 'legacy', handle, offset: 0, size: 4096, handleType: undefined, segments: undefined });
      try { await cuda.receiveSharedMemory(b); } catch (x) { refused.push({ type: x.constructor.name, field: x.field }); }
      const out = { refused, relayed: relayed.path, relayedToo: relayedToo.path, badOption, leaked: 0 };
      [relayed, relayedToo].forEach((x) => x.dispose());
      out.leaked = openFds() - before;
      [exp, m, a, b, server].forEach((x) => x.dispose());
      report(out);`);
    const field = { type: 'InvalidDescriptorError', field: 'exporter.pid' };
    expect(r.report.refused[0]).toEqual({ ...field, message: expect.stringMatching(/^invalid shared-memory descriptor: exporter.pid is 1, but the descriptor came from process \d+: it is opened only from the process that exported it/) });
    expect(r.report.refused.slice(1)).toEqual([field, field, field, field]);
    expect(r.report).toMatchObject({ relayed: 'vmm', relayedToo: 'vmm', badOption: 'TypeError', leaked: 0 });
    // Only the two accepted openings reached the driver.
    expect(log.filter((line) => line.startsWith('import'))).toHaveLength(2);
  });

  test('file descriptors that cannot be driver exports are refused before the driver sees them', () => {
    const { r, log } = run(`
      const os = require('os'), path = require('path'), net = require('net'), { execFileSync } = require('child_process');
      const m = cuda.Mapping.alloc(2 * M, { handleTypes: ['posixFileDescriptor'] });
      const exp = cuda.shareMemory(m);
      const file = path.join(os.tmpdir(), 'not-an-export-' + process.pid);
      fs.writeFileSync(file, 'x');
      const fifo = file + '.fifo';
      execFileSync('mkfifo', [fifo]);
      const socketPath = file + '.sock';
      const listener = net.createServer().listen(socketPath);
      await new Promise((resolve) => listener.once('listening', resolve));
      const socket = net.connect(socketPath);
      await new Promise((resolve) => socket.once('connect', resolve));
      const candidates = {
        'a regular file': fs.openSync(file, 'r+'),
        'a character device 1:5': fs.openSync('/dev/zero', 'r+'),
        'an open of the control device that is not read-write': fs.openSync('/dev/null', 'r'),
        'a directory': fs.openSync(os.tmpdir(), 'r'),
        'a pipe': fs.openSync(fifo, 'r+'),
        'a socket': socket._handle.fd,
      };
      const out = { refused: {} };
      for (const [what, fd] of Object.entries(candidates)) {
        const errors = [];
        for (const attempt of [() => cuda.PhysicalAllocation.import(fd, { bytes: 2 * M }), () => cuda.importPool(fd, { identity: 'x' })]) {
          try { attempt(); errors.push('accepted'); } catch (x) { errors.push({ type: x.constructor.name, message: x.message }); }
        }
        out.refused[what] = { fd, errors };
      }
      const closed = fs.openSync(file, 'r');
      fs.closeSync(closed);
      try { cuda.PhysicalAllocation.import(closed, { bytes: 2 * M }); } catch (x) { out.closed = { type: x.constructor.name, code: x.code, syscall: x.syscall }; }
      const genuine = cuda.PhysicalAllocation.import(exp.fds[0], { bytes: 2 * M });
      out.genuine = genuine.size;
      genuine.dispose(); exp.dispose(); m.dispose();
      for (const fd of Object.values(candidates).slice(0, 5)) fs.closeSync(fd);
      socket.destroy(); listener.close();
      [file, fifo].forEach((f) => fs.rmSync(f));
      report(out);`);
    for (const [what, { fd, errors }] of Object.entries(r.report.refused as Record<string, { fd: number; errors: unknown[] }>)) {
      const refusal = { type: 'TypeError', message: `handle=${fd}: this file descriptor is not a CUDA shareable handle (it is ${what}; the driver exports read-write opens of its control device, 1:3)` };
      expect(errors).toEqual([refusal, refusal]);
    }
    expect(Object.keys(r.report.refused)).toHaveLength(6);
    expect(r.report.closed).toEqual({ type: 'SystemError', code: 'EBADF', syscall: 'fstat' });
    expect(r.report.genuine).toBe(2 * MiB);
    // None of the refused reached the driver: the one import is the genuine one.
    expect(log.filter((line) => line.startsWith('import') || line.startsWith('pool import'))).toEqual(['import 2 0']);
  });

  test('a forged descriptor whose file descriptor is /dev/zero, from a peer: refused, nothing imported, nothing leaked', () => {
    const { r, log } = run(`${foreign}
      const server = cuda.FdChannelServer.listen();
      const [a, b] = await Promise.all([server.accept(), cuda.FdChannel.connect(server.address)]);
      const m = cuda.Mapping.alloc(2 * M, { handleTypes: ['posixFileDescriptor'] });
      const forged = foreign(cuda.shareMemory(m).descriptor, 'ee', process.pid);
      const zero = fs.openSync('/dev/zero', 'r+');
      const before = openFds();
      await a.send(forged, [zero]);
      let refused; try { await cuda.receiveSharedMemory(b); } catch (x) { refused = { type: x.constructor.name, message: x.message }; }
      const leaked = openFds() - before;
      fs.closeSync(zero);
      [m, a, b, server].forEach((x) => x.dispose());
      report({ refused, leaked });`);
    expect(r.report).toEqual({
      refused: { type: 'TypeError', message: expect.stringMatching(/this file descriptor is not a CUDA shareable handle \(it is a character device 1:5;/) },
      leaked: 0,
    });
    expect(log.filter((line) => line.startsWith('import'))).toEqual([]);
  });

  test('an imported pool is known by the peer that sent it: another peer cannot claim it, and the driver refuses it the other\'s allocations', () => {
    // Two exporters in processes of their own: each sends, when asked, the descriptor it is
    // given under its own pid with a fresh export descriptor (a read-write /dev/null: the
    // stand-in's exports). The second claims the first's pool (its token and pool id), and
    // passes on export data of the first's allocation: data names its pool (pointer()'s
    // second argument), and the stand-in refuses it through another pool, as the driver does.
    const { r, log } = run(`
      const { spawn } = require('child_process');
      const server = cuda.FdChannelServer.listen();
      const exporter = () => spawn(process.execPath, ['-e', \`
        const cuda = require(process.env.DIST), fs = require('fs');
        (async () => {
          const ch = await cuda.FdChannel.connect({ abstract: process.env.ADDRESS }, { timeoutMs: 10000 });
          for (;;) {
            const { payload } = await ch.receive({ timeoutMs: 10000 });
            if (payload === 'done') break;
            const fd = fs.openSync('/dev/null', 'r+');
            await ch.send({ ...payload, exporter: { ...payload.exporter, pid: process.pid } }, [fd]);
            fs.closeSync(fd);
          }
          ch.dispose();
        })();\`], { env: { ...process.env, ADDRESS: server.address.abstract }, stdio: 'inherit' });
      const first = exporter();
      const a = await server.accept({ timeoutMs: 10000 });
      const second = exporter();
      const h = await server.accept({ timeoutMs: 10000 });
      let n = 0;
      const pointer = (address, pool) => { const b = Buffer.alloc(64); b.writeBigUInt64LE(address); b.writeInt32LE(pool, 8); return b.toString('base64'); };
      const descriptor = (address, pool) => ({ format: 'cuda-driver/shared-memory', version: 1, id: (++n).toString(16).padStart(32, '0'),
        exporter: { pid: 1, token: 'a1'.repeat(16) }, device: { uuid: cuda.Device.get(0).uuid, ordinal: 0 }, size: 4096,
        kind: 'pool', handleType: 'posixFileDescriptor', pool: 'a1', pointer: pointer(address, pool), offset: 0 });
      const open = async (ch, d) => { await ch.send(d); return cuda.receiveSharedMemory(ch, { timeoutMs: 10000 }); };
      const fromFirst = await open(a, descriptor(0x1000n, 1));
      const claimed = await open(h, descriptor(0x2000n, 2));
      let reached; try { await open(h, descriptor(0x1000n, 1)); } catch (x) { reached = { type: x.constructor.name, code: x.code, call: x.call }; }
      const again = await open(a, descriptor(0x1000n, 1));
      const out = { first: fromFirst.address === again.address, claimedApart: claimed.address !== fromFirst.address, reached };
      [fromFirst, claimed, again].forEach((x) => x.dispose());
      await a.send('done'); await h.send('done');
      await Promise.all([first, second].map((c) => new Promise((resolve) => c.on('close', resolve))));
      [a, h, server].forEach((x) => x.dispose());
      report(out);`, { DIST: distPath });
    expect(r.report).toEqual({
      first: true, claimedApart: true,
      reached: { type: 'CudaError', code: 'CUDA_ERROR_INVALID_VALUE', call: 'cuMemPoolImportPointer' },
    });
    // Each peer's pool imported once, and each allocation once through its own pool.
    expect(log.filter((line) => line.startsWith('pool import'))).toEqual(['pool import 1', 'pool import-pointer 1 1000', 'pool import 2', 'pool import-pointer 2 2000']);
  });

  test('export data tried against each imported pool: the driver refuses another pool\'s, its own pool opens it once', () => {
    const { r, log } = run(`
      const s = cuda.Stream.create();
      const pools = [0, 1].map(() => cuda.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] }));
      const buffers = pools.map((pool) => cuda.DeviceBuffer.allocAsync(4096, s, { pool }));
      const data = buffers.map((b) => cuda.exportPoolPointer(b));
      const fds = pools.map((pool) => cuda.exportPool(pool));
      const imported = fds.map((fd, i) => cuda.importPool(fd, { identity: 'exporter ' + i }));
      const a = cuda.importPoolPointer(imported[0], data[0], { bytes: 4096 });
      const b = cuda.importPoolPointer(imported[1], data[1], { bytes: 4096 });
      let crossed; try { cuda.importPoolPointer(imported[1], data[0], { bytes: 4096 }); } catch (x) { crossed = { type: x.constructor.name, code: x.code, call: x.call }; }
      const again = cuda.importPoolPointer(imported[0], data[0], { offset: 64, bytes: 64 });
      report({ crossed, apart: a.address !== b.address, again: again.address === a.address + 64n, exported: buffers.map((x) => x.address.toString(16)) });
      [a, b, again, ...imported, ...fds, ...buffers].forEach((x) => x.dispose());
      await s.synchronize();
      pools.forEach((p) => p.dispose());`);
    expect(r.report).toMatchObject({ crossed: { type: 'CudaError', code: 'CUDA_ERROR_INVALID_VALUE', call: 'cuMemPoolImportPointer' }, apart: true, again: true });
    // Each allocation imported once through its own pool; the crossed attempt reached the driver and left nothing.
    const [first, second] = r.report.exported;
    expect(log.filter((line) => line.startsWith('pool import'))).toEqual(['pool import 3', 'pool import 4', `pool import-pointer 3 ${first}`, `pool import-pointer 4 ${second}`]);
  });

  test('a process forked in another thread while an export is made does not inherit its descriptor', () => {
    // The stand-in holds each export open, not yet close-on-exec, for 400 ms; a worker
    // thread spawns a child 100 ms into it. The child lists the descriptors it has.
    const { r } = run(`
      const { Worker } = require('worker_threads');
      const exports = {
        allocation: () => cuda.PhysicalAllocation.create(2 * M, { handleTypes: ['posixFileDescriptor'] }).exportFd(),
        pool: () => cuda.exportPool(cuda.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] })),
      };
      const out = {};
      for (const [name, exportOne] of Object.entries(exports)) {
        const go = new Int32Array(new SharedArrayBuffer(4));
        const worker = new Worker(\`
          const { workerData: go, parentPort } = require('worker_threads');
          const { spawnSync } = require('child_process');
          parentPort.postMessage('ready');
          Atomics.wait(go, 0, 0);
          Atomics.wait(go, 0, 1, 100);
          parentPort.postMessage(spawnSync('ls', ['-l', '/proc/self/fd'], { encoding: 'utf8' }).stdout);\`, { eval: true, workerData: go });
        const next = () => new Promise((resolve) => worker.once('message', resolve));
        await next();
        const listed = next();
        Atomics.store(go, 0, 1);
        Atomics.notify(go, 0);
        const fd = exportOne();
        const listing = await listed;
        out[name] = { listed: listing.includes(' -> '), inherited: listing.split('\\n').some((line) => line.includes(' ' + fd.fd + ' -> ')) };
        fd.dispose();
        await worker.terminate();
      }
      report(out);`, { FAKE_EXPORT_DELAY_MS: '400' });
    expect(r.report).toEqual({ allocation: { listed: true, inherited: false }, pool: { listed: true, inherited: false } });
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
        pastEnd: () => cuda.shareMemory(m, { viewOffset: 2 * M }),
        empty: () => cuda.shareMemory(m, { viewBytes: 0 }),
        offset: () => cuda.shareMemory(m, { offset: M }),
        bytes: () => cuda.shareMemory(m, { bytes: M }),
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
    // The old names read as a boundary, which the range is not: refused, naming the new ones.
    expect(r.report.offset.type).toBe('TypeError');
    expect(r.report.bytes.type).toBe('TypeError');
    expect(r.report.badType.type).toBe('RangeError');
    // The stand-in claims every capability (attributes are non-zero) but this machine has no IMEX channel,
    // or its allocation was not created for fabric export: either way the error names the remedy.
    expect(r.report.fabric.type).toBe('SharingUnsupportedError');
    expect(['fabric-unavailable', 'handle-type-not-requested']).toContain(r.report.fabric.reason);
    expect(r.report.fabric.remedy).toMatch(/posixFileDescriptor|handleTypes/);
  });
});
