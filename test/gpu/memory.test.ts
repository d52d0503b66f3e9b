// Memory against the real driver: allocations of every kind, copies in every
// direction (values copied back and compared), fills, pools, managed memory
// and pointer attributes.
import {
  addressRange,
  copy,
  copy2D,
  copy3D,
  copy3DBatch,
  copyBatch,
  CudaError,
  CudaOutOfMemoryError,
  discardBatch,
  prefetchBatch,
  Device,
  DeviceBuffer,
  DisposedError,
  fill,
  fill2D,
  HostBuffer,
  MemoryPool,
  memoryInfo,
  pointerAttribute,
  pointerAttributes,
  setSyncMemops,
  Stream,
} from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { describeGpu } from '../helpers/tiers';

const pattern = (n: number, seed = 1) => {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
};

describeGpu('device memory', () => {
  test('allocate, write, read back; info and address range', () => {
    const before = memoryInfo();
    expect(before.total).toBe(Device.get(0).totalMemory);
    using buf = DeviceBuffer.alloc(1 << 24);
    expect(buf.size).toBe(1 << 24);
    expect(buf.allocation).toBe('plain');
    expect(memoryInfo().free).toBeLessThanOrEqual(before.free);
    const data = pattern(1 << 24);
    buf.write(data);
    expectBytes(buf.readSync(), data);
    expectBytes(buf.readSync(Uint8Array, { offset: 100, bytes: 10 }), data.subarray(100, 110));
    const range = addressRange(buf, 1000);
    expect(range.base).toBe(buf.address);
    expect(range.size).toBe(1 << 24);
    expect(addressRange(buf.address + 5n).base).toBe(buf.address);
  });

  test('DeviceBuffer.from and typed reads', () => {
    const floats = Float32Array.from({ length: 1000 }, (_, i) => i / 3);
    using buf = DeviceBuffer.from(floats);
    expectBytes(buf.readSync(Float32Array), floats);
    expect(() => buf.readSync(Float64Array, { bytes: 12 })).toThrow(RangeError);
  });

  test('every copy direction, sync and async, with offsets', async () => {
    using s = Stream.create();
    const n = 4096;
    const data = pattern(n);
    using a = DeviceBuffer.alloc(n);
    using b = DeviceBuffer.alloc(n);
    using pinned = HostBuffer.alloc(n);
    copy(a, data); // H->D (pageable)
    copy(b, a); // D->D
    const out = new Uint8Array(n);
    copy(out, b); // D->H (pageable)
    expectBytes(out, data);
    copy(pinned, a, { stream: s }); // D->H async (pinned)
    await s.synchronize();
    expectBytes(pinned.view(Uint8Array), data);
    const h2 = new Uint8Array(n);
    copy(h2, pinned); // H->H (cuMemcpy)
    expectBytes(h2, data);
    copy(h2, pinned, { stream: s }); // H->H async (cuMemcpyAsync)
    copy(b, pinned, { stream: s, dstOffset: 100, srcOffset: 200, bytes: 50 }); // H->D async
    copy(a, b, { stream: s, dstOffset: 0, srcOffset: 100, bytes: 50 }); // D->D async
    await s.synchronize();
    const check = a.readSync(Uint8Array, { bytes: 50 });
    expectBytes(check, data.subarray(200, 250));
  });

  test('copies between contexts go peer to peer (cuMemcpyPeer, cuMemcpy3DPeer), sync and async', async () => {
    using s = Stream.create();
    using own = Device.get(0).createContext();
    using theirs = DeviceBuffer.alloc(256, { context: own });
    using ours = DeviceBuffer.from(pattern(256, 9));
    copy(theirs, ours);
    expectBytes(theirs.readSync(), pattern(256, 9));
    using back = DeviceBuffer.alloc(256);
    copy(back, theirs, { stream: s });
    await s.synchronize();
    expectBytes(back.readSync(), pattern(256, 9));
    back.fill(0);
    copy3D({ memory: back, pitch: 16 }, { memory: theirs, pitch: 16 }, { width: 16, height: 4, depth: 2 });
    expectBytes(back.readSync(Uint8Array, { bytes: 128 }), pattern(256, 9).subarray(0, 128));
    copy3D({ memory: theirs, pitch: 16 }, { memory: ours, pitch: 16 }, { width: 16, height: 16, depth: 1 }, { stream: s });
    await s.synchronize();
    expectBytes(theirs.readSync(), pattern(256, 9));
    Device.get(0).primaryContext.makeCurrent();
  });

  test('out-of-range copies are RangeErrors and touch nothing', () => {
    using buf = DeviceBuffer.alloc(100);
    buf.fill(9);
    expect(() => copy(buf, new Uint8Array(101))).toThrow(RangeError);
    expect(() => copy(buf, new Uint8Array(10), { dstOffset: 95 })).toThrow(/exceeds its 100 bytes/);
    expect(() => copy(new Uint8Array(10), buf, { srcOffset: 100, bytes: 1 })).toThrow(RangeError);
    expect(() => copy(buf, buf, { srcOffset: 0, dstOffset: 10, bytes: 20 })).toThrow(/overlap/);
    expect(() => copy(buf, new Uint8Array(4), { bytes: -1 })).toThrow(RangeError);
    expect(() => copy(buf, new Uint8Array(4), { bytes: 1.5 })).toThrow(TypeError);
    expect(() => copy(buf, 'text' as never)).toThrow(TypeError);
    expect(() => fill(buf, 1, { offset: 96, count: 2, elementBytes: 4 })).toThrow(RangeError);
    expect(() => fill(buf, 1, { offset: 2, count: 1, elementBytes: 4 })).toThrow(/aligned/);
    expect(() => fill(buf, 256)).toThrow(RangeError);
    expect(Array.from(buf.readSync())).toEqual(new Array(100).fill(9));
  });

  test('fills of 8, 16 and 32 bits, sync and async, 1D and 2D', async () => {
    using s = Stream.create();
    using buf = DeviceBuffer.alloc(64);
    fill(buf, 0x11);
    fill(buf, 0x2233, { elementBytes: 2, offset: 8, count: 2 });
    fill(buf, 0x44556677, { elementBytes: 4, offset: 16, count: 1 });
    fill(buf, 0x88, { offset: 20, count: 4, stream: s });
    fill(buf, 0x99aa, { elementBytes: 2, offset: 24, count: 2, stream: s });
    fill(buf, 0xbbccddee, { elementBytes: 4, offset: 28, count: 1, stream: s });
    await s.synchronize();
    const b = buf.readSync();
    expect(Array.from(b.subarray(0, 8))).toEqual(new Array(8).fill(0x11));
    expect(Array.from(b.subarray(8, 12))).toEqual([0x33, 0x22, 0x33, 0x22]);
    expect(Array.from(b.subarray(16, 20))).toEqual([0x77, 0x66, 0x55, 0x44]);
    expect(Array.from(b.subarray(20, 24))).toEqual([0x88, 0x88, 0x88, 0x88]);
    expect(Array.from(b.subarray(24, 28))).toEqual([0xaa, 0x99, 0xaa, 0x99]);
    expect(Array.from(b.subarray(28, 32))).toEqual([0xee, 0xdd, 0xcc, 0xbb]);

    using grid = DeviceBuffer.alloc(16 * 8);
    grid.fill(0);
    fill2D(grid, 1, { pitch: 16, width: 4, height: 3 });
    fill2D(grid, 0x0202, { pitch: 16, width: 2, height: 2, offset: 8 }, { elementBytes: 2 });
    fill2D(grid, 0x03030303, { pitch: 16, width: 1, height: 2, offset: 16 * 4 }, { elementBytes: 4 });
    fill2D(grid, 4, { pitch: 16, width: 2, height: 1, offset: 16 * 6 }, { stream: s });
    fill2D(grid, 0x0505, { pitch: 16, width: 1, height: 1, offset: 16 * 6 + 4 }, { elementBytes: 2, stream: s });
    fill2D(grid, 0x06060606, { pitch: 16, width: 1, height: 1, offset: 16 * 6 + 8 }, { elementBytes: 4, stream: s });
    await s.synchronize();
    const g = grid.readSync();
    const row = (r: number) => Array.from(g.subarray(r * 16, r * 16 + 16));
    expect(row(0)).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0]);
    expect(row(2)).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(row(4).slice(0, 4)).toEqual([3, 3, 3, 3]);
    expect(row(6).slice(0, 12)).toEqual([4, 4, 0, 0, 5, 5, 0, 0, 6, 6, 6, 6]);
    expect(() => fill2D(grid, 1, { pitch: 16, width: 17, height: 1 })).toThrow(RangeError);
    expect(() => fill2D(grid, 1, { pitch: 16, width: 16, height: 9 })).toThrow(RangeError);
  });

  test('pitched allocation and 2D copies (sync, unaligned, async)', async () => {
    using s = Stream.create();
    const width = 100, height = 7;
    using pitched = DeviceBuffer.allocPitched(width, height);
    expect(pitched.allocation).toBe('pitched');
    expect(pitched.pitch).toBeGreaterThanOrEqual(width);
    expect(pitched.size).toBe(pitched.pitch * height);
    const host = pattern(width * height);
    copy2D({ memory: pitched, pitch: pitched.pitch }, { memory: host, pitch: width }, width, height);
    const back = new Uint8Array(width * height);
    copy2D({ memory: back, pitch: width }, { memory: pitched, pitch: pitched.pitch }, width, height, { unaligned: true });
    expectBytes(back, host);
    using pinned = HostBuffer.alloc(width * height);
    copy2D({ memory: pinned, pitch: width }, { memory: pitched, pitch: pitched.pitch }, width, height, { stream: s });
    await s.synchronize();
    expectBytes(pinned.view(Uint8Array), host);
    expect(() => copy2D({ memory: pitched, pitch: pitched.pitch }, { memory: host, pitch: width }, width, height + 1)).toThrow(RangeError);
    expect(() => copy2D({ memory: pitched, pitch: 10 }, { memory: host, pitch: width }, width, 1)).toThrow(/Pitch/);
  });

  test('3D copies, and batched 1D and 3D copies', async () => {
    using s = Stream.create();
    const w = 8, h = 4, d = 3;
    const host = pattern(w * h * d, 5);
    using dev = DeviceBuffer.alloc(16 * 5 * d);
    copy3D({ memory: dev, pitch: 16, rowsPerSlice: 5 }, { memory: host, pitch: w }, { width: w, height: h, depth: d });
    const back = new Uint8Array(w * h * d);
    copy3D({ memory: back, pitch: w }, { memory: dev, pitch: 16, rowsPerSlice: 5 }, { width: w, height: h, depth: d }, { stream: s });
    await s.synchronize();
    expectBytes(back, host);

    using a = DeviceBuffer.from(pattern(256, 7));
    using b = DeviceBuffer.alloc(256);
    using c = DeviceBuffer.alloc(256);
    copyBatch([
      { dst: b, src: a, bytes: 128 },
      { dst: b, dstOffset: 128, src: a, srcOffset: 128, bytes: 128 },
      { dst: c, src: a, bytes: 256 },
    ], s);
    await s.synchronize();
    expectBytes(b.readSync(), pattern(256, 7));
    expectBytes(c.readSync(), pattern(256, 7));

    using dst3 = DeviceBuffer.alloc(w * h * d);
    copy3DBatch([{ dst: { memory: dst3, pitch: w }, src: { memory: dev, pitch: 16, rowsPerSlice: 5 }, extent: { width: w, height: h, depth: d } }], s);
    await s.synchronize();
    expectBytes(dst3.readSync(), host);
    expect(() => copyBatch([{ dst: b, src: a, bytes: 257 }], s)).toThrow(RangeError);
  });

  test('an impossible allocation is CudaOutOfMemoryError', () => {
    expect(() => DeviceBuffer.alloc(2 ** 52)).toThrow(CudaOutOfMemoryError);
  });

  test('pointer attributes by name', () => {
    using buf = DeviceBuffer.alloc(4096);
    const attrs = pointerAttributes(buf);
    expect(attrs.memoryType).toBe('device');
    expect(attrs.devicePointer).toBe(buf.address);
    expect(attrs.deviceOrdinal).toBe(0);
    expect(attrs.isManaged).toBe(false);
    expect(attrs.isLegacyCudaIpcCapable).toBe(true);
    expect(attrs.rangeStartAddr).toBe(buf.address);
    expect(attrs.rangeSize).toBe(4096);
    expect(attrs.mapped).toBe(true);
    expect(attrs.context).toBe(Device.get(0).primaryContext.handle);
    expect(pointerAttribute(buf, 'memoryType')).toBe('device');
    expect(pointerAttribute(buf, 'rangeStartAddr', 100)).toBe(buf.address);
    expect(typeof pointerAttribute(buf, 'bufferId')).toBe('bigint');
    expect(pointerAttribute(buf, 'p2pTokens')).toEqual(expect.objectContaining({ vaSpaceToken: expect.any(Number) }));
    setSyncMemops(buf, true);
    expect(pointerAttribute(buf, 'syncMemops')).toBe(true);
    expect(() => pointerAttribute(12345n, 'memoryType')).toThrow(CudaError);
  });
});

