// The typed view of the C++ addon. Only lib/ imports this; users see the
// classes built on it.
import {
  MemorySlot, native as generatedNative, NativeAccessEntry, NativeAddon as GeneratedAddon, NativeBytes, NativeContext, NativeEvent,
  NativeHandle as HandleBrand, NativeImportedMemory, NativeMemoryPool, NativeReceivedFd, NativeSegment, NativeStream, NativeWait, Slot,
} from './generated/native';

export {
  MemorySlot, NativeAccessEntry, NativeBytes, NativeContext, NativeEvent, NativeImportedMemory, NativeMemoryPool, NativeReceivedFd, NativeSegment,
  NativeStream, NativeWait, Slot,
};

/** What every native handle object (a "view", native/core/handle.h) has. */
export interface NativeHandle extends HandleBrand {
  dispose(): void;
  readonly alive: boolean;
  /** The handle's number in the native slot table: calls name handles by it (native/core/slots.h). */
  readonly slot: number;
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





  /**
   * record: the launch configuration, the counts, the parameters and the
   * [offset, memory slot] pairs of memory whose device address goes at offset
   * in the parameters (lib/kernel/kernel.ts PackedArgs).
   */
  kernelLaunch(record: ArrayBuffer): void;
  preparedLaunch(slot: number): void;

  loadLibraryData(code: Uint8Array, jit: NativeJitOptions | undefined): Slot<NativeLibrary>;
  loadLibraryFile(path: string, jit: NativeJitOptions | undefined): Slot<NativeLibrary>;
  loadModuleData(context: Slot<NativeContext>, code: Uint8Array, jit: NativeJitOptions | undefined): Slot<NativeModule>;
  moduleLoadingMode(): 'eager' | 'lazy';

  nvrtcStatus(): NativeNvrtcStatus;
  nvrtcCompile(request: NativeCompileRequest): NativeCompileOutcome;
  nvrtcCompileAsync(request: NativeCompileRequest): Promise<NativeCompileOutcome>;
}

export const native = generatedNative as NativeAddon;
