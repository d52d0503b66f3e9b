import { Context } from '../context';
import { Disposable } from '../disposable';
import { NativeLibrary } from '../native';
import { CodeImage, DeviceVariable, JitOptions } from './code-load';
import { Kernel } from './kernel';
import { Module } from './module';
export interface LibraryLoadOptions {
    jit?: JitOptions;
}
export declare class Library extends Disposable<NativeLibrary> {
    /** @internal */
    constructor(handle: NativeLibrary);
    /** Loads a compiled program, PTX text, or CUBIN/fatbin/PTX bytes. */
    static load(code: CodeImage, options?: LibraryLoadOptions): Library;
    /** Loads a CUBIN, fatbin or PTX file. */
    static loadFile(path: string, options?: LibraryLoadOptions): Library;
    /** The CUlibrary value, for logs and comparisons. */
    get handle(): bigint;
    /** What the driver's JIT compiler said while loading PTX ('' otherwise). */
    get jitLog(): string;
    /** The kernel with this (lowered) name; see CompiledProgram.loweredName for C++ names. */
    kernel(name: string): Kernel;
    get kernelCount(): number;
    /** Every kernel of the library. */
    kernels(): Kernel[];
    /** A __device__ or __constant__ variable, as it lives in one context (default: device 0's primary). */
    global(name: string, context?: Context): DeviceVariable;
    /** A __managed__ variable, shared by every device. */
    managed(name: string): DeviceVariable;
    /** The address of a unified function (needs a device with unified function pointers). */
    unifiedFunction(symbol: string): bigint;
    /** The library's module in one context (default: device 0's primary); the library owns it. */
    module(context?: Context): Module;
    toString(): string;
}
