// Sharing GPU memory and events between real processes (child_process): for each
// path — legacy IPC memory, legacy IPC events, virtual memory through POSIX
// descriptors, pool memory through a pool descriptor and exported pointers —
// the parent writes, the child reads and writes back, and the child shares
// memory of its own that the parent opens, so every export and import call
// runs in this process (the call counters show it). Descriptors and their file
// descriptors travel over an FdChannel.
//
// What outlives the exporter: virtual memory does (the driver frees it only when
// every handle and mapping is gone: checked below by killing the exporter). For
// legacy IPC memory and pool memory the driver requires the exporter to keep the
// memory alive while importers use it, so no test relies on more.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  allocationGranularity,
  copy,
  CudaError,
  DeviceBuffer,
  Event,
  exportPool,
  fabricSupport,
  fill,
  GrowableBuffer,
  HostBuffer,
  importPool,
  Mapping,
  MemoryPool,
  openSharedEvent,
  OwnedFd,
  openSharedMemory,
  PhysicalAllocation,
  receiveSharedMemory,
  shareEvent,
  shareMemory,
  SharingUnsupportedError,
  Stream,
} from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { killChildren, pattern, read, step, succeeded, withChild } from '../helpers/ipc-child';
import { describeGpu } from '../helpers/tiers';

const openFds = () => fs.readdirSync('/proc/self/fd').length;

afterEach(killChildren);

