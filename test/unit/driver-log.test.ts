// The driver's own explanation of a failure (cuLogs*, CUDA 12.9 drivers and
// newer) and this package's hints reach the CudaError, over the stand-in driver:
// from 12.9 it logs a line for each call failed through FAKE_CUDA_FAIL and for a
// second executable of a graph with memory nodes.
import { CudaError, CudaResult } from '../../lib';
import { errorHint } from '../../lib/error-hints';
import { fakeDriver, runScript } from '../helpers/subprocess';

const env = (extra: Record<string, string> = {}) => ({ CUDA_DRIVER_LIBRARY: fakeDriver(), ...extra });
const withLogs = (extra: Record<string, string> = {}) => env({ FAKE_CUDA_VERSION: '12090', ...extra });
const seen = `const seen = (f) => { try { f(); return null; } catch (e) {
  return { name: e.name, call: e.call, driverLog: e.driverLog, hint: e.hint, message: e.message }; } };`;

describe('the driver log of a failed call', () => {
  test("a failing call's log lines become the error's driverLog and end its message", () => {
    const r = runScript(`${seen}
      report({ first: seen(() => cuda.DeviceBuffer.alloc(64)), second: seen(() => cuda.DeviceBuffer.alloc(64)) });`,
    withLogs({ FAKE_CUDA_FAIL: 'cuMemAlloc=2' }));
    expect(r.stderr).toBe('');
    const lines = ['cuMemAlloc failed as FAKE_CUDA_FAIL asks', 'Returning 2 (injected) from cuMemAlloc'];
    expect(r.report.first).toMatchObject({ name: 'CudaOutOfMemoryError', call: 'cuMemAlloc', driverLog: lines, hint: '' });
    // The closing line repeats what the message says: it stays out of the message.
    expect(r.report.first.message).toBe(`cuMemAlloc (bytes=64): CUDA_ERROR_OUT_OF_MEMORY\n  driver log: ${lines[0]}`);
    // Each failure gets its own lines, not those of the one before.
    expect(r.report.second.driverLog).toEqual(lines);
  });

  test('a failure reported by a wait thread carries the lines that thread took', () => {
    const r = runScript(`
      const stream = cuda.Stream.create();
      stream.synchronize().then(() => report({ resolved: true }),
        (e) => report({ name: e.name, call: e.call, driverLog: e.driverLog }));`,
    withLogs({ FAKE_CUDA_FAIL: 'cuStreamSynchronize=700' }));
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({ name: 'ContextLostError', call: 'cuStreamSynchronize',
      driverLog: ['cuStreamSynchronize failed as FAKE_CUDA_FAIL asks', 'Returning 700 (injected) from cuStreamSynchronize'] });
  });

  test('a driver without cuLogs gives an empty driverLog and the message as before', () => {
    const r = runScript(`${seen}
      report({ error: seen(() => cuda.DeviceBuffer.alloc(64)) });`,
    env({ FAKE_CUDA_FAIL: 'cuMemAlloc=2' }));
    expect(r.stderr).toBe('');
    expect(r.report.error).toEqual({ name: 'CudaOutOfMemoryError', call: 'cuMemAlloc', driverLog: [], hint: '',
      message: 'cuMemAlloc (bytes=64): CUDA_ERROR_OUT_OF_MEMORY' });
  });

  test('a second executable of a graph with memory nodes: the driver line and our hint', () => {
    const script = `${seen}
      const graph = cuda.Graph.create();
      graph.addAlloc(256);
      const first = graph.instantiate();
      const refused = seen(() => graph.instantiate());
      first.dispose();
      const again = graph.instantiate();
      report({ refused, again: String(again).startsWith('GraphExec'), errorClass: (() => {
        try { graph.instantiate(); } catch (e) { return [e instanceof cuda.GraphInstantiateError, e instanceof cuda.CudaError, e.code]; }
      })() });`;
    const hint = errorHint('cuGraphInstantiateWithParams', CudaResult.CUDA_ERROR_NOT_SUPPORTED);
    expect(hint).toMatch(/graph with memory allocation or free nodes can have one executable at a time/);
    const logged = runScript(script, withLogs());
    expect(logged.stderr).toBe('');
    expect(logged.report.refused).toMatchObject({ name: 'GraphInstantiateError', call: 'cuGraphInstantiateWithParams', hint,
      driverLog: ['Graph with memory nodes already has an instantiated executable (stand-in)',
        'Returning 801 (CUDA_ERROR_NOT_SUPPORTED) from cuGraphInstantiate'] });
    expect(logged.report.refused.message).toMatch(
      /^cuGraphInstantiateWithParams: CUDA_ERROR_NOT_SUPPORTED.* \(reason: error\)\n {2}driver log: Graph with memory nodes .*\n {2}hint: a graph with memory/);
    expect(logged.report.again).toBe(true);
    expect(logged.report.errorClass).toEqual([true, true, 'CUDA_ERROR_NOT_SUPPORTED']);
    // Without the driver's log, the hint alone.
    const silent = runScript(script, env());
    expect(silent.report.refused).toMatchObject({ name: 'GraphInstantiateError', driverLog: [], hint });
    expect(silent.report.refused.message).toMatch(/\(reason: error\)\n {2}hint: a graph with memory/);
  });

  test('the lines of a failure nobody was told of are not blamed on the next one', () => {
    // The failed free of a release is dropped silently; its lines stay in the ring.
    const r = runScript(`${seen}
      cuda.DeviceBuffer.alloc(64).dispose();
      const graph = cuda.Graph.create();
      graph.addAlloc(256);
      const first = graph.instantiate();
      report(seen(() => graph.instantiate()));`, withLogs({ FAKE_CUDA_FAIL: 'cuMemFree=1' }));
    expect(r.stderr).toBe('');
    expect(r.report.driverLog).toEqual(['Graph with memory nodes already has an instantiated executable (stand-in)',
      'Returning 801 (CUDA_ERROR_NOT_SUPPORTED) from cuGraphInstantiate']);
  });
});

