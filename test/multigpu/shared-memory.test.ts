// Memory of device 0 opened on device 1 by another process: this process shares
// a cuMemAlloc buffer (legacy IPC), a VMM mapping (a POSIX descriptor) and a
// pool allocation (the pool's descriptor and the pointer's export data); a
// child opens each with openSharedMemory's { device: 1 } (through
// receiveSharedMemory), checks the bytes, copies them into memory of device 1,
// writes new bytes, and this process reads them back from device 0.
import {
  copy,
  DeviceBuffer,
  FdChannelServer,
  Mapping,
  MemoryPool,
  shareMemory,
  Stream,
} from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { pattern } from '../helpers/multi-gpu';
import { startScript } from '../helpers/subprocess';
import { describePeerAccess } from '../helpers/tiers';

const n = 2 << 20;

// The child: opens what arrives on the channel on device 1, and reports.
const child = `
const pattern = ${pattern.toString()};
const equal = (a, b) => Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b)) === 0;
(async () => {
  const ch = await cuda.FdChannel.connect({ abstract: process.env.IPC_ADDRESS }, { timeoutMs: 30000 });
  const opened = [], results = [];
  for (let k = 0; k < 3; k++) {
    const shared = await cuda.receiveSharedMemory(ch, { device: 1, timeoutMs: 30000 });
    opened.push(shared);
    const bytes = new Uint8Array(${n});
    cuda.copy(bytes, shared, { bytes: ${n} });
    const own = cuda.DeviceBuffer.alloc(${n}, { device: 1 });
    cuda.copy(own, shared, { bytes: ${n} });
    results.push({ path: shared.path, device: shared.device.ordinal, read: equal(bytes, pattern(${n}, 1 + k)),
      copied: equal(own.readSync(Uint8Array), pattern(${n}, 1 + k)) });
    own.dispose();
    cuda.copy(shared, pattern(${n}, 10 + k));
  }
  await ch.send({ results });
  (await ch.receive({ timeoutMs: 30000 })).dispose();  // the parent has read our writes
  opened.forEach((m) => m.dispose());
  ch.dispose();
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });`;

describePeerAccess('memory shared by another process, opened on the other device', () => {
  test('legacy, VMM and pool memory of device 0 opened on device 1 in a child; its reads and writes checked', async () => {
    using plain = DeviceBuffer.from(pattern(n, 1), { device: 0 });
    using mapping = Mapping.alloc(n, { location: 0, handleTypes: ['posixFileDescriptor'] });
    copy(mapping, pattern(n, 2));
    using pool = MemoryPool.create({ location: 0, handleTypes: ['posixFileDescriptor'] });
    using stream = Stream.create({ device: 0 });
    using pooled = DeviceBuffer.allocAsync(n, stream, { pool });
    copy(pooled, pattern(n, 3), { stream });
    await stream.synchronize();
    const exports = [shareMemory(plain), shareMemory(mapping, { viewBytes: n }), shareMemory(pooled)];
    expect(exports.map((e) => e.descriptor.kind)).toEqual(['legacy', 'vmm', 'pool']);

    using server = FdChannelServer.listen();
    const started = startScript(child, { IPC_ADDRESS: (server.address as { abstract: string }).abstract, NCCL_NVLS_ENABLE: '0' });
    // A wait that the child's early exit ends, with its stderr.
    const orExit = <T>(wait: Promise<T>) => Promise.race([wait, started.result.then((r): never => {
      throw new Error(`the child exited (${r.status ?? r.signal}) early: ${r.stderr}`);
    })]);
    try {
      using channel = await orExit(server.accept({ timeoutMs: 30000 }));
      for (const e of exports) await e.send(channel);
      const reply = await orExit(channel.receive<{ results: unknown[] }>({ timeoutMs: 60000 }));
      reply.dispose();
      expect(reply.payload.results).toEqual([
        { path: 'legacy', device: 1, read: true, copied: true },
        { path: 'vmm', device: 1, read: true, copied: true },
        { path: 'pool', device: 1, read: true, copied: true },
      ]);
      // The child's writes, read from device 0.
      expectBytes(plain.readSync(Uint8Array), pattern(n, 10));
      const fromMapping = new Uint8Array(n);
      copy(fromMapping, mapping, { bytes: n });
      expectBytes(fromMapping, pattern(n, 11));
      expectBytes(pooled.readSync(Uint8Array), pattern(n, 12));
      await channel.send({ done: true });
      const r = await started.result;
      if (r.status !== 0) throw new Error(`the child failed (${r.status ?? r.signal}): ${r.stderr}`);
    } finally {
      if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
      exports.forEach((e) => e.dispose());
    }
  });
});
