// Stream capture basics against the real driver (graph execution is tested with graphs).
import { arg, CaptureInvalidatedError, CaptureUnsupportedError, compile, DeviceBuffer, Event, Graph, Library, Stream, copy, fill } from '../../lib';
import { describeGpu } from '../helpers/tiers';

describeGpu('stream capture', () => {
  test('a scope captures work into a graph and always ends', () => {
    using s = Stream.create();
    using a = DeviceBuffer.alloc(1024);
    using b = DeviceBuffer.alloc(1024);
    expect(s.captureStatus).toBe('none');
    {
      using capture = s.beginCapture();
      expect(s.captureStatus).toBe('active');
      expect(capture.info().status).toBe('active');
      fill(a, 1, { stream: s });
      copy(b, a, { stream: s });
      expect(capture.info().dependencies).toHaveLength(1);
      using graph = capture.end();
      expect(graph.nodeCount).toBe(2);
    }
    expect(s.captureStatus).toBe('none');
    // A scope left without end() discards the capture and frees the stream.
    {
      using capture = s.beginCapture({ mode: 'relaxed' });
      fill(a, 2, { stream: s });
      void capture;
    }
    expect(s.captureStatus).toBe('none');
    s.synchronizeSync();
  });

  test('callback form; a throwing callback still ends the capture; promises are refused', () => {
    using s = Stream.create();
    using a = DeviceBuffer.alloc(64);
    using graph = s.capture((st) => fill(a, 3, { stream: st }), { mode: 'global' });
    expect(graph.nodeCount).toBe(1);
    expect(() => s.capture(() => {
      throw new Error('inside');
    })).toThrow('inside');
    expect(s.captureStatus).toBe('none');
    expect(() => s.capture(async () => undefined)).toThrow(/returned a promise/);
    expect(s.captureStatus).toBe('none');
  });

  test('capturing into an existing graph', () => {
    using s = Stream.create();
    using a = DeviceBuffer.alloc(64);
    using target = Graph.create();
    const result = s.capture((st) => fill(a, 4, { stream: st }), { into: target });
    expect(result).toBe(target);
    expect(target.nodeCount).toBe(1);
    s.capture((st) => fill(a, 5, { stream: st }), { into: target });
    expect(target.nodeCount).toBe(2);
    // After a node of the target, and with the dependencies replaced mid-capture.
    const first = target.nodes()[0];
    const marker = target.addEmpty({ label: 'marker' });
    const capture = s.beginCapture({ into: target, after: [first], edges: [{}] });
    fill(a, 6, { stream: s });
    capture.setDependencies([marker]);
    fill(a, 7, { stream: s });
    capture.setDependencies([first], { add: true });
    fill(a, 8, { stream: s });
    expect(capture.end()).toBe(target);
    expect(target.nodeCount).toBe(6);
    expect(marker.dependents()).toHaveLength(1);
  });

  test('info() gives the graph being built and its dependencies: a node added mid-capture runs in order', () => {
    using lib = Library.load(compile(`
      extern "C" __global__ void affine(float a, float b, float* y, unsigned n) {
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * y[i] + b;
      }`));
    using affine = lib.kernel('affine');
    using s = Stream.create();
    const n = 256;
    using y = DeviceBuffer.alloc(n * 4);
    // Set before the capture: a copy from a JavaScript array captured into the
    // graph would read that array when the graph runs.
    copy(y, Float32Array.from({ length: n }, (_, i) => i));
    const capture = s.beginCapture();
    affine.launch({ grid: 2, block: 128, stream: s }, [arg.f32(2), arg.f32(0), arg.ptr(y), arg.u32(n)]);
    const info = capture.info();
    expect(info.status).toBe('active');
    expect(info.graph).toBe(capture.graph);
    expect(info.graph!.handle).not.toBe(0n);
    expect(info.dependencies).toHaveLength(1);
    expect(info.dependencies[0].type).toBe('kernel');
    expect(info.edges).toEqual([{ fromPort: 'default', toPort: 'default', type: 'default' }]);
    // y = 2i, then (added by hand) y + 10, then (captured after it) 3y.
    const added = info.graph!.addKernel(affine, { grid: 2, block: 128 }, [arg.f32(1), arg.f32(10), arg.ptr(y), arg.u32(n)],
      { after: info.dependencies });
    capture.setDependencies([added]);
    expect(capture.info().dependencies).toEqual([added]);
    affine.launch({ grid: 2, block: 128, stream: s }, [arg.f32(3), arg.f32(0), arg.ptr(y), arg.u32(n)]);
    using graph = capture.end();
    expect(graph).toBe(info.graph);
    expect(graph.nodeCount).toBe(3);
    expect(added.dependents()).toHaveLength(1);
    using exec = graph.instantiate();
    exec.launch(s);
    s.synchronizeSync();
    const out = y.readSync(Float32Array);
    for (let i = 0; i < n; i++) expect(out[i]).toBe(3 * (2 * i + 10));
  });

  test('an invalidated capture names the call that broke it; the stream is usable after', () => {
    using s = Stream.create();
    using a = DeviceBuffer.alloc(64);
    const capture = s.beginCapture({ mode: 'global' });
    fill(a, 1, { stream: s });
    // Synchronizing a capturing stream is not permitted and breaks the capture.
    let broke: unknown;
    try {
      s.synchronizeSync();
    } catch (e) {
      broke = e;
    }
    expect(broke).toBeInstanceOf(CaptureUnsupportedError);
    expect(s.captureStatus).toBe('invalidated');
    let ended: unknown;
    try {
      capture.end();
    } catch (e) {
      ended = e;
    }
    expect(ended).toBeInstanceOf(CaptureInvalidatedError);
    expect((ended as Error).message).toMatch(/broken by cuStreamSynchronize/);
    expect(s.captureStatus).toBe('none');
    fill(a, 6, { stream: s });
    s.synchronizeSync();
    expect(a.readSync()[0]).toBe(6);
  });

  test('what cannot be captured is refused up front', () => {
    expect(() => Stream.legacy().beginCapture()).toThrow(/legacy default stream cannot be captured/);
    using s = Stream.create();
    using capture = s.beginCapture();
    expect(capture.active).toBe(true);
    expect(() => s.beginCapture()).toThrow(/already capturing/);
    expect(() => s.addCallback(() => undefined)).toThrow(/cannot be captured; use launchHostFunction/);
    using e = Event.create();
    e.record(s);
  });
});
