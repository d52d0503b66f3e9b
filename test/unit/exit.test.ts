// Process exit over the stand-in driver: a process that leaves live handles of
// every kind, queued work and waits, a capture in progress and open IPC
// mappings behind exits with status 0, promptly, however it ends (the event
// loop running dry, process.exit mid-work, an uncaught exception). The library
// skips releases once the process is exiting; the driver reclaims everything.
// The GPU tier (test/gpu/exit.test.ts) does the same with kernels still running.
import * as path from 'path';
import { expectPromptExit, fakeDriver, timeExit } from '../helpers/subprocess';

// Everything left behind: one of each kind, work queued on a stream, a capture
// begun and not ended, legacy IPC and virtual-memory mappings opened.
const leaveEverything = `
  const M = 2 << 20;
  const image = 'FAKE\\nkernel k 8,4,8';
  const stream = cuda.Stream.create();
  const keep = [stream, cuda.Event.create(), cuda.DeviceBuffer.alloc(4096), cuda.DeviceBuffer.allocAsync(4096, stream),
    cuda.HostBuffer.alloc(4096), cuda.HostBuffer.register(new ArrayBuffer(4096)), cuda.MemoryPool.create(), cuda.UserObject.create(() => {}),
    cuda.PhysicalAllocation.create(M), cuda.AddressReservation.reserve(M), cuda.GrowableBuffer.create({ maxSize: 4 * M, size: M }),
    cuda.Device.get(0).createContext(), cuda.FdChannelServer.listen()];
  const library = cuda.Library.load(image);
  const kernel = library.kernel('k');
  const buffer = cuda.DeviceBuffer.alloc(4096);
  const graph = cuda.Graph.create();
  graph.addKernel(kernel, { grid: 1, block: 1 }, [cuda.arg.ptr(buffer), cuda.arg.i32(1), cuda.arg.f64(2)]);
  const exec = graph.instantiate();
  exec.launch(stream);
  kernel.launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(buffer), cuda.arg.i32(1), cuda.arg.f64(2)]);
  const prepared = kernel.prepare({ grid: 1, block: 1, stream }, ['ptr', 'i32', 'f64'], [buffer, 1, 2]);
  prepared.launch();
  cuda.copy(buffer, new Uint8Array(4096), { stream });
  const mapping = cuda.Mapping.alloc(M, { handleTypes: ['posixFileDescriptor'] });
  const exported = cuda.shareMemory(mapping);
  const handle = Buffer.alloc(64); handle[0] = 3;
  const legacy = { format: 'cuda-driver/shared-memory', version: 1, id: '0'.repeat(32), exporter: { pid: 1, token: 'ab'.repeat(16) },
    device: { uuid: cuda.Device.get(0).uuid, ordinal: 0 }, size: 4096, kind: 'legacy', handle: handle.toString('base64'), offset: 0 };
  const opened = [await cuda.openSharedMemory(legacy), await cuda.openSharedMemory(exported.descriptor)];
  const capturing = cuda.Stream.create();
  const capture = capturing.beginCapture();
  cuda.copy(buffer, buffer, { srcOffset: 0, dstOffset: 2048, bytes: 64, stream: capturing });
  const pending = [stream.synchronize(), cuda.Event.create().synchronize()];
  for (let i = 0; i < 100; i++) cuda.DeviceBuffer.alloc(64); // garbage for the finalizers
  globalThis.kept = { keep, library, kernel, graph, exec, prepared, mapping, exported, opened, capture, pending };
`;

/** Runs body, which ends the process somehow after report('exiting'); the status, and ms from that mark to exit. */
const exitAfter = (body: string) =>
  timeExit(`(async () => { ${leaveEverything} ${body} })();`, { CUDA_DRIVER_LIBRARY: fakeDriver() }, '@@"exiting"');

describe('process exit with everything still live', () => {
  test('the event loop runs dry', async () => {
    const r = await exitAfter(`report('exiting');`);
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPromptExit(r, 2000);
  });

  test('process.exit(0) while work and waits are pending', async () => {
    const r = await exitAfter(`report('exiting'); process.exit(0);`);
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPromptExit(r, 2000);
  });

  test('an uncaught exception ends it with status 1, not a crash', async () => {
    const r = await exitAfter(`report('exiting'); setImmediate(() => { throw new Error('boom'); });`);
    expect(r).toMatchObject({ status: 1, signal: null });
    expect(r.stderr).toContain('boom');
    expectPromptExit(r, 2000);
  });

  test('work on JavaScript memory still running, its stream disposed: the exit does not wait for it', async () => {
    // A worker's teardown waits for such work (a registered buffer's memory goes
    // with it); the process's own exit takes all memory with it and waits for nothing.
    const r = await timeExit(`(async () => {
      const stream = cuda.Stream.create();
      const device = cuda.DeviceBuffer.alloc(4096);
      cuda.Library.load('FAKE\\nkernel k 8').kernel('k').launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(device)]);
      cuda.copy(cuda.HostBuffer.register(new ArrayBuffer(4096)), device, { stream, bytes: 4096 });
      stream.dispose();
      report('exiting');
    })();`, { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_WORK_MS: '10000' }, '@@"exiting"');
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPromptExit(r, 2000);
  });

  test('process.exit(0) while a worker has work on JavaScript memory running: the exit does not wait for it', async () => {
    const dist = path.resolve(__dirname, '../../dist');
    const body = `
      const cuda = require(${JSON.stringify(dist)});
      const { parentPort } = require('worker_threads');
      const stream = cuda.Stream.create();
      const device = cuda.DeviceBuffer.alloc(4096);
      cuda.Library.load('FAKE\\nkernel k 8').kernel('k').launch({ grid: 1, block: 1, stream }, [cuda.arg.ptr(device)]);
      cuda.copy(cuda.HostBuffer.register(new ArrayBuffer(4096)), device, { stream, bytes: 4096 });
      globalThis.kept = [stream, device, setInterval(() => {}, 1000)];
      parentPort.postMessage('queued');`;
    const r = await timeExit(`
      const worker = new (require('worker_threads').Worker)(${JSON.stringify(body)}, { eval: true });
      worker.on('message', () => { report('exiting'); process.exit(0); });`,
    { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_WORK_MS: '10000' }, '@@"exiting"');
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPromptExit(r, 2000);
  });

  test('a garbage collection right before exit', async () => {
    const r = await exitAfter(`globalThis.kept = undefined; global.gc?.(); report('exiting');`);
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPromptExit(r, 2000);
  });
});
