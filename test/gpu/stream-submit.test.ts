// Batched submission against the real driver: a batch of prepared launches and
// graph launches queued by one stream.submit() call runs in its order, each
// launch with its values as they were when it was submitted; the results are
// copied back and compared. The kernel's update does not commute (y = a * y +
// b), so any other order gives other values.
import { arg, compile, DeviceBuffer, Graph, Library, Stream } from '../../lib';
import { describeGpu } from '../helpers/tiers';

const source = `
extern "C" __global__ void affine(float* y, float a, float b, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * y[i] + b;
}
`;

describeGpu('stream.submit', () => {
  let lib: Library;
  let stream: Stream;
  beforeAll(() => {
    lib = Library.load(compile(source, { name: 'submit.cu' }));
    stream = Stream.create();
  });
  afterAll(() => {
    stream?.dispose();
    lib?.dispose();
  });

  test('a batch of prepared launches and graph launches runs in order, with the values set at submission', () => {
    const n = 1000;
    using y = DeviceBuffer.from(new Float32Array(n).fill(1));
    using affine = lib.kernel('affine');
    const shape = { grid: Math.ceil(n / 256), block: 256 };
    using double = affine.prepare({ ...shape, stream }, ['ptr', 'f32', 'f32', 'u32'], [y, 2, 1, n]);
    using addFive = affine.prepare({ ...shape, stream }, ['ptr', 'f32', 'f32', 'u32'], [y, 1, 5, n]);
    using graph = Graph.create();
    graph.addKernel(affine, shape, [arg.ptr(y), arg.f32(10), arg.f32(0), arg.u32(n)]);
    using times10 = graph.instantiate();

    stream.submit([double, times10, addFive]); // (1 * 2 + 1) * 10 + 5
    stream.synchronizeSync();
    expect([...new Set(y.readSync(Float32Array))]).toEqual([35]);

    // Values set before the call are what every launch of the batch takes.
    double.set(1, 3);
    stream.submit([addFive, double, times10]); // ((35 + 5) * 3 + 1) * 10
    stream.synchronizeSync();
    expect([...new Set(y.readSync(Float32Array))]).toEqual([1210]);
  });

  test('a long batch of one prepared launch runs every launch', () => {
    const n = 256;
    using y = DeviceBuffer.from(new Float32Array(n));
    using affine = lib.kernel('affine');
    using addOne = affine.prepare({ grid: 1, block: n, stream }, ['ptr', 'f32', 'f32', 'u32'], [y, 1, 1, n]);
    stream.submit(new Array(500).fill(addOne));
    stream.synchronizeSync();
    expect([...new Set(y.readSync(Float32Array))]).toEqual([500]);
  });
});
