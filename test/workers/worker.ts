// One worker thread of test/workers/main.ts. It loads the package itself (its
// own environment: its own handles, slots and finalizers over the one
// process-wide driver) and reaches the shared device buffer, which the main
// thread allocated, by its device address: kernels take raw addresses as
// pointer arguments. Two roles:
//   compute  rounds of: a JavaScript copy into a buffer of its own, a kernel
//            (direct, prepared or in a graph, by turns) that writes its slice of
//            the shared buffer from it, a kernel that reads the slice back, a
//            copy into pinned memory, checked; with handles of many kinds made
//            and disposed between, while the other workers do the same
//   abandon  queues a long kernel into its slice and copies of its own, then
//            ends its thread with all of it still live and pending
import * as path from 'path';
import { parentPort, workerData } from 'worker_threads';
import type * as Cuda from '../../lib';
import { sliceValue } from './kernels';

export interface WorkerData {
  role: 'compute' | 'abandon';
  index: number;
  /** Device address of this worker's slice of the shared buffer. */
  slice: bigint;
  /** Elements (u32) in a slice. */
  elements: number;
  rounds: number;
  /** Handles of every kind made and disposed per round. */
  churn: number;
  code: Uint8Array | string;
  gpu: boolean;
  /** For 'abandon': what spin_fill writes, and how long it spins (clock cycles). */
  value: number;
  spinCycles: number;
}

export interface WorkerResult {
  index: number;
  rounds: number;
  /** Elements read back wrong (through the kernels on a GPU; through the copies on the stand-in). */
  mismatches: number;
  handlesMade: number;
}

const cuda: typeof Cuda = require(path.resolve(__dirname, '../../dist'));
const data = workerData as WorkerData;

function churn(stream: Cuda.Stream, library: Cuda.Library): number {
  let made = 0;
  for (let i = 0; i < data.churn; i++) {
    using s = cuda.Stream.create();
    using e = cuda.Event.create();
    using b = cuda.DeviceBuffer.alloc(256 + i);
    using a = cuda.DeviceBuffer.allocAsync(128, stream);
    using h = cuda.HostBuffer.alloc(64);
    using g = cuda.Graph.create();
    g.addEmpty();
    using x = g.instantiate();
    using k = library.kernel('read_slice');
    b.fill(i & 0xff, { stream: s });
    e.record(s);
    x.launch(s);
    void h;
    void a;
    void k;
    made += 9;
  }
  return made;
}

async function compute(): Promise<WorkerResult> {
  const n = data.elements;
  const bytes = n * 4;
  const launch = { grid: Math.ceil(n / 128), block: 128 };
  using stream = cuda.Stream.create();
  using library = cuda.Library.load(data.code);
  let mismatches = 0;
  let handlesMade = 2;
  for (let r = 0; r < data.rounds; r++) {
    const host = Uint32Array.from({ length: n }, (_, i) => sliceValue(data.index, i, 0));
    using src = cuda.DeviceBuffer.alloc(bytes);
    using out = cuda.DeviceBuffer.alloc(bytes);
    using pinned = cuda.HostBuffer.alloc(bytes);
    using fill = library.kernel('fill_slice');
    using read = library.kernel('read_slice');
    using done = cuda.Event.create();
    handlesMade += 6;
    cuda.copy(src, host, { stream });
    const args = [cuda.arg.ptr(data.slice), cuda.arg.ptr(src), cuda.arg.u32(n), cuda.arg.u32(r)];
    switch (r % 3) {
      case 0:
        fill.launch({ ...launch, stream }, args);
        break;
      case 1: {
        using prepared = fill.prepare({ ...launch, stream }, ['ptr', 'ptr', 'u32', 'u32'], [data.slice, src, n, r]);
        prepared.launch();
        handlesMade += 1;
        break;
      }
      default: {
        using graph = cuda.Graph.create();
        graph.addKernel(fill, launch, args);
        using exec = graph.instantiate();
        exec.launch(stream);
        handlesMade += 2;
      }
    }
    read.launch({ ...launch, stream }, [cuda.arg.ptr(data.slice), cuda.arg.ptr(out), cuda.arg.u32(n)]);
    cuda.copy(pinned, out, { stream });
    done.record(stream);
    handlesMade += churn(stream, library);
    await done.synchronize();
    if (data.gpu) {
      const back = pinned.view(Uint32Array);
      for (let i = 0; i < n; i++) if (back[i] !== sliceValue(data.index, i, r)) mismatches++;
    } else {
      // The stand-in runs no kernels: check the copies that it does make.
      const back = src.readSync(Uint32Array);
      for (let i = 0; i < n; i++) if (back[i] !== host[i]) mismatches++;
    }
  }
  await stream.synchronize();
  return { index: data.index, rounds: data.rounds, mismatches, handlesMade };
}

// Queues work and leaves: the thread ends with the handles live and the work pending.
function abandon(): void {
  const stream = cuda.Stream.create();
  const library = cuda.Library.load(data.code);
  const spin = library.kernel('spin_fill');
  spin.launch({ grid: 4, block: 128, stream }, [cuda.arg.ptr(data.slice), cuda.arg.u32(data.elements), cuda.arg.u32(data.value), cuda.arg.i64(data.spinCycles)]);
  const a = cuda.DeviceBuffer.alloc(1 << 20);
  const b = cuda.DeviceBuffer.allocAsync(1 << 20, stream);
  for (let i = 0; i < 16; i++) {
    cuda.copy(a, b, { stream });
    cuda.copy(b, a, { stream });
  }
  const pending = stream.synchronize();
  (globalThis as { kept?: unknown }).kept = { stream, library, spin, a, b, pending };
  parentPort!.postMessage({ queued: true });
  process.exit(0);
}

if (data.role === 'abandon') {
  abandon();
} else {
  compute().then(
    (result) => parentPort!.postMessage(result),
    (error) => {
      throw error;
    },
  );
}
