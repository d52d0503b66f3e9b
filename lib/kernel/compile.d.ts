import { DeviceLike } from '../device';
import { NativeCompileOutcome } from '../native';
/** What NVRTC is installed, if any. */
export interface NvrtcStatus {
    readonly available: boolean;
    /** The library opened, or every path tried when none could be. NVRTC_LIBRARY overrides the search. */
    readonly libraryPath: string;
    /** Why loading failed, or ''. */
    readonly detail: string;
    readonly version: {
        major: number;
        minor: number;
    } | null;
    /** The real architectures NVRTC can compile for (90 for sm_90, ...). */
    readonly supportedArchs: readonly number[];
}
/** Loads NVRTC if that has not been tried yet and says what is there; never throws. */
export declare function nvrtcStatus(): NvrtcStatus;
/** NVRTC could not be loaded; thrown by the first compile. */
export declare class NvrtcUnavailableError extends Error {
    /** The paths tried, or the library that loaded but was unusable. */
    readonly libraryPath: string;
    /** The system's reason (dlopen's message, a missing entry point). */
    readonly detail: string;
    constructor(libraryPath: string, detail: string);
}
/** NVRTC refused the program; `log` holds everything the compiler said. */
export declare class CompileError extends Error {
    /** NVRTC's result code (6 for NVRTC_ERROR_COMPILATION). */
    readonly result: number;
    /** NVRTC's name for it, e.g. `NVRTC_ERROR_COMPILATION`. */
    readonly resultName: string;
    /** Where it failed: 'compile', 'create', 'name-expression', 'lowered-name' or 'output'. */
    readonly stage: string;
    /** The compiler's full log. */
    readonly log: string;
    /** The options the program was compiled with, as NVRTC got them. */
    readonly options: readonly string[];
    /** The program's name (the file name the log refers to). */
    readonly programName: string;
    constructor(outcome: NativeCompileOutcome, programName: string, options: readonly string[]);
}
/** What the compiler produces: PTX (JIT-compiled by the driver at load) or CUBIN (one real architecture). */
export type CompileOutput = 'ptx' | 'cubin';
export interface CompileOptions {
    /** The program's file name in the log (default `kernel.cu`). */
    name?: string;
    /**
     * The target: `'sm_90'` (a real architecture: CUBIN by default), `'compute_90'`
     * (virtual: PTX), or 90 (same as 'sm_90'). Default: the architecture of `device`.
     */
    arch?: string | number;
    /** The device whose architecture is the default target (default: device 0). */
    device?: DeviceLike;
    /** PTX or CUBIN. Default: CUBIN for a real architecture, PTX for a virtual one. */
    output?: CompileOutput;
    /** Directories searched by #include (--include-path). */
    includePaths?: string[];
    /** Preprocessor definitions (--define-macro); `true` defines the name alone. */
    defines?: Record<string, string | number | true>;
    /** Headers given by source: #include name → text. */
    headers?: Record<string, string>;
    /**
     * C++ names whose lowered (mangled) names you need, e.g. `'scale<float>'`;
     * read them from {@link CompiledProgram.loweredName}.
     */
    nameExpressions?: string[];
    /** Any further NVRTC options, passed as given (`-std=c++17`, `-lineinfo`, `--use_fast_math`, ...). */
    options?: string[];
}
/** The result of a successful compile. */
export declare class CompiledProgram {
    #private;
    /** PTX text (as bytes, no terminating NUL) or the CUBIN image. */
    readonly code: Uint8Array;
    readonly output: CompileOutput;
    /** The architecture compiled for, e.g. `sm_90` or `compute_90`. */
    readonly arch: string;
    /** The program's name. */
    readonly name: string;
    /** Warnings and notes from the compiler ('' when it said nothing). */
    readonly log: string;
    /** The options NVRTC was given. */
    readonly options: readonly string[];
    /** @internal */
    constructor(outcome: NativeCompileOutcome, name: string, arch: string, output: CompileOutput, options: readonly string[]);
    /** The PTX text; only for PTX output. */
    get ptx(): string;
    /** The lowered (mangled) name of a name expression given at compile time. */
    loweredName(expression: string): string;
    /** Every name expression and its lowered name. */
    get loweredNames(): ReadonlyMap<string, string>;
}
/** Compiles CUDA C++ source, blocking the calling thread; throws CompileError with the log on failure. */
export declare function compile(source: string, options?: CompileOptions): CompiledProgram;
/** The same, compiled on a worker thread: the event loop keeps running meanwhile. */
export declare function compileAsync(source: string, options?: CompileOptions): Promise<CompiledProgram>;
