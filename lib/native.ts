// The typed view of the C++ addon. Only lib/ imports this; users see the
// classes built on it.
import {
  native as generatedNative,
  NativeAddon as GeneratedAddon,
  NativeContext,
  NativeEvent,
  NativeHandle as HandleBrand,
  NativeStream,
  NativeWait,
  Slot,
} from './generated/native';

export { NativeContext, NativeEvent, NativeStream, NativeWait, Slot };

/** What every native handle object (a "view", native/core/handle.h) has. */
export interface NativeHandle extends HandleBrand {
  dispose(): void;
  readonly alive: boolean;
  /** The handle's number in the native slot table: calls name handles by it (native/core/slots.h). */
  readonly slot: number;
}

export interface NativeDeviceBuffer extends NativeHandle {
  readonly address: bigint;
  readonly size: number;
  readonly pitch: number;
  readonly ordinal: number;
  readonly allocation: 'plain' | 'pitched' | 'stream-ordered' | 'managed';
}

export interface NativeHostBuffer extends NativeHandle {
  readonly address: bigint;
  readonly size: number;
  readonly flags: number;
  readonly registered: boolean;
  devicePointer(): bigint;
  view(): ArrayBuffer;
}

/** A CUmemGenericAllocationHandle this process holds a reference to (native/vmm). */
export interface NativePhysicalAllocation extends NativeHandle {
  readonly handle: bigint;
  readonly size: number;
  readonly ordinal: number;
  /** [type, locationType, locationId, handleTypes, compression, gpuDirectRdma, usage] */
  properties(): [number, number, number, number, number, number, number];
  export(handleType: number): Slot<NativeReceivedFd> | Buffer;
}

export interface NativeAddressReservation extends NativeHandle {
  readonly address: bigint;
  readonly size: number;
  readonly alignment: number;
  readonly ordinal: number;
}

/** [allocation, allocationOffset, bytes] */
export type NativeSegment = [NativePhysicalAllocation, number, number];
/** The same as segments() reports it: a new handle of each allocation. */
export type NativeSegmentSlot = [Slot<NativePhysicalAllocation>, number, number];
/** [locationType, locationId, flags] */
export type NativeAccessEntry = [number, number, number];

/** Allocations mapped into a reservation with access granted (native/vmm). */
export interface NativeVirtualMemory extends NativeHandle {
  readonly address: bigint;
  /** What operations may touch: all that is mapped, or a GrowableBuffer's size. */
  readonly size: number;
  readonly mapped: number;
  readonly ordinal: number;
  extend(segments: NativeSegment[], access: NativeAccessEntry[]): void;
  resize(bytes: number): void;
  setAccess(access: NativeAccessEntry[]): void;
  getAccess(locationType: number, locationId: number, offset?: number): number;
  segments(): NativeSegmentSlot[];
}

/** A view of memory shared by another process (or an alias in the exporting one). */
export interface NativeImportedMemory extends NativeHandle {
  readonly address: bigint;
  readonly size: number;
  readonly ordinal: number;
  readonly path: 'legacy' | 'pool' | 'vmm' | 'alias';
}

/** Any memory handle the native layer accepts as an operand. */
export type NativeMemory = NativeDeviceBuffer | NativeHostBuffer | NativeGraphAllocation | NativeVirtualMemory | NativeImportedMemory;
/** Library memory as calls take it: the slot number of its handle (lib/memory/bytes.ts). */
export type MemorySlot = number;
/** An operand of a copy: library memory by slot, or JavaScript bytes. */
export type NativeBytes = MemorySlot | ArrayBuffer | ArrayBufferView;

export interface NativeMemoryPool extends NativeHandle {
  /** [locationType, locationId] of the pool's memory. */
  readonly location: [number, number];
  readonly handle: bigint;
  readonly ordinal: number;
  readonly owned: boolean;
  getAttribute(attribute: number): number | bigint;
  setAttribute(attribute: number, value: number | bigint): void;
  trimTo(minBytesToKeep: number): void;
  setAccess(entries: Array<[locationType: number, locationId: number, flags: number]>): void;
  getAccess(locationType: number, locationId: number): number;
}

export type NativeEdgeData = [fromPort: number, toPort: number, type: number];

