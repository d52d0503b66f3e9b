// Copies and fills over the stand-in driver, which really moves the bytes: the
// byte count a copy or fill defaults to comes from its operands in the native
// layer, which also checks every range; library memory travels by slot.
import { distPath, fakeDriver, runScript } from '../helpers/subprocess';

const env = () => ({ CUDA_DRIVER_LIBRARY: fakeDriver() });
const capture = `const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };`;

describe('copy and fill with a stand-in driver', () => {
  test('a copy without a byte count moves the rest of src; each range is checked against its memory', () => {
    const r = runScript(`${capture}
      const dev = cuda.DeviceBuffer.alloc(16);
      cuda.fill(dev, 0);
      cuda.copy(dev, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), { dstOffset: 4 });
      const back = new Uint8Array(16);
      cuda.copy(back, dev);
      const tail = new Uint8Array(3);
      cuda.copy(tail, dev, { srcOffset: 13 });
      const pinned = cuda.HostBuffer.alloc(8);
      const stream = cuda.Stream.create();
      cuda.copy(pinned, dev, { srcOffset: 4, bytes: 8, stream });
      stream.synchronizeSync();
      report({
        back: Array.from(back), tail: Array.from(tail), pinned: Array.from(pinned.view()),
        dstTooSmall: t(() => cuda.copy(new Uint8Array(4), dev)),
        srcOffsetBeyond: t(() => cuda.copy(new Uint8Array(4), dev, { srcOffset: 17 })),
        bytesBeyondSrc: t(() => cuda.copy(dev, new Uint8Array(4), { bytes: 5 })),
        dstOffsetBeyond: t(() => cuda.copy(dev, new Uint8Array(4), { dstOffset: 13 })),
        nothingAtTheEnd: t(() => cuda.copy(new Uint8Array(4), dev, { srcOffset: 16 })),
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      back: [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0],
      tail: [0, 0, 0],
      pinned: [1, 2, 3, 4, 5, 6, 7, 8],
      dstTooSmall: 'RangeError: dst: range [0, 0+16) exceeds its 4 bytes',
      srcOffsetBeyond: 'RangeError: src: range [17, 17+0) exceeds its 16 bytes',
      bytesBeyondSrc: 'RangeError: src: range [0, 0+5) exceeds its 4 bytes',
      dstOffsetBeyond: 'RangeError: dst: range [13, 13+4) exceeds its 16 bytes',
      nothingAtTheEnd: 'no error',
    });
  });

  test('a fill without a count writes as many elements as fit from its offset', () => {
    const r = runScript(`${capture}
      const dev = cuda.DeviceBuffer.alloc(14);
      cuda.fill(dev, 0);
      cuda.fill(dev, 0x01020304, { offset: 4, elementBytes: 4 });
      const back = new Uint8Array(14);
      cuda.copy(back, dev);
      report({
        back: Array.from(back),
        countBeyond: t(() => cuda.fill(dev, 1, { offset: 4, count: 3, elementBytes: 4 })),
        offsetBeyond: t(() => cuda.fill(dev, 1, { offset: 15 })),
        jsBytes: t(() => cuda.fill(new Uint8Array(4), 1)),
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      back: [0, 0, 0, 0, 4, 3, 2, 1, 4, 3, 2, 1, 0, 0],
      countBeyond: 'RangeError: target: range [4, 4+12) exceeds its 14 bytes',
      offsetBeyond: 'RangeError: target: range [15, 15+0) exceeds its 14 bytes',
      jsBytes: expect.stringMatching(/^TypeError: target must be a memory handle/),
    });
  });

  test('copies between memory handles without a stream (the hot entry) move the bytes asked for, ranges checked', () => {
    const r = runScript(`${capture}
      const dev = cuda.DeviceBuffer.alloc(32);
      const pinned = cuda.HostBuffer.alloc(16);
      const other = cuda.HostBuffer.alloc(16);
      const dev2 = cuda.DeviceBuffer.alloc(16);
      pinned.view().set(Array.from({ length: 16 }, (_, i) => i + 1));
      cuda.fill(dev, 0);
      cuda.copy(dev, pinned);                                             // device <- pinned, all of src
      cuda.copy(dev, pinned, { dstOffset: 20, srcOffset: 2, bytes: 4 });  // offsets and a count
      const back = new Uint8Array(32);
      cuda.copy(back, dev);
      cuda.copy(other, dev, { srcOffset: 8, bytes: 16 });                 // pinned <- device
      cuda.copy(dev2, dev, { srcOffset: 16, bytes: 8n });                 // device <- device, a bigint count
      const back2 = new Uint8Array(16);
      cuda.copy(back2, dev2);
      const hostToHost = cuda.HostBuffer.alloc(4);
      cuda.copy(hostToHost, pinned, { srcOffset: 12 });                   // pinned <- pinned
      const gone = cuda.HostBuffer.alloc(4); gone.dispose();
      report({
        back: Array.from(back), other: Array.from(other.view()), back2: Array.from(back2).slice(0, 8),
        hostToHost: Array.from(hostToHost.view()),
        dstTooSmall: t(() => cuda.copy(pinned, dev)),
        beyondSrc: t(() => cuda.copy(dev, pinned, { srcOffset: 8, bytes: 9 })),
        beyondDst: t(() => cuda.copy(pinned, dev, { dstOffset: 15, bytes: 2 })),
        overlap: t(() => cuda.copy(dev, dev, { dstOffset: 4, bytes: 8 })),
        disjoint: t(() => cuda.copy(dev, dev, { dstOffset: 8, bytes: 8 })),
        disposed: t(() => cuda.copy(dev, gone)),
        nothing: t(() => cuda.copy(dev, pinned, { srcOffset: 16 })),
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      back: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0, 0, 0, 0, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0],
      other: [9, 10, 11, 12, 13, 14, 15, 16, 0, 0, 0, 0, 3, 4, 5, 6],
      back2: [0, 0, 0, 0, 3, 4, 5, 6],
      hostToHost: [13, 14, 15, 16],
      dstTooSmall: 'RangeError: dst: range [0, 0+32) exceeds its 16 bytes',
      beyondSrc: 'RangeError: src: range [8, 8+9) exceeds its 16 bytes',
      beyondDst: 'RangeError: dst: range [15, 15+2) exceeds its 16 bytes',
      overlap: 'RangeError: source and destination ranges of one buffer overlap',
      disjoint: 'no error',
      disposed: 'DisposedError: HostBuffer has been disposed',
      nothing: 'no error',
    });
  });

  test('copies between memory handles on a stream (the hot entry) move the bytes asked for, in order, ranges checked', () => {
    const r = runScript(`${capture}
      const { native } = require(${JSON.stringify(distPath + '/native.js')});
      const stream = cuda.Stream.create();
      const dev = cuda.DeviceBuffer.alloc(32);
      const pinned = cuda.HostBuffer.alloc(16);
      const other = cuda.HostBuffer.alloc(16);
      const dev2 = cuda.DeviceBuffer.alloc(16);
      const back = cuda.HostBuffer.alloc(8);
      pinned.view().set(Array.from({ length: 16 }, (_, i) => i + 1));
      cuda.fill(dev, 0, { stream });
      cuda.copy(dev, pinned, { stream });                                             // device <- pinned, all of src
      cuda.copy(dev, pinned, { dstOffset: 20, srcOffset: 2, bytes: 4, stream });      // offsets and a count
      cuda.copy(other, dev, { srcOffset: 8, bytes: 16, stream });                     // pinned <- device
      cuda.copy(dev2, dev, { srcOffset: 16, bytes: 8n, stream });                     // device <- device, a bigint count
      cuda.copy(back, dev2, { bytes: 8, stream });
      stream.synchronizeSync();
      const goneStream = cuda.Stream.create(); goneStream.dispose();
      let ran = false;
      const sneaky = { valueOf() { ran = true; dev.dispose(); return 0; } };
      report({
        other: Array.from(other.view()), back: Array.from(back.view()),
        beyondSrc: t(() => cuda.copy(dev, pinned, { srcOffset: 8, bytes: 9, stream })),
        overlap: t(() => cuda.copy(dev, dev, { dstOffset: 4, bytes: 8, stream })),
        disposedStream: t(() => cuda.copy(dev, pinned, { stream: goneStream })),
        notAStream: t(() => cuda.copy(dev, pinned, { stream: dev })),
        memoryAsStream: t(() => native.memcpyAsync(dev.slot, 0, pinned.slot, 0, -1, other.slot)),
        objectAsStream: t(() => native.memcpyAsync(dev.slot, 0, pinned.slot, 0, -1, sneaky)),
        objectBytes: t(() => native.memcpyAsync(dev.slot, 0, pinned.slot, 0, sneaky, stream.slot)),
        streamAsDst: t(() => native.memcpyAsync(stream.slot, 0, pinned.slot, 0, -1, stream.slot)),
        ran, devAlive: !dev.disposed,
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      other: [9, 10, 11, 12, 13, 14, 15, 16, 0, 0, 0, 0, 3, 4, 5, 6],
      back: [0, 0, 0, 0, 3, 4, 5, 6],
      beyondSrc: 'RangeError: src: range [8, 8+9) exceeds its 16 bytes',
      overlap: 'RangeError: source and destination ranges of one buffer overlap',
      disposedStream: 'DisposedError: Stream has been disposed',
      notAStream: expect.stringMatching(/^TypeError: options.stream must be a Stream/),
      memoryAsStream: expect.stringMatching(/^TypeError: stream must be/),
      objectAsStream: expect.stringMatching(/^TypeError: stream must be/),
      objectBytes: 'TypeError: bytes must be a number',
      streamAsDst: expect.stringMatching(/^TypeError: dst must be a memory handle/),
      ran: false, devAlive: true,
    });
  });

  test('the hot copy entry, called directly, refuses what is not a slot of memory or not a size', () => {
    const r = runScript(`${capture}
      const { native } = require(${JSON.stringify(distPath + '/native.js')});
      const dev = cuda.DeviceBuffer.alloc(16);
      const pinned = cuda.HostBuffer.alloc(16);
      const stream = cuda.Stream.create();
      let ran = false;
      const sneaky = { valueOf() { ran = true; dev.dispose(); return 0; } };
      report({
        streamSlot: t(() => native.memcpySync(stream.slot, 0, pinned.slot, 0, -1)),
        noSlot: t(() => native.memcpySync(1e300, 0, pinned.slot, 0, -1)),
        stale: t(() => native.memcpySync(dev.slot + 2 ** 24, 0, pinned.slot, 0, -1)),
        objectOffset: t(() => native.memcpySync(dev.slot, sneaky, pinned.slot, 0, -1)),
        objectBytes: t(() => native.memcpySync(dev.slot, 0, pinned.slot, 0, sneaky)),
        bigintBytes: t(() => native.memcpySync(dev.slot, 0, pinned.slot, 0, 4n)),
        bigintOffset: t(() => native.memcpySync(dev.slot, 0, pinned.slot, 0n, -1)),
        stringSlot: t(() => native.memcpySync(String(dev.slot), 0, pinned.slot, 0, -1)),
        missingBytes: t(() => native.memcpySync(dev.slot, 0, pinned.slot, 0)),
        fractionalBytes: t(() => native.memcpySync(dev.slot, 0, pinned.slot, 0, 1.5)),
        nanBytes: t(() => native.memcpySync(dev.slot, 0, pinned.slot, 0, NaN)),
        negativeOffset: t(() => native.memcpySync(dev.slot, -1, pinned.slot, 0, -1)),
        hugeBytes: t(() => native.memcpySync(dev.slot, 0, pinned.slot, 0, 2 ** 60)),
        ran, devAlive: !dev.disposed,
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      streamSlot: expect.stringMatching(/^TypeError: dst must be a memory handle/),
      noSlot: expect.stringMatching(/^TypeError: dst must be a memory handle/),
      stale: expect.stringMatching(/^TypeError: dst must be a memory handle/),
      objectOffset: 'TypeError: dstOffset must be a number',
      objectBytes: 'TypeError: bytes must be a number',
      bigintBytes: 'TypeError: bytes must be a number',
      bigintOffset: 'TypeError: srcOffset must be a number',
      stringSlot: 'TypeError: dst must be a number',
      missingBytes: 'TypeError: bytes must be a number',
      fractionalBytes: 'TypeError: bytes must be an integer',
      nanBytes: 'TypeError: bytes must be an integer',
      negativeOffset: expect.stringMatching(/^RangeError: dstOffset must be between 0 and/),
      hugeBytes: expect.stringMatching(/^RangeError: bytes must be between 0 and/),
      ran: false, devAlive: true,
    });
  });

  test('handles that are not memory, disposed memory and disposed streams are refused', () => {
    const r = runScript(`${capture}
      const dev = cuda.DeviceBuffer.alloc(16);
      const stream = cuda.Stream.create();
      const gone = cuda.DeviceBuffer.alloc(16); gone.dispose();
      const goneStream = cuda.Stream.create(); goneStream.dispose();
      report({
        streamAsDst: t(() => cuda.copy(stream, dev)),
        streamAsFillTarget: t(() => cuda.fill(stream, 0)),
        plainObject: t(() => cuda.copy({ slot: dev.slot, size: 16 }, dev)),
        disposedSrc: t(() => cuda.copy(dev, gone)),
        disposedTarget: t(() => cuda.fill(gone, 0)),
        disposedStream: t(() => cuda.copy(dev, new Uint8Array(4), { stream: goneStream })),
        streamAsStream: t(() => cuda.copy(dev, new Uint8Array(4), { stream: dev })),
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      streamAsDst: expect.stringMatching(/^TypeError: dst must be a memory handle/),
      streamAsFillTarget: expect.stringMatching(/^TypeError: target must be a memory handle/),
      plainObject: expect.stringMatching(/^TypeError: dst must be a memory handle/),
      disposedSrc: 'DisposedError: DeviceBuffer has been disposed',
      disposedTarget: 'DisposedError: DeviceBuffer has been disposed',
      disposedStream: 'DisposedError: Stream has been disposed',
      streamAsStream: expect.stringMatching(/^TypeError: options.stream must be a Stream/),
    });
  });

  test('views of SharedArrayBuffers are copied to and from; a bare one is taken as a view of all of it', () => {
    // Before, a view of shared memory got node-addon-api's bare "Error: Invalid argument".
    const r = runScript(`${capture}
      const shared = new SharedArrayBuffer(16);
      const growable = new SharedArrayBuffer(8, { maxByteLength: 64 });
      const dev = cuda.DeviceBuffer.alloc(16);
      cuda.copy(dev, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]));
      const fromDevice = t(() => cuda.copy(new Uint8Array(shared), dev));
      const ints = new Int32Array(shared, 4, 2);
      const partial = t(() => cuda.copy(dev, ints));
      const back = new Uint8Array(16);
      cuda.copy(back, dev);
      growable.grow(16);
      const bare = t(() => cuda.copy(growable, dev));
      const dataView = t(() => cuda.copy(new DataView(shared, 8), dev, { srcOffset: 8 }));
      const { native } = require(${JSON.stringify(distPath + '/native.js')});
      report({
        fromDevice, partial, bare, dataView, shared: Array.from(new Uint8Array(shared)), back: Array.from(back),
        growable: Array.from(new Uint8Array(growable)),
        nativeBare: t(() => native.memcpy(dev.slot, 0, shared, 0, undefined, undefined)),
        tooLong: t(() => cuda.copy(new Uint8Array(shared, 8), dev)),
      });`, env());
    expect(r.stderr).toBe('');
    const back = [5, 6, 7, 8, 9, 10, 11, 12, 9, 10, 11, 12, 13, 14, 15, 16];
    expect(r.report).toEqual({
      fromDevice: 'no error', partial: 'no error', bare: 'no error', dataView: 'no error', back, growable: back,
      shared: Array.from({ length: 16 }, (_, i) => i + 1),
      nativeBare: expect.stringMatching(/^TypeError: src must be a memory handle .*\(a view, for a SharedArrayBuffer\)$/),
      tooLong: 'RangeError: dst: range [0, 0+16) exceeds its 8 bytes',
    });
  });

  test('a view of a resizable ArrayBuffer is copied with its length at the time of the call', () => {
    const r = runScript(`${capture}
      const resizable = new ArrayBuffer(16, { maxByteLength: 1 << 20 });
      const tracking = new Uint8Array(resizable);
      const fixed = new Uint8Array(resizable, 8, 8);
      const dev = cuda.DeviceBuffer.alloc(16);
      dev.fill(3);
      resizable.resize(8);
      const lengths = [tracking.length, fixed.length];
      report({
        lengths,
        whole: t(() => cuda.copy(tracking, dev)),
        fits: t(() => cuda.copy(tracking, dev, { bytes: 8 })),
        outOfBounds: t(() => cuda.copy(fixed, dev, { bytes: 1 })),
        contents: Array.from(tracking),
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      lengths: [8, 0],
      whole: 'RangeError: dst: range [0, 0+16) exceeds its 8 bytes',
      fits: 'no error',
      outOfBounds: 'RangeError: dst: range [0, 0+1) exceeds its 0 bytes',
      contents: [3, 3, 3, 3, 3, 3, 3, 3],
    });
  });

  // Memory of two contexts stands for memory of two devices here (the stand-in has one).
  test('between two contexts: the peer calls, and on a capturing stream the plain ones, as the driver refuses peer copies there', () => {
    const r = runScript(`
      cuda.callCounters.enable();
      const calls = () => Object.fromEntries(cuda.callCounters.read().map((c) => [c.name, c.calls]));
      const names = ['cuMemcpyPeer', 'cuMemcpyPeerAsync', 'cuMemcpy3DPeer', 'cuMemcpy3DPeerAsync', 'cuMemcpyAsync', 'cuMemcpy3DAsync'];
      const since = (from, to) => names.map((n) => (to[n] ?? 0) - (from[n] ?? 0));
      const other = cuda.Device.get(0).createContext();
      const a = cuda.DeviceBuffer.from(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
      const b = cuda.DeviceBuffer.alloc(8, { context: other });
      const stream = cuda.Stream.create();
      const extent = { width: 4, height: 2, depth: 1 };
      const before = calls();
      cuda.copy(b, a);
      cuda.copy(a, b, { stream, bytes: 4, dstOffset: 4 });
      stream.synchronizeSync();
      const copied = Array.from(b.readSync(Uint8Array));
      cuda.copy3D({ memory: b, pitch: 4 }, { memory: a, pitch: 4 }, extent);
      cuda.copy3D({ memory: a, pitch: 4 }, { memory: b, pitch: 4 }, extent, { stream });
      stream.synchronizeSync();
      const eager = calls();
      const graph = stream.capture((s) => {
        cuda.copy(b, a, { stream: s });
        cuda.copy3D({ memory: a, pitch: 4 }, { memory: b, pitch: 4 }, extent, { stream: s });
      });
      report({ copied, after: Array.from(b.readSync(Uint8Array)), eager: since(before, eager), captured: since(eager, calls()),
        graph: graph.constructor.name });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({
      copied: [1, 2, 3, 4, 5, 6, 7, 8],
      after: [1, 2, 3, 4, 1, 2, 3, 4],
      eager: [1, 1, 1, 1, 0, 0],
      captured: [0, 0, 0, 0, 1, 1],
      graph: 'Graph',
    });
  });
});
