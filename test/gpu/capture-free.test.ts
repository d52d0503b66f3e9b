// Explicit frees against the real driver: stream-ordered memory freed inside a
// capture (a free node, so the graph can run again and again) and outside it,
// on another stream; graph allocations freed outside their graph; and copies of
// JavaScript bytes refused during a capture while a HostBuffer's copy, captured,
// outlives the handle.
import { CudaError, Device, DeviceBuffer, Event, Graph, HostBuffer, Stream, copy, fill } from '../../lib';
import { collectGarbage, drain } from '../helpers/gc';
import { describeGpu } from '../helpers/tiers';

describeGpu('explicit frees of stream-ordered memory', () => {
  test('alloc, use and freeAsync captured: the graph has both memory nodes and launches again and again', () => {
    using s = Stream.create();
    using out = DeviceBuffer.alloc(256);
    fill(out, 0);
    let scratch: DeviceBuffer | undefined;
    using graph = s.capture((c) => {
      scratch = DeviceBuffer.allocAsync(256, c);
      fill(scratch, 0x5a, { stream: c });
      copy(out, scratch, { stream: c });
      scratch.freeAsync(c);
    });
    expect(scratch!.disposed).toBe(true);
    expect(graph.nodes().map((n) => n.type).sort()).toEqual(['memAlloc', 'memFree', 'memcpy', 'memset']);
    using exec = graph.instantiate();
    for (let i = 0; i < 3; i++) {
      fill(out, i, { stream: s });
      exec.launch(s);
      s.synchronizeSync();
      expect(Array.from(out.readSync())).toEqual(new Array(256).fill(0x5a));
    }
  });

  test('freeAsync on another stream, ordered after the work by an event; the buffer is disposed', () => {
    using s = Stream.create();
    using other = Stream.create();
    using done = Event.create();
    using out = DeviceBuffer.alloc(64);
    const b = DeviceBuffer.allocAsync(64, s);
    fill(b, 9, { stream: s });
    copy(out, b, { stream: s });
    done.record(s);
    other.waitEvent(done);
    b.freeAsync(other);
    other.synchronizeSync();
    s.synchronizeSync();
    expect(b.disposed).toBe(true);
    expect(() => b.size).toThrow(/disposed/);
    expect(() => b.freeAsync(s)).toThrow(/disposed/);
    expect(() => b.dispose()).not.toThrow();
    expect(Array.from(out.readSync())).toEqual(new Array(64).fill(9));
  });

  test("freeAsync on a stream of another context: the driver's answer, and a consistent buffer either way", () => {
    using context = Device.get(0).createContext();
    using foreign = Stream.create({ context });
    using s = Stream.create();
    const b = DeviceBuffer.allocAsync(64, s);
    s.synchronizeSync();
    let refused: unknown;
    try {
      b.freeAsync(foreign);
      foreign.synchronizeSync();
    } catch (error) {
      refused = error;
    }
    if (refused === undefined) {
      expect(b.disposed).toBe(true);
    } else {
      expect(refused).toBeInstanceOf(CudaError);
      expect(b.disposed).toBe(false);
      expect(b.size).toBe(64);
      b.dispose();
    }
  });

  test('dispose() during a capture records nothing; the memory is freed once the capture ends', () => {
    using s = Stream.create();
    using out = DeviceBuffer.alloc(64);
    const b = DeviceBuffer.allocAsync(64, s);
    fill(b, 3, { stream: s });
    s.synchronizeSync();
    const graph = s.capture((c) => {
      copy(out, b, { stream: c });
      b.dispose();
    });
    expect(graph.nodes().map((n) => n.type)).toEqual(['memcpy']);
    graph.dispose();
    s.synchronizeSync();
  });

  test('a buffer allocated before a capture cannot be freed inside it (C requires a graph allocation)', () => {
    using s = Stream.create();
    const b = DeviceBuffer.allocAsync(64, s);
    s.synchronizeSync();
    expect(() => {
      using capture = s.beginCapture();
      b.freeAsync(s);
      capture.end().dispose();
    }).toThrow();
    expect(s.captureStatus).toBe('none');
    expect(b.disposed).toBe(false);
    b.dispose();
    s.synchronizeSync();
  });
});

