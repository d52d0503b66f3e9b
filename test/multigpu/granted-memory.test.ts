// Memory of device 0 that device 1 is granted by the memory's own access
// list, not by context peer access (which these tests turn off first): a VMM
// mapping of device-0 physical memory with access set for device 1, and a
// memory pool on device 0 with pool access for device 1. Kernels on device 1
// read and write the memory; the results are copied back and compared.
import { allocationGranularity, arg, copy, Device, DeviceBuffer, Event, Mapping, MemoryPool, memoryAccess, Stream } from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { dropPeerAccess, kernels, ramp } from '../helpers/multi-gpu';
import { describePeerAccess } from '../helpers/tiers';

const launch = (n: number, stream: Stream) => ({ grid: n / 256, block: 256, stream });

describePeerAccess('memory granted to a peer device', () => {
  beforeEach(() => {
    dropPeerAccess(Device.get(1), Device.get(0));
  });

  test('VMM: device-0 physical memory mapped with read-write access for device 1, then read-only', async () => {
    const { axpy, iota } = kernels();
    const g = allocationGranularity({ location: 0 });
    using m = Mapping.alloc(g, { location: 0, access: [{ location: 0, access: 'readwrite' }, { location: 1, access: 'readwrite' }] });
    expect(m.device.ordinal).toBe(0);
    expect([m.access(0), m.access(1), memoryAccess(m, 1, 4096)]).toEqual(['readwrite', 'readwrite', 'readwrite']);
    const n = g / 4;
    copy(m, ramp(n));
    using out = DeviceBuffer.from(new Float32Array(n), { device: 1 });
    using s1 = Stream.create({ device: 1 });
    axpy.launch(launch(n, s1), [arg.f32(3), arg.ptr(m), arg.ptr(out), arg.u32(n)]);   // out = 3·m, read from device 1
    iota.launch(launch(n, s1), [arg.ptr(m), arg.f32(5), arg.u32(n)]);                 // m = 5 + i, written from device 1
    await s1.synchronize();
    expectBytes(out.readSync(Float32Array), ramp(n, 0, 3));
    const back = new Float32Array(n);
    copy(back, m);
    expectBytes(back, ramp(n, 5));

    m.setAccess([{ location: 1, access: 'read' }]);
    expect([m.access(0), m.access(1)]).toEqual(['readwrite', 'read']);
    axpy.launch(launch(n, s1), [arg.f32(1), arg.ptr(m), arg.ptr(out), arg.u32(n)]);   // out += m, still readable from device 1
    await s1.synchronize();
    expectBytes(out.readSync(Float32Array), ramp(n, 5, 4));
  });

  test('pools: a pool on device 0 with access for device 1; its allocation read and written by kernels on device 1', async () => {
    const { axpy, iota } = kernels();
    using pool = MemoryPool.create({ location: 0 });
    expect([pool.access(0), pool.access(1)]).toEqual(['readwrite', 'none']);
    pool.setAccess([{ device: 1, access: 'readwrite' }]);
    expect(pool.access(1)).toBe('readwrite');
    const n = 1 << 16;
    using s0 = Stream.create({ device: 0 });
    using s1 = Stream.create({ device: 1 });
    using buffer = DeviceBuffer.allocAsync(n * 4, s0, { pool });
    expect(buffer.device.ordinal).toBe(0);
    copy(buffer, ramp(n), { stream: s0 });
    using ready = Event.create({ device: 0 }).record(s0);
    s1.waitEvent(ready);
    using out = DeviceBuffer.from(new Float32Array(n), { device: 1 });
    axpy.launch(launch(n, s1), [arg.f32(2), arg.ptr(buffer), arg.ptr(out), arg.u32(n)]);   // out = 2·buffer
    iota.launch(launch(n, s1), [arg.ptr(buffer), arg.f32(9), arg.u32(n)]);                 // buffer = 9 + i
    await s1.synchronize();
    expectBytes(out.readSync(Float32Array), ramp(n, 0, 2));
    expectBytes(buffer.readSync(Float32Array), ramp(n, 9));
    buffer.dispose();
    await s0.synchronize();
    pool.setAccess([{ device: 1, access: 'none' }]);
    expect(pool.access(1)).toBe('none');
  });
});
