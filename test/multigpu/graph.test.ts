// Graphs across two devices: kernel nodes in each device's context joined by
// copy nodes between the devices, launched from a stream of either device; the
// same shape captured from a stream of device 0 that forks to a stream of
// device 1 and joins back; and
// a memory node on one device whose allocation names the other as a peer, so
// that a kernel node on the other device may write it. Results are copied back
// and compared.
import { arg, copy, Device, DeviceBuffer, Event, Graph, graphMemory, HostBuffer, Stream } from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { dropPeerAccess, kernels, ramp } from '../helpers/multi-gpu';
import { describeMultiGpu, describePeerAccess } from '../helpers/tiers';

const n = 1 << 16;
const shape = (device: number) => ({ grid: n / 256, block: 256, device });

describeMultiGpu('graphs across devices', () => {
  test('kernel nodes on devices 0 and 1, copy nodes between them; launched from a stream of each device', async () => {
    const { axpy, iota } = kernels();
    using x0 = DeviceBuffer.alloc(n * 4, { device: 0 });
    using y1 = DeviceBuffer.alloc(n * 4, { device: 1 });
    using y0 = DeviceBuffer.alloc(n * 4, { device: 0 });
    using host = HostBuffer.alloc(n * 4);
    using graph = Graph.create();
    const start = graph.addKernel(iota, shape(0), [arg.ptr(x0), arg.f32(1), arg.u32(n)]);         // x0 = 1 + i
    const across = graph.addCopy(y1, x0, {}, { after: [start] });                                 // device 0 → 1
    const triple = graph.addKernel(axpy, shape(1), [arg.f32(2), arg.ptr(y1), arg.ptr(y1), arg.u32(n)], { after: [across] });  // y1 *= 3
    const back = graph.addCopy(y0, y1, {}, { after: [triple] });                                  // device 1 → 0
    graph.addCopy(host, y0, {}, { after: [back] });
    expect(graph.nodeCount).toBe(5);
    using exec = graph.instantiate();
    for (const device of [0, 1]) {
      host.view(Float32Array).fill(-1);
      using stream = Stream.create({ device });
      await exec.run(stream);
      expectBytes(host.view(Float32Array), ramp(n, 3, 3));
    }
  });
});

describeMultiGpu('capture across devices', () => {
  test('a capture forks to a stream of device 1 through an event and joins back: one graph, work on both devices', async () => {
    const { axpy, iota } = kernels();
    using s0 = Stream.create({ device: 0 });
    using s1 = Stream.create({ device: 1 });
    using x0 = DeviceBuffer.alloc(n * 4, { device: 0 });
    using x1 = DeviceBuffer.alloc(n * 4, { device: 1 });
    using host = HostBuffer.alloc(n * 4);
    using forked = Event.create({ device: 0 });
    using joined = Event.create({ device: 1 });
    using graph = s0.capture((s) => {
      iota.launch({ grid: n / 256, block: 256, stream: s }, [arg.ptr(x0), arg.f32(2), arg.u32(n)]);            // x0 = 2 + i
      forked.record(s);
      s1.waitEvent(forked);                                                                                  // device 1 joins
      copy(x1, x0, { stream: s1 });
      axpy.launch({ grid: n / 256, block: 256, stream: s1 }, [arg.f32(1), arg.ptr(x1), arg.ptr(x1), arg.u32(n)]);  // x1 *= 2
      joined.record(s1);
      s.waitEvent(joined);                                                                                   // and joins back
      copy(host, x1, { stream: s });
    });
    // A chain: the events became edges, not nodes.
    expect(graph.levels().map((level) => level.map((node) => node.type))).toEqual([['kernel'], ['memcpy'], ['kernel'], ['memcpy']]);
    using exec = graph.instantiate();
    for (const stream of [s0, s1]) {
      host.view(Float32Array).fill(-1);
      await exec.run(stream);
      expectBytes(host.view(Float32Array), ramp(n, 4, 2));
    }
  });
});

describePeerAccess('graph memory granted to a peer', () => {
  test('an allocation node on device 0 with peers [1]: a kernel node on device 1 writes it, one on device 0 reads it', async () => {
    // The grant comes from the node's peers alone, not from context peer access.
    dropPeerAccess(Device.get(1), Device.get(0));
    const { axpy, iota } = kernels();
    using out = DeviceBuffer.alloc(n * 4, { device: 0 });
    using host = HostBuffer.alloc(n * 4);
    using graph = Graph.create();
    const { node: alloc, allocation } = graph.addAlloc(n * 4, { device: 0, peers: [1] });
    expect(allocation.device.ordinal).toBe(0);
    const write = graph.addKernel(iota, shape(1), [arg.ptr(allocation), arg.f32(7), arg.u32(n)], { after: [alloc] });
    const zero = graph.addFill(out, 0, { elementBytes: 4 });
    const read = graph.addKernel(axpy, shape(0), [arg.f32(2), arg.ptr(allocation), arg.ptr(out), arg.u32(n)], { after: [write, zero] });
    const free = graph.addFree(allocation, { after: [read] });
    graph.addCopy(host, out, {}, { after: [free] });
    using exec = graph.instantiate();
    using stream = Stream.create({ device: 0 });
    for (let launch = 0; launch < 2; launch++) {
      host.view(Float32Array).fill(-1);
      await exec.run(stream);
      expectBytes(host.view(Float32Array), ramp(n, 14, 2));
    }
    expect(graphMemory(0).usedMemHigh).toBeGreaterThanOrEqual(n * 4);
  });
});
