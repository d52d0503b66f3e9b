// Process exit on the GPU (test/unit/exit.test.ts does the same over the
// stand-in): a child process leaves behind handles of every kind, kernels still
// spinning on two streams (about 0.5 s each, launched directly, prepared and
// through a graph), copies and waits queued behind them, a global-mode stream
// capture in progress with a launch captured, and a legacy IPC mapping of
// memory this test process exported, opened and read. However it ends (the
// event loop running dry, process.exit(0) mid-work, an uncaught exception, a
// collection right before), it must exit with status 0 (1 for the exception),
// by no signal, within exitBoundMs of saying it is about to. Running dry waits
// for the pending waits, so for the spinning kernels; the other ways need not.
import { DeviceBuffer, MemoryExport, shareMemory } from '../../lib';
import { expectPromptExit, TimedExit, timeExit } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';

/** The bound: driver teardown, plus kernels queued for about 1.5 s at most where the exit does not wait for them. */
const exitBoundMs = 5000;
const marker = [0xdeadbeef, 0x12345678, 7, 42];

const leaveEverything = `
  const rate = cuda.Device.get(0).attribute('clockRate'); // kHz
  const halfSecond = cuda.arg.i64(rate * 500);
  const M = 2 << 20;
  const library = cuda.Library.load(cuda.compile(\`
    extern "C" __global__ void spin(long long cycles, unsigned* done) {
      long long start = clock64();
      while (clock64() - start < cycles) {}
      if (threadIdx.x == 0) *done = 0xC0FFEEu;
    }\`, { name: 'exit.cu' }));
  const kernel = library.kernel('spin');
  const streams = [cuda.Stream.create(), cuda.Stream.create()];
  const buffer = cuda.DeviceBuffer.alloc(4096);
  const opened = await cuda.openSharedMemory(JSON.parse(process.env.EXIT_IPC_DESCRIPTOR));
  const seen = new Uint32Array(4);
  cuda.copy(seen, opened, { bytes: 16 });
  const keep = [cuda.Event.create(), cuda.DeviceBuffer.allocAsync(4096, streams[0]), cuda.HostBuffer.alloc(4096),
    cuda.HostBuffer.register(new ArrayBuffer(4096)), cuda.MemoryPool.create(), cuda.UserObject.create(() => {}),
    cuda.PhysicalAllocation.create(cuda.allocationGranularity()), cuda.AddressReservation.reserve(M),
    cuda.Mapping.alloc(cuda.allocationGranularity()), cuda.FdChannelServer.listen()];
  for (const stream of streams) kernel.launch({ grid: 1, block: 32, stream }, [halfSecond, cuda.arg.ptr(buffer)]);
  const prepared = kernel.prepare({ grid: 1, block: 32, stream: streams[1] }, ['i64', 'ptr'], [rate * 200, buffer]);
  prepared.launch();
  const graph = cuda.Graph.create();
  graph.addKernel(kernel, { grid: 1, block: 32 }, [cuda.arg.i64(rate * 200), cuda.arg.ptr(buffer)]);
  const exec = graph.instantiate();
  exec.launch(streams[0]);
  const host = cuda.HostBuffer.alloc(4096);
  cuda.copy(host, buffer, { stream: streams[0] });
  const done = cuda.Event.create().record(streams[0]);
  const pending = [streams[0].synchronize(), streams[1].synchronize(), done.synchronize()];
  for (let i = 0; i < 100; i++) cuda.DeviceBuffer.alloc(64); // garbage for the finalizers
  const running = !done.query(); // before the capture: a global-mode capture forbids queries
  const capturing = cuda.Stream.create();
  const capture = capturing.beginCapture();
  kernel.launch({ grid: 1, block: 1, stream: capturing }, [halfSecond, cuda.arg.ptr(buffer)]);
  globalThis.kept = { library, kernel, streams, buffer, opened, keep, prepared, graph, exec, host, done, pending, capturing, capture };
`;

/** The exit, with what the child saw before ending (its report): the IPC bytes, and whether the kernels were still running. */
interface Exit extends TimedExit {
  report: { exiting: true; seen: number[]; running: boolean; capturing: string } | undefined;
}

describeGpu('process exit on the GPU with kernels running, a capture open and an IPC mapping open', () => {
  let exported: DeviceBuffer;
  let sharing: MemoryExport;
  beforeAll(() => {
    exported = DeviceBuffer.from(new Uint32Array(marker));
    sharing = shareMemory(exported);
  });
  afterAll(() => {
    sharing?.dispose();
    exported?.dispose();
  });

  /** marker: the child's output from which its exit is timed. */
  async function exitAfter(ending: string, marker = '"exiting":true'): Promise<Exit> {
    const body = `(async () => { ${leaveEverything}
      report({ exiting: true, seen: Array.from(seen), running, capturing: capturing.captureStatus });
      ${ending} })().catch((e) => { console.error(e); process.exit(3); });`;
    const r = await timeExit(body, { EXIT_IPC_DESCRIPTOR: JSON.stringify(sharing.descriptor) }, marker);
    if (r.status === 3) throw new Error(`the child failed before it could end as the test says:\n${r.stderr}`);
    return r;
  }

  const expectPrompt = (r: Exit) => {
    expect(r.report).toEqual({ exiting: true, seen: marker, running: true, capturing: 'active' });
    expectPromptExit(r, exitBoundMs);
  };

  // Timed from the last wait's answer: the kernels' own time depends on what
  // else shares the GPU, which the bound is not about.
  test('the event loop runs dry (once the waits are answered)', async () => {
    const r = await exitAfter("Promise.all(pending).then(() => process.stdout.write('\\n[drained]\\n'));", '[drained]');
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPrompt(r);
  });

  test('process.exit(0) while kernels run and waits are pending', async () => {
    const r = await exitAfter('process.exit(0);');
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPrompt(r);
  });

  test('an uncaught exception ends it with status 1, not a crash', async () => {
    const r = await exitAfter(`setImmediate(() => { throw new Error('boom'); });`);
    expect(r).toMatchObject({ status: 1, signal: null });
    expect(r.stderr).toContain('boom');
    expectPrompt(r);
  });

  test('a garbage collection right before exit, with the capture still open', async () => {
    const r = await exitAfter(`globalThis.kept = undefined; global.gc(); process.exit(0);`);
    expect(r).toMatchObject({ status: 0, signal: null });
    expectPrompt(r);
  });
});
