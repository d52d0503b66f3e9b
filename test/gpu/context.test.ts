// A context of its own (Device.createContext()): a stream, an event and
// memory made in it, and a kernel of a module loaded there launched on that
// stream, with the results copied back and checked.
import { arg, compile, copy, Device, DeviceBuffer, Event, Module, Stream } from '../../lib';
import { describeGpu } from '../helpers/tiers';

const source = `
extern "C" __global__ void scale(float a, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * y[i] + 1.0f;
}
`;

describeGpu('a created context', () => {
  test('a module loaded in it launches on a stream of it', () => {
    using context = Device.get(0).createContext();
    using stream = Stream.create({ context });
    expect(stream.context).toBe(context);
    expect(stream.contextHandle()).toBe(context.handle);
    using mod = Module.load(compile(source), { context });
    using kernel = mod.function('scale');
    const n = 1000;
    using y = DeviceBuffer.alloc(n * 4, { context });
    copy(y, Float32Array.from({ length: n }, (_, i) => i), { stream });
    using start = Event.create({ context, timing: true });
    using end = Event.create({ context, timing: true });
    start.record(stream);
    kernel.launch({ grid: Math.ceil(n / 128), block: 128, stream }, [arg.f32(3), arg.ptr(y), arg.u32(n)]);
    end.record(stream);
    // Stream-ordered memory comes from the stream's context too.
    using scratch = DeviceBuffer.allocAsync(n * 4, stream);
    copy(scratch, y, { stream });
    stream.synchronizeSync();
    const out = scratch.readSync(Float32Array);
    for (let i = 0; i < n; i++) expect(out[i]).toBe(3 * i + 1);
    expect(start.elapsedTime(end)).toBeGreaterThanOrEqual(0);
    // The primary context's stream is refused a function of this module.
    using primary = Stream.create();
    expect(() => kernel.launch({ grid: 1, block: 1, stream: primary }, [arg.f32(1), arg.ptr(y), arg.u32(0)]))
      .toThrow(/another context than the stream's/);
  });
});
