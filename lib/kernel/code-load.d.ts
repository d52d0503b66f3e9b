import { CompiledProgram } from './compile';
/** Code to load: a compile's result, PTX text, or the bytes of a CUBIN, fatbin or PTX. */
export type CodeImage = CompiledProgram | Uint8Array | string;
/** Options for the driver's JIT compiler; they apply when PTX is loaded. */
export interface JitOptions {
    /** The most registers a thread may use. */
    maxRegisters?: number;
    /** 0 to 4 (the default, highest). */
    optimizationLevel?: number;
    generateDebugInfo?: boolean;
    generateLineInfo?: boolean;
    /** A fuller JIT log (see jitLog). */
    logVerbose?: boolean;
}
/** A variable of loaded code (__device__, __constant__ or __managed__): where it lives and how big it is. */
export interface DeviceVariable {
    readonly address: bigint;
    readonly size: number;
}
export declare function codeBytes(code: CodeImage, name?: string): Uint8Array;
export declare function checkJitOptions(options: JitOptions | undefined): JitOptions | undefined;
