// Graphs launched from the GPU: kernels compiled as relocatable device code,
// linked with the toolkit's device runtime, launch device graphs with
// cudaGraphLaunch in each of its modes. Every test checks what the launched
// work wrote, and the status each device-side launch returned.
import {
  arg,
  compile,
  deviceRuntime,
  DeviceBuffer,
  DeviceGraphError,
  Graph,
  GraphExec,
  Kernel,
  Library,
  link,
  LinkError,
  Stream,
} from '../../lib';
import { describeGpu } from '../helpers/tiers';

const source = `
#include <cuda_device_runtime_api.h>
// Work a device graph does.
extern "C" __global__ void bump(unsigned* counter, unsigned amount) { atomicAdd(counter, amount); }
extern "C" __global__ void store(unsigned* target, unsigned value) { *target = value; }
extern "C" __global__ void observe(const unsigned* source, unsigned* seen) { *seen = *source; }
// Launches graph in a mode: 0 fire and forget, 1 tail, 2 sibling; the result goes to *status.
extern "C" __global__ void launchGraph(cudaGraphExec_t graph, unsigned mode, int* status) {
  cudaStream_t stream = mode == 0 ? cudaStreamGraphFireAndForget
                      : mode == 1 ? cudaStreamGraphTailLaunch : cudaStreamGraphFireAndForgetAsSibling;
  *status = (int)cudaGraphLaunch(graph, stream);
}
// One pass of a loop: counts itself, and while below n queues its own graph again.
extern "C" __global__ void loopStep(unsigned* counter, unsigned n, int* status) {
  unsigned passes = ++*counter;
  if (passes < n) {
    int r = (int)cudaGraphLaunch(cudaGetCurrentGraphExec(), cudaStreamGraphTailLaunch);
    if (r != 0) *status = r;
  }
}
`;

const FIRE_AND_FORGET = 0;
const TAIL = 1;
const SIBLING = 2;

