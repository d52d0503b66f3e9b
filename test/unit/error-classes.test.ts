// One convention for every error class: name is the class name, code a string
// (the driver's or NVRTC's name for a result, else ERR_CUDA_...), the driver's
// number kept as result, and one base for "CUDA is not usable here".
import { fakeDriver, runScript } from '../helpers/subprocess';

const shape = `const shape = (e) => ({ name: e.name, code: e.code, result: e.result, reason: e.reason,
  cuda: e instanceof cuda.CudaError, unavailable: e instanceof cuda.CudaUnavailableError, error: e instanceof Error });`;

test('each class has its class name as name and a string code', () => {
  const r = runScript(`${shape}
    const c = cuda;
    const made = {
      CudaError: new c.CudaError(1, '', 'invalid argument', 'cuMemAlloc'),
      CudaOutOfMemoryError: new c.CudaOutOfMemoryError(2, '', 'out of memory', 'cuMemAlloc'),
      CudaNotSupportedError: new c.CudaNotSupportedError(801, '', '', 'cuMemAlloc'),
      ContextLostError: new c.ContextLostError(700, '', '', 'cuStreamSynchronize'),
      CaptureError: new c.CaptureError(900, '', '', 'cuMemAlloc'),
      CaptureUnsupportedError: new c.CaptureUnsupportedError(900, '', '', null),
      CaptureInvalidatedError: new c.CaptureInvalidatedError(901, '', '', null),
      CaptureMergeError: new c.CaptureMergeError(902, '', '', null),
      CaptureUnmatchedError: new c.CaptureUnmatchedError(903, '', '', null),
      CaptureUnjoinedError: new c.CaptureUnjoinedError(904, '', '', null),
      CaptureIsolationError: new c.CaptureIsolationError(905, '', '', null),
      CaptureImplicitError: new c.CaptureImplicitError(906, '', '', null),
      CapturedEventError: new c.CapturedEventError(907, '', '', null),
      CaptureWrongThreadError: new c.CaptureWrongThreadError(908, '', '', null),
      GraphUpdateError: new c.GraphUpdateError(new c.CudaError(910, '', '', 'cuGraphExecUpdate'), 'topologyChanged'),
      GraphInstantiateError: new c.GraphInstantiateError(new c.CudaError(1, '', '', 'cuGraphInstantiateWithParams'), 'invalidStructure'),
      DriverUnavailableError: new c.DriverUnavailableError(100, '', 'no device', 'cuInit', 'init-failed'),
      FunctionUnavailableError: new c.FunctionUnavailableError('missing', 'cuX', '', 13000),
      DisposedError: new c.DisposedError('Stream'),
      SystemError: new c.SystemError(111, 'connect'),
      AbortError: new c.AbortError('Stream.synchronize', undefined),
      TimeoutError: new c.TimeoutError('receive', 5),
      ChannelClosedError: new c.ChannelClosedError('send', 'closed'),
      ChannelProtocolError: new c.ChannelProtocolError('receive', 'bad'),
      ChannelPeerError: new c.ChannelPeerError('connect', { pid: 1, uid: 2, gid: 2 }, 0),
      SharingUnsupportedError: new c.SharingUnsupportedError('host-memory', 'host memory', 'use device memory'),
      InvalidDescriptorError: new c.InvalidDescriptorError('bytes', 'must be a number'),
      GraphCycleError: new c.GraphCycleError([0, 1]),
      KernelArgumentError: new c.KernelArgumentError('k', 0, 'bad'),
      NvrtcUnavailableError: new c.NvrtcUnavailableError('/x/libnvrtc.so', 'not found'),
      AddonUnavailableError: new c.AddonUnavailableError({ message: 'no addon', platform: 'linux-x64', searched: [] }, 'createStream'),
    };
    report(Object.fromEntries(Object.entries(made).map(([k, e]) => [k, shape(e)])));`);
  const s = r.report;
  for (const [cls, e] of Object.entries<Record<string, unknown>>(s)) {
    expect({ cls, name: e.name, codeType: typeof e.code, error: e.error }).toEqual({ cls, name: cls, codeType: 'string', error: true });
  }
  expect(s.CudaError).toMatchObject({ code: 'CUDA_ERROR_INVALID_VALUE', result: 1, cuda: true, unavailable: false });
  expect(s.CudaOutOfMemoryError).toMatchObject({ code: 'CUDA_ERROR_OUT_OF_MEMORY', result: 2 });
  expect(s.ContextLostError).toMatchObject({ code: 'CUDA_ERROR_ILLEGAL_ADDRESS', result: 700 });
  expect(s.CaptureWrongThreadError).toMatchObject({ code: 'CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD', result: 908, cuda: true });
  expect(s.GraphUpdateError).toMatchObject({ code: 'CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE', result: 910, reason: 'topologyChanged' });
  expect(s.GraphInstantiateError).toMatchObject({ code: 'CUDA_ERROR_INVALID_VALUE', reason: 'invalidStructure' });
  expect(s.FunctionUnavailableError).toMatchObject({ code: 'CUDA_ERROR_NOT_FOUND', result: 500, unavailable: false });
  // The three "CUDA is not usable here" cases share one base; the driver's stays a CudaError.
  expect(s.DriverUnavailableError).toMatchObject({ code: 'CUDA_ERROR_NO_DEVICE', result: 100, reason: 'init-failed', cuda: true, unavailable: true });
  expect(s.NvrtcUnavailableError).toMatchObject({ code: 'ERR_CUDA_NVRTC_UNAVAILABLE', reason: 'nvrtc-unavailable', cuda: false, unavailable: true });
  expect(s.AddonUnavailableError).toMatchObject({ code: 'ERR_CUDA_ADDON_UNAVAILABLE', reason: 'addon-unavailable', cuda: false, unavailable: true });
  expect(s.SystemError).toMatchObject({ code: 'ECONNREFUSED', unavailable: false });
  expect(s.AbortError.code).toBe('ABORT_ERR');
  expect(s.SharingUnsupportedError).toMatchObject({ code: 'ERR_CUDA_SHARING_UNSUPPORTED', reason: 'host-memory' });
  for (const cls of ['DisposedError', 'TimeoutError', 'ChannelClosedError', 'ChannelProtocolError', 'ChannelPeerError',
    'InvalidDescriptorError', 'GraphCycleError', 'KernelArgumentError']) {
    expect(s[cls].code).toMatch(/^ERR_CUDA_[A-Z_]+$/);
  }
});

