// Every 64-bit size the driver takes accepts a bigint as well as a number:
// allocation sizes and limits reach the driver exactly (up to 2^64 - 1), and
// offsets and counts within memory, which no memory is long enough to need
// past 2^53, are exact safe integers. A negative, fractional or unsafe number,
// and a bigint out of range, is refused before the driver is called.
import { fakeDriver, runScript } from '../helpers/subprocess';

const run = (body: string) => {
  const r = runScript(`
    const d = (e) => ({ type: e.constructor.name, message: e.message, call: e.call, detail: e.detail });
    const attempt = (f) => { try { f(); return null; } catch (e) { return d(e); } };
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`, { CUDA_DRIVER_LIBRARY: fakeDriver() });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

describe('sizes given as bigints', () => {
  test('allocations: the size reaches the driver exactly, past 2^53 too', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const sizes = [cuda.DeviceBuffer.alloc(256n), cuda.HostBuffer.alloc(64n), cuda.DeviceBuffer.allocAsync(128n, stream),
        cuda.DeviceBuffer.allocManaged(64n)].map((b) => b.size);
      const pitched = cuda.DeviceBuffer.allocPitched(100n, 2n);
      report({ sizes, pitchedRows: pitched.size / pitched.pitch,
        huge: attempt(() => cuda.DeviceBuffer.alloc(2n ** 60n + 1n)),
        hugeManaged: attempt(() => cuda.DeviceBuffer.allocManaged(2n ** 64n - 1n)) });`);
    expect(r.sizes).toEqual([256, 64, 128, 64]);
    expect(r.pitchedRows).toBe(2);
    // the driver saw 2^60 + 1 (it had no such memory), not a rounded double
    expect(r.huge).toMatchObject({ call: 'cuMemAlloc', detail: 'bytes=1152921504606846977' });
    expect(r.hugeManaged).toMatchObject({ call: 'cuMemAllocManaged', detail: 'bytes=18446744073709551615' });
  });

  test('copies, fills and reads: bigint offsets and counts', () => {
    const r = run(`
      const x = cuda.DeviceBuffer.from(new Uint8Array(16));
      cuda.copy(x, Uint8Array.of(1, 2, 3, 4), { dstOffset: 4n, srcOffset: 1n, bytes: 2n });
      cuda.fill(x, 9, { offset: 8n, count: 3n });
      x.write(Uint8Array.of(7), { offset: 15n });
      report({ all: Array.from(x.readSync()), part: Array.from(x.readSync(Uint8Array, { offset: 4n, bytes: 2n })) });`);
    expect(r.all).toEqual([0, 0, 0, 0, 2, 3, 0, 0, 9, 9, 9, 0, 0, 0, 0, 7]);
    expect(r.part).toEqual([2, 3]);
  });

  test('pools, virtual memory, graphs, stream memory operations and occupancy take bigints', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const pool = cuda.MemoryPool.create({ maxSize: 1n << 30n });
      pool.trimTo(2n ** 63n);
      pool.releaseThreshold = 1n << 20n;
      const allocation = cuda.PhysicalAllocation.create(1n << 20n);
      const reservation = cuda.AddressReservation.reserve(2n << 20n, { alignment: 1n << 20n });
      const x = cuda.DeviceBuffer.alloc(64), y = cuda.DeviceBuffer.alloc(64);
      const graph = cuda.Graph.create();
      const copyNode = graph.addCopy(y, x, { dstOffset: 8n, srcOffset: 0n, bytes: 8n });
      const fillNode = graph.addFill(x, 1, { offset: 4n, count: 4n });
      const { allocation: graphMemory } = graph.addAlloc(256n);
      const k = cuda.Library.load('FAKE\\nkernel saxpy 4,8,8,4').kernel('saxpy');
      report({ threshold: String(pool.releaseThreshold), allocation: allocation.size, reservation: reservation.size,
        // the stand-in lacks the call: reaching it shows the offset was taken; past the end it is refused first
        writeValue: attempt(() => stream.writeValue32(x, 5, { offset: 8n })), writePast: attempt(() => stream.writeValue32(x, 5, { offset: 64n })),
        copyType: copyNode.type, fillType: fillNode.type, graphMemory: graphMemory.size,
        blocks: k.maxActiveBlocksPerMultiprocessor(256, { dynamicSharedMemory: 1n }),
        best: k.maxPotentialBlockSize({ dynamicSharedMemory: (b) => BigInt(b) * 4n }).blockSize });`);
    expect(r).toMatchObject({ threshold: '1048576', allocation: 2 << 20, reservation: 2 << 20, copyType: 'memcpy', fillType: 'memset',
      graphMemory: 256, blocks: 7, best: 1024 });
    expect(r.writeValue).toMatchObject({ type: 'FunctionUnavailableError', call: 'cuStreamWriteValue32' });
    expect(r.writePast).toMatchObject({ type: 'RangeError' });
  });

  test('refused: negative, fractional and unsafe numbers, and bigints out of range', () => {
    const r = run(`
      const x = cuda.DeviceBuffer.alloc(64);
      report({
        negative: attempt(() => cuda.DeviceBuffer.alloc(-1)),
        negativeBigint: attempt(() => cuda.DeviceBuffer.alloc(-1n)),
        fraction: attempt(() => cuda.DeviceBuffer.alloc(1.5)),
        unsafe: attempt(() => cuda.DeviceBuffer.alloc(2 ** 53)),
        notASize: attempt(() => cuda.DeviceBuffer.alloc('64')),
        past64: attempt(() => cuda.DeviceBuffer.alloc(2n ** 64n)),
        poolPast64: attempt(() => cuda.MemoryPool.create({ maxSize: 2n ** 64n })),
        offsetPast53: attempt(() => cuda.copy(x, new Uint8Array(1), { dstOffset: 2n ** 53n })),
        fillNegative: attempt(() => cuda.fill(x, 0, { count: -1n })),
        graphFraction: attempt(() => cuda.Graph.create().addCopy(x, x, { bytes: 0.5 })),
        alignment: attempt(() => cuda.AddressReservation.reserve(1 << 20, { alignment: -1n })),
      });`);
    expect(r.negative).toMatchObject({ type: 'RangeError', message: 'bytes must be between 0 and 9007199254740991, got -1' });
    expect(r.negativeBigint).toMatchObject({ type: 'RangeError', message: 'bytes must be between 0 and 2^64 - 1, got -1' });
    expect(r.fraction).toMatchObject({ type: 'TypeError', message: 'bytes must be an integer, got 1.5' });
    expect(r.unsafe).toMatchObject({ type: 'RangeError', message: 'bytes must be between 0 and 9007199254740991, got 9007199254740992' });
    expect(r.notASize).toMatchObject({ type: 'TypeError' });
    expect(r.past64).toMatchObject({ type: 'RangeError', message: 'bytes must be between 0 and 2^64 - 1, got 18446744073709551616' });
    expect(r.poolPast64).toMatchObject({ type: 'RangeError', message: expect.stringContaining('options.maxSize must be between 0 and 2^64 - 1') });
    expect(r.offsetPast53).toMatchObject({ type: 'RangeError', message: 'options.dstOffset must be between 0 and 9007199254740991, got 9007199254740992' });
    expect(r.fillNegative).toMatchObject({ type: 'RangeError', message: expect.stringContaining('options.count') });
    expect(r.graphFraction).toMatchObject({ type: 'TypeError', message: expect.stringContaining('params.bytes') });
    expect(r.alignment).toMatchObject({ type: 'RangeError', message: expect.stringContaining('options.alignment') });
  });
});
