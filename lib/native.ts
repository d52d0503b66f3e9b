// The typed view of the C++ addon. Only lib/ imports this; users see the
// classes built on it.
import { native as generatedNative, NativeAddon as GeneratedAddon, NativeEvent, NativeHandle as HandleBrand, NativeWait, Slot } from './generated/native';

export { NativeEvent, NativeWait, Slot };

/** What every native handle object (a "view", native/core/handle.h) has. */
export interface NativeHandle extends HandleBrand {
  dispose(): void;
  readonly alive: boolean;
  /** The handle's number in the native slot table: calls name handles by it (native/core/slots.h). */
  readonly slot: number;
}


export interface NativeContext extends NativeHandle {
  readonly handle: bigint;
  readonly ordinal: number;
  readonly isPrimary: boolean;
  makeCurrent(): void;
  pushCurrent(): void;
  synchronize(): void;
  apiVersion(): number;
  id(): bigint;
  device(): number;
  flags(): number;
  setFlags(flags: number): void;
  getLimit(limit: number): number;
  setLimit(limit: number, value: number | bigint): void;
  streamPriorityRange(): { least: number; greatest: number };
  resetPersistingL2Cache(): void;
  enablePeerAccess(peer: NativeContext): void;
  disablePeerAccess(peer: NativeContext): void;
}

export interface NativeStream extends NativeHandle {
  readonly handle: bigint;
  readonly ordinal: number;
  query(): boolean;
  synchronize(): void;
  synchronizeAsync(): Promise<void>;
  synchronizeAbandonable(): NativeWait;
  waitEvent(event: Slot<NativeEvent>, flags: number): void;
  flags(): number;
  priority(): number;
  id(): bigint;
  contextHandle(viaV2?: boolean): bigint;
  device(): number;
  getAttribute(attribute: number): Buffer;
  setAttribute(attribute: number, value: Uint8Array): void;
  copyAttributesFrom(source: NativeStream): void;
  attachMemory(buffer: MemorySlot, flags: number): void;
  waitValue(target: MemorySlot, offset: number, value: number | bigint, flags: number, is64: boolean): void;
  writeValue(target: MemorySlot, offset: number, value: number | bigint, flags: number, is64: boolean): void;
  batchMemoryOps(ops: Array<[number, MemorySlot | undefined, number, number | bigint, number]>, flags: number): void;
  pendingResources(): number;
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

export interface NativeDriverStatus {
  stage: 'addon-missing' | 'not-loaded' | 'library-missing' | 'driver-too-old' | 'init-failed' | 'ready';
  libraryPath: string;
  detail: string;
  initResult: number;
  initResultName: string;
  driverVersion: number;
  headerVersion: number;
}

/** Builds the error the addon throws: see native/core/errors.cc. */
export type ErrorFactory = (
  kind: 'cuda' | 'unavailable' | 'missing' | 'disposed' | 'system' | 'timeout' | 'closed' | 'protocol' | 'type' | 'range',
  code: number,
  name: string,
  message: string,
  call: string | null,
  detail: string,
  requiredVersion: number,
) => Error;

export interface NativeAddon extends GeneratedAddon {
  readonly headerVersion: number;
  setErrorFactory(factory: ErrorFactory): void;

  /**
   * The handle queue (native/core/slots.h): [count, ...entries], each entry a slot an
   * object adopted, or -1 - a slot whose owner was collected. A new array over
   * the same storage each call.
   */
  handleQueue(): Float64Array;
  /** Acts on the queue's entries and empties it (when full; the table drains it itself before it reads ownership). */
  drainHandleQueue(): void;
  /** A native object of the slot's class, for the calls that are its methods. */
  handleView<H extends NativeHandle>(slot: Slot<H>): H;
  disposeHandle(slot: number): void;
  handleAlive(slot: number): boolean;

  /** Settles the wait numbered id (NativeWait) with reason, if it is still pending. */
  abandonWait(id: number, reason: unknown): void;
  /**
   * A cancel signal for the next wait started on a wait thread of this
   * environment (FdChannel's waits): cancelWait(id) ends that wait as its
   * handle's dispose() would. disarmWaitCancel() after starting it (or failing to).
   */
  armWaitCancel(): number;
  disarmWaitCancel(): void;
  cancelWait(id: number): void;

  driverStatus(): NativeDriverStatus;
  driverFunctions(): Array<[name: string, version: number, available: boolean]>;
  setCounting(enabled: boolean): void;
  isCounting(): boolean;
  readCounters(): Array<[name: string, calls: number, errors: number]>;
  resetCounters(): void;

  deviceCount(): number;
  deviceByPciBusId(busId: string): number;
  deviceName(ordinal: number): string;
  deviceUuid(ordinal: number): Buffer;
  devicePciBusId(ordinal: number): string;
  deviceTotalMemory(ordinal: number): number;
  deviceAttribute(ordinal: number, attribute: number): number;
  deviceCanAccessPeer(ordinal: number, peer: number): boolean;
  deviceP2PAttribute(ordinal: number, peer: number, attribute: number): number;

  primaryContext(ordinal: number): Slot<NativeContext>;
  createContext(ordinal: number, flags: number): Slot<NativeContext>;
  currentContext(): bigint;
  popCurrentContext(): bigint;
  primaryContextState(ordinal: number): { flags: number; active: boolean };
  setPrimaryContextFlags(ordinal: number, flags: number): void;
  resetPrimaryContext(ordinal: number): void;

  Stream: unknown;
  createStream(ordinal: number, flags: number, priority?: number): Slot<NativeStream>;
  specialStream(ordinal: number, perThread: boolean): Slot<NativeStream>;
  launchHostFunction(streamSlot: number, callback: () => void): void;
  addStreamCallback(streamSlot: number, callback: (error: Error | null) => void): void;


  allocate(ordinal: number, bytes: number, context?: NativeContext): Slot<NativeDeviceBuffer>;
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
}

export const native = generatedNative as NativeAddon;
