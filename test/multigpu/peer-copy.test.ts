// Copies between memory of two devices: 1D, 2D and 3D, synchronous and
// stream-ordered (on a stream of either device), whole and in parts, each
// result copied back and compared. The 1D and 3D copies go through the
// driver's peer calls (cuMemcpyPeer, cuMemcpy3DPeer and their Async forms), as
// the call counters show; none of these copies needs peer access enabled.
import { callCounters, copy, copy2D, copy3D, DeviceBuffer, fill, HostBuffer, Stream } from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { pattern } from '../helpers/multi-gpu';
import { describeMultiGpu } from '../helpers/tiers';

const read = (memory: DeviceBuffer) => memory.readSync(Uint8Array);
const counts = (): Record<string, number> => Object.fromEntries(callCounters.read().map((c) => [c.name, c.calls]));
const since = (before: Record<string, number>, name: string) => (counts()[name] ?? 0) - (before[name] ?? 0);

describeMultiGpu('peer copies', () => {
  beforeAll(() => callCounters.enable());

  test('1D, synchronous: all of a buffer, then a part at offsets, each way', () => {
    const n = 3 << 20;
    using a = DeviceBuffer.from(pattern(n, 1), { device: 0 });
    using b = DeviceBuffer.alloc(n, { device: 1 });
    const before = counts();
    copy(b, a);
    expectBytes(read(b), pattern(n, 1));
    using c = DeviceBuffer.from(pattern(n, 2), { device: 1 });
    copy(a, c, { dstOffset: 4096, srcOffset: 8192, bytes: 65536 });
    const expected = pattern(n, 1);
    expected.set(pattern(n, 2).subarray(8192, 8192 + 65536), 4096);
    expectBytes(read(a), expected);
    expect(since(before, 'cuMemcpyPeer')).toBe(2);
  });

  test('1D, stream-ordered: device 0 → 1 → 0 on one stream, and a copy queued on the other device\'s stream', async () => {
    const n = 1 << 20;
    using s0 = Stream.create({ device: 0 });
    using s1 = Stream.create({ device: 1 });
    using pinned = HostBuffer.alloc(n);
    pinned.view(Uint8Array).set(pattern(n, 3));
    using a = DeviceBuffer.alloc(n, { device: 0 });
    using b = DeviceBuffer.alloc(n, { device: 1 });
    using c = DeviceBuffer.alloc(n, { device: 0 });
    const before = counts();
    copy(a, pinned, { stream: s0 });
    copy(b, a, { stream: s0 });
    copy(c, b, { stream: s0 });
    copy(pinned, c, { stream: s0 });
    await s0.synchronize();
    expectBytes(pinned.view(Uint8Array), pattern(n, 3));
    // Queued on device 1's stream: device 1 → device 0, a part.
    using d = DeviceBuffer.alloc(n, { device: 0 });
    fill(d, 0);
    copy(d, b, { stream: s1, dstOffset: 512, srcOffset: 1024, bytes: 4096 });
    await s1.synchronize();
    const expected = new Uint8Array(n);
    expected.set(pattern(n, 3).subarray(1024, 1024 + 4096), 512);
    expectBytes(read(d), expected);
    expect(since(before, 'cuMemcpyPeerAsync')).toBe(3);
  });

  test('2D: pitched rows between the devices, synchronous and stream-ordered, whole and a sub-rectangle', async () => {
    const width = 1000, height = 37;
    using p0 = DeviceBuffer.allocPitched(width, height, { device: 0 });
    using p1 = DeviceBuffer.allocPitched(width, height, { device: 1 });
    const src = pattern(width * height, 4);
    copy2D({ memory: p0, pitch: p0.pitch }, { memory: src, pitch: width }, width, height);
    copy2D({ memory: p1, pitch: p1.pitch }, { memory: p0, pitch: p0.pitch }, width, height);
    const out = new Uint8Array(width * height);
    copy2D({ memory: out, pitch: width }, { memory: p1, pitch: p1.pitch }, width, height);
    expectBytes(out, src);

    // 100 bytes of rows 3 to 12 of device 1's copy, to column 16 of rows 2 to 11 of device 0's, on device 1's stream.
    using s1 = Stream.create({ device: 1 });
    fill(p0, 0);
    copy2D({ memory: p0, pitch: p0.pitch, offset: 2 * p0.pitch + 16 }, { memory: p1, pitch: p1.pitch, offset: 3 * p1.pitch + 8 }, 100, 10,
      { stream: s1 });
    await s1.synchronize();
    copy2D({ memory: out, pitch: width }, { memory: p0, pitch: p0.pitch }, width, height);
    const expected = new Uint8Array(width * height);
    for (let row = 0; row < 10; row++) {
      expected.set(src.subarray((row + 3) * width + 8, (row + 3) * width + 108), (row + 2) * width + 16);
    }
    expectBytes(out, expected);
  });

  test('3D: a whole volume through cuMemcpy3DPeer, and a box of it back through cuMemcpy3DPeerAsync', async () => {
    const w = 64, h = 16, depth = 8, n = w * h * depth;
    using v0 = DeviceBuffer.from(pattern(n, 5), { device: 0 });
    using v1 = DeviceBuffer.alloc(n, { device: 1 });
    using v2 = DeviceBuffer.alloc(n, { device: 0 });
    fill(v2, 0);
    using s0 = Stream.create({ device: 0 });
    const before = counts();
    copy3D({ memory: v1, pitch: w }, { memory: v0, pitch: w }, { width: w, height: h, depth });
    expectBytes(read(v1), pattern(n, 5));
    // A box 32 bytes wide, 8 rows high and 4 slices deep, at x 16, y 4, z 2 on both sides.
    const at = 2 * w * h + 4 * w + 16;
    copy3D({ memory: v2, pitch: w, offset: at, rowsPerSlice: h }, { memory: v1, pitch: w, offset: at, rowsPerSlice: h },
      { width: 32, height: 8, depth: 4 }, { stream: s0 });
    await s0.synchronize();
    const expected = new Uint8Array(n);
    for (let z = 2; z < 6; z++) {
      for (let y = 4; y < 12; y++) {
        const row = z * w * h + y * w + 16;
        expected.set(pattern(n, 5).subarray(row, row + 32), row);
      }
    }
    expectBytes(read(v2), expected);
    expect(since(before, 'cuMemcpy3DPeer')).toBe(1);
    expect(since(before, 'cuMemcpy3DPeerAsync')).toBe(1);
  });
});
