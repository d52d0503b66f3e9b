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
  OwnedFd,
  ReceivedFd,
  type FdChannelAcceptOptions,
  type FdChannelAddress,
  type FdChannelListenOptions,
  type FdChannelWaitOptions,
  type PeerCredentials,
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
export { Stream, type StreamMemoryOp, type StreamOptions, type WaitCondition } from './stream';
export type { AccessPolicyWindow, MemSyncDomainMap, StreamAttributeName, StreamAttributes } from './stream-attributes';
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
export { DeviceBuffer, type ManagedRangeAttributes } from './memory/device-buffer';
export { HostBuffer, type HostAllocOptions, type HostRegisterOptions } from './memory/host-buffer';
export { addressRange, memoryInfo, pointerAttribute, pointerAttributes, setSyncMemops, type PointerAttributes, type PointerLike } from './memory/info';
export type { Location } from './memory/location';
export { MemoryPool, type PoolOptions } from './memory/pool';
export { type DeviceLike } from './device';
export { Graph } from './graph/graph';
export { StreamCapture, type CaptureOptions } from './graph/capture';
export { discardBatch, prefetchBatch, type ManagedRange } from './memory/managed';
