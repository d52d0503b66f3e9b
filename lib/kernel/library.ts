// Libraries: code loaded once for every context (cuLibrary*). Their kernels are
// context-independent: one Kernel launches on a stream of any context.
import { Context } from '../context';
import { Device } from '../device';
import { Disposable } from '../disposable';
import { native, NativeLibrary, Slot } from '../native';
import { checkCString, checkInstance, checkObject, checkOptions, noOptions } from '../validate';
import { checkJitOptions, CodeImage, codeBytes, DeviceVariable, JitOptions } from './code-load';
import { Kernel } from './kernel';
import { Module } from './module';

/** Options of {@link Library.load}. */
export interface LibraryLoadOptions {
  /** Options for the driver's JIT compiler, when the code is PTX. */
  jit?: JitOptions;
}

/**
 * Code loaded once for every context (cuLibraryLoadData): a compiled program,
 * PTX, a CUBIN or a fatbin. Its kernels are context-independent. It stays
 * loaded while any kernel, prepared launch, graph or queued launch uses it.
 */
export class Library extends Disposable<NativeLibrary> {
  /** @internal */
  constructor(handle: Slot<NativeLibrary>) {
    super(handle);
  }

  /** Loads a compiled program, PTX text, or CUBIN/fatbin/PTX bytes. */
  static load(code: CodeImage, options: LibraryLoadOptions = noOptions): Library {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Library.load', ['jit']);
    return new Library(native.loadLibraryData(codeBytes(code), checkJitOptions(options.jit)));
  }

  /** Loads a CUBIN, fatbin or PTX file. */
  static loadFile(path: string, options: LibraryLoadOptions = noOptions): Library {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Library.loadFile', ['jit']);
    return new Library(native.loadLibraryFile(checkCString(path, 'path'), checkJitOptions(options.jit)));
  }

  /** The CUlibrary value, for logs and comparisons. */
  get handle(): bigint {
    return native.libraryHandle(this.slot);
  }

  /** What the driver's JIT compiler said while loading PTX ('' otherwise). */
  get jitLog(): string {
    return native.libraryJitLog(this.slot);
  }

  /** The kernel with this (lowered) name; see CompiledProgram.loweredName for C++ names. */
  kernel(name: string): Kernel {
    return new Kernel(native.libraryKernel(this.slot, checkCString(name, 'name')));
  }

  /** How many kernels the library has. */
  get kernelCount(): number {
    return native.libraryKernelCount(this.slot);
  }

  /** Every kernel of the library. */
  kernels(): Kernel[] {
    return native.libraryKernels(this.slot).map((k) => new Kernel(k));
  }

  /** A __device__ or __constant__ variable, as it lives in one context (default: device 0's primary). */
  global(name: string, context: Context = Device.get(0).primaryContext): DeviceVariable {
    return native.libraryGlobal(this.slot, checkCString(name, 'name'), checkInstance(context, Context, 'context').slot);
  }

  /** A __managed__ variable, shared by every device. */
  managed(name: string): DeviceVariable {
    return native.libraryManaged(this.slot, checkCString(name, 'name'));
  }

  /** The address of a unified function (needs a device with unified function pointers). */
  unifiedFunction(symbol: string): bigint {
    return native.libraryUnifiedFunction(this.slot, checkCString(symbol, 'symbol'));
  }

  /** The library's module in one context (default: device 0's primary); the library owns it. */
  module(context: Context = Device.get(0).primaryContext): Module {
    checkInstance(context, Context, 'context');
    return new Module(native.libraryModule(this.slot, context.slot), context);
  }

  override toString(): string {
    return this.disposed ? 'Library(disposed)' : `Library(0x${this.handle.toString(16)})`;
  }
}
