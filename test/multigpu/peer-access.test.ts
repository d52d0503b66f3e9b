// Peer access between devices 0 and 1: what the driver reports of the link,
// enabling and disabling access in each direction (and the driver's refusals,
// with their codes), and kernels on one device reading and writing the other's
// memory once access is on.
import { arg, CudaError, Device, DeviceBuffer, Stream } from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { dropPeerAccess, ensurePeerAccess, kernels, ramp } from '../helpers/multi-gpu';
import { describeMultiGpu, describePeerAccess } from '../helpers/tiers';

function thrown(f: () => void): CudaError {
  try {
    f();
  } catch (error) {
    return error as CudaError;
  }
  throw new Error('expected a CudaError, nothing was thrown');
}

describeMultiGpu('peer queries', () => {
  test('both devices answer for each other; a peer must be a Device', () => {
    expect(Device.count()).toBeGreaterThanOrEqual(2);
    const [a, b] = [Device.get(0), Device.get(1)];
    const access = a.canAccessPeer(b);
    expect(typeof access).toBe('boolean');
    expect(a.p2pAttribute(b, 'accessSupported')).toBe(access ? 1 : 0);
    expect(b.p2pAttribute(a, 'accessSupported')).toBe(b.canAccessPeer(a) ? 1 : 0);
    expect(a.p2pAttribute(b, 'performanceRank')).toBeGreaterThanOrEqual(0);
    expect([0, 1]).toContain(a.p2pAttribute(b, 'nativeAtomicSupported'));
    expect(a.p2pAttribute(b, 'nativeAtomicSupported')).toBe(a.p2pAttribute(b, 3));
    expect(() => a.canAccessPeer(1 as never)).toThrow(TypeError);
    expect(() => a.p2pAttribute(b, 'bandwidth' as never)).toThrow(RangeError);
  });
});

describePeerAccess('peer access', () => {
  let a: Device, b: Device;
  beforeAll(() => {
    [a, b] = [Device.get(0), Device.get(1)];
  });

  test('enable and disable in each direction; a second enable, a disable without one and the device itself are refused with their codes', () => {
    for (const [from, to] of [[a, b], [b, a]]) {
      dropPeerAccess(from, to);
      from.primaryContext.enablePeerAccess(to.primaryContext);
      const again = thrown(() => from.primaryContext.enablePeerAccess(to.primaryContext));
      expect(again).toBeInstanceOf(CudaError);
      expect(again).toMatchObject({ code: 'CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED', result: 704, call: 'cuCtxEnablePeerAccess',
        detail: `peer device ${to.ordinal}` });
      from.primaryContext.disablePeerAccess(to.primaryContext);
      const notEnabled = thrown(() => from.primaryContext.disablePeerAccess(to.primaryContext));
      expect(notEnabled).toMatchObject({ code: 'CUDA_ERROR_PEER_ACCESS_NOT_ENABLED', result: 705, call: 'cuCtxDisablePeerAccess' });
    }
    // Access is one way: enabling a → b leaves b → a as it was.
    a.primaryContext.enablePeerAccess(b.primaryContext);
    expect(thrown(() => b.primaryContext.disablePeerAccess(a.primaryContext)).code).toBe('CUDA_ERROR_PEER_ACCESS_NOT_ENABLED');
    a.primaryContext.disablePeerAccess(b.primaryContext);
    // A device is not its own peer.
    expect(thrown(() => a.primaryContext.enablePeerAccess(a.primaryContext))).toMatchObject({
      code: 'CUDA_ERROR_PEER_ACCESS_UNSUPPORTED', result: 217, call: 'cuCtxEnablePeerAccess' });
    expect(() => a.primaryContext.enablePeerAccess(b as never)).toThrow(TypeError);
  });

  test('a kernel on device 1 reads device 0 memory and writes device 0 memory', async () => {
    ensurePeerAccess(b, a);
    const { axpy, iota } = kernels();
    const n = 1 << 16;
    using x = DeviceBuffer.from(ramp(n), { device: a });
    using y = DeviceBuffer.from(new Float32Array(n).fill(1), { device: b });
    using z = DeviceBuffer.alloc(n * 4, { device: a });
    using s = Stream.create({ device: b });
    axpy.launch({ grid: n / 256, block: 256, stream: s }, [arg.f32(2), arg.ptr(x), arg.ptr(y), arg.u32(n)]);
    iota.launch({ grid: n / 256, block: 256, stream: s }, [arg.ptr(z), arg.f32(100), arg.u32(n)]);
    await s.synchronize();
    expectBytes(y.readSync(Float32Array), ramp(n, 1, 2));
    expectBytes(z.readSync(Float32Array), ramp(n, 100));
    expect([x.device.ordinal, y.device.ordinal, z.device.ordinal]).toEqual([0, 1, 0]);
  });

  test('with access both ways, kernels on each device add the other\'s half into their own', async () => {
    ensurePeerAccess(a, b);
    ensurePeerAccess(b, a);
    const { axpy } = kernels();
    const n = 1 << 15;
    using x0 = DeviceBuffer.from(ramp(n), { device: a });
    using x1 = DeviceBuffer.from(ramp(n, 0, 10), { device: b });
    using y0 = DeviceBuffer.from(new Float32Array(n), { device: a });
    using y1 = DeviceBuffer.from(new Float32Array(n), { device: b });
    using s0 = Stream.create({ device: a });
    using s1 = Stream.create({ device: b });
    axpy.launch({ grid: n / 256, block: 256, stream: s0 }, [arg.f32(1), arg.ptr(x1), arg.ptr(y0), arg.u32(n)]);
    axpy.launch({ grid: n / 256, block: 256, stream: s1 }, [arg.f32(1), arg.ptr(x0), arg.ptr(y1), arg.u32(n)]);
    await Promise.all([s0.synchronize(), s1.synchronize()]);
    expectBytes(y0.readSync(Float32Array), ramp(n, 0, 10));
    expectBytes(y1.readSync(Float32Array), ramp(n));
  });
});