export interface NativeGraph extends NativeHandle {
  readonly handle: bigint;
  nodeCount(): number;
  nodes(): Slot<NativeGraphNode>[];
  rootNodes(): Slot<NativeGraphNode>[];
  edges(): { from: Slot<NativeGraphNode>[]; to: Slot<NativeGraphNode>[]; data: NativeEdgeData[] };
  addEdges(from: NativeNodeArg[], to: NativeNodeArg[], data?: NativeEdgeData[]): void;
  removeEdges(from: NativeNodeArg[], to: NativeNodeArg[], data?: NativeEdgeData[]): void;
  clone(): Slot<NativeGraph>;
  findInClone(original: NativeGraphNode): Slot<NativeGraphNode>;
  debugDotPrint(path: string, flags: number): void;
  resourceCount(): number;
}

/** A node as a call takes it: its slot, or its native object. */
export type NativeNodeArg = number | NativeGraphNode;

export interface NativeGraphNode extends NativeHandle {
  readonly handle: bigint;
  type(): number;
  dependencies(): { nodes: Slot<NativeGraphNode>[]; data: NativeEdgeData[] };
  dependents(): { nodes: Slot<NativeGraphNode>[]; data: NativeEdgeData[] };
  destroy(): void;
  getKernelAttribute(attribute: number): Buffer;
  setKernelAttribute(attribute: number, value: Uint8Array): void;
  copyKernelAttributes(source: NativeGraphNode): void;
}

export interface NativeGraphAllocation extends NativeHandle {
  readonly address: bigint;
  readonly size: number;
}

export interface NativeGraphExec extends NativeHandle {
  readonly handle: bigint;
  flags(): number;
  upload(streamSlot: number): void;
  update(graph: NativeGraph): { result: number; error?: Error; node?: Slot<NativeGraphNode>; fromNode?: bigint };
  setNodeParams(node: NativeGraphNode, params: Record<string, unknown>, perTypeCall: boolean): void;
  setChildGraph(node: NativeGraphNode, graph: NativeGraph): void;
  setEnabled(node: NativeGraphNode, enabled: boolean): void;
  isEnabled(node: NativeGraphNode): boolean;
  clearExternalSemaphores(node: NativeGraphNode, signal: boolean): void;
}

export interface NativeConditionalHandle extends NativeHandle {
  readonly value: bigint;
}

export interface NativeUserObject extends NativeHandle {
  readonly references: number;
  retain(count: number): void;
  release(count: number): void;
}

export interface Pitched2D {
  dst: NativeBytes; dstOffset: number; dstPitch: number;
  src: NativeBytes; srcOffset: number; srcPitch: number;
  width: number; height: number;
}
export interface Pitched3D extends Pitched2D {
  dstHeight: number; srcHeight: number; depth: number;
}

/** The credentials of the process at the other end of a socket (SO_PEERCRED). */
export interface NativePeerCredentials {
  pid: number;
  uid: number;
  gid: number;
}

export interface NativeReceivedFd extends NativeHandle {
  readonly fd: number;
  take(): number;
}

export interface NativeFdChannel extends NativeHandle {
  peer(): NativePeerCredentials;
  send(payload: Uint8Array, fds: number[], timeoutMs: number): Promise<void>;
  receive(timeoutMs: number): Promise<{ payload: Buffer; fds: Slot<NativeReceivedFd>[] }>;
}

export interface NativeFdChannelServer extends NativeHandle {
  accept(timeoutMs: number, peerUid: number): Promise<Slot<NativeFdChannel>>;
}

export interface NativeDeviceVariable {
  address: bigint;
  size: number;
}

export interface NativeJitOptions {
  maxRegisters?: number;
  optimizationLevel?: number;
  generateDebugInfo?: boolean;
  generateLineInfo?: boolean;
  logVerbose?: boolean;
}

export interface NativeLibrary extends NativeHandle {
  readonly handle: bigint;
  readonly jitLog: string;
  kernel(name: string): Slot<NativeKernel>;
  kernelCount(): number;
  kernels(): Slot<NativeKernel>[];
  global(name: string, context: Slot<NativeContext>): NativeDeviceVariable;
  managed(name: string): NativeDeviceVariable;
  unifiedFunction(symbol: string): bigint;
  module(context: Slot<NativeContext>): Slot<NativeModule>;
}

export interface NativeModule extends NativeHandle {
  readonly handle: bigint;
  readonly jitLog: string;
  readonly ownedByLibrary: boolean;
  function(name: string): Slot<NativeKernel>;
  functionCount(): number;
  functions(): Slot<NativeKernel>[];
  global(name: string): NativeDeviceVariable;
}

