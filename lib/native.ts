// The typed view of the C++ addon. Only lib/ imports this; users see the
// classes built on it.
import bindings from 'bindings';
import { isMainThread } from 'worker_threads';

/** What every native handle object has (native/handle.h). */
export interface NativeHandle {
  dispose(): void;
  readonly alive: boolean;
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
  kernel(name: string): NativeKernel;
  kernelCount(): number;
  kernels(): NativeKernel[];
  global(name: string, context: NativeContext): NativeDeviceVariable;
  managed(name: string): NativeDeviceVariable;
  unifiedFunction(symbol: string): bigint;
  module(context: NativeContext): NativeModule;
  /** How many streams the library holds for launches that may still run (for tests). */
  heldStreams(): number;
}

export interface NativeModule extends NativeHandle {
  readonly handle: bigint;
  readonly jitLog: string;
  readonly ownedByLibrary: boolean;
  function(name: string): NativeKernel;
  functionCount(): number;
  functions(): NativeKernel[];
  global(name: string): NativeDeviceVariable;
  heldStreams(): number;
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
}

export interface NativeDriverStatus {
  stage: 'not-loaded' | 'library-missing' | 'driver-too-old' | 'init-failed' | 'ready';
  libraryPath: string;
  detail: string;
  initResult: number;
  initResultName: string;
  driverVersion: number;
  headerVersion: number;
}

/** Builds the error the addon throws: see native/errors.cc. */
export type ErrorFactory = (
  kind: 'cuda' | 'unavailable' | 'missing' | 'disposed',
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

export interface NativeAddon {
  readonly headerVersion: number;
  setErrorFactory(factory: ErrorFactory): void;
  markMainThread(): void;

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

  primaryContext(ordinal: number): NativeContext;
  createContext(ordinal: number, flags: number): NativeContext;
  currentContext(): bigint;
  popCurrentContext(): bigint;
  primaryContextState(ordinal: number): { flags: number; active: boolean };
  setPrimaryContextFlags(ordinal: number, flags: number): void;
  resetPrimaryContext(ordinal: number): void;

  loadLibraryData(code: Uint8Array, jit: NativeJitOptions | undefined): NativeLibrary;
  loadLibraryFile(path: string, jit: NativeJitOptions | undefined): NativeLibrary;
  loadModuleData(context: NativeContext, code: Uint8Array, jit: NativeJitOptions | undefined): NativeModule;
  moduleLoadingMode(): 'eager' | 'lazy';

  nvrtcStatus(): NativeNvrtcStatus;
  nvrtcCompile(request: NativeCompileRequest): NativeCompileOutcome;
  nvrtcCompileAsync(request: NativeCompileRequest): Promise<NativeCompileOutcome>;
}

export const native: NativeAddon = bindings('cuda_driver');
if (isMainThread) native.markMainThread();