describeGpu('pinned host memory', () => {
  test('allocated with flags; zero-copy views detached on dispose', () => {
    const host = HostBuffer.alloc(1024, { mapped: true, portable: true });
    expect(host.registered).toBe(false);
    const view = host.view(Float32Array);
    expect(view.length).toBe(256);
    view[3] = 1.5;
    expect(new Float32Array(host.arrayBuffer)[3]).toBe(1.5);
    expect(host.devicePointer).not.toBe(0n);
    expect(pointerAttribute(host, 'memoryType')).toBe('host');
    const wc = HostBuffer.alloc(64, { writeCombined: true });
    wc.dispose();
    const buffer = host.arrayBuffer;
    host.dispose();
    expect(buffer.byteLength).toBe(0);
    expect(() => host.arrayBuffer).toThrow(DisposedError);
  });

  test('registering an existing buffer takes it over; device-visible through its pointer', async () => {
    using s = Stream.create();
    const bytes = new Uint8Array(1 << 16);
    bytes[1] = 9;
    using reg = HostBuffer.register(bytes, { mapped: true });
    expect(reg.registered).toBe(true);
    expect(bytes.length).toBe(0);
    const view = reg.view(Uint8Array);
    expect(view[1]).toBe(9);
    expect(reg.arrayBuffer).toBe(reg.arrayBuffer);
    using dev = DeviceBuffer.alloc(1 << 16);
    dev.fill(0x3c);
    copy(reg, dev, { stream: s });
    await s.synchronize();
    expect(view[0]).toBe(0x3c);
    expect(view[(1 << 16) - 1]).toBe(0x3c);
    expect(reg.devicePointer).not.toBe(0n);
  });
});