export interface NativeKernel extends NativeHandle {
  readonly handle: bigint;
  readonly name: string;
  readonly isLibraryKernel: boolean;
  /** [offset, size] per parameter, or null when the driver cannot say. */
  params(): Array<[offset: number, size: number]> | null;
  getAttribute(attribute: number, device: number): number;
  setAttribute(attribute: number, value: number, device: number): void;
  /** context: null for a module's function (its own context is used). */
  isLoaded(context: Slot<NativeContext> | null): boolean;
  load(context: Slot<NativeContext> | null): void;
  maxActiveBlocksPerMultiprocessor(context: Slot<NativeContext> | null, blockSize: number, dynamicSharedMemory: number, flags: number): number;
  maxPotentialBlockSize(context: Slot<NativeContext> | null, dynamicSharedMemory: number | ((blockSize: number) => number),
    blockSizeLimit: number, flags: number): { minGridSize: number; blockSize: number };
  availableDynamicSharedMemoryPerBlock(context: Slot<NativeContext> | null, blocks: number, blockSize: number): number;
  maxPotentialClusterSize(context: Slot<NativeContext> | null, config: Int32Array): number;
  maxActiveClusters(context: Slot<NativeContext> | null, config: Int32Array): number;
  /** bytes: the packed size, used only when the driver cannot report the layout. */
  prepare(stream: Slot<NativeStream>, config: Int32Array, bytes: number): Slot<NativePreparedLaunch>;
}

export interface NativePreparedLaunch extends NativeHandle {
  /** The parameter buffer (native memory) the arguments are written into. */
  readonly arguments: ArrayBuffer;
  /** Writes memory's device address at offset and keeps the memory for the launches (null: keeps none). */
  setPointer(offset: number, memory: MemorySlot | null): void;
}

export interface NativeNvrtcStatus {
  available: boolean;
  libraryPath: string;
  detail: string;
  version?: [major: number, minor: number];
  supportedArchs?: number[];
}

/** A compile as native/nvrtc/program.cc reads it. */
export interface NativeCompileRequest {
  source: string;
  name: string;
  headerNames: string[];
  headerSources: string[];
  options: string[];
  nameExpressions: string[];
  output: 'ptx' | 'cubin';
}

/** What a compile did; `code` only when stage is 'done'. */
export interface NativeCompileOutcome {
  stage: 'unavailable' | 'create' | 'name-expression' | 'compile' | 'lowered-name' | 'output' | 'done';
  result: number;
  resultName: string;
  log: string;
  code?: Buffer;
  loweredNames: Array<[expression: string, lowered: string]>;
  libraryPath: string;
  detail: string;
}

export interface NativeAddon extends GeneratedAddon {
  allocate(ordinal: number, bytes: number, context?: Slot<NativeContext>): Slot<NativeDeviceBuffer>;
  allocatePitched(ordinal: number, widthBytes: number, height: number, elementBytes: number): Slot<NativeDeviceBuffer>;
  allocateManaged(ordinal: number, bytes: number, flags: number): Slot<NativeDeviceBuffer>;
  allocateAsync(bytes: number, streamSlot: number, pool?: NativeMemoryPool): Slot<NativeDeviceBuffer>;
  allocateHost(ordinal: number, bytes: number, flags: number): Slot<NativeHostBuffer>;
  registerHost(ordinal: number, buffer: ArrayBuffer | ArrayBufferView, flags: number): Slot<NativeHostBuffer>;

  createPool(locationType: number, locationId: number, allocationType: number, handleTypes: number, maxSize: number): Slot<NativeMemoryPool>;
  devicePool(ordinal: number, current: boolean): Slot<NativeMemoryPool>;
  setDevicePool(ordinal: number, pool: NativeMemoryPool): void;
  locationPool(locationType: number, locationId: number, allocationType: number, current: boolean): Slot<NativeMemoryPool>;
  setLocationPool(locationType: number, locationId: number, allocationType: number, pool: NativeMemoryPool): void;

  memcpy(dst: NativeBytes, dstOffset: number, src: NativeBytes, srcOffset: number, bytes: number | undefined, streamSlot?: number): void;
  memcpy2D(params: Pitched2D, streamSlot: number | undefined, unaligned: boolean): void;
  memcpy3D(params: Pitched3D, streamSlot?: number): void;
  memcpyBatch(copies: Array<[MemorySlot, number, MemorySlot, number, number]>, streamSlot: number): void;
  memcpy3DBatch(copies: Pitched3D[], streamSlot: number): void;
  memset(target: MemorySlot, offset: number, value: number, count: number | undefined, elementBytes: number, streamSlot?: number): void;
  memset2D(target: MemorySlot, offset: number, pitch: number, value: number, width: number, height: number,
    elementBytes: number, streamSlot?: number): void;

