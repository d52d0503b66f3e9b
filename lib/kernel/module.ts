// Modules: code loaded into one context (cuModule*). Their functions run only
// in that context. Most programs want a Library instead, which serves every context.
import { readFileSync } from 'fs';
import { Context } from '../context';
import { Device } from '../device';
import { Disposable } from '../disposable';
import { native, NativeModule, Slot } from '../native';
import { checkCString, checkInstance, checkObject, checkOptions, noOptions } from '../validate';
import { checkJitOptions, CodeImage, codeBytes, DeviceVariable, JitOptions } from './code-load';
import { Kernel } from './kernel';

/** Options of {@link Module.load}. */
export interface ModuleLoadOptions {
  /** The context to load into (default: device 0's primary context). */
  context?: Context;
  /** Options for the driver's JIT compiler, when the code is PTX. */
  jit?: JitOptions;
}

/** Options of {@link Module.fromFile} and {@link Module.fromFatBinary}. */
export interface ModuleImageOptions {
  /** The context to load into (default: device 0's primary context). */
  context?: Context;
}

function imageContext(options: ModuleImageOptions, method: string): Context {
  checkObject(options, 'options');
  checkOptions(options, 'options', method, ['context']);
  return options.context === undefined ? Device.get(0).primaryContext : checkInstance(options.context, Context, 'options.context');
}

/**
 * Code loaded into one context (cuModuleLoadDataEx); its functions run only
 * there. Most programs want a {@link Library}, which serves every context.
 */
export class Module extends Disposable<NativeModule> {
  /** The context the module is loaded in. */
  readonly context: Context;

  /** @internal */
  constructor(handle: Slot<NativeModule>, context: Context) {
    super(handle);
    this.context = context;
  }

  /** Loads a compiled program, PTX text, or CUBIN/fatbin/PTX bytes into a context. */
  static load(code: CodeImage, options: ModuleLoadOptions = noOptions): Module {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Module.load', ['context', 'jit']);
    const context = options.context === undefined ? Device.get(0).primaryContext : checkInstance(options.context, Context, 'options.context');
    return new Module(native.loadModuleData(context.slot, codeBytes(code), checkJitOptions(options.jit)), context);
  }

  /** Loads a CUBIN, fatbin or PTX file into a context. */
  static loadFile(path: string, options: ModuleLoadOptions = noOptions): Module {
    return Module.load(readFileSync(checkCString(path, 'path')), options);
  }

  /**
   * Loads a CUBIN, PTX or fatbin file that the driver opens and reads itself
   * (cuModuleLoad), without JIT options; a missing file is a CudaError with code
   * CUDA_ERROR_FILE_NOT_FOUND. {@link loadFile} reads it here instead and takes them.
   */
  static fromFile(path: string, options: ModuleImageOptions = noOptions): Module {
    const context = imageContext(options, 'Module.fromFile');
    return new Module(native.loadModuleFile(context.slot, checkCString(path, 'path')), context);
  }

  /**
   * Loads a fat binary (`nvcc -fatbin` output: code for several architectures,
   * the driver picking the best for the device) with cuModuleLoadFatBinary. The
   * bytes must start with a fatbin header whose sizes fit in them (a RangeError otherwise).
   */
  static fromFatBinary(bytes: Uint8Array, options: ModuleImageOptions = noOptions): Module {
    const context = imageContext(options, 'Module.fromFatBinary');
    if (!(bytes instanceof Uint8Array)) throw new TypeError('bytes must be a Uint8Array holding a fat binary');
    return new Module(native.loadModuleFatBinary(context.slot, bytes), context);
  }

  /** How this process loads code: 'lazy' (on first use; CUDA_MODULE_LOADING=LAZY, the default) or 'eager'. */
  static loadingMode(): 'eager' | 'lazy' {
    return native.moduleLoadingMode();
  }

  /** The CUmodule value, for logs and comparisons. */
  get handle(): bigint {
    return native.moduleHandle(this.slot);
  }

  /** What the driver's JIT compiler said while loading PTX ('' otherwise). */
  get jitLog(): string {
    return native.moduleJitLog(this.slot);
  }

  /** True for a library's module (Library.module): the library unloads it. */
  get ownedByLibrary(): boolean {
    return native.moduleOwnedByLibrary(this.slot);
  }

  /** The function with this (lowered) name. */
  function(name: string): Kernel {
    return new Kernel(native.moduleFunction(this.slot, checkCString(name, 'name')), this.context);
  }

  /** How many functions the module has. */
  get functionCount(): number {
    return native.moduleFunctionCount(this.slot);
  }

  /** Every function of the module. */
  functions(): Kernel[] {
    return native.moduleFunctions(this.slot).map((f) => new Kernel(f, this.context));
  }

  /** A __device__ or __constant__ variable of the module. */
  global(name: string): DeviceVariable {
    return native.moduleGlobal(this.slot, checkCString(name, 'name'));
  }

  override toString(): string {
    return this.disposed ? 'Module(disposed)' : `Module(0x${this.handle.toString(16)}, device ${this.context.deviceOrdinal})`;
  }
}
