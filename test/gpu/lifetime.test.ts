// Lifetimes on the GPU (the stand-in covers the rest: test/unit/lifetime.test.ts).
// - Disposal during an in-flight launch: a kernel that spins for about 150 ms
//   before copying one buffer into another is queued, with a copy of the result
//   into pinned memory and an event after it; then the stream, both buffers and
//   the launch's kernel, library or module, prepared launch, graph and executable
//   are disposed at once. The event must still be pending then (the work was in
//   flight), and the values copied back must be right.
// - Garbage collection of undisposed handles: a child process (--expose-gc)
//   drops about 1 GiB of device memory and handles of many kinds, undisposed,
//   three times over; each time the collection gives the 1 GiB back (device
//   memory in use drops by it), and every driver resource made was released.
// - An event recorded on one stream and then by a graph's record node on
//   another completes for the graph's record: the first stream still holds
//   what its spinning kernel uses, and the values are right.
// - Parents dropped before children: a stream whose Context object was
//   disposed, a buffer whose context was disposed, a buffer whose pool was
//   disposed, an executable whose graph, kernel and module were disposed; each
//   still works and gives the right values.
import * as path from 'path';
import {
  arg,
  compile,
  copy,
  Device,
  DeviceBuffer,
  Event,
  Graph,
  HostBuffer,
  Library,
  MemoryPool,
  Module,
  Stream,
} from '../../lib';
import { runScript } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';

const source = `
extern "C" __global__ void spin_copy(long long cycles, const unsigned* src, unsigned* dst, unsigned n) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) dst[i] = src[i] * 3u + 1u;
}`;

const n = 4096;
const shape = { grid: 1, block: 256 };
const input = (seed: number) => Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + seed, 2654435761) >>> 0));
const expected = (src: Uint32Array) => src.map((v) => (Math.imul(v, 3) + 1) >>> 0);

interface Disposable {
  dispose(): void;
}

