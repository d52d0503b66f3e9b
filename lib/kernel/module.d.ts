import { Context } from '../context';
import { Disposable } from '../disposable';
import { NativeModule } from '../native';
import { CodeImage, DeviceVariable, JitOptions } from './code-load';
import { Kernel } from './kernel';
export interface ModuleLoadOptions {
    /** The context to load into (default: device 0's primary context). */
    context?: Context;
    jit?: JitOptions;
}
export declare class Module extends Disposable<NativeModule> {
    /** The context the module is loaded in. */
    readonly context: Context;
    /** @internal */
    constructor(handle: NativeModule, context: Context);
    /** Loads a compiled program, PTX text, or CUBIN/fatbin/PTX bytes into a context. */
    static load(code: CodeImage, options?: ModuleLoadOptions): Module;
    /** Loads a CUBIN, fatbin or PTX file into a context. */
    static loadFile(path: string, options?: ModuleLoadOptions): Module;
    /** How this process loads code: 'lazy' (on first use; CUDA_MODULE_LOADING=LAZY, the default) or 'eager'. */
    static loadingMode(): 'eager' | 'lazy';
    /** The CUmodule value, for logs and comparisons. */
    get handle(): bigint;
    /** What the driver's JIT compiler said while loading PTX ('' otherwise). */
    get jitLog(): string;
    /** True for a library's module (Library.module): the library unloads it. */
    get ownedByLibrary(): boolean;
    /** The function with this (lowered) name. */
    function(name: string): Kernel;
    get functionCount(): number;
    /** Every function of the module. */
    functions(): Kernel[];
    /** A __device__ or __constant__ variable of the module. */
    global(name: string): DeviceVariable;
    toString(): string;
}
