// Tensor maps against the real driver: a kernel receives the map as
// `const __grid_constant__` and loads a tile through the Tensor Memory
// Accelerator (inline PTX: an mbarrier, cp.async.bulk.tensor) into shared
// memory, then writes it out; the tile copied back is compared with the
// matrix. Also a tile over the matrix's edge (zeros outside), replaceAddress
// pointing the map at a second matrix, and the map passed by a prepared launch
// and a graph's kernel node. Needs compute capability 9.0.
import { arg, compile, CudaError, Device, DeviceBuffer, Graph, Kernel, Library, Stream, TensorMap } from '../../lib';
import { describeGpu } from '../helpers/tiers';

const cols = 40;
const rows = 24;
const boxX = 16;
const boxY = 8;

// The descriptor is declared here rather than taken from cuda.h, which NVRTC
// does not ship: 128 bytes, aligned as the driver's encoders require.
const source = `
struct __align__(64) TensorMap { unsigned long long opaque[16]; };

__device__ bool tryWait(unsigned bar, unsigned phase) {
  unsigned done;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(done) : "r"(bar), "r"(phase) : "memory");
  return done != 0;
}

// Loads the ${boxX}x${boxY} tile at column x, row y and writes it to out, row by row.
extern "C" __global__ void load_tile(const __grid_constant__ TensorMap map, int x, int y, float* out) {
  __shared__ alignas(128) float tile[${boxX * boxY}];
  __shared__ alignas(8) unsigned long long barrier;
  const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar) : "memory");
    // Makes the initialized barrier visible to the copy engine's (async) proxy.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long state;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state) : "r"(bar), "r"(static_cast<unsigned>(sizeof(tile))) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(reinterpret_cast<unsigned long long>(&map)), "r"(x), "r"(y), "r"(bar) : "memory");
  }
  while (!tryWait(bar, 0)) {}
  for (unsigned i = threadIdx.x; i < ${boxX * boxY}; i += blockDim.x) out[i] = tile[i];
}
`;

// A matrix whose every element says where it is: base + row * 1000 + column.
function matrix(base: number): Float32Array {
  const m = new Float32Array(cols * rows);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) m[r * cols + c] = base + r * 1000 + c;
  return m;
}

// The tile at (x, y) as TMA loads it: zeros where it leaves the matrix.
function expectedTile(base: number, x: number, y: number): number[] {
  const out: number[] = [];
  for (let r = y; r < y + boxY; r++) {
    for (let c = x; c < x + boxX; c++) out.push(r >= 0 && r < rows && c >= 0 && c < cols ? base + r * 1000 + c : 0);
  }
  return out;
}

const hopper = () => Device.get(0).computeCapability.major >= 9;

