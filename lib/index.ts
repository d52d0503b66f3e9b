// cuda-driver: the CUDA driver API for Node.js.
export { AddonUnavailableError, type AddonFailure } from './addon';
export { AsyncNotificationRegistration, type AsyncNotificationInfo } from './async-notification';
export { type AtomicCapabilities } from './atomic-capabilities';
export { checkpoint, type CheckpointLockOptions, type CheckpointRestoreOptions, type GpuRemap } from './checkpoint';
export { completionPolling, setCompletionPolling } from './completion-polling';
export {
  CacheConfig, Context, ContextFlagInput, ContextFlagInputName, ExecAffinityType, RdmaFlushScope, type CacheConfigName,
  type ExecAffinityTypeName, type RdmaFlushScopeName,
} from './context';
export {
  CoredumpGenerationFlag, getCoredumpAttribute, setCoredumpAttribute, type CoredumpAttributeName, type CoredumpAttributes,
  type CoredumpGenerationFlagName, type CoredumpOptions,
} from './coredump';
export { SmResource, splitSmResource, type SmSplit, type SplitSmOptions } from './dev-resource';
export { Device, type DeviceCapabilities } from './device';
export { driverLogs, type DriverLogDumpOptions, type DriverLogMarker } from './driver-logs';
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
  AbortError,
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
  ChannelPeerError,
  ChannelProtocolError,
  ContextLostError,
  CudaError,
  CudaNotSupportedError,
  CudaOutOfMemoryError,
  DisposedError,
  DriverUnavailableError,
  FunctionUnavailableError,
  GraphInstantiateError,
  GraphUpdateError,
  HostCallbackPendingError,
  SystemError,
  TimeoutError,
  resultName,
  type DriverUnavailableReason,
  type GraphInstantiateReason,
  type GraphUpdateReason,
  type PeerCredentials,
} from './errors';
export { CudaUnavailableError, type CudaUnavailableReason } from './unavailable-error';
export {
  FdChannel,
  FdChannelServer,
  FdMessage,
  OwnedFd,
  ReceivedFd,
  type FdChannelAcceptOptions,
  type FdChannelAddress,
  type FdChannelConnectOptions,
  type FdChannelListenOptions,
  type FdChannelPeerOptions,
  type FdChannelWaitOptions,
} from './ipc/fd-channel';
export * from './generated/enums';
export {
  descriptorFdCount,
  descriptorVersion,
  validateEventDescriptor,
  validateMemoryDescriptor,
  type DeviceIdentity,
  type ExporterIdentity,
  type LegacyMemoryDescriptor,
  type PoolMemoryDescriptor,
  type SharedEventDescriptor,
  type SharedMemoryDescriptor,
  type VmmMemoryDescriptor,
  type VmmSegment,
} from './ipc/descriptor';
export { InvalidDescriptorError, SharingUnsupportedError, type SharingUnsupportedReason } from './ipc/errors';
export { openSharedEvent, shareEvent } from './ipc/event-sharing';
export { fabricSupport, type FabricSupport } from './ipc/fabric';
export { exportIpcEventHandle, exportIpcMemHandle, ipcHandleBytes, openIpcEventHandle, openIpcMemHandle, type OpenIpcMemHandleOptions } from './ipc/ipc-handles';
export { exportPool, exportPoolPointer, importPool, importPoolPointer, type ShareableHandleType } from './ipc/pool-sharing';
export { openSharedMemory, receiveSharedMemory, shareMemory, type OpenSharedOptions, type ShareOptions } from './ipc/share';
export { MemoryExport, SharedMemory, type SharingPath } from './ipc/shared-memory';
export { memoryAccess, type AccessEntry } from './vmm/access';
export { AddressReservation, type ReserveOptions } from './vmm/address-reservation';
export { exportDmaBuf, type DmaBufOptions } from './vmm/dma-buf';
export {
  allocationGranularity,
  roundToGranularity,
  type AllocationOptions,
  type AllocationProperties,
} from './vmm/granularity';
export { GrowableBuffer, type GrowableBufferOptions } from './vmm/growable-buffer';
export { Mapping, type MappedSegment, type MappingAllocOptions, type MappingOptions } from './vmm/mapping';
export { PhysicalAllocation, type PhysicalAllocationOptions } from './vmm/physical-allocation';
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
export { Event, type EventOptions } from './event';
export { GreenContext, type GreenContextOptions, type GreenStreamOptions } from './green-context';
export { type HostFunctionOptions, Stream, type StreamMemoryOp, type StreamOptions, type WaitCondition } from './stream';
export { type WaitOptions } from './wait-options';
export type {
  AccessPolicyWindow,
  KernelNodeAttributeName,
  KernelNodeAttributes,
  MemSyncDomainMap,
  StreamAttributeInput,
  StreamAttributeName,
  StreamAttributes,
} from './launch-attributes';
export type { Bytes, MemoryHandle } from './memory/bytes';
export {
  copy,
  copy2D,
  copy3D,
  copy3DBatch,
  copyBatch,
  fill,
  fill2D,
  type BatchCopy,
  type CopyOptions,
  type Copy2DOptions,
  type Extent3D,
  type FillOptions,
  type PitchedOperand,
} from './memory/copy';
export { DeviceBuffer, type ManagedRangeAttributes, type TypedArrayConstructor } from './memory/device-buffer';
export { HostBuffer, type HostAllocationFlags, type HostAllocOptions, type HostRegisterOptions } from './memory/host-buffer';
export { addressRange, memoryInfo, pointerAttribute, pointerAttributes, setSyncMemops, type PointerAttributes, type PointerLike } from './memory/info';
export type { Location } from './memory/location';
export { MemoryPool, type PoolOptions } from './memory/pool';
export { type DeviceLike } from './device';
export { Graph, type GraphOptions, type NodeOptions } from './graph/graph';
export { GraphNode } from './graph/node';
export { GraphExec, type InstantiateOptions } from './graph/exec';
export { DeviceGraphError } from './graph/device-graph';
export { ConditionalHandle } from './graph/conditional';
export { UserObject } from './graph/user-object';
export { GraphAllocation, graphMemory, resetGraphMemoryHigh, trimGraphMemory, type GraphMemoryUsage } from './graph/memory';
export type { EdgeData } from './graph/edge';
export {
  type AllocNodeParams,
  type ChildGraphNodeParams,
  type ConditionalNodeParams,
  type CopyNodeParams,
  type EmptyNodeParams,
  type EventNodeParams,
  type FillNodeParams,
  type FreeNodeParams,
  type HostNodeParams,
  type KernelNodeParams,
  type MemoryOpsNodeParams,
  type NodeParams,
} from './graph/node-params';
export { NodeType, type NodeTypeName } from './graph/node-kinds';
export { StreamCapture, type CaptureOptions } from './graph/capture';
export { discardBatch, prefetchBatch, type ManagedRange } from './memory/managed';
export {
  compile,
  compileAsync,
  CompiledProgram,
  CompileError,
  nvrtcStatus,
  NvrtcUnavailableError,
  type CompileAsyncOptions,
  type CompileOptions,
  type CompileOutput,
  type CompileStage,
  type NvrtcStatus,
} from './kernel/compile';
export { type CodeImage, type DeviceVariable, type JitOptions } from './kernel/code-load';
export { Kernel, type BlockSizeOptions, type OccupancyOptions, type OccupancyPlace } from './kernel/kernel';
export { type Dim3, type LaunchConfig, type LaunchShape } from './kernel/launch-config';
export { Library, type LibraryLoadOptions } from './kernel/library';
export {
  deviceRuntime,
  DeviceRuntimeNotFoundError,
  link,
  LinkError,
  Linker,
  type DeviceRuntime,
  type LinkInput,
  type LinkInputData,
  type LinkInputFile,
  type LinkInputType,
  type LinkOptions,
} from './kernel/link';
export { LinkedProgram } from './kernel/linked-program';
export { Module, type ModuleImageOptions, type ModuleLoadOptions } from './kernel/module';
export {
  arg,
  KernelArg,
  KernelArgumentError,
  MemoryPointer,
  type ArgLayout,
  type ArgSlot,
  type ArgType,
  type ArgValue,
  type BytesType,
  type KernelParam,
  type PointerValue,
  type ScalarType,
  type TensorMapType,
} from './kernel/args';
export { fromBFloat16Bits, fromFloat16Bits, toBFloat16Bits, toFloat16Bits } from './kernel/half';
export { PreparedLaunch } from './kernel/prepared-launch';
export {
  TensorMap,
  type Im2colTensorMapOptions,
  type Im2colWideTensorMapOptions,
  type TensorMapKind,
  type TensorMapOptions,
  type TiledTensorMapOptions,
} from './kernel/tensor-map';
export { decompressBatch, type DecompressEntry } from './memory/decompress';
/** NCCL: collectives and point-to-point calls across GPUs and machines (docs/nccl.md). */
export * as nccl from './nccl';

// require('cuda-driver') returns these exports copied into an object of plain
// data properties. tsc defines each re-export above as a getter, on an object
// that holds too many (155) to stay out of V8's dictionary mode, so every
// `cuda.copy(...)` paid a getter call through the generic load IC; from the
// copy, optimized code reads a constant. The ES module entry
// (dist/index.mjs) takes its names from this same copy.
module.exports = Object.defineProperty(Object.fromEntries(Object.entries(exports)), '__esModule', { value: true });
