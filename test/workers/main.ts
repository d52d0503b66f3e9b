// Worker threads using the library at the same time, as a process:
// `node --expose-gc -r ./test/helpers/ts-require.js test/workers/main.ts`.
// The main thread allocates one device buffer and hands each worker
// (test/workers/worker.ts) the device address of a slice of it; the workers,
// each on its streams, write and read back their slices with kernels and copies
// while making and disposing handles of many kinds, and the main thread does
// the same meanwhile. One more worker queues a long kernel into its own slice
// and ends its thread with everything live and pending (released by the
// reaper once the kernel is over: native/core/reaper.h). Afterwards the main
// thread reads the whole buffer back, and prints, as a JSON line after "@@",
// what each worker saw, what the buffer holds, and the resources left.
//   WORKERS_ENV     stand-in | gpu (default gpu)
//   WORKERS_COUNT   computing workers (default 4)
//   WORKERS_ROUNDS  rounds each (default 30)
//   WORKERS_CHURN   handles of each kind made and disposed per round (default 20)
import * as fs from 'fs';
import * as path from 'path';
import { Worker } from 'worker_threads';
import type * as Cuda from '../../lib';
import { deviceMemoryInUse } from '../helpers/device-memory';
import { drain } from '../helpers/gc';
import { settledBalance } from '../helpers/resource-balance';
import { sliceValue, workerKernelSource, workerStandInImage } from './kernels';
import type { WorkerData, WorkerResult } from './worker';

export interface WorkersReport {
  workers: Array<{ exitCode: number; result?: WorkerResult; error?: string }>;
  abandoned: { exitCode: number; queued: boolean; error?: string };
  /** GPU: elements of the shared buffer that are not what the last round (or the abandoned kernel) wrote. */
  sharedMismatches: number;
  /** Stand-in: launches the driver logged with each worker's slice address as an argument (abandoned last). */
  launchesBySlice: number[];
  mainThreadCycles: number;
  unreleased: Record<string, number>;
  deviceMemory: { before: number; after: number };
  elapsedMs: number;
}

const tsRequire = path.resolve(__dirname, '../helpers/ts-require.js');
const workerFile = path.resolve(__dirname, 'worker.ts');

interface Ended {
  exitCode: number;
  messages: unknown[];
  error?: string;
}

function start(data: WorkerData): Promise<Ended> {
  const worker = new Worker(`require(${JSON.stringify(tsRequire)}); require(${JSON.stringify(workerFile)});`, { eval: true, workerData: data });
  const messages: unknown[] = [];
  let error: string | undefined;
  worker.on('message', (m) => messages.push(m));
  worker.on('error', (e) => (error = String((e as Error)?.stack ?? e)));
  return new Promise((resolve) => worker.on('exit', (exitCode) => resolve({ exitCode, messages, error })));
}

const littleEndian = (address: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(address);
  return b.toString('hex');
};

async function main(): Promise<void> {
  const cuda: typeof Cuda = require(path.resolve(__dirname, '../../dist'));
  cuda.callCounters.enable();
  const gpu = (process.env.WORKERS_ENV ?? 'gpu') === 'gpu';
  const count = Number(process.env.WORKERS_COUNT ?? 4);
  const rounds = Number(process.env.WORKERS_ROUNDS ?? 30);
  const churn = Number(process.env.WORKERS_CHURN ?? 20);
  const elements = 4096;
  const sliceBytes = elements * 4;
  const code = gpu ? cuda.compile(workerKernelSource, { name: 'workers.cu' }).code : workerStandInImage;
  const used = () => deviceMemoryInUse(cuda);
  const memoryBefore = used();
  const began = Date.now();
  const shared = cuda.DeviceBuffer.alloc(sliceBytes * (count + 1));
  shared.fill(0);
  const slice = (i: number) => shared.address + BigInt(i * sliceBytes);
  // About 150 ms of spinning (clockRate is in kHz).
  const spinCycles = gpu ? cuda.Device.get(0).attribute('clockRate') * 150 : 1;
  const abandonValue = 0xabad1dea;
  const common = { elements, rounds, churn, code, gpu, value: abandonValue, spinCycles };
  const computing = Array.from({ length: count }, (_, index) => start({ role: 'compute', index, slice: slice(index), ...common }));
  const abandoning = start({ role: 'abandon', index: count, slice: slice(count), ...common });

  // The main thread uses the library too while the workers run.
  let running = true;
  const all = Promise.all([...computing, abandoning]).finally(() => (running = false));
  let mainThreadCycles = 0;
  const library = cuda.Library.load(code);
  while (running) {
    using stream = cuda.Stream.create();
    using buffer = cuda.DeviceBuffer.alloc(1024);
    using event = cuda.Event.create();
    using kernel = library.kernel('read_slice');
    buffer.fill(mainThreadCycles & 0xff, { stream });
    event.record(stream);
    void kernel;
    await event.synchronize();
    mainThreadCycles++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  library.dispose();
  const [workers, abandoned] = [(await all).slice(0, count), await abandoning];

  let sharedMismatches = 0;
  if (gpu) {
    // The abandoned worker's kernel still runs: wait for all the device's work (the stand-in's streams are idle at once).
    cuda.Device.get(0).primaryContext.synchronize();
    const back = shared.readSync(Uint32Array);
    for (let w = 0; w <= count; w++) {
      for (let i = 0; i < elements; i++) {
        const expected = w === count ? abandonValue : sliceValue(w, i, rounds - 1);
        if (back[w * elements + i] !== expected) sharedMismatches++;
      }
    }
  }
  const log = process.env.FAKE_CUDA_LOG && fs.existsSync(process.env.FAKE_CUDA_LOG) ? fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\n') : [];
  const launchesBySlice = Array.from({ length: count + 1 }, (_, w) => {
    const needle = `args=${littleEndian(slice(w))}|`;
    return log.filter((l) => l.includes(needle)).length;
  });
  shared.dispose();
  await drain();
  const unreleased = await settledBalance(() => cuda.callCounters.read(), 10000);
  const report: WorkersReport = {
    workers: workers.map((w) => ({ exitCode: w.exitCode, result: w.messages[0] as WorkerResult | undefined, error: w.error })),
    abandoned: { exitCode: abandoned.exitCode, queued: (abandoned.messages[0] as { queued?: boolean } | undefined)?.queued === true, error: abandoned.error },
    sharedMismatches,
    launchesBySlice,
    mainThreadCycles,
    unreleased,
    deviceMemory: { before: memoryBefore, after: used() },
    elapsedMs: Date.now() - began,
  };
  process.stdout.write(`\n@@${JSON.stringify(report)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
