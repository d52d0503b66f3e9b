// Host functions and host nodes against the real driver: the work after a
// waiting callback sees what the callback wrote (a kernel reads it from
// pinned memory), a captured host function is a host node run at every
// launch, and blocking waits while a waiting callback is pending throw.
import { arg, compile, copy, DeviceBuffer, Graph, HostBuffer, Library, Stream } from '../../lib';
import { describeGpu } from '../helpers/tiers';

// One thread copies the flag (host memory, written by JavaScript) into out[slot].
const source = `
extern "C" __global__ void take(unsigned* out, const volatile unsigned* flag, unsigned slot) {
  if (threadIdx.x == 0 && blockIdx.x == 0) out[slot] = *flag;
}
`;

// Keeps the JavaScript thread busy for a while: a callback that only returned
// late, so that work not waiting for it would have run first.
function busyFor(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // spinning
  }
}

const codeOf = (f: () => unknown): string => {
  try {
    f();
    return 'returned';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
};

describeGpu('host functions and host nodes', () => {
  let lib: Library;
  beforeAll(() => {
    lib = Library.load(compile(source, { name: 'host-functions.cu' }));
  });
  afterAll(() => lib.dispose());

  test('a kernel after a host function reads what the JavaScript callback wrote into pinned memory', async () => {
    using stream = Stream.create();
    using flag = HostBuffer.alloc(4, { mapped: true });
    using out = DeviceBuffer.alloc(8);
    out.fill(0);
    flag.view(Uint32Array)[0] = 1;
    const take = lib.kernel('take');
    take.launch({ grid: 1, block: 1, stream }, [arg.ptr(out), arg.ptr(flag), arg.u32(0)]);
    stream.launchHostFunction(() => {
      busyFor(50);
      flag.view(Uint32Array)[0] = 42;
    });
    take.launch({ grid: 1, block: 1, stream }, [arg.ptr(out), arg.ptr(flag), arg.u32(1)]);
    expect(codeOf(() => stream.synchronizeSync())).toBe('ERR_CUDA_HOST_CALLBACK_PENDING');
    await stream.synchronize();
    expect(Array.from(out.readSync(Uint32Array))).toEqual([1, 42]);
    expect(codeOf(() => stream.synchronizeSync())).toBe('returned');
  });

  test('a host function captured into a graph is a host node; each launch runs it, and the kernel after it waits', async () => {
    using stream = Stream.create();
    using flag = HostBuffer.alloc(4, { mapped: true });
    const launches = 5;
    using out = DeviceBuffer.alloc(4);
    using results = DeviceBuffer.alloc(4 * launches);
    results.fill(0);
    const take = lib.kernel('take');
    let calls = 0;
    using graph = stream.capture((s) => {
      s.launchHostFunction(() => {
        busyFor(10);
        flag.view(Uint32Array)[0] = 100 + calls++;
      });
    });
    expect(graph.nodes().map((node) => node.type)).toEqual(['host']);
    expect(graph.nodes()[0].params()).toMatchObject({ hasCallback: true, wait: true });
    graph.addKernel(take, { grid: 1, block: 1 }, [arg.ptr(out), arg.ptr(flag), arg.u32(0)], { after: graph.nodes() });
    using exec = graph.instantiate();
    for (let i = 0; i < launches; i++) {
      exec.launch(stream);
      copy(results, out, { dstOffset: 4 * i, bytes: 4, stream });
    }
    await stream.synchronize();
    expect(calls).toBe(launches);
    expect(Array.from(results.readSync(Uint32Array))).toEqual([100, 101, 102, 103, 104]);
  });

  test('a blocking wait for a launch that runs a waiting host node throws ERR_CUDA_HOST_CALLBACK_PENDING', async () => {
    using stream = Stream.create();
    using graph = Graph.create();
    let calls = 0;
    graph.addHost(() => calls++);
    using exec = graph.instantiate();
    exec.launch(stream);
    // Reached before the wait began, or while it blocked: either way it throws.
    let error: { code?: string; message?: string } = {};
    try {
      stream.synchronizeSync();
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('ERR_CUDA_HOST_CALLBACK_PENDING');
    expect(error.message).toMatch(/Stream\.synchronizeSync\(\)/);
    await stream.synchronize();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    expect(codeOf(() => stream.synchronizeSync())).toBe('returned');
  });

  test('{ wait: false } hands the call over: a blocking synchronize completes before the callback runs', async () => {
    using stream = Stream.create();
    let ran = false;
    stream.launchHostFunction(() => {
      ran = true;
    }, { wait: false });
    stream.synchronizeSync();
    expect(ran).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(true);
  });
});