describeGpu('tensor maps', () => {
  test('a tiled map encodes a device matrix; the driver refuses what it cannot encode only after the checks', () => {
    using a = DeviceBuffer.from(matrix(0));
    using map = TensorMap.tiled({ memory: a, dataType: 'float32', dims: [cols, rows], box: [boxX, boxY] });
    expect(map.strides).toEqual([cols * 4]);
    expect(String(map)).toBe(`TensorMap(tiled, float32, [${cols}, ${rows}])`);
    expect(() => TensorMap.tiled({ memory: a, dataType: 'float32', dims: [cols, rows], box: [boxX, 300] })).toThrow(RangeError);
  });

  test('the driver encodes im2col maps of an NHWC tensor; a wide one where the driver has it', () => {
    const [n, h, w, c] = [2, 8, 8, 16];
    using tensor = DeviceBuffer.alloc(n * h * w * c * 2);
    // A 3x3 convolution with padding 1: the box runs from one pixel before each edge to one before the far edge.
    const shape = { memory: tensor, dataType: 'float16' as const, dims: [c, w, h, n], channelsPerPixel: c, pixelsPerColumn: 64 };
    using map = TensorMap.im2col({ ...shape, pixelBoxLowerCorner: [-1, -1], pixelBoxUpperCorner: [-1, -1] });
    expect(String(map)).toBe(`TensorMap(im2col, float16, [${c}, ${w}, ${h}, ${n}])`);
    // Wide maps serve compute capability 10.0 kernels; the encode itself needs only a CUDA 12.8 driver.
    let wide: string;
    try {
      using wideMap = TensorMap.im2colWide({ ...shape, pixelBoxLowerCornerWidth: -1, pixelBoxUpperCornerWidth: -1, swizzle: '128B' });
      wide = String(wideMap);
    } catch (e) {
      expect(e).toBeInstanceOf(CudaError);
      wide = (e as CudaError).code;
    }
    console.log(`cuTensorMapEncodeIm2colWide on this driver: ${wide}`);
    expect(wide).toMatch(/^(TensorMap\(im2colWide, float16|CUDA_ERROR_)/);
  });

  test('a kernel loads tiles through TMA: inside, over the edge (zeros), and from a second matrix after replaceAddress', () => {
    const device = Device.get(0);
    if (!hopper()) {
      console.warn(`TMA kernel test skipped: ${device.name} is compute capability ${device.computeCapability.major}.` +
        `${device.computeCapability.minor}; TMA needs 9.0`);
      return;
    }
    using lib = Library.load(compile(source, { name: 'tma.cu' }));
    using kernel: Kernel = lib.kernel('load_tile');
    // The descriptor's device address is 64-byte aligned, which need not make its offset 0 (48 on an H100).
    const params = kernel.params!;
    expect(params.map((p) => p.size)).toEqual([128, 4, 4, 8]);
    expect(params[1].offset).toBe(params[0].offset + 128);
    using stream = Stream.create();
    using a = DeviceBuffer.from(matrix(0));
    using b = DeviceBuffer.from(matrix(500000));
    using map = TensorMap.tiled({ memory: a, dataType: 'float32', dims: [cols, rows], box: [boxX, boxY], l2Promotion: '128B' });
    const tileBytes = boxX * boxY * 4;
    using inside = DeviceBuffer.alloc(tileBytes);
    using edge = DeviceBuffer.alloc(tileBytes);
    using corner = DeviceBuffer.alloc(tileBytes);
    const shape = { grid: 1, block: 128 };
    kernel.launch({ ...shape, stream }, [arg.tensorMap(map), arg.i32(16), arg.i32(8), arg.ptr(inside)]);
    kernel.launch({ ...shape, stream }, [arg.tensorMap(map), arg.i32(32), arg.i32(20), arg.ptr(edge)]);
    kernel.launch({ ...shape, stream }, [arg.tensorMap(map), arg.i32(-4), arg.i32(-2), arg.ptr(corner)]);

    // The second matrix, by a plain launch, a prepared launch and a graph's kernel node.
    map.replaceAddress(b);
    expect(map.memory).toBe(b);
    using fromB = DeviceBuffer.alloc(tileBytes);
    using prepared = DeviceBuffer.alloc(tileBytes);
    using node = DeviceBuffer.alloc(tileBytes);
    kernel.launch({ ...shape, stream }, [arg.tensorMap(map), arg.i32(8), arg.i32(4), arg.ptr(fromB)]);
    using launch = kernel.prepare({ ...shape, stream }, ['tensorMap', 'i32', 'i32', 'ptr'], [map, 24, 16, prepared]);
    launch.launch();
    using graph = Graph.create();
    graph.addKernel(kernel, shape, [arg.tensorMap(map), arg.i32(0), arg.i32(0), arg.ptr(node)]);
    using exec = graph.instantiate();
    exec.launch(stream);
    stream.synchronizeSync();

    expect([...inside.readSync(Float32Array)]).toEqual(expectedTile(0, 16, 8));
    expect([...edge.readSync(Float32Array)]).toEqual(expectedTile(0, 32, 20));
    expect(expectedTile(0, 32, 20).filter((v) => v === 0).length).toBe(boxX * boxY - 8 * 4);
    expect([...corner.readSync(Float32Array)]).toEqual(expectedTile(0, -4, -2));
    expect([...fromB.readSync(Float32Array)]).toEqual(expectedTile(500000, 8, 4));
    expect([...prepared.readSync(Float32Array)]).toEqual(expectedTile(500000, 24, 16));
    expect([...node.readSync(Float32Array)]).toEqual(expectedTile(500000, 0, 0));
  });
});
