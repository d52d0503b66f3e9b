// Stream capture basics against the real driver (graph execution is tested with graphs).
import { CaptureInvalidatedError, CaptureUnsupportedError, DeviceBuffer, Event, Graph, Stream, copy, fill } from '../../lib';
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
      expect(capture.info().dependencies).toBe(1);
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
    expect(() => s.launchHostFunction(() => undefined)).toThrow(/host node/);
    using e = Event.create();
    e.record(s);
  });
});
