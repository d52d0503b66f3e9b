// The typed view of the C++ addon. Only lib/ imports this; users see the
// classes built on it.
import {
  MemorySlot, native as generatedNative, NativeAccessEntry, NativeAddon as GeneratedAddon, NativeBytes, NativeEvent, NativeHandle as HandleBrand,
  NativeImportedMemory, NativeMemoryPool, NativeReceivedFd, NativeSegment, NativeWait, Slot,
} from './generated/native';

export { MemorySlot, NativeAccessEntry, NativeBytes, NativeEvent, NativeImportedMemory, NativeMemoryPool, NativeReceivedFd, NativeSegment, NativeWait, Slot };

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
  global(name: string, context: NativeContext): NativeDeviceVariable;
  managed(name: string): NativeDeviceVariable;
  unifiedFunction(symbol: string): bigint;
  module(context: NativeContext): Slot<NativeModule>;
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
  isLoaded(context: NativeContext | null): boolean;
  load(context: NativeContext | null): void;
  maxActiveBlocksPerMultiprocessor(context: NativeContext | null, blockSize: number, dynamicSharedMemory: number, flags: number): number;
  maxPotentialBlockSize(context: NativeContext | null, dynamicSharedMemory: number | ((blockSize: number) => number),
    blockSizeLimit: number, flags: number): { minGridSize: number; blockSize: number };
  availableDynamicSharedMemoryPerBlock(context: NativeContext | null, blocks: number, blockSize: number): number;
  maxPotentialClusterSize(context: NativeContext | null, config: Int32Array): number;
  maxActiveClusters(context: NativeContext | null, config: Int32Array): number;
  /** bytes: the packed size, used only when the driver cannot report the layout. */
  prepare(stream: NativeStream, config: Int32Array, bytes: number): Slot<NativePreparedLaunch>;
}

export interface NativePreparedLaunch extends NativeHandle {
  /** The parameter buffer (native memory) the arguments are written into. */
  readonly arguments: ArrayBuffer;
  /** Writes memory's device address at offset and keeps the memory for the launches (null: keeps none). */
  setPointer(offset: number, memory: MemorySlot | null): void;
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







  /**
   * record: the launch configuration, the counts, the parameters and the
   * [offset, memory slot] pairs of memory whose device address goes at offset
   * in the parameters (lib/kernel/kernel.ts PackedArgs).
   */
  kernelLaunch(record: ArrayBuffer): void;
  preparedLaunch(slot: number): void;

  loadLibraryData(code: Uint8Array, jit: NativeJitOptions | undefined): Slot<NativeLibrary>;
  loadLibraryFile(path: string, jit: NativeJitOptions | undefined): Slot<NativeLibrary>;
  loadModuleData(context: NativeContext, code: Uint8Array, jit: NativeJitOptions | undefined): Slot<NativeModule>;
  moduleLoadingMode(): 'eager' | 'lazy';

  nvrtcStatus(): NativeNvrtcStatus;
  nvrtcCompile(request: NativeCompileRequest): NativeCompileOutcome;
  nvrtcCompileAsync(request: NativeCompileRequest): Promise<NativeCompileOutcome>;
}

export const native = generatedNative as NativeAddon;