describeGpu('graph allocations freed outside their graph', () => {
  test('freeAsync(stream) and free() free what a launch allocated, so the graph launches again', () => {
    using s = Stream.create();
    using out = DeviceBuffer.alloc(128);
    using graph = Graph.create();
    const a = graph.addAlloc(64);
    const b = graph.addAlloc(64);
    const fa = graph.addFill(a.allocation, 1, {}, { after: [a.node] });
    const fb = graph.addFill(b.allocation, 2, {}, { after: [b.node] });
    graph.addCopy(out, a.allocation, { bytes: 64 }, { after: [fa] });
    graph.addCopy(out, b.allocation, { dstOffset: 64, bytes: 64 }, { after: [fb] });
    using exec = graph.instantiate();
    const expected = [...new Array(64).fill(1), ...new Array(64).fill(2)];
    exec.launch(s);
    s.synchronizeSync();
    expect(Array.from(out.readSync())).toEqual(expected);
    // Stream work after the launch may use what it allocated, until it is freed.
    fill(a.allocation, 7, { stream: s });
    a.allocation.freeAsync(s);
    s.synchronizeSync();
    b.allocation.free();
    expect(a.allocation.disposed && b.allocation.disposed).toBe(true);
    expect(() => a.allocation.size).toThrow(/disposed/);
    // The driver refuses to launch a graph whose allocations are still live: this launch shows both were freed.
    fill(out, 0);
    exec.launch(s);
    s.synchronizeSync();
    expect(Array.from(out.readSync())).toEqual(expected);
    // The second launch's allocations stay live (no handle names them now) until the process ends.
  });

  test('one its own graph frees is refused outside', () => {
    using s = Stream.create();
    using graph = Graph.create();
    const a = graph.addAlloc(64);
    graph.addFree(a.allocation, { after: [a.node] });
    using exec = graph.instantiate();
    exec.launch(s);
    s.synchronizeSync();
    expect(() => a.allocation.freeAsync(s)).toThrow(/free node of the allocating graph/);
    expect(() => a.allocation.free()).toThrow(/free node of the allocating graph/);
    exec.launch(s);
    s.synchronizeSync();
  });

  test('once its graph is disposed, an allocation is refused before the driver; freeing what a launch allocated still works', () => {
    using s = Stream.create();
    const graph = Graph.create();
    const { allocation } = graph.addAlloc(64);
    using exec = graph.instantiate();
    exec.launch(s);
    s.synchronizeSync();
    fill(allocation, 7);
    const back = new Uint8Array(64);
    copy(back, allocation);
    expect(Array.from(back)).toEqual(new Array(64).fill(7));
    graph.dispose();
    expect(() => fill(allocation, 1)).toThrow(/GraphAllocation names memory that no longer exists/);
    expect(() => copy(back, allocation)).toThrow(/GraphAllocation names memory that no longer exists/);
    allocation.freeAsync(s);
    s.synchronizeSync();
    expect(allocation.disposed).toBe(true);
  });
});

describeGpu('captured copies and host memory', () => {
  test('a copy from a JavaScript array on a capturing stream is refused and the capture goes on', () => {
    using s = Stream.create();
    using dev = DeviceBuffer.alloc(64);
    using capture = s.beginCapture();
    expect(() => copy(dev, new Float32Array(16), { stream: s })).toThrow(/JavaScript buffer, and the stream is capturing.*HostBuffer/);
    expect(() => copy(new Float32Array(16), dev, { stream: s })).toThrow(TypeError);
    fill(dev, 4, { stream: s });
    using graph = capture.end();
    expect(graph.nodeCount).toBe(1);
  });

  test('a captured copy from a HostBuffer keeps it: launched after the handle is disposed and collected', async () => {
    using s = Stream.create();
    using dev = DeviceBuffer.alloc(64);
    let graph: Graph;
    {
      const host = HostBuffer.alloc(64);
      host.view(Float32Array).set(Array.from({ length: 16 }, (_, i) => i + 0.5));
      graph = s.capture((c) => copy(dev, host, { stream: c }));
      host.dispose();
    }
    collectGarbage();
    await drain();
    using exec = graph.instantiate();
    exec.launch(s);
    s.synchronizeSync();
    graph.dispose();
    expect(Array.from(dev.readSync(Float32Array))).toEqual(Array.from({ length: 16 }, (_, i) => i + 0.5));
  });
});