describe('hints', () => {
  test('the table answers by driver function and result, and only for its cases', () => {
    expect(errorHint('cuLaunchKernel', CudaResult.CUDA_ERROR_INVALID_CONTEXT)).toMatch(/run only in the context the module was loaded in/);
    expect(errorHint('cuLaunchKernelEx', CudaResult.CUDA_ERROR_INVALID_CONTEXT)).toMatch(/Library/);
    expect(errorHint('cuMemcpyPeer', CudaResult.CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)).toMatch(/enablePeerAccess/);
    expect(errorHint(null, CudaResult.CUDA_ERROR_PEER_ACCESS_NOT_ENABLED)).toMatch(/enablePeerAccess/);
    expect(errorHint('cuCtxEnablePeerAccess', CudaResult.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)).toMatch(/already enabled/);
    expect(errorHint('cuStreamSynchronize', CudaResult.CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)).toMatch(/relaxed/);
    expect(errorHint('cuMemFreeAsync', CudaResult.CUDA_ERROR_INVALID_VALUE)).toMatch(/graph allocated/);
    expect(errorHint('cuMemAllocAsync', CudaResult.CUDA_ERROR_NOT_SUPPORTED)).toMatch(/memoryPoolsSupported/);
    expect(errorHint('cuModuleLoadDataEx', CudaResult.CUDA_ERROR_UNSUPPORTED_PTX_VERSION)).toMatch(/newer driver/);
    expect(errorHint('cuLibraryLoadData', CudaResult.CUDA_ERROR_NO_BINARY_FOR_GPU)).toMatch(/compute capability/);
    // The same result from another call, or another result from the same call: no hint.
    expect(errorHint('cuMemAlloc', CudaResult.CUDA_ERROR_INVALID_VALUE)).toBe('');
    expect(errorHint('cuGraphInstantiateWithParams', CudaResult.CUDA_ERROR_INVALID_VALUE)).toBe('');
    expect(errorHint(null, CudaResult.CUDA_ERROR_NOT_SUPPORTED)).toBe('');
  });

  test('a CudaError made by hand gets the hint of its case in hint and in its message', () => {
    const error = new CudaError(CudaResult.CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, '', 'peer access is not enabled', 'cuMemcpyPeer');
    expect(error.hint).toMatch(/enablePeerAccess/);
    expect(error.driverLog).toEqual([]);
    expect(error.message).toBe(`cuMemcpyPeer: CUDA_ERROR_PEER_ACCESS_NOT_ENABLED: peer access is not enabled\n  hint: ${error.hint}`);
    const logged = new CudaError(1, '', '', 'cuMemAlloc', '', ['one\ntwo', '']);
    expect(logged.driverLog).toEqual(['one', 'two']);
    expect(Object.isFrozen(logged.driverLog)).toBe(true);
    expect(logged.message).toBe('cuMemAlloc: CUDA_ERROR_INVALID_VALUE\n  driver log: one\n  driver log: two');
    const closed = new CudaError(2, '', '', 'cuMemAlloc', '', ['Returning 2 (CUDA_ERROR_OUT_OF_MEMORY) from cuMemAlloc_v2']);
    expect(closed.driverLog).toHaveLength(1);
    expect(closed.message).toBe('cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY');
  });
});