describeGpu('sharing memory between processes', () => {
  test('legacy IPC: an interior range of cuMemAlloc memory, read and written by a child; the child\'s memory opened here', async () => {
    using buffer = DeviceBuffer.alloc(1 << 20);
    const data = pattern(1 << 20, 1);
    copy(buffer, data);
    using exported = shareMemory(buffer, { viewOffset: 4096, viewBytes: 65536 });
    expect(exported.descriptor).toMatchObject({ kind: 'legacy', offset: 4096, size: 65536, version: 1 });
    expect(exported.fds).toHaveLength(0);
    // In the exporting process the descriptor opens as an alias, not as CUDA_ERROR_INVALID_CONTEXT.
    using alias = await openSharedMemory(exported.descriptor);
    expect(alias.path).toBe('alias');
    expect(alias.address).toBe(buffer.address + 4096n);
    expectBytes(read(alias), data.subarray(4096, 4096 + 65536));

    const r = await withChild(`
      const { descriptor } = (await next()).payload;
      const a = await cuda.openSharedMemory(descriptor);
      const b = await cuda.openSharedMemory(JSON.parse(JSON.stringify(descriptor)));
      const ok = equal(readBytes(a), pattern(1 << 20, 1).subarray(4096, 4096 + 65536));
      cuda.copy(a, pattern(65536, 2));
      const own = cuda.DeviceBuffer.alloc(8192);
      cuda.copy(own, pattern(8192, 3));
      const mine = cuda.shareMemory(own, { viewOffset: 1024, viewBytes: 4096 });
      await ch.send({ step: 'read', ok, path: a.path, size: a.size, deduplicated: a.address === b.address, descriptor: mine.descriptor });
      await next();  // done: the parent has closed its view of our memory
      a.dispose(); b.dispose(); mine.dispose(); own.dispose();`,
    async (ch, started) => {
      await ch.send({ descriptor: exported.descriptor });
      const reply = await step<{ ok: boolean; path: string; size: number; deduplicated: boolean; descriptor: unknown }>(ch, 'read', started);
      expect(reply).toMatchObject({ ok: true, path: 'legacy', size: 65536, deduplicated: true });
      // The child's write landed in our buffer, at the interior offset.
      expectBytes(read(buffer, 4096, 65536), pattern(65536, 2));
      expectBytes(read(buffer, 0, 4096), data.subarray(0, 4096));
      // The child's memory, opened here.
      const theirs = await openSharedMemory(reply.descriptor);
      expect(theirs.path).toBe('legacy');
      expect(theirs.size).toBe(4096);
      expectBytes(read(theirs), pattern(8192, 3).subarray(1024, 5120));
      theirs.dispose();
      await ch.send({ step: 'done' });
    });
    succeeded(r);
  });

  test('legacy IPC events order GPU work across the two processes, both ways', async () => {
    using data = DeviceBuffer.alloc(4096);
    fill(data, 0);
    using flag = DeviceBuffer.alloc(64);
    fill(flag, 0);
    using event = Event.create({ interprocess: true });
    using exported = shareMemory(data);
    const eventDescriptor = shareEvent(event);
    expect(eventDescriptor).toMatchObject({ format: 'cuda-driver/shared-event', version: 1 });
    // In this process the descriptor opens as a second handle on the same event.
    using again = openSharedEvent(eventDescriptor);
    expect(again.interprocess).toBe(true);
    using s = Stream.create();
    using signal = Stream.create();
    using pinned = HostBuffer.alloc(4096);

    const r = await withChild(`
      const setup = (await next()).payload;
      const memory = await cuda.openSharedMemory(setup.memory);
      const theirs = cuda.openSharedEvent(setup.event);
      const mine = cuda.Event.create({ interprocess: true });
      await ch.send({ step: 'ready', event: cuda.shareEvent(mine) });
      await next();  // recorded
      const s = cuda.Stream.create();
      const pinned = cuda.HostBuffer.alloc(4096);
      s.waitEvent(theirs);
      cuda.copy(pinned, memory, { stream: s });
      const pending = !theirs.query();
      await ch.send({ step: 'waiting', pending });
      await s.synchronize();
      const filled = pinned.view(Uint8Array).every((b) => b === 0xab);
      cuda.fill(memory, 0xcd, { stream: s });
      mine.record(s);
      await ch.send({ step: 'recorded', filled });
      await next();  // done: the parent no longer uses our event
      await s.synchronize();
      [memory, theirs, mine, s, pinned].forEach((x) => x.dispose());`,
    async (ch, started) => {
      await ch.send({ memory: exported.descriptor, event: eventDescriptor });
      const ready = await step<{ event: unknown }>(ch, 'ready', started);
      using theirs = openSharedEvent(ready.event);
      // Our stream is held until the flag is set; the fill and the event come after.
      s.waitValue32(flag, 1, { condition: 'eq' });
      fill(data, 0xab, { stream: s });
      event.record(s);
      await ch.send({ step: 'recorded' });
      const waiting = await step<{ pending: boolean }>(ch, 'waiting', started);
      expect(waiting.pending).toBe(true);  // the child saw our event still pending
      expect(event.query()).toBe(false);
      signal.writeValue32(flag, 1);
      const seen = await step<{ filled: boolean }>(ch, 'recorded', started);
      expect(seen.filled).toBe(true);  // the child's copy ran after our fill
      // The other way: our stream waits for the child's event, then reads its fill.
      s.waitEvent(theirs);
      copy(pinned, data, { stream: s });
      await s.synchronize();
      expect(pinned.view(Uint8Array).every((b) => b === 0xcd)).toBe(true);
      theirs.dispose();
      await ch.send({ step: 'done' });
    });
    succeeded(r);
  });

  // Each round shares fresh memory both ways and disposes everything; the
  // descriptor count after each round must not grow (the first round may open
  // descriptors the driver keeps for the process).
  const rounds = 3;

  test('virtual memory through POSIX descriptors, both ways, with a growable buffer of two pieces; no descriptor leaks', async () => {
    const g = allocationGranularity();
    const counts: number[] = [];
    const r = await withChild(`
      for (let round = 0; round < ${rounds}; round++) {
        const shared = await cuda.receiveSharedMemory(ch);
        const ok = equal(readBytes(shared), pattern(shared.size, 4 + round));
        cuda.copy(shared, pattern(shared.size / 2, 5 + round), { dstOffset: shared.size / 2 });
        await ch.send({ step: 'read', ok, path: shared.path, size: shared.size });
        const g = cuda.allocationGranularity();
        const buffer = cuda.GrowableBuffer.create({ maxSize: 8 * g, size: g, handleTypes: ['posixFileDescriptor'] });
        buffer.resize(2 * g);  // a second piece of physical memory
        cuda.copy(buffer, pattern(2 * g, 6 + round));
        const mine = cuda.shareMemory(buffer);
        await mine.send(ch);
        await next();  // next: the parent is done with our memory
        [shared, mine, buffer].forEach((x) => x.dispose());
        await ch.send({ step: 'round-done' });
      }`,
    async (ch, started) => {
      const round = async (n: number) => {
        using mapping = Mapping.alloc(2 * g, { handleTypes: ['posixFileDescriptor'] });
        const data = pattern(mapping.size, 4 + n);
        copy(mapping, data);
        let importedAddress: bigint;
        {
          using exported = shareMemory(mapping);
          expect(exported.descriptor).toMatchObject({ kind: 'vmm', handleType: 'posixFileDescriptor', offset: 0, size: 2 * g });
          expect(exported.fds).toHaveLength(1);
          await exported.send(ch);
          const reply = await step(ch, 'read', started);
          expect(reply).toMatchObject({ ok: true, path: 'vmm', size: 2 * g });
          expectBytes(read(mapping, g), pattern(g, 5 + n));
          expectBytes(read(mapping, 0, g), data.subarray(0, g));
          const theirs = await receiveSharedMemory(ch);
          expect(theirs.path).toBe('vmm');
          expect(theirs.descriptor?.kind === 'vmm' && theirs.descriptor.segments.length).toBe(2);
          expectBytes(read(theirs), pattern(2 * g, 6 + n));
          importedAddress = theirs.address;
          theirs.dispose();
        }
        // Our mapping of the child's memory is gone.
        expect(() => PhysicalAllocation.retain(importedAddress)).toThrow(CudaError);
        await ch.send({ step: 'next' });
        await step(ch, 'round-done', started);
      };
      for (let n = 0; n < rounds; n++) {
        await round(n);
        counts.push(openFds());
      }
    });
    succeeded(r);
    expect(counts.slice(1)).toEqual(counts.slice(1).map(() => counts[0]));
  });

  test('pool memory through the pool\'s descriptor and exported pointers, both ways; the same pointer imported twice is one mapping; no descriptor leaks', async () => {
    using pool = MemoryPool.create({ handleTypes: ['posixFileDescriptor'] });
    using s = Stream.create();
    const counts: number[] = [];
    const r = await withChild(`
      const pool = cuda.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] });
      const s = cuda.Stream.create();
      for (let round = 0; round < ${rounds}; round++) {
        const a = await cuda.receiveSharedMemory(ch);
        const b = await cuda.receiveSharedMemory(ch);
        const c = await cuda.receiveSharedMemory(ch);
        const ok = equal(readBytes(a), pattern(1 << 20, 7 + round).subarray(4096, 4096 + 65536));
        const secondOk = readBytes(c).every((x) => x === 0x77);
        cuda.copy(a, pattern(65536, 8 + round));
        await ch.send({ step: 'read', ok, secondOk, path: a.path, deduplicated: a.address === b.address });
        const own = cuda.DeviceBuffer.allocAsync(1 << 16, s, { pool });
        cuda.copy(own, pattern(1 << 16, 9 + round), { stream: s });
        await s.synchronize();
        const mine = cuda.shareMemory(own);
        await mine.send(ch);
        await next();  // next: the parent freed its import of our memory
        // Imports are freed before their exporter frees the memory (the driver's rule).
        [a, b, c, mine, own].forEach((x) => x.dispose());
        await s.synchronize();
        await ch.send({ step: 'round-done' });
      }
      s.dispose(); pool.dispose();`,
    async (ch, started) => {
      const round = async (n: number) => {
        using buffer = DeviceBuffer.allocAsync(1 << 20, s, { pool });
        using second = DeviceBuffer.allocAsync(1 << 16, s, { pool });
        copy(buffer, pattern(1 << 20, 7 + n), { stream: s });
        fill(second, 0x77, { stream: s });
        await s.synchronize();
        {
          using exported = shareMemory(buffer, { viewOffset: 4096, viewBytes: 65536 });
          expect(exported.descriptor).toMatchObject({ kind: 'pool', handleType: 'posixFileDescriptor', offset: 4096, size: 65536 });
          expect(exported.fds).toHaveLength(1);
          using exportedSecond = shareMemory(second);
          await exported.send(ch);
          await exported.send(ch);
          await exportedSecond.send(ch);
          const reply = await step(ch, 'read', started);
          expect(reply).toMatchObject({ ok: true, secondOk: true, path: 'pool', deduplicated: true });
          expectBytes(read(buffer, 4096, 65536), pattern(65536, 8 + n));
          const theirs = await receiveSharedMemory(ch);
          expect(theirs.path).toBe('pool');
          expectBytes(read(theirs), pattern(1 << 16, 9 + n));
          theirs.dispose();
        }
        await ch.send({ step: 'next' });
        await step(ch, 'round-done', started);  // the child's imports of our memory are freed: ours may go
      };
      for (let n = 0; n < rounds; n++) {
        await round(n);
        await s.synchronize();
        counts.push(openFds());
      }
    });
    succeeded(r);
    expect(counts.slice(1)).toEqual(counts.slice(1).map(() => counts[0]));
  });

  test('virtual memory outlives its exporter: the importer reads it after the exporter is killed', async () => {
    const g = allocationGranularity();
    let theirs: Awaited<ReturnType<typeof receiveSharedMemory>> | undefined;
    const r = await withChild(`
      const m = cuda.Mapping.alloc(2 * cuda.allocationGranularity(), { handleTypes: ['posixFileDescriptor'] });
      cuda.copy(m, pattern(m.size, 12));
      const exported = cuda.shareMemory(m);
      await exported.send(ch);
      await next();  // never comes: the parent kills us`,
    async (ch, started) => {
      theirs = await receiveSharedMemory(ch);
      expectBytes(read(theirs), pattern(2 * g, 12));
      started.child.kill('SIGKILL');
      await started.result;
    });
    expect(r.signal).toBe('SIGKILL');
    try {
      expectBytes(read(theirs!), pattern(2 * g, 12));
      copy(theirs!, pattern(2 * g, 13));
      expectBytes(read(theirs!), pattern(2 * g, 13));
    } finally {
      theirs!.dispose();
    }
  });
});