describeGpu('stream-ordered memory and pools', () => {
  test('allocAsync from the current pool and from a created pool; attributes; trim', async () => {
    using s = Stream.create();
    const a = DeviceBuffer.allocAsync(1 << 20, s);
    expect(a.allocation).toBe('stream-ordered');
    a.fill(0x17, { stream: s });
    const out = new Uint8Array(16);
    copy(out, a, { stream: s, bytes: 16 });
    expect(Array.from(out)).toEqual(new Array(16).fill(0x17));
    a.dispose();

    using pool = MemoryPool.create({ location: 0 });
    expect(pool.owned).toBe(true);
    pool.releaseThreshold = 64 << 20;
    expect(pool.releaseThreshold).toBe(64 << 20);
    pool.setAttribute('reuseAllowOpportunistic', false);
    expect(pool.attribute('reuseAllowOpportunistic')).toBe(false);
    const b = DeviceBuffer.allocAsync(8 << 20, s, { pool });
    b.fill(1, { stream: s });
    await s.synchronize();
    expect(pool.attribute('usedMemCurrent')).toBeGreaterThanOrEqual(8 << 20);
    expect(pool.attribute('reservedMemHigh')).toBeGreaterThanOrEqual(8 << 20);
    b.dispose();
    await s.synchronize();
    expect(pool.attribute('usedMemCurrent')).toBe(0);
    pool.trimTo(0);
    pool.setAttribute('usedMemHigh', 0);
    expect(pool.access(0)).toBe('readwrite');
    pool.setAccess([{ device: 0, access: 'readwrite' }]);
  });

  test('a host-located pool: device access granted with cuMemPoolSetAccess, where the device supports it', async () => {
    if (!Device.get(0).attribute('hostMemoryPoolsSupported')) return;
    using pool = MemoryPool.create({ location: 'host' });
    expect(pool.location).toBe('host');
    expect(pool.access(0)).toBe('none');
    pool.setAccess([{ device: 0, access: 'readwrite' }]);
    expect(pool.access(0)).toBe('readwrite');
    using s = Stream.create();
    const buffer = DeviceBuffer.allocAsync(4096, s, { pool });
    buffer.fill(0x5c, { stream: s });
    const out = new Uint8Array(4);
    copy(out, buffer, { stream: s, bytes: 4 });
    buffer.dispose();
    await s.synchronize();
    expect(Array.from(out)).toEqual([0x5c, 0x5c, 0x5c, 0x5c]);
  });

  test('default and current pools of a device and of a location', () => {
    using def = MemoryPool.defaultFor(0);
    using cur = MemoryPool.currentFor(0);
    expect(def.owned).toBe(false);
    expect(def.location).toBe(Device.get(0));
    expect(cur.handle).toBe(def.handle);
    using mine = MemoryPool.create();
    MemoryPool.setCurrentFor(0, mine);
    using now = MemoryPool.currentFor(0);
    expect(now.handle).toBe(mine.handle);
    MemoryPool.setCurrentFor(0, def);
    using loc = MemoryPool.forLocation(Device.get(0));
    expect(loc.handle).toBe(def.handle);
    using locCurrent = MemoryPool.forLocation(0, { current: true });
    expect(locCurrent.handle).toBe(def.handle);
    MemoryPool.setCurrentForLocation(0, mine);
    expect(MemoryPool.currentFor(0).handle).toBe(mine.handle);
    MemoryPool.setCurrentForLocation(0, def);
  });
});

