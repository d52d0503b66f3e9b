// Streams, events and waits across devices: a stream of one device waits for an
// event recorded on a stream of the other. The recording stream is held at a
// flag until the test sets it, so the waiting stream's copy provably ran after
// the work before the record: before the flag its target still holds the old
// bytes, after it the new ones.
import { copy, CudaError, Device, DeviceBuffer, Event, fill, Stream } from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { describeMultiGpu } from '../helpers/tiers';

const filled = (n: number, value: number) => new Uint8Array(n).fill(value);

describeMultiGpu('streams and events across devices', () => {
  for (const [from, to] of [[0, 1], [1, 0]]) {
    test(`a stream on device ${to} waits for an event recorded on device ${from}`, async () => {
      const n = 1 << 20;
      using producer = Stream.create({ device: from });
      using signal = Stream.create({ device: from });
      using consumer = Stream.create({ device: to });
      using flag = DeviceBuffer.alloc(64, { device: from });
      fill(flag, 0);
      using data = DeviceBuffer.alloc(n, { device: from });
      fill(data, 0);
      using out = DeviceBuffer.alloc(n, { device: to });
      fill(out, 0x11);
      using event = Event.create({ device: from });

      producer.waitValue32(flag, 1, { condition: 'eq' });
      fill(data, 0xab, { stream: producer });
      event.record(producer);
      consumer.waitEvent(event);
      copy(out, data, { stream: consumer });
      expect(producer.device).toBe(Device.get(from));
      expect(consumer.device).toBe(Device.get(to));

      // Held: the event has not happened, and the consumer's copy has not run.
      expect(event.query()).toBe(false);
      expect(consumer.query()).toBe(false);
      expectBytes(out.readSync(Uint8Array), filled(n, 0x11));

      signal.writeValue32(flag, 1);
      await consumer.synchronize();
      expect(event.query()).toBe(true);
      expectBytes(out.readSync(Uint8Array), filled(n, 0xab));
    });
  }

  test('an event of each device awaited together; streams of both devices synchronized', async () => {
    using s0 = Stream.create({ device: 0 });
    using s1 = Stream.create({ device: 1 });
    using a = DeviceBuffer.alloc(1 << 22, { device: 0 });
    using b = DeviceBuffer.alloc(1 << 22, { device: 1 });
    fill(a, 3, { stream: s0 });
    fill(b, 4, { stream: s1 });
    using e0 = Event.create({ device: 0 }).record(s0);
    using e1 = Event.create({ device: 1 }).record(s1);
    await Promise.all([e0.synchronize(), e1.synchronize()]);
    expect([e0.query(), e1.query(), s0.query(), s1.query()]).toEqual([true, true, true, true]);
    expectBytes(a.readSync(Uint8Array), filled(1 << 22, 3));
    expectBytes(b.readSync(Uint8Array), filled(1 << 22, 4));
  });

  test('an event is recorded only on a stream of its own device: the driver refuses another with its code', () => {
    using s0 = Stream.create({ device: 0 });
    using e1 = Event.create({ device: 1 });
    let error: unknown;
    try {
      e1.record(s0);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CudaError);
    expect(error).toMatchObject({ code: 'CUDA_ERROR_INVALID_HANDLE', call: 'cuEventRecord' });
  });
});