  prefetch(buffer: MemorySlot, offset: number, bytes: number, locationType: number, locationId: number, flags: number,
    streamSlot: number): void;
  advise(buffer: MemorySlot, offset: number, bytes: number, advice: number, locationType: number, locationId: number): void;
  rangeAttribute(buffer: MemorySlot, offset: number, bytes: number, attribute: number, slots: number): Int32Array;
  rangeAttributes(buffer: MemorySlot, offset: number, bytes: number, attributes: number[]): number[];
  prefetchBatch(ranges: Array<[MemorySlot, number, number]>, locationType: number, locationId: number, flags: number,
    streamSlot: number, discardFirst: boolean): void;
  discardBatch(ranges: Array<[MemorySlot, number, number]>, flags: number, streamSlot: number): void;

  memoryInfo(ordinal: number): { free: number; total: number };
  addressRange(pointer: MemorySlot | bigint, offset?: number): { base: bigint; size: number };
  pointerAttribute(pointer: MemorySlot | bigint, offset: number | undefined, attribute: number): Buffer;
  pointerAttributes(pointer: MemorySlot | bigint, offset: number | undefined, attributes: number[]): Buffer;
  setSyncMemops(pointer: MemorySlot, enabled: boolean): void;

  createGraph(): Slot<NativeGraph>;
  /** graph by slot or view; dependencies: undefined, one node's slot, or a list. */
  addNode(graph: number | NativeGraph, dependencies: NativeNodeArg[] | number | undefined, edgeData: NativeEdgeData[] | undefined,
    params: Record<string, unknown>, perTypeCall: boolean): { node: Slot<NativeGraphNode>; allocation?: Slot<NativeGraphAllocation>; bodies?: Slot<NativeGraph>[] };
  /** addNode for a kernel node, its fields one by one (lib/graph/node-params.ts EncodedKernelNode). */
  addKernelNode(graph: number | NativeGraph, dependencies: NativeNodeArg[] | number | undefined, edgeData: NativeEdgeData[] | undefined, kernelSlot: number,
    record: ArrayBuffer, perTypeCall: boolean): Slot<NativeGraphNode>;
  setNodeParams(node: NativeGraphNode, params: Record<string, unknown>, perTypeCall: boolean): void;
  nodeParams(node: NativeGraphNode): Record<string, unknown> & { type: number };
  graphLaunch(execSlot: number, streamSlot: number): void;
  /** GraphExec setNodeParams for a kernel node: executable and node by slot, the fields one by one (lib/graph/node-params.ts EncodedKernelNode). */
  execSetKernelNodeParams(execSlot: number, nodeSlot: number, kernelSlot: number, record: ArrayBuffer, perTypeCall: boolean): void;
  /** A kernel node of the executable takes a prepared launch's kernel, configuration and current arguments. */
  execSetPreparedKernelNode(execSlot: number, nodeSlot: number, launchSlot: number): void;
  /**
   * record: the launch configuration, the counts, the parameters and the
   * [offset, memory slot] pairs of memory whose device address goes at offset
   * in the parameters (lib/kernel/kernel.ts PackedArgs).
   */
  kernelLaunch(record: ArrayBuffer): void;
  preparedLaunch(slot: number): void;
  instantiate(graph: NativeGraph, flags: number, uploadStreamSlot: number | undefined, detailed: boolean):
    Slot<NativeGraphExec> | { error: Error; result: number; node?: Slot<NativeGraphNode> };
  createConditionalHandle(graph: NativeGraph, ordinal: number, defaultValue?: number): Slot<NativeConditionalHandle>;
  graphMemoryAttribute(ordinal: number, attribute: number): number;
  resetGraphMemoryHigh(ordinal: number, attribute: number): void;
  trimGraphMemory(ordinal: number): void;
  createUserObject(destructor: () => void): Slot<NativeUserObject>;
  addExternalSemaphoreNode(graph: NativeGraph, dependencies: NativeNodeArg[], signal: boolean): Slot<NativeGraphNode>;
  externalSemaphoreCount(node: NativeGraphNode, signal: boolean): number;
  clearExternalSemaphores(node: NativeGraphNode, signal: boolean): void;
  decompressBatch(entries: Array<[MemorySlot, number, number, MemorySlot, number, number, MemorySlot, number, number]>, streamSlot: number): void;
  graphRetainUserObject(graph: NativeGraph, object: NativeUserObject, count: number, move: boolean): void;
  graphReleaseUserObject(graph: NativeGraph, object: NativeUserObject, count: number): void;
  beginCapture(streamSlot: number, mode: number, graph?: NativeGraph, after?: NativeNodeArg[], edgeData?: NativeEdgeData[]): void;
  updateCaptureDependencies(streamSlot: number, graph: NativeGraph, nodes: NativeNodeArg[], edgeData: NativeEdgeData[] | undefined, flags: number): void;
  endCapture(streamSlot: number, into: NativeGraph | undefined): Slot<NativeGraph> | undefined;
  captureStatus(streamSlot: number): number;
  captureInfo(streamSlot: number): { status: number; id: bigint; graph: bigint; dependencies: number };
  exchangeCaptureMode(mode: number): number;
  /** properties: [locationType, locationId, handleTypes, compression, gpuDirectRdma, usage] */
  allocationGranularity(properties: number[], recommended: boolean): number;
  createAllocation(properties: number[], bytes: number): Slot<NativePhysicalAllocation>;
  retainAllocation(pointer: MemorySlot | bigint, offset?: number): Slot<NativePhysicalAllocation>;
  importAllocation(handle: number | Uint8Array, handleType: number, bytes: number): Slot<NativePhysicalAllocation>;
  reserveAddress(ordinal: number, bytes: number, alignment: number, hint: bigint): Slot<NativeAddressReservation>;
  mapMemory(reservation: NativeAddressReservation, offset: number, segments: NativeSegment[], access: NativeAccessEntry[]): Slot<NativeVirtualMemory>;
  memoryAccess(pointer: MemorySlot | bigint, offset: number | undefined, locationType: number, locationId: number): number;
  dmaBufOf(memory: MemorySlot, offset: number, bytes: number, flags: number): Slot<NativeReceivedFd>;