describeGpu('lifetimes on the GPU', () => {
  let code: Uint8Array;
  let cycles: number;
  beforeAll(() => {
    code = compile(source, { name: 'lifetime.cu' }).code;
    cycles = Device.get(0).attribute('clockRate') * 150; // clockRate is in kHz: about 150 ms
  });

  const args = (c: number, src: DeviceBuffer, dst: DeviceBuffer) => [arg.i64(c), arg.ptr(src), arg.ptr(dst), arg.u32(n)];

  /**
   * Queues the spinning kernel (through launch), a copy of dst into pinned
   * memory and an event; disposes everything launch returned, both buffers and
   * the stream at once; then waits and returns what came back.
   */
  async function disposeInFlight(launch: (stream: Stream, src: DeviceBuffer, dst: DeviceBuffer) => Disposable[],
    makeDst: (stream: Stream) => DeviceBuffer = () => DeviceBuffer.alloc(n * 4)) {
    const data = input(7);
    using out = HostBuffer.alloc(n * 4);
    using done = Event.create();
    const stream = Stream.create();
    const src = DeviceBuffer.from(data);
    const dst = makeDst(stream);
    const handles = launch(stream, src, dst);
    copy(out, dst, { stream });
    done.record(stream);
    for (const h of [...handles, src, dst, stream]) h.dispose();
    const inFlight = !done.query();
    await done.synchronize();
    return { inFlight, values: out.view(Uint32Array).slice(), expected: expected(data) };
  }

  // The handles were disposed while the kernel ran (under the sanitizer launches
  // run one at a time, so nothing is in flight there), and the values are right.
  function expectCompletedAfterDisposal(r: { inFlight: boolean; values: Uint32Array; expected: Uint32Array }) {
    if (!process.env.SANITIZING) expect(r.inFlight).toBe(true);
    expect(r.values).toEqual(r.expected);
  }

  describe('disposal during an in-flight launch: the work completes with the right values', () => {
    // A direct launch of the spinning kernel from a library loaded for it; returns the kernel and library to dispose.
    const directLaunch = (stream: Stream, src: DeviceBuffer, dst: DeviceBuffer): Disposable[] => {
      const library = Library.load(code);
      const kernel = library.kernel('spin_copy');
      kernel.launch({ ...shape, stream }, args(cycles, src, dst));
      return [kernel, library];
    };

    test('a direct launch; its kernel and library disposed', async () => {
      const r = await disposeInFlight(directLaunch);
      expectCompletedAfterDisposal(r);
    });

    test('a prepared launch; it, its function and module disposed', async () => {
      const r = await disposeInFlight((stream, src, dst) => {
        const module = Module.load(code);
        const fn = module.function('spin_copy');
        const prepared = fn.prepare({ ...shape, stream }, ['i64', 'ptr', 'ptr', 'u32'], [cycles, src, dst, n]);
        prepared.launch();
        return [prepared, fn, module];
      });
      expectCompletedAfterDisposal(r);
    });

    test('a graph launch; the executable, graph, kernel and library disposed', async () => {
      const r = await disposeInFlight((stream, src, dst) => {
        const library = Library.load(code);
        const kernel = library.kernel('spin_copy');
        const graph = Graph.create();
        graph.addKernel(kernel, shape, args(cycles, src, dst));
        const exec = graph.instantiate();
        exec.launch(stream);
        return [exec, graph, kernel, library];
      });
      expectCompletedAfterDisposal(r);
    });

    test('into stream-ordered memory, freed on its stream right after', async () => {
      const r = await disposeInFlight(directLaunch, (stream) => DeviceBuffer.allocAsync(n * 4, stream));
      expectCompletedAfterDisposal(r);
    });
  });

  test('an event a graph records again completes for that record, and its first stream keeps what its work uses', async () => {
    const data = input(11);
    const library = Library.load(code);
    const kernel = library.kernel('spin_copy');
    using first = Stream.create();
    using second = Stream.create();
    using event = Event.create();
    using out = HostBuffer.alloc(n * 4);
    const src = DeviceBuffer.from(data);
    const dst = DeviceBuffer.alloc(n * 4);
    kernel.launch({ ...shape, stream: first }, args(cycles, src, dst));
    copy(out, dst, { stream: first });
    event.record(first);
    for (const h of [src, dst, kernel, library]) h.dispose();
    const graph = Graph.create();
    graph.addEventRecord(event);
    using exec = graph.instantiate();
    graph.dispose();
    exec.launch(second);
    // The graph's record on an idle stream is the event's latest: it completes at once.
    event.synchronizeSync();
    const kept = first.pendingResources;
    const running = !first.query();
    await first.synchronize();
    if (!process.env.SANITIZING) expect(running).toBe(true);
    expect(kept).toBeGreaterThan(0);
    expect(out.view(Uint32Array)).toEqual(expected(data));
    expect(first.pendingResources).toBe(0);
  });

  test('handles collected undisposed give their device memory back', () => {
    const r = runScript(`
      require(${JSON.stringify(path.resolve(__dirname, '../helpers/ts-require.js'))});
      const { resourceBalance } = require(${JSON.stringify(path.resolve(__dirname, '../helpers/resource-balance.ts'))});
      cuda.callCounters.enable();
      const { deviceMemoryInUse } = require(${JSON.stringify(path.resolve(__dirname, '../helpers/device-memory.ts'))});
      const used = () => { cuda.MemoryPool.defaultFor(0).trimTo(0); return deviceMemoryInUse(cuda); };
      const settle = async () => { for (let i = 0; i < 10; i++) { global.gc(); await new Promise((r) => setTimeout(r, 20)); } };
      (async () => {
        cuda.DeviceBuffer.alloc(1 << 20).dispose();
        await settle();
        const before = used();
        const rounds = [];
        for (let round = 0; round < 3; round++) {
          (() => {
            const stream = cuda.Stream.create();
            for (let i = 0; i < 32; i++) {
              const b = cuda.DeviceBuffer.alloc(32 << 20);
              b.fill(i, { stream });
              cuda.DeviceBuffer.allocAsync(1 << 20, stream);
              cuda.Event.create().record(stream);
              cuda.HostBuffer.alloc(1 << 20);
              cuda.MemoryPool.create();
              const g = cuda.Graph.create();
              g.addEmpty();
              g.instantiate();
            }
          })();
          const held = used() - before;
          await settle();
          rounds.push({ held, after: used() - before });
        }
        report({ rounds, unreleased: resourceBalance(cuda.callCounters.read()) });
      })().catch((e) => { console.error(e); process.exitCode = 1; });`, {}, ['--expose-gc']);
    if (r.status !== 0 || !r.report) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}`);
    // Each round's 32 × 32 MiB comes back with the collection, to within 32 MiB
    // (device memory this process holds, as nvidia-smi reports it).
    for (const round of r.report.rounds) expect(round.held - round.after).toBeGreaterThanOrEqual(1024 * 2 ** 20 - (32 << 20));
    expect(r.report.unreleased).toEqual({});
  });

  describe('parents dropped before their children', () => {
    test('a stream whose Context object was disposed still launches', async () => {
      using library = Library.load(code);
      using kernel = library.kernel('spin_copy');
      const data = input(1);
      using src = DeviceBuffer.from(data);
      using dst = DeviceBuffer.alloc(n * 4);
      using stream = Stream.create();
      Device.get(0).primaryContext.dispose();
      kernel.launch({ ...shape, stream }, args(0, src, dst));
      await stream.synchronize();
      expect(dst.readSync(Uint32Array)).toEqual(expected(data));
    });

    test('a buffer whose context was disposed is still copied to and from', () => {
      const context = Device.get(0).createContext();
      const buffer = DeviceBuffer.alloc(n * 4, { context });
      context.dispose();
      const data = input(2);
      copy(buffer, data);
      expect(buffer.readSync(Uint32Array)).toEqual(data);
      buffer.dispose();
    });

    test('a buffer whose pool was disposed is still written, read by a kernel and freed', async () => {
      using library = Library.load(code);
      using kernel = library.kernel('spin_copy');
      using stream = Stream.create();
      const pool = MemoryPool.create();
      const pooled = DeviceBuffer.allocAsync(n * 4, stream, { pool });
      pool.dispose();
      using dst = DeviceBuffer.alloc(n * 4);
      const data = input(3);
      copy(pooled, data, { stream });
      kernel.launch({ ...shape, stream }, args(0, pooled, dst));
      pooled.dispose();
      await stream.synchronize();
      expect(dst.readSync(Uint32Array)).toEqual(expected(data));
    });

    test('an executable whose graph, function and module were disposed launches again and again', async () => {
      using stream = Stream.create();
      using src = DeviceBuffer.alloc(n * 4);
      using dst = DeviceBuffer.alloc(n * 4);
      const module = Module.load(code);
      const fn = module.function('spin_copy');
      const graph = Graph.create();
      graph.addKernel(fn, shape, args(0, src, dst));
      using exec = graph.instantiate();
      graph.dispose();
      fn.dispose();
      module.dispose();
      for (const seed of [4, 5, 6]) {
        const data = input(seed);
        copy(src, data, { stream });
        exec.launch(stream);
        await stream.synchronize();
        expect(dst.readSync(Uint32Array)).toEqual(expected(data));
      }
    });
  });
});
