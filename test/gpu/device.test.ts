// Devices and contexts against the real driver.
import { Worker } from 'worker_threads';
import * as path from 'path';
import { Context, CudaError, Device, DeviceAttribute, DisposedError, driverFunctions, driverStatus } from '../../lib';
import { runScript } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';

describeGpu('devices', () => {
  test('the driver is loaded and reports its version', () => {
    const s = driverStatus();
    expect(s).toMatchObject({ available: true, stage: 'ready', initResult: { code: 0, name: 'CUDA_SUCCESS' } });
    expect(s.driverVersion!.raw).toBeGreaterThanOrEqual(12000);
    // Every function of the table the installed driver provides resolved.
    const missing = driverFunctions().filter((f) => !f.available && f.requiredVersion.raw <= s.driverVersion!.raw);
    expect(missing.map((f) => f.name)).toEqual([]);
  });

  test('enumeration by ordinal, PCI bus id and UUID finds the same device', () => {
    expect(Device.count()).toBeGreaterThanOrEqual(1);
    const dev = Device.get(0);
    expect(Device.get()).toBe(dev);
    expect(Device.all()[0]).toBe(dev);
    expect(dev.name).toMatch(/\S/);
    expect(dev.uuid).toMatch(/^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(dev.pciBusId).toMatch(/^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-9a-fA-F]$/);
    expect(Device.byPciBusId(dev.pciBusId)).toBe(dev);
    expect(Device.byUuid(dev.uuid)).toBe(dev);
    expect(Device.byUuid(dev.uuidBytes)).toBe(dev);
    expect(Device.byUuid(dev.uuid.slice(4).toUpperCase())).toBe(dev);
    expect(() => Device.get(Device.count())).toThrow(RangeError);
    expect(JSON.parse(JSON.stringify(dev))).toEqual({ ordinal: 0, name: dev.name, uuid: dev.uuid, pciBusId: dev.pciBusId });
  });

  test('memory, compute capability and attributes', () => {
    const dev = Device.get(0);
    expect(dev.totalMemory).toBeGreaterThan(2 ** 30);
    const cc = dev.computeCapability;
    expect(cc.major).toBeGreaterThanOrEqual(7);
    const all = dev.attributes();
    expect(all.warpSize).toBe(32);
    expect(all.computeCapabilityMajor).toBe(cc.major);
    expect(all.maxThreadsPerBlock).toBe(1024);
    expect(all.multiprocessorCount).toBeGreaterThan(0);
    expect(Object.keys(all).length).toBeGreaterThan(100);
    expect(dev.attribute(DeviceAttribute.warpSize)).toBe(32);
  });

  test('capabilities read from attributes', () => {
    const caps = Device.get(0).capabilities;
    expect(caps).toBe(Device.get(0).capabilities);
    expect(caps.unifiedAddressing).toBe(true);
    expect(caps.memoryPools).toBe(true);
    expect(caps.virtualMemoryManagement).toBe(true);
    expect(caps.posixFileDescriptorHandles).toBe(true);
    expect(caps.memoryPoolHandleTypes).toContain('posixFileDescriptor');
    expect(typeof caps.fabricHandles).toBe('boolean');
    if (Device.get(0).computeCapability.major >= 9) expect(caps.clusterLaunch).toBe(true);
  });

  test('a driver error carries code, name, call and the argument', () => {
    let error: unknown;
    try {
      Device.get(0).attribute(100000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CudaError);
    expect(error).toMatchObject({ result: 1, code: 'CUDA_ERROR_INVALID_VALUE', call: 'cuDeviceGetAttribute', detail: 'attribute=100000' });
    // The driver's own log lines, where it logs any, follow the summary in the message.
    const { message, driverLog } = error as CudaError;
    expect(message.split('\n')[0]).toBe('cuDeviceGetAttribute (attribute=100000): CUDA_ERROR_INVALID_VALUE: invalid argument');
    for (const line of driverLog.filter((l) => !l.startsWith('Returning '))) expect(message).toContain(line);
  });

  test('peer queries between distinct devices, when there are two', () => {
    if (Device.count() < 2) {
      const only = Device.get(0);
      expect(() => only.p2pAttribute(only, 'accessSupported')).toThrow(CudaError);
      // A device is not its own peer: the driver says no, and refuses peer access to itself.
      expect(only.canAccessPeer(only)).toBe(false);
      const ctx = only.primaryContext;
      expect(() => ctx.enablePeerAccess(ctx)).toThrow(expect.objectContaining({ code: 'CUDA_ERROR_PEER_ACCESS_UNSUPPORTED' }));
      expect(() => ctx.disablePeerAccess(ctx)).toThrow(CudaError);
      return;
    }
    const [a, b] = Device.all();
    expect(typeof a.canAccessPeer(b)).toBe('boolean');
    expect(a.p2pAttribute(b, 'performanceRank')).toBeGreaterThanOrEqual(0);
  });
});

describeGpu('contexts', () => {
  test('the primary context is retained once and active', () => {
    const dev = Device.get(0);
    const ctx = dev.primaryContext;
    expect(dev.primaryContext).toBe(ctx);
    expect(ctx.isPrimary).toBe(true);
    expect(ctx.deviceOrdinal).toBe(0);
    expect(ctx.queryDevice()).toBe(0);
    expect(ctx.apiVersion).toBeGreaterThan(0);
    expect(typeof ctx.id).toBe('bigint');
    expect(dev.primaryContextState().active).toBe(true);
  });

  test('limits, flags and the stream priority range', () => {
    const ctx = Device.get(0).primaryContext;
    const before = ctx.limit('printfFifoSize');
    expect(before).toBeGreaterThan(0);
    ctx.setLimit('printfFifoSize', before * 2);
    expect(ctx.limit('printfFifoSize')).toBe(before * 2);
    ctx.setLimit('printfFifoSize', before);
    const range = ctx.streamPriorityRange;
    expect(range.greatest).toBeLessThanOrEqual(range.least);
    expect(Array.isArray(ctx.flags)).toBe(true);
    ctx.resetPersistingL2Cache();
    ctx.synchronize();
    expect(() => ctx.setLimit('stackSize', -1)).toThrow(RangeError);
  });

  test('a created context: current, push/pop, destroyed on dispose', () => {
    const dev = Device.get(0);
    const ctx = dev.createContext(['schedBlockingSync']);
    expect(ctx.isPrimary).toBe(false);
    expect(ctx.handle).not.toBe(dev.primaryContext.handle);
    ctx.makeCurrent();
    expect(Context.currentHandle()).toBe(ctx.handle);
    expect(ctx.flags).toContain('schedBlockingSync');
    dev.primaryContext.pushCurrent();
    expect(Context.currentHandle()).toBe(dev.primaryContext.handle);
    expect(Context.popCurrent()).toBe(dev.primaryContext.handle);
    expect(Context.currentHandle()).toBe(ctx.handle);
    ctx.dispose();
    expect(() => ctx.apiVersion).toThrow(DisposedError);
    dev.primaryContext.makeCurrent();
  });

  test('context flags: set on a created context and read back; primary context flags set while it is active and current', () => {
    const dev = Device.get(0);
    using ctx = dev.createContext();
    ctx.setFlags('schedYield');
    expect(ctx.flags).toContain('schedYield');
    ctx.setFlags('schedBlockingSync');
    expect(ctx.flags).toContain('schedBlockingSync');
    expect(ctx.flags).not.toContain('schedYield');
    dev.primaryContext.makeCurrent();
    // The primary context is active: the flags apply to it from now on (CUDA 12+ accepts this).
    const before = dev.primaryContextState().flags;
    dev.setPrimaryContextFlags('schedSpin');
    expect(dev.primaryContextState().flags).toContain('schedSpin');
    dev.setPrimaryContextFlags(before);
  });

  test('the primary context resets once no handle uses it (a process of its own)', () => {
    const result = runScript(`
      const dev = cuda.Device.get(0);
      const buffer = cuda.DeviceBuffer.from(new Uint8Array([1, 2, 3]));
      let refused = '';
      try { dev.resetPrimaryContext(); } catch (e) { refused = e.message; }
      buffer.dispose();
      dev.primaryContext.dispose();
      dev.resetPrimaryContext();
      const inactive = !dev.primaryContextState().active;
      // A new handle retains it again.
      const again = cuda.DeviceBuffer.from(new Uint8Array([4, 5]));
      report({ refused, inactive, active: dev.primaryContextState().active, bytes: [...again.readSync()] });
    `);
    expect(result.stderr).toBe('');
    expect(result.report.refused).toMatch(/still used by live handles/);
    expect(result.report).toMatchObject({ inactive: true, active: true, bytes: [4, 5] });
  });

  test('resetting the primary context is refused while handles live on it', () => {
    const dev = Device.get(0);
    void dev.primaryContext;
    expect(() => dev.resetPrimaryContext()).toThrow(/still used by live handles/);
  });

  test('a worker thread uses the same primary context, made current on its own thread', async () => {
    const main = Device.get(0).primaryContext.handle;
    const worker = new Worker(
      `const { parentPort } = require('worker_threads');
       const cuda = require(${JSON.stringify(path.resolve(__dirname, '../../dist'))});
       const ctx = cuda.Device.get(0).primaryContext;
       ctx.makeCurrent();
       parentPort.postMessage({ handle: ctx.handle.toString(), current: cuda.Context.currentHandle().toString(), api: ctx.apiVersion });`,
      { eval: true },
    );
    const result = await new Promise<{ handle: string; current: string; api: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(BigInt(result.handle)).toBe(main);
    expect(BigInt(result.current)).toBe(main);
    expect(result.api).toBeGreaterThan(0);
  });
});
