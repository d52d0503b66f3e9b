// Streams and events against the real driver.
import { Context, CudaError, DeviceBuffer, DisposedError, Event, Graph, HostBuffer, Stream, copy, fill } from '../../lib';
import { runScript } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';

describeGpu('streams', () => {
  test('create with flags and priority; query the driver about it', () => {
    const range = (() => {
      using s = Stream.create();
      return s.device.primaryContext.streamPriorityRange;
    })();
    using blocking = Stream.create({ nonBlocking: false });
    using high = Stream.create({ priority: range.greatest });
    using plain = Stream.create();
    expect(plain.nonBlocking).toBe(true);
    expect(blocking.nonBlocking).toBe(false);
    expect(high.priority).toBe(range.greatest);
    expect(plain.priority).toBe(range.least);
    expect(high.id).not.toBe(plain.id);
    expect(plain.contextHandle()).toBe(plain.device.primaryContext.handle);
    expect(plain.contextHandle(true)).toBe(plain.device.primaryContext.handle);
    expect(plain.queryDevice()).toBe(0);
    expect(plain.query()).toBe(true);
    expect(plain.handle).not.toBe(0n);
  });

  test('the legacy and per-thread streams are explicit, shared, and never disposed', () => {
    const legacy = Stream.legacy();
    expect(Stream.legacy(0)).toBe(legacy);
    expect(legacy.handle).toBe(1n);
    expect(Stream.perThread().handle).toBe(2n);
    legacy.dispose();
    expect(legacy.disposed).toBe(false);
    legacy.synchronizeSync();
    expect(legacy.query()).toBe(true);
  });

  test('the legacy stream is its own device\'s, whichever context is current (another one, or none)', () => {
    const legacy = Stream.legacy();
    using buffer = DeviceBuffer.alloc(64);
    using event = Event.create();
    using graph = Graph.create();
    graph.addFill(buffer, 5, { offset: 32 });
    using exec = graph.instantiate();
    using other = legacy.device.createContext();
    other.pushCurrent();
    try {
      fill(buffer, 9, { count: 32, stream: legacy });
      event.record(legacy);
      legacy.synchronizeSync();
      expect(event.query()).toBe(true);
    } finally {
      Context.popCurrent();
    }
    while (Context.currentHandle() !== 0n) Context.popCurrent();
    exec.launch(legacy);
    expect(legacy.priority).toBeGreaterThanOrEqual(legacy.device.primaryContext.streamPriorityRange.greatest);
    legacy.synchronizeSync();
    expect(Array.from(buffer.readSync())).toEqual([...Array(32).fill(9), ...Array(32).fill(5)]);
  });

  test('a disposed stream throws and never becomes the default stream', () => {
    const s = Stream.create();
    s.dispose();
    expect(() => s.synchronizeSync()).toThrow(DisposedError);
    using buf = DeviceBuffer.alloc(16);
    expect(() => copy(buf, new Uint8Array(16), { stream: s })).toThrow(DisposedError);
    expect(s.toString()).toBe('Stream(disposed)');
  });

  test('async copies and fills on a stream, ordered, then synchronize (promise and blocking)', async () => {
    using s = Stream.create();
    const n = 1 << 20;
    using dev = DeviceBuffer.alloc(n * 4);
    using pinned = HostBuffer.alloc(n * 4);
    const input = pinned.view(Uint32Array);
    for (let i = 0; i < n; i++) input[i] = i * 3;
    copy(dev, pinned, { stream: s });
    fill(dev, 7, { elementBytes: 4, offset: 4 * 10, count: 5, stream: s });
    const out = new Uint32Array(n);
    using back = HostBuffer.alloc(n * 4);
    copy(back, dev, { stream: s });
    await s.synchronize();
    out.set(back.view(Uint32Array));
    expect(out[9]).toBe(27);
    expect(Array.from(out.subarray(10, 15))).toEqual([7, 7, 7, 7, 7]);
    expect(out[15]).toBe(45);
    expect(out[n - 1]).toBe((n - 1) * 3);
    s.synchronizeSync();
    expect(s.query()).toBe(true);
  });

  test('a stream keeps the memory of queued work alive until it is known to be done', async () => {
    using s = Stream.create();
    const dev = DeviceBuffer.alloc(64 << 20);
    const pinned = HostBuffer.alloc(64 << 20);
    copy(dev, pinned, { stream: s });
    copy(pinned, dev, { stream: s });
    expect(s.pendingResources).toBe(2);
    dev.dispose();
    pinned.dispose();
    // The buffers are unusable from JavaScript at once, but the stream still holds them.
    expect(() => dev.size).toThrow(DisposedError);
    expect(s.pendingResources).toBe(2);
    await s.synchronize();
    expect(s.pendingResources).toBe(0);
  });

  test('waitEvent orders two streams; events query, synchronize and time', async () => {
    using a = Stream.create();
    using b = Stream.create();
    using buf = DeviceBuffer.alloc(4 << 20);
    using start = Event.create({ timing: true });
    using end = Event.create({ timing: true });
    using ready = Event.create();
    expect(start.timing).toBe(true);
    expect(ready.timing).toBe(false);
    start.record(a);
    fill(buf, 0xab, { stream: a });
    ready.record(a);
    end.record(a);
    b.waitEvent(ready);
    const host = new Uint8Array(4 << 20);
    copy(host, buf, { stream: b });
    await end.synchronize();
    expect(end.query()).toBe(true);
    expect(ready.query()).toBe(true);
    b.synchronizeSync();
    expect(host[0]).toBe(0xab);
    expect(host[host.length - 1]).toBe(0xab);
    const ms = start.elapsedTime(end);
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThan(10000);
    ready.synchronizeSync();
    end.record(a, { external: false });
  });

  test('elapsedTime explains why it cannot be computed', () => {
    using s = Stream.create();
    using timed = Event.create({ timing: true });
    using untimed = Event.create();
    using never = Event.create({ timing: true });
    timed.record(s);
    untimed.record(s);
    s.synchronizeSync();
    expect(() => timed.elapsedTime(untimed)).toThrow(/created without timing/);
    let error: unknown;
    try {
      timed.elapsedTime(never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CudaError);
    expect((error as CudaError).call).toBe('cuEventElapsedTime');
    expect(() => Event.create({ interprocess: true, timing: true })).toThrow(RangeError);
    using ipc = Event.create({ interprocess: true, blockingSync: true });
    expect(ipc.interprocess).toBe(true);
  });

  test('the promise form does not block the event loop', () => {
    // In a plain Node process: a timer ticking every millisecond keeps ticking
    // while a long queue of GPU work (about 100 GB of fills) is awaited.
    const r = runScript(`(async () => {
      const s = cuda.Stream.create();
      const dev = cuda.DeviceBuffer.alloc(1 << 30);
      for (let i = 0; i < 100; i++) cuda.fill(dev, i & 0xff, { stream: s });
      let ticks = 0, last = process.hrtime.bigint(), gap = 0;
      const timer = setInterval(() => { const t = process.hrtime.bigint(); gap = Math.max(gap, Number(t - last) / 1e6); last = t; ticks++; }, 1);
      const t0 = process.hrtime.bigint();
      await s.synchronize();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      clearInterval(timer);
      report({ ms, ticks, gap, first: dev.readSync(Uint8Array, { bytes: 1 })[0] });
    })();`);
    expect(r.stderr).toBe('');
    expect(r.report.ms).toBeGreaterThan(10);
    expect(r.report.ticks).toBeGreaterThan(r.report.ms / 4);
    expect(r.report.gap).toBeLessThan(r.report.ms / 2);
    expect(r.report.first).toBe(99);
  });

  test('host functions and callbacks run on the JavaScript thread, after the work before them', async () => {
    using s = Stream.create();
    using dev = DeviceBuffer.alloc(4);
    using host = HostBuffer.alloc(4);
    fill(dev, 0x5a, { stream: s });
    copy(host, dev, { stream: s });
    const seen = await new Promise<number>((resolve) => s.launchHostFunction(() => resolve(host.view(Uint8Array)[0])));
    expect(seen).toBe(0x5a);
    const status = await new Promise<Error | null>((resolve) => s.addCallback(resolve));
    expect(status).toBeNull();
    expect(() => s.launchHostFunction(5 as never)).toThrow(TypeError);
  });

  test('stream attributes: get, set, copy', () => {
    using a = Stream.create();
    using b = Stream.create();
    a.setAttribute('synchronizationPolicy', 'blockingSync');
    expect(a.attribute('synchronizationPolicy')).toBe('blockingSync');
    b.copyAttributesFrom(a);
    expect(b.attribute('synchronizationPolicy')).toBe('blockingSync');
    using buf = DeviceBuffer.alloc(1 << 20);
    a.setAttribute('accessPolicyWindow', { base: buf.address, bytes: 1 << 20, hitRatio: 0.5, hitProp: 'persisting', missProp: 'streaming' });
    const w = a.attribute('accessPolicyWindow');
    expect(w.bytes).toBe(1 << 20);
    expect(w.hitProp).toBe('persisting');
    expect(w.hitRatio).toBeCloseTo(0.5);
    expect(typeof a.attribute('priority')).toBe('number');
    a.setAttribute('memSyncDomain', 0);
    expect(a.attribute('memSyncDomain')).toBe(0);
    expect(a.attribute('memSyncDomainMap')).toEqual(expect.objectContaining({ default: expect.any(Number) }));
    expect(() => a.setAttribute('accessPolicyWindow', { base: buf.address, bytes: 1, hitRatio: 2, hitProp: 'normal', missProp: 'normal' })).toThrow(RangeError);
  });

  test('stream memory operations: write and wait on 32/64-bit words, batched', async () => {
    using producer = Stream.create();
    using consumer = Stream.create();
    using flag = DeviceBuffer.alloc(64);
    using data = DeviceBuffer.alloc(16);
    flag.fill(0);
    // The consumer waits for the flag before copying; the producer sets it after filling.
    consumer.waitValue32(flag, 1, { condition: 'eq' });
    const out = new Uint8Array(16);
    using pinnedOut = HostBuffer.alloc(16);
    copy(pinnedOut, data, { stream: consumer });
    fill(data, 0x42, { stream: producer });
    producer.writeValue32(flag, 1);
    await consumer.synchronize();
    out.set(pinnedOut.view(Uint8Array));
    expect(Array.from(out)).toEqual(new Array(16).fill(0x42));

    producer.writeValue64(flag, 0x1122334455667788n, { offset: 8 });
    producer.waitValue64(flag, 0x1122334455667788n, { offset: 8, condition: 'geq' });
    producer.batchMemoryOps([
      { op: 'writeValue32', target: flag, offset: 16, value: 5 },
      { op: 'writeValue64', target: flag, offset: 24, value: 9n },
      { op: 'barrier' },
      { op: 'waitValue32', target: flag, offset: 16, value: 5, condition: 'eq' },
      { op: 'waitValue64', target: flag, offset: 24, value: 9n, condition: 'eq' },
    ]);
    producer.synchronizeSync();
    const words = flag.readSync(Uint32Array);
    expect(words[4]).toBe(5);
    expect(flag.readSync(BigUint64Array)[1]).toBe(0x1122334455667788n);
    expect(flag.readSync(BigUint64Array)[3]).toBe(9n);
    expect(() => producer.writeValue32(flag, 1, { offset: 2 })).toThrow(/aligned/);
    expect(() => producer.writeValue32(flag, 1, { offset: 64 })).toThrow(RangeError);
    expect(() => producer.writeValue32(flag, 1, { offset: 62 })).toThrow(/exceeds its 64 bytes/);
  });
});