  memoryView(memory: MemorySlot, offset: number, bytes: number, path: 'alias' | 'vmm'): Slot<NativeImportedMemory>;
  ipcMemoryHandle(memory: MemorySlot, offset: number): { handle: Buffer; offset: number; allocationSize: number };
  openIpcMemory(ordinal: number, handle: Uint8Array, offset: number, bytes: number): Slot<NativeImportedMemory>;
  ipcEventHandle(event: Slot<NativeEvent>): { handle: Buffer; ordinal: number };
  openIpcEvent(ordinal: number, handle: Uint8Array): Slot<NativeEvent>;
  aliasEvent(event: Slot<NativeEvent>): Slot<NativeEvent>;
  exportPool(pool: NativeMemoryPool | MemorySlot, handleType: number): Slot<NativeReceivedFd> | Buffer;
  importPool(ordinal: number, handle: number | Uint8Array, handleType: number, identity: string): Slot<NativeMemoryPool>;
  exportPoolPointer(memory: MemorySlot): Buffer;
  importPoolPointer(pool: NativeMemoryPool, data: Uint8Array, offset: number, bytes: number): Slot<NativeImportedMemory>;

  readonly fdChannelLimits: { maxPayloadBytes: number; maxFds: number; maxAddressBytes: number };
  /** timeoutMs -1: no timeout (also for connect and the channel's calls). */
  fdChannelListen(address: string, abstract: boolean, backlog: number): Slot<NativeFdChannelServer>;
  fdChannelConnect(address: string, abstract: boolean, timeoutMs: number): Promise<Slot<NativeFdChannel>>;
  loadLibraryData(code: Uint8Array, jit: NativeJitOptions | undefined): Slot<NativeLibrary>;
  loadLibraryFile(path: string, jit: NativeJitOptions | undefined): Slot<NativeLibrary>;
  loadModuleData(context: Slot<NativeContext>, code: Uint8Array, jit: NativeJitOptions | undefined): Slot<NativeModule>;
  moduleLoadingMode(): 'eager' | 'lazy';

  nvrtcStatus(): NativeNvrtcStatus;
  nvrtcCompile(request: NativeCompileRequest): NativeCompileOutcome;
  nvrtcCompileAsync(request: NativeCompileRequest): Promise<NativeCompileOutcome>;
}

export const native = generatedNative as NativeAddon;