describeGpu('managed memory', () => {
  test('allocate small, touch from host and device, prefetch, advise, attributes, attach', async () => {
    using s = Stream.create();
    using m = DeviceBuffer.allocManaged(1 << 16);
    expect(m.allocation).toBe('managed');
    expect(pointerAttribute(m, 'isManaged')).toBe(true);
    m.fill(0x21);
    const caps = Device.get(0).capabilities;
    if (caps.concurrentManagedAccess) {
      m.advise('setReadMostly', 0);
      m.advise('setPreferredLocation', Device.get(0));
      m.advise('setAccessedBy', 0);
      m.prefetch(0, s);
      await s.synchronize();
      const attrs = m.rangeAttributes();
      expect(attrs.readMostly).toBe(true);
      expect(attrs.preferredLocation).toBe('device 0');
      expect(attrs.lastPrefetchLocation).toBe('device 0');
      expect(attrs.accessedBy).toContain(0);
      m.advise('unsetReadMostly', 0);
      m.prefetch('host', s);
      await s.synchronize();
      expect(m.rangeAttributes().lastPrefetchLocation).toBe('host');
    }
    s.attachMemory(m, 'single');
    await s.synchronize();
    const out = m.readSync(Uint8Array, { bytes: 4 });
    expect(Array.from(out)).toEqual([0x21, 0x21, 0x21, 0x21]);
    using host = HostBuffer.alloc(16);
    copy(host, m, { bytes: 16 });
    expect(host.view(Uint8Array)[15]).toBe(0x21);
  });

  test('batched prefetch and discard (the driver may answer not supported)', async () => {
    using s = Stream.create();
    using a = DeviceBuffer.allocManaged(1 << 16);
    using b = DeviceBuffer.allocManaged(1 << 16);
    a.fill(1);
    b.fill(2);
    const attempt = (f: () => void) => {
      try {
        f();
        return 'ok';
      } catch (e) {
        return (e as { name?: string }).name;
      }
    };
    const results = [
      attempt(() => prefetchBatch([{ buffer: a }, { buffer: b, offset: 4096, bytes: 4096 }], 0, s)),
      attempt(() => discardBatch([{ buffer: a, bytes: 1 << 16 }], s)),
      attempt(() => prefetchBatch([{ buffer: b }], 'host', s, { discardFirst: true })),
    ];
    await s.synchronize();
    for (const r of results) expect(['ok', 'CUDA_ERROR_NOT_SUPPORTED', 'CUDA_ERROR_INVALID_VALUE']).toContain(r);
    expect(results[0]).toBe('ok');
  });
});