describeGpu('what an importer can reach', () => {
  test('a view is not a boundary: a rewritten descriptor opens whole allocations (reachableBytes), and nothing past them', async () => {
    const g = allocationGranularity();
    // Sizes the driver does not round (2 MiB), so that what the exporter reports is what the importer maps.
    const n = 2 << 20;
    using buffer = DeviceBuffer.alloc(n);
    copy(buffer, pattern(n, 20));
    using pool = MemoryPool.create({ handleTypes: ['posixFileDescriptor'] });
    using s = Stream.create();
    using pooled = DeviceBuffer.allocAsync(n, s, { pool });
    copy(pooled, pattern(n, 21), { stream: s });
    await s.synchronize();
    // Two physical allocations of g bytes; the view lies inside the second.
    using growable = GrowableBuffer.create({ maxSize: 4 * g, size: g, handleTypes: ['posixFileDescriptor'] });
    growable.resize(2 * g);
    copy(growable, pattern(2 * g, 22));
    using legacy = shareMemory(buffer, { viewOffset: 4096, viewBytes: 65536 });
    using fromPool = shareMemory(pooled, { viewOffset: 4096, viewBytes: 65536 });
    using virtual = shareMemory(growable, { viewOffset: g + 4096, viewBytes: 4096 });
    expect(legacy.reachableBytes).toBe(n);
    expect(fromPool.reachableBytes).toBe(n);
    expect(virtual.reachableBytes).toBe(g);
    expect(virtual.descriptor.kind === 'vmm' && virtual.descriptor.segments).toEqual([{ allocationSize: g, allocationOffset: 0, bytes: g }]);
    expect(virtual.fds).toHaveLength(1);
    expect(() => shareMemory(buffer, { offset: 4096 } as never)).toThrow(/options.offset is not an option of shareMemory.*viewOffset/);

    const r = await withChild(`
      const results = {};
      for (;;) {
        const message = await next();
        if (message.payload.step === 'done') break;
        const { name, descriptor: d, reach, expected } = message.payload;
        const fds = message.fds;
        const whole = await cuda.openSharedMemory({ ...d, offset: 0, size: reach }, { fds });
        const got = readBytes(whole, 0, expected.n - expected.from);
        const result = { size: whole.size, wholeOk: equal(got, pattern(expected.n, expected.seed).subarray(expected.from)) };
        const attempt = async (rewritten) => {
          try { (await cuda.openSharedMemory(rewritten, { fds })).dispose(); return 'opened'; } catch (e) { return e instanceof cuda.CudaError ? 'CudaError' : e.constructor.name; }
        };
        result.beyond = await attempt({ ...d, offset: 0, size: reach + 1 });
        if (name === 'vmm') {
          // A bigger allocation than the one sent, and an allocation that was not sent.
          result.bigger = await attempt({ ...d, offset: 0, size: 2 * reach, segments: [{ allocationSize: 2 * reach, allocationOffset: 0, bytes: 2 * reach }] });
          result.another = await attempt({ ...d, segments: [d.segments[0], d.segments[0]] });
        }
        results[name] = result;
        whole.dispose();
        message.dispose();
        await ch.send({ step: 'opened' });
      }
      await ch.send({ step: 'reached', results });`,
    async (ch, started) => {
      for (const [name, exported, expected] of [
        ['legacy', legacy, { n, seed: 20, from: 0 }],
        ['pool', fromPool, { n, seed: 21, from: 0 }],
        ['vmm', virtual, { n: 2 * g, seed: 22, from: g }],
      ] as const) {
        await ch.send({ name, descriptor: exported.descriptor, reach: exported.reachableBytes, expected }, exported.fds);
        await step(ch, 'opened', started);
      }
      await ch.send({ step: 'done' });
      const { results } = await step<{ results: Record<string, unknown> }>(ch, 'reached', started);
      expect(results).toEqual({
        legacy: { size: n, wholeOk: true, beyond: 'RangeError' },
        pool: { size: n, wholeOk: true, beyond: 'RangeError' },
        vmm: { size: g, wholeOk: true, beyond: 'InvalidDescriptorError', bigger: 'CudaError', another: 'TypeError' },
      });
    });
    succeeded(r);
  });
});