describeGpu('device graph launch', () => {
  let library: Library;
  let stream: Stream;
  let bump: Kernel, store: Kernel, observe: Kernel, launchGraph: Kernel, loopStep: Kernel;
  let counter: DeviceBuffer;
  let status: DeviceBuffer;
  const one = { grid: 1, block: 1 };

  beforeAll(() => {
    const runtime = deviceRuntime();
    const program = compile(source, { name: 'device-launch.cu', relocatable: true, includePaths: [...runtime.includePaths] });
    library = Library.load(link([program, runtime.library]));
    [bump, store, observe, launchGraph, loopStep] = ['bump', 'store', 'observe', 'launchGraph', 'loopStep'].map((n) => library.kernel(n));
    stream = Stream.create();
    counter = DeviceBuffer.alloc(4);
    status = DeviceBuffer.alloc(4);
  });

  beforeEach(() => {
    counter.fill(0, { elementBytes: 4 });
    status.fill(0xffffffff, { elementBytes: 4 });
  });

  afterAll(() => {
    for (const handle of [counter, status, stream, bump, store, observe, launchGraph, loopStep, library]) handle.dispose();
  });

  const word = (buffer: DeviceBuffer) => buffer.readSync(Uint32Array)[0];
  const statusOf = () => status.readSync(Int32Array)[0];

  // A device graph adding amount to the counter.
  function adder(amount: number): Graph {
    const graph = Graph.create();
    graph.addKernel(bump, one, [arg.ptr(counter), arg.u32(amount)]);
    return graph;
  }

  // A host graph whose one kernel launches child from the GPU in a mode.
  function launcherOf(child: GraphExec, mode: number): { graph: Graph; exec: GraphExec } {
    const graph = Graph.create();
    graph.addKernel(launchGraph, one, [arg.graphExec(child), arg.u32(mode), arg.ptr(status)]);
    return { graph, exec: graph.instantiate() };
  }

  test('fire and forget: a kernel launches a child graph, which the stream waits for', async () => {
    const child = adder(5).instantiate({ deviceLaunch: true, upload: stream });
    const parent = launcherOf(child, FIRE_AND_FORGET);
    await parent.exec.run(stream);
    expect(statusOf()).toBe(0);
    expect(word(counter)).toBe(5);
    await parent.exec.run(stream);
    expect(word(counter)).toBe(10);
  });

  test('tail launch: the launched graph runs once the launching graph is done', async () => {
    const marker = DeviceBuffer.alloc(4);
    const seen = DeviceBuffer.alloc(4);
    marker.fill(0, { elementBytes: 4 });
    seen.fill(7, { elementBytes: 4 });
    const tail = Graph.create();
    tail.addKernel(observe, one, [arg.ptr(marker), arg.ptr(seen)]);
    const tailExec = tail.instantiate({ deviceLaunch: true, upload: stream });
    // The launcher queues the tail, then a later node of its graph sets the marker: the tail must see it set.
    const parent = Graph.create();
    const launch = parent.addKernel(launchGraph, one, [arg.graphExec(tailExec), arg.u32(TAIL), arg.ptr(status)]);
    parent.addKernel(store, one, [arg.ptr(marker), arg.u32(1)], { after: [launch] });
    await parent.instantiate().run(stream);
    expect(statusOf()).toBe(0);
    expect(word(seen)).toBe(1);
  });

  test('a graph that tail-launches itself runs as a device-side loop, N passes from one host launch', async () => {
    for (const n of [1, 17, 300]) {
      counter.fill(0, { elementBytes: 4 });
      status.fill(0, { elementBytes: 4 });
      const loop = Graph.create();
      loop.addKernel(loopStep, one, [arg.ptr(counter), arg.u32(n), arg.ptr(status)]);
      const loopExec = loop.instantiate({ deviceLaunch: true, upload: stream });
      const parent = Graph.create();
      parent.addKernel(launchGraph, one, [arg.graphExec(loopExec), arg.u32(TAIL), arg.ptr(status)]);
      await parent.instantiate().run(stream);
      expect(statusOf()).toBe(0);
      expect(word(counter)).toBe(n);
    }
  });

  test('sibling launch: the graph runs beside the launching one, and the stream waits for it', async () => {
    const child = adder(11).instantiate({ deviceLaunch: true, upload: stream });
    const parent = launcherOf(child, SIBLING);
    await parent.exec.run(stream);
    expect(statusOf()).toBe(0);
    expect(word(counter)).toBe(11);
  });

  test('an updated device graph is uploaded again: device and host launches run the new version', async () => {
    const child = adder(1).instantiate({ deviceLaunch: true, upload: stream });
    const parent = launcherOf(child, FIRE_AND_FORGET);
    await parent.exec.run(stream);
    expect(word(counter)).toBe(1);
    child.update(adder(100));
    await parent.exec.run(stream);
    expect(statusOf()).toBe(0);
    expect(word(counter)).toBe(101);
    await child.run(stream);
    expect(word(counter)).toBe(201);
  });

  test('a device graph stays alive for the graph that launches it after its own dispose()', async () => {
    const child = adder(3).instantiate({ deviceLaunch: true, upload: stream });
    const parent = launcherOf(child, FIRE_AND_FORGET);
    child.dispose();
    await parent.exec.run(stream);
    await parent.exec.run(stream);
    expect(statusOf()).toBe(0);
    expect(word(counter)).toBe(6);
  });

  test('instantiate refuses what no device graph may hold, naming the node', () => {
    const withHost = adder(1);
    const host = withHost.addHost(() => {}, { label: 'progress' });
    let error: unknown;
    try {
      withHost.instantiate({ deviceLaunch: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeviceGraphError);
    expect((error as DeviceGraphError).node).toBe(host);
    expect((error as DeviceGraphError).reason).toBe('nodeOperationNotSupported');

    const child = Graph.create();
    child.addKernel(bump, one, [arg.ptr(counter), arg.u32(1)]);
    child.addHost(() => {});
    const outer = adder(1);
    const childNode = outer.addChild(child, { label: 'stage' });
    expect(() => outer.instantiate({ deviceLaunch: true })).toThrow(/is a host node/);
    try {
      outer.instantiate({ deviceLaunch: true });
    } catch (e) {
      expect((e as DeviceGraphError).node).toBe(childNode);
    }
  });

  test('relocatable programs link into one: a call across them resolves, a missing definition is a LinkError', async () => {
    const caller = compile('extern __device__ unsigned twice(unsigned);\n' +
      'extern "C" __global__ void apply(unsigned* x) { *x = twice(*x) + 1; }', { name: 'caller.cu', relocatable: true });
    const callee = compile('__device__ unsigned twice(unsigned v) { return 2 * v; }', { name: 'callee.cu', relocatable: true, output: 'ptx' });
    let error: unknown;
    try {
      link([caller]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LinkError);
    expect((error as LinkError).log).toMatch(/twice/);
    const linked = Library.load(link([caller, callee], { optimizationLevel: 3 }));
    const x = DeviceBuffer.from(new Uint32Array([20]));
    linked.kernel('apply').launch({ ...one, stream }, [arg.ptr(x)]);
    await stream.synchronize();
    expect(word(x)).toBe(41);
    x.dispose();
    linked.dispose();
  });
});
