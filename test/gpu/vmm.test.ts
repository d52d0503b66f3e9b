// Virtual memory management against the real driver: physical allocations,
// reservations, mappings with access per device, granularity and rounding, the
// growable buffer, release after the GPU is done, dma_buf export. Values are
// copied back and compared; sizes are small (the granularity is typically 2 MiB).
import * as fs from 'fs';
import {
  AddressReservation,
  allocationGranularity,
  copy,
  CudaError,
  CudaNotSupportedError,
  Device,
  DeviceBuffer,
  DisposedError,
  exportDmaBuf,
  fill,
  GrowableBuffer,
  HostBuffer,
  Mapping,
  memoryAccess,
  memoryInfo,
  PhysicalAllocation,
  pointerAttributes,
  Stream,
} from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { deviceMemoryInUse } from '../helpers/device-memory';
import { describeGpu } from '../helpers/tiers';

const pattern = (n: number, seed = 1) => {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 131 + seed * 7 + (i >> 12)) & 0xff;
  return bytes;
};
const read = (memory: { size: number } & Parameters<typeof copy>[1], offset = 0, bytes = memory.size - offset) => {
  const out = new Uint8Array(bytes);
  copy(out, memory, { srcOffset: offset, bytes });
  return out;
};

describeGpu('virtual memory', () => {
  let g: number;
  beforeAll(() => {
    g = allocationGranularity();
  });

  test('granularity: minimum and recommended; sizes are rounded up and reported', () => {
    const recommended = allocationGranularity({}, 'recommended');
    expect(g).toBeGreaterThanOrEqual(4096);
    expect(recommended % g).toBe(0);
    expect(allocationGranularity({ location: 0, handleTypes: ['posixFileDescriptor'] })).toBe(g);
    using a = PhysicalAllocation.create(1);
    expect(a.size).toBe(g);
    using b = PhysicalAllocation.create(g + 1, { granularity: 'recommended' });
    expect(b.size).toBe(Math.ceil((g + 1) / recommended) * recommended);
    using r = AddressReservation.reserve(g + 1);
    expect(r.size).toBe(2 * g);
    expect(r.device.ordinal).toBe(0);
    expect(() => PhysicalAllocation.create(0)).toThrow(RangeError);
    expect(() => AddressReservation.reserve(g, { alignment: 3 })).toThrow(/power of two/);
  });

  test('properties from a handle', () => {
    using a = PhysicalAllocation.create(g, { handleTypes: ['posixFileDescriptor'] });
    expect(a.properties()).toEqual({
      locationType: 'device', locationId: 0, handleTypes: ['posixFileDescriptor'],
      compression: false, gpuDirectRdma: false, hardwareDecompress: false,
    });
    expect(a.handle).not.toBe(0n);
    expect(a.device.ordinal).toBe(0);
    const caps = Device.get(0).capabilities;
    if (caps.gpuDirectRdma) {
      using rdma = PhysicalAllocation.create(g, { gpuDirectRdma: true });
      expect(rdma.properties().gpuDirectRdma).toBe(true);
    }
    if (caps.genericCompression) {
      // A hint: the driver may or may not give compressible memory; it says which.
      using compressed = PhysicalAllocation.create(g, { compression: true });
      expect(typeof compressed.properties().compression).toBe('boolean');
    }
  });

  test('a mapping is device memory: copies, fills, stream operations, pointer attributes', async () => {
    using m = Mapping.alloc(3 * (1 << 20));
    expect(m.size % g).toBe(0);
    expect(m.size).toBeGreaterThanOrEqual(3 << 20);
    const data = pattern(m.size);
    copy(m, data);
    expectBytes(read(m), data);
    // device to device, both ways, and through a stream
    using d = DeviceBuffer.alloc(m.size);
    copy(d, m);
    expectBytes(d.readSync(), data);
    fill(m, 0x5a, { offset: 4096, count: 100 });
    expect(Array.from(read(m, 4096, 100))).toEqual(new Array(100).fill(0x5a));
    using s = Stream.create();
    using pinned = HostBuffer.alloc(m.size);
    copy(m, d, { stream: s });
    copy(pinned, m, { stream: s });
    s.writeValue32(m, 0xdeadbeef, { offset: 8 });
    await s.synchronize();
    expectBytes(pinned.view(Uint8Array), data);
    expect(new Uint32Array(read(m, 8, 4).buffer)[0]).toBe(0xdeadbeef);
    const attributes = pointerAttributes(m, ['mapped', 'mappingSize', 'mappingBaseAddr', 'deviceOrdinal', 'isLegacyCudaIpcCapable', 'mempoolHandle'], 4096);
    expect(attributes).toMatchObject({ mapped: true, mappingSize: m.size, mappingBaseAddr: m.address, deviceOrdinal: 0, isLegacyCudaIpcCapable: false, mempoolHandle: 0n });
    expect(m.toString()).toMatch(/^Mapping\(/);
  });

  test('one reservation, several allocations mapped side by side; part of an allocation', () => {
    using r = AddressReservation.reserve(3 * g);
    using a = PhysicalAllocation.create(g);
    using b = PhysicalAllocation.create(2 * g);
    using first = r.map(a);
    // cuMemMap maps an allocation from its start ("offset: currently must be zero").
    expect(() => Mapping.map(r, b, { offset: g, allocationOffset: g, bytes: g })).toThrow(CudaNotSupportedError);
    using second = Mapping.map(r, b, { offset: g });
    expect(first.address).toBe(r.address);
    expect(second.address).toBe(r.address + BigInt(g));
    expect(second.size).toBe(2 * g);
    const one = pattern(g, 3);
    const two = pattern(g, 4);
    copy(first, one);
    copy(second, two);
    expectBytes(read(first), one);
    expectBytes(read(second).subarray(0, g), two);
    // Mapping an occupied range, or out of bounds, is refused.
    expect(() => r.map(a, { offset: 0 })).toThrow(CudaError);
    expect(() => r.map(a, { offset: 3 * g })).toThrow(RangeError);
    expect(() => r.map(b, { offset: 1 })).toThrow(/multiple of the allocation granularity/);
    expect(() => r.map(a, { allocationOffset: g })).toThrow(RangeError);
  });

  test('access per device: read-write, read-only; cuMemGetAccess of an address', () => {
    using m = Mapping.alloc(g);
    expect(m.access(0)).toBe('readwrite');
    expect(memoryAccess(m, 0)).toBe('readwrite');
    expect(memoryAccess(m.address + 100n, Device.get(0))).toBe('readwrite');
    const data = pattern(g);
    copy(m, data);
    m.setAccess([{ location: 0, access: 'read' }]);
    expect(m.access(0, g - 1)).toBe('read');
    // Read-only still reads: a device-to-device copy out of the mapping, then back to the host (or, should the
    // driver refuse the copy, a CudaError that says so).
    using copied = DeviceBuffer.alloc(g);
    let readOnly: Uint8Array | CudaError;
    try {
      copy(copied, m);
      readOnly = read(copied);
    } catch (error) {
      readOnly = error as CudaError;
    }
    if (readOnly instanceof Uint8Array) expectBytes(readOnly, data);
    else expect(readOnly).toBeInstanceOf(CudaError);
    m.setAccess([{ location: 0, access: 'readwrite' }]);
    expectBytes(read(m), data);
    const peers = Device.all().filter((p) => p.ordinal !== 0 && p.canAccessPeer(Device.get(0)));
    if (peers.length > 0) {
      const peer = peers[0];
      expect(m.access(peer)).toBe('none');
      m.setAccess([{ location: 0, access: 'readwrite' }, { location: peer, access: 'read' }]);
      expect(m.access(peer)).toBe('read');
      using onPeer = DeviceBuffer.alloc(g, { device: peer });
      copy(onPeer, m);
      expectBytes(onPeer.readSync(), data);
    }
  });

  test('map and grant is all or nothing: a refused grant leaves the range unmapped', () => {
    using r = AddressReservation.reserve(g);
    using a = PhysicalAllocation.create(g);
    // cuMemSetAccess refuses host NUMA access to device memory (see its documentation).
    expect(() => r.map(a, { access: [{ location: 0, access: 'readwrite' }, { location: { hostNuma: 0 }, access: 'readwrite' }] }))
      .toThrow(CudaError);
    // Had the failed attempt left its mapping, this map would be refused.
    using m = r.map(a);
    const data = pattern(g, 9);
    copy(m, data);
    expectBytes(read(m), data);
  });

  test('retain the allocation behind an address; map it a second time', () => {
    using m = Mapping.alloc(2 * g);
    const data = pattern(2 * g, 5);
    copy(m, data);
    using retained = PhysicalAllocation.retain(m, g + 10);
    const [segment] = m.segments();
    using original = segment.allocation;
    expect(retained.handle).toBe(original.handle);
    expect(retained.size).toBe(2 * g);
    expect(retained.properties()).toEqual(original.properties());
    using byAddress = PhysicalAllocation.retain(m.address);
    expect(byAddress.handle).toBe(original.handle);
    // A second mapping of the same physical memory sees the same bytes.
    using r = AddressReservation.reserve(2 * g);
    using alias = r.map(retained);
    expectBytes(read(alias), data);
    fill(alias, 7, { count: 16 });
    expect(Array.from(read(m, 0, 16))).toEqual(new Array(16).fill(7));
  });

  test('unmap happens only after the GPU is done with the range', async () => {
    using s = Stream.create();
    const m = Mapping.alloc(4 * g);
    const data = pattern(4 * g, 11);
    copy(m, data);
    using pinned = HostBuffer.alloc(4 * g);
    for (let i = 0; i < 8; i++) copy(pinned, m, { stream: s });
    m.dispose();  // the stream still holds it
    expect(() => m.size).toThrow(DisposedError);
    expect(s.pendingResources).toBeGreaterThan(0);
    await s.synchronize();
    expect(s.pendingResources).toBe(0);
    expectBytes(pinned.view(Uint8Array), data);
  });

  test('disposed mappings are unmapped and released: nothing leaks', () => {
    // 16 GiB go through; what this process holds afterwards is what it held before.
    const size = 512 * g;
    const addresses: bigint[] = [];
    const before = deviceMemoryInUse({ memoryInfo });
    for (let i = 0; i < 16; i++) {
      const m = Mapping.alloc(size);
      fill(m, i);
      addresses.push(m.address);
      m.dispose();
    }
    expect(deviceMemoryInUse({ memoryInfo })).toBeLessThanOrEqual(before + (64 << 20));
    // Nothing is mapped there any more.
    expect(() => PhysicalAllocation.retain(addresses[0])).toThrow(CudaError);
    expect(() => PhysicalAllocation.retain(addresses[15] + 1n)).toThrow(CudaError);
  });
});

describeGpu('growable buffer', () => {
  test('grows in place: same address, contents kept across growth, copies across pieces', async () => {
    const g = allocationGranularity();
    using buffer = GrowableBuffer.create({ maxSize: 64 * g, size: g / 2 });
    expect(buffer.size).toBe(g / 2);
    expect(buffer.capacity).toBe(g);
    expect(buffer.maxSize).toBe(64 * g);
    const address = buffer.address;
    const first = pattern(g / 2, 21);
    copy(buffer, first);
    const held = deviceMemoryInUse({ memoryInfo });
    buffer.resize(3 * g);
    expect(buffer.address).toBe(address);
    expect(buffer.capacity).toBeGreaterThanOrEqual(3 * g);
    expect(deviceMemoryInUse({ memoryInfo })).toBeGreaterThan(held);
    expectBytes(read(buffer, 0, g / 2), first);
    // Bytes that straddle the boundary between two pieces of physical memory.
    const across = pattern(2 * g, 22);
    copy(buffer, across, { dstOffset: g / 2 });
    buffer.resize(20 * g);
    expect(buffer.address).toBe(address);
    expect(buffer.segments().map((s) => { s.allocation.dispose(); return s.bytes; }).reduce((a, b) => a + b)).toBe(buffer.capacity);
    expectBytes(read(buffer, 0, g / 2), first);
    expectBytes(read(buffer, g / 2, 2 * g), across);
    // The far end is usable, through a stream too.
    using s = Stream.create();
    using pinned = HostBuffer.alloc(4096);
    fill(buffer, 0xee, { offset: 20 * g - 4096, stream: s });
    copy(pinned, buffer, { srcOffset: 20 * g - 4096, stream: s });
    await s.synchronize();
    expect(pinned.view(Uint8Array).every((b) => b === 0xee)).toBe(true);
    // Beyond size is out of bounds even where memory is mapped; beyond maxSize cannot grow.
    buffer.resize(g);
    expect(() => read(buffer, g - 1, 2)).toThrow(RangeError);
    expect(buffer.capacity).toBeGreaterThanOrEqual(20 * g);
    expect(() => buffer.resize(64 * g + 1)).toThrow(RangeError);
    expect(buffer.access(0)).toBe('readwrite');
  });

  test('a buffer disposed with copies in flight is unmapped after them', async () => {
    const g = allocationGranularity();
    using s = Stream.create();
    const buffer = GrowableBuffer.create({ maxSize: 8 * g, size: 4 * g });
    const data = pattern(4 * g, 31);
    copy(buffer, data);
    using pinned = HostBuffer.alloc(4 * g);
    copy(pinned, buffer, { stream: s });
    buffer.dispose();
    expect(() => buffer.size).toThrow(DisposedError);
    await s.synchronize();
    expectBytes(pinned.view(Uint8Array), data);
  });
});

describeGpu('dma_buf export', () => {
  test('a dma_buf descriptor for a mapping and for cuMemAlloc memory, closed on dispose (or the driver says it cannot)', () => {
    const g = allocationGranularity();
    using m = Mapping.alloc(g);
    using d = DeviceBuffer.alloc(g);
    if (!Device.get(0).capabilities.dmaBuf) {
      expect(() => exportDmaBuf(m)).toThrow(CudaError);
      return;
    }
    for (const memory of [m, d]) {
      let fd;
      try {
        fd = exportDmaBuf(memory, { bytes: g });
      } catch (error) {
        // Some systems report the capability but refuse the export (no dma_buf in the kernel driver).
        expect(error).toBeInstanceOf(CudaError);
        expect([CudaNotSupportedError, CudaError]).toContain((error as object).constructor);
        return;
      }
      const number = fd.fd;
      expect(fs.fstatSync(number).size).toBeGreaterThanOrEqual(0);
      fd.dispose();
      expect(() => fs.fstatSync(number)).toThrow(/EBADF/);
    }
  });
});
