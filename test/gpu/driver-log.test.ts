// The driver's explanation of a refusal reaches the CudaError: a second
// executable of a graph with memory nodes, and a launch the driver explains.
// Our hint is always there; the driver's own lines (drivers for CUDA 12.9 and
// newer) are checked when it logs.
import { arg, compile, CudaError, DeviceBuffer, Graph, Library, Stream } from '../../lib';
import { describeGpu } from '../helpers/tiers';

describeGpu('the driver log of a failed call', () => {
  test('a graph with memory nodes refuses a second executable, and the error says why', () => {
    using graph = Graph.create();
    const { node, allocation } = graph.addAlloc(1 << 20);
    graph.addFree(allocation, { after: [node] });
    const first = graph.instantiate();
    let error: unknown;
    try {
      graph.instantiate().dispose();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CudaError);
    const refused = error as CudaError;
    console.log(`second instantiate: ${refused.message}\ndriverLog: ${JSON.stringify(refused.driverLog)}`);
    expect(refused.code).toBe('CUDA_ERROR_NOT_SUPPORTED');
    expect(refused.hint).toMatch(/one executable at a time/);
    expect(refused.message).toContain(`\n  hint: ${refused.hint}`);
    // Driver 580 logs only its closing line here, naming the call that failed.
    for (const line of refused.driverLog) expect(line.trim()).not.toBe('');
    if (refused.driverLog.length > 0) {
      expect(refused.driverLog[refused.driverLog.length - 1]).toMatch(/^Returning 801 \(CUDA_ERROR_NOT_SUPPORTED\) from cuGraphInstantiate/);
    }
    // Once the first is gone, the graph instantiates again.
    first.dispose();
    graph.instantiate().dispose();
  });

  test("a launch the driver refuses carries the driver's reason, not the lines of earlier probing calls", () => {
    using library = Library.load(compile('extern "C" __global__ void k(float* y) { y[threadIdx.x] = 1.0f; }'));
    const kernel = library.kernel('k');
    using y = DeviceBuffer.alloc(4096);
    using stream = Stream.create();
    let error: unknown;
    try {
      kernel.launch({ grid: 1, block: 2048, stream }, [arg.ptr(y)]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CudaError);
    const refused = error as CudaError;
    console.log(`launch: ${refused.message}\ndriverLog: ${JSON.stringify(refused.driverLog)}`);
    expect(refused.code).toBe('CUDA_ERROR_INVALID_VALUE');
    if (refused.driverLog.length > 0) {
      // Reading the kernel's parameters ends in a refusal of its own, before the launch.
      expect(refused.driverLog.some((line) => /paramIndex|cuKernelGetParamInfo/.test(line))).toBe(false);
      const reason = refused.driverLog.find((line) => /block dimensions/.test(line));
      expect(reason).toBeDefined();
      expect(refused.message).toContain(`\n  driver log: ${reason}`);
    }
  });
});
