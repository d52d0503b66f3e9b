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
  CudaError,
  CudaNotSupportedError,
  CudaOutOfMemoryError,
  DisposedError,
  DriverUnavailableError,
  FunctionUnavailableError,
  GraphUpdateError,
  resultName,
} from './errors';
export * from './generated/enums';
export {
  criticalPath,
  GraphCycleError,
  levelSets,
  reaches,
  topologicalOrder,
  transitiveReduction,
  type CriticalPath,
  type GraphEdge,
} from './graph/analysis';
export {
  DataflowTracker,
  ResourceRange,
  type DataflowDependency,
  type DataflowEdge,
  type DataflowTrackerOptions,
  type DependencyReason,
  type HazardKind,
  type NodeAccesses,
} from './graph/dataflow';
export { renderDot, type DotEdge, type DotNode, type DotOptions, type GraphNodeKind } from './graph/dot';
export {
  compile,
  compileAsync,
  CompiledProgram,
  CompileError,
  nvrtcStatus,
  NvrtcUnavailableError,
  type CompileOptions,
  type CompileOutput,
  type NvrtcStatus,
} from './kernel/compile';
export { type CodeImage, type DeviceVariable, type JitOptions } from './kernel/code-load';
export { Kernel, type BlockSizeOptions, type KernelParam, type OccupancyOptions } from './kernel/kernel';
export { type Dim3, type LaunchConfig, type LaunchShape, type LaunchStream } from './kernel/launch-config';
export { Library, type LibraryLoadOptions } from './kernel/library';
export { Module, type ModuleLoadOptions } from './kernel/module';
export {
  arg,
  KernelArg,
  KernelArgumentError,
  type ArgLayout,
  type ArgSlot,
  type ArgType,
  type ArgValue,
  type BytesType,
  type MemoryHandle,
  type PointerValue,
  type ScalarType,
} from './kernel/args';
export { fromBFloat16Bits, fromFloat16Bits, toBFloat16Bits, toFloat16Bits } from './kernel/half';
export { PreparedLaunch } from './kernel/prepared-launch';
