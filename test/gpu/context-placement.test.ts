// Memory of every kind made in a context of its own (options.context), used by
// a kernel of a module loaded in that context, on a stream of it; the values
// copied back are checked.
import { arg, compile, copy, Device, DeviceBuffer, HostBuffer, MemoryPool, Module, Stream } from '../../lib';
import { describeGpu } from '../helpers/tiers';

const source = `
extern "C" __global__ void scale(float a, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * y[i] + 1.0f;
}
`;

describeGpu('allocations in a created context', () => {
  test('from, allocPitched, allocManaged, a pool and pinned memory of the context serve its kernels', () => {
    using context = Device.get(0).createContext();
    using stream = Stream.create({ context });
    using mod = Module.load(compile(source), { context });
    using kernel = mod.function('scale');
    const n = 1000;
    const input = Float32Array.from({ length: n }, (_, i) => i);
    const shape = { grid: Math.ceil(n / 128), block: 128, stream };
    const run = (y: DeviceBuffer) => kernel.launch(shape, [arg.f32(3), arg.ptr(y), arg.u32(n)]);

    using fromData = DeviceBuffer.from(input, { context });
    using pitched = DeviceBuffer.allocPitched(n * 4, 2, { context });
    using managed = DeviceBuffer.allocManaged(n * 4, { context });
    using pool = MemoryPool.create({ context });
    using pooled = DeviceBuffer.allocAsync(n * 4, stream, { pool });
    using staging = HostBuffer.alloc(n * 4, { context });
    staging.view(Float32Array).set(input);
    copy(pitched, staging, { stream, bytes: n * 4 });
    copy(managed, staging, { stream, bytes: n * 4 });
    copy(pooled, staging, { stream, bytes: n * 4 });
    for (const y of [fromData, pitched, managed, pooled]) run(y);
    using back = HostBuffer.alloc(n * 4, { context, portable: true });
    const results: Float32Array[] = [];
    for (const y of [fromData, pitched, managed, pooled]) {
      copy(back, y, { stream, bytes: n * 4 });
      stream.synchronizeSync();
      results.push(back.view(Float32Array).slice());
    }
    for (const out of results) for (let i = 0; i < n; i++) expect(out[i]).toBe(3 * i + 1);
    expect(pool.location).toBeInstanceOf(Device);
    expect((pool.location as Device).ordinal).toBe(0);
    expect(pitched.pitch).toBeGreaterThanOrEqual(n * 4);
  });
});