test('errors the driver and the package throw carry the same shape', () => {
  const r = runScript(`${shape}
    const attempt = (f) => { try { f(); return 'no error'; } catch (e) { return shape(e); } };
    const stream = cuda.Stream.create();
    stream.dispose();
    report({
      driver: attempt(() => cuda.Device.get(0).attribute(130)),
      disposed: attempt(() => stream.query()),
      nvrtc: attempt(() => cuda.compile('__global__ void k() {}')),
    });`, { CUDA_DRIVER_LIBRARY: fakeDriver(), NVRTC_LIBRARY: '/nonexistent/libnvrtc.so.13' });
  expect(r.report).toEqual({
    driver: { name: 'CudaError', code: 'CUDA_ERROR_INVALID_VALUE', result: 1, cuda: true, unavailable: false, error: true },
    disposed: { name: 'DisposedError', code: 'ERR_CUDA_DISPOSED', cuda: false, unavailable: false, error: true },
    nvrtc: { name: 'NvrtcUnavailableError', code: 'ERR_CUDA_NVRTC_UNAVAILABLE', reason: 'nvrtc-unavailable', cuda: false, unavailable: true, error: true },
  });
});

test('a driver that cannot be loaded is a CudaUnavailableError and a CudaError', () => {
  const r = runScript(`${shape}
    try { cuda.Stream.create(); report('no error'); } catch (e) { report(shape(e)); }`, { CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' });
  expect(r.report).toEqual({ name: 'DriverUnavailableError', code: 'CUDA_ERROR_NOT_INITIALIZED', result: 3, reason: 'library-missing',
    cuda: true, unavailable: true, error: true });
});