describeGpu('what reaches the driver', () => {
  test('exports are read-write, close-on-exec opens of the control device; other descriptors are refused before the driver', () => {
    const g = allocationGranularity();
    using m = Mapping.alloc(g, { handleTypes: ['posixFileDescriptor'] });
    using exported = shareMemory(m);
    using pool = MemoryPool.create({ handleTypes: ['posixFileDescriptor'] });
    using poolFd = exportPool(pool) as OwnedFd;
    const control = fs.statSync('/dev/nvidiactl');
    for (const fd of [exported.fds[0], poolFd]) {
      const st = fs.fstatSync(fd.fd);
      expect(st.isCharacterDevice()).toBe(true);
      expect(st.rdev).toBe(control.rdev);
      const flags = parseInt(/^flags:\s+([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd.fd}`, 'utf8'))![1], 8);
      expect(flags & 3).toBe(fs.constants.O_RDWR); // O_ACCMODE
      expect(flags & 0o2000000).toBe(0o2000000); // O_CLOEXEC: not inherited by child processes
    }
    const file = path.join(os.tmpdir(), `not-an-export-${process.pid}`);
    const notExports = [fs.openSync(file, 'w+'), fs.openSync('/dev/zero', 'r+')];
    fs.rmSync(file);
    try {
      for (const fd of notExports) {
        let refused: unknown;
        try {
          PhysicalAllocation.import(fd, { bytes: g });
        } catch (error) {
          refused = error;
        }
        expect((refused as Error).name).toBe('TypeError');
        expect((refused as Error).message).toMatch(/^handle=\d+: this file descriptor is not a CUDA shareable handle \(it is (a regular file|a character device 1:5);/);
        expect(() => importPool(fd, { identity: `not-an-export-${fd}` })).toThrow(/this file descriptor is not a CUDA shareable handle/);
      }
    } finally {
      notExports.forEach((fd) => fs.closeSync(fd));
    }
    // An open of the control device that carries no export passes the check; the driver refuses it.
    const bare = fs.openSync('/dev/nvidiactl', 'r+');
    try {
      expect(() => PhysicalAllocation.import(bare, { bytes: g })).toThrow(CudaError);
    } finally {
      fs.closeSync(bare);
    }
    using imported = PhysicalAllocation.import(exported.fds[0], { bytes: g });
    expect(imported.size).toBe(g);
  });
});

describeGpu('what cannot be shared', () => {
  test('each refusal says why and what to do instead', () => {
    using s = Stream.create();
    using managed = DeviceBuffer.allocManaged(4096);
    using fromDefaultPool = DeviceBuffer.allocAsync(4096, s);
    using host = HostBuffer.alloc(4096);
    using plainMapping = Mapping.alloc(4096);
    using timed = Event.create({ timing: true });
    using plainEvent = Event.create();
    const reasons = ([
      [managed, 'managed-memory'],
      [fromDefaultPool, 'pool-not-exportable'],
      [host, 'host-memory'],
      [plainMapping, 'handle-type-not-requested'],
    ] as const).map(([memory, reason]) => {
      try {
        shareMemory(memory);
        return 'shared';
      } catch (error) {
        expect(error).toBeInstanceOf(SharingUnsupportedError);
        expect((error as SharingUnsupportedError).remedy.length).toBeGreaterThan(10);
        return (error as SharingUnsupportedError).reason === reason ? reason : `${reason}? got ${(error as SharingUnsupportedError).reason}`;
      }
    });
    expect(reasons).toEqual(['managed-memory', 'pool-not-exportable', 'host-memory', 'handle-type-not-requested']);
    expect(() => shareEvent(timed)).toThrow(SharingUnsupportedError);
    expect(() => shareEvent(plainEvent)).toThrow(/interprocess/);
  });

  test('fabric handles: used where the device and an IMEX channel allow, refused with the reason elsewhere', async () => {
    const support = fabricSupport();
    if (!support.supported) {
      expect(support.reason).toMatch(/fabric|IMEX/);
      using pool = MemoryPool.create({ handleTypes: ['posixFileDescriptor'] });
      expect(() => exportPool(pool, { handleType: 'fabric' })).toThrow(SharingUnsupportedError);
      using m = Mapping.alloc(4096, { handleTypes: ['posixFileDescriptor'] });
      expect(() => shareMemory(m, { handleType: 'fabric' })).toThrow(SharingUnsupportedError);
      return;
    }
    const g = allocationGranularity({ handleTypes: ['fabric'] });
    using m = Mapping.alloc(g, { handleTypes: ['fabric'] });
    copy(m, pattern(g, 14));
    using exported = shareMemory(m, { handleType: 'fabric' });
    expect(exported.fds).toHaveLength(0);
    const r = await withChild(`
      const shared = await cuda.openSharedMemory((await next()).payload);
      await ch.send({ step: 'read', ok: equal(readBytes(shared), pattern(shared.size, 14)) });
      shared.dispose();`,
    async (ch, started) => {
      await ch.send(exported.descriptor);
      expect(await step(ch, 'read', started)).toMatchObject({ ok: true });
    });
    succeeded(r);
  });
});
