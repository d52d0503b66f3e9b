// Pool export data against the wrong pool, on a real driver: a child exports
// two pools and an allocation of each; this process imports both pools and
// tries each allocation's export data against each pool, as NVIDIA's
// streamOrderedAllocationIPC sample does. The driver must refuse the wrong
// pool (a CudaError, whatever this process imported before) and open the right
// one, once per pool. Then the same pool imported a second time (under another
// identity): the driver hands back the same handle, so it is one pool here,
// destroyed once, and neither import unmaps the other's memory.
import { callCounters, CudaError, importPool, importPoolPointer, MemoryPool, OwnedFd, SharedMemory } from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { killChildren, pattern, read, stepMessage, succeeded, withChild } from '../helpers/ipc-child';
import { describeGpu } from '../helpers/tiers';

afterEach(killChildren);

const bytes = 1 << 16;

// The child: pools A and B, an allocation of each holding pattern(bytes, 31 + i),
// sent as the pools' descriptors and the allocations' export data; it frees
// them once the parent says done (importers free first: the driver's rule).
const exporter = `
  const s = cuda.Stream.create();
  const pools = [0, 1].map(() => cuda.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] }));
  const buffers = pools.map((pool) => cuda.DeviceBuffer.allocAsync(${bytes}, s, { pool }));
  buffers.forEach((b, i) => cuda.copy(b, pattern(${bytes}, 31 + i), { stream: s }));
  await s.synchronize();
  const fds = pools.map((pool) => cuda.exportPool(pool));
  const data = buffers.map((b) => Buffer.from(cuda.exportPoolPointer(b)).toString('base64'));
  await ch.send({ step: 'pools', data }, fds);
  fds.forEach((fd) => fd.dispose());
  await next();  // done: the parent's imports are freed
  buffers.forEach((b) => b.dispose());
  await s.synchronize();
  pools.forEach((p) => p.dispose());
  s.dispose();`;

// Runs the exporter child; use gets the imported pools A and B and the export data of their allocations.
async function withTwoPools(use: (pools: MemoryPool[], data: Uint8Array[], fds: readonly OwnedFd[]) => Promise<void> | void): Promise<void> {
  const r = await withChild(exporter, async (ch, started) => {
    const message = await stepMessage<{ data: string[] }>(ch, 'pools', started);
    try {
      expect(message.fds).toHaveLength(2);
      const data = message.payload.data.map((d) => new Uint8Array(Buffer.from(d, 'base64')));
      const pools = message.fds.map((fd, i) => importPool(fd, { identity: `exporter pool ${i}` }));
      try {
        await use(pools, data, message.fds);
      } finally {
        pools.forEach((p) => p.dispose());
      }
    } finally {
      message.dispose();
    }
    await ch.send({ step: 'done' });
  });
  succeeded(r);
}

function refusal(f: () => unknown): string {
  try {
    const opened = f() as SharedMemory;
    opened.dispose();
    return 'opened';
  } catch (error) {
    expect(error).toBeInstanceOf(CudaError);
    expect((error as CudaError).call).toBe('cuMemPoolImportPointer');
    return (error as CudaError).code;
  }
}

describeGpu('pool export data and the pool it is imported through', () => {
  test('the driver refuses another pool\'s export data, before and after the right pool opened it; the right pool opens it once', async () => {
    await withTwoPools((pools, data) => {
      const [a, b] = pools;
      // Before anything is open, then with A's allocation open through A: the driver is asked each time.
      const before = refusal(() => importPoolPointer(b, data[0], { bytes }));
      expect(before).toBe('CUDA_ERROR_INVALID_VALUE');
      using fromA = importPoolPointer(a, data[0], { bytes });
      using fromB = importPoolPointer(b, data[1], { bytes });
      expect(fromA.path).toBe('pool');
      expectBytes(read(fromA), pattern(bytes, 31));
      expectBytes(read(fromB), pattern(bytes, 32));
      expect(refusal(() => importPoolPointer(b, data[0], { bytes }))).toBe(before);
      expect(refusal(() => importPoolPointer(a, data[1], { bytes }))).toBe(before);
      // The right pool again: the same mapping, a view of it.
      using again = importPoolPointer(a, data[0], { offset: 4096, bytes: 4096 });
      expect(again.address).toBe(fromA.address + 4096n);
      expectBytes(read(again), pattern(bytes, 31).subarray(4096, 8192));
    });
  });

  test('one pool imported twice is one pool, destroyed once; disposing one import leaves the other readable', async () => {
    const destroyErrors = () => callCounters.read().find((c) => c.name === 'cuMemPoolDestroy')?.errors ?? 0;
    const errorsBefore = destroyErrors();
    await withTwoPools((pools, data, fds) => {
      const [a] = pools;
      const first = importPoolPointer(a, data[0], { bytes });
      const twice = importPool(fds[0], { identity: 'exporter pool 0, again' });
      expect(twice.handle).toBe(a.handle);
      const second = importPoolPointer(twice, data[0], { bytes });
      expect(second.address).toBe(first.address);
      expectBytes(read(first), pattern(bytes, 31));
      first.dispose();
      twice.dispose();
      expectBytes(read(second), pattern(bytes, 31));
      second.dispose();
      // The first pool still opens the allocation after the second is gone.
      using reopened = importPoolPointer(a, data[0], { bytes });
      expectBytes(read(reopened), pattern(bytes, 31));
    });
    // The driver gives the same handle to both imports: destroying it twice would fail.
    expect(destroyErrors()).toBe(errorsBefore);
  });
});
