// cuda-driver: the CUDA driver API for Node.js.
export { Context } from './context';
export { Device, type DeviceCapabilities } from './device';
export { Disposable } from './disposable';
export {
  callCounters,
  cudaVersion,
  driverFunctions,
  driverStatus,
  headerVersion,
  type CallCount,
  type CudaVersion,
  type DriverFunction,
  type DriverStatus,
} from './driver';
export {
  CaptureError,
  CaptureImplicitError,
  CaptureInvalidatedError,
  CaptureIsolationError,
  CaptureMergeError,
  CaptureUnjoinedError,
  CaptureUnmatchedError,
  CaptureUnsupportedError,
  CaptureWrongThreadError,
  CapturedEventError,
  ChannelClosedError,
  ChannelProtocolError,
  CudaError,
  CudaNotSupportedError,
  CudaOutOfMemoryError,
  DisposedError,
  DriverUnavailableError,
  FunctionUnavailableError,
  GraphUpdateError,
  SystemError,
  TimeoutError,
  resultName,
} from './errors';
export {
  FdChannel,
  FdChannelServer,
  FdMessage,
  ReceivedFd,
  type FdChannelAcceptOptions,
  type FdChannelAddress,
  type FdChannelListenOptions,
  type FdChannelWaitOptions,
  type PeerCredentials,
} from './ipc/fd-channel';
export * from './generated/enums';
