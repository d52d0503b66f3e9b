// What loading a module or library takes and gives: code images (a compiled
// program, PTX text, or CUBIN/fatbin/PTX bytes), options for the driver's JIT
// compiler, and the variables loaded code exposes.
import { CompiledProgram } from './compile';
import { LinkedProgram } from './linked-program';
import { checkBoolean, checkInteger } from '../validate';

/** Code to load: a compile's or a link's result, PTX text, or the bytes of a CUBIN, fatbin or PTX. */
export type CodeImage = CompiledProgram | LinkedProgram | Uint8Array | string;

/** Options for the driver's JIT compiler; they apply when PTX is loaded. */
export interface JitOptions {
  /** The most registers a thread may use. */
  maxRegisters?: number;
  /** 0 to 4 (the default, highest). */
  optimizationLevel?: number;
  /** Generate debug information (-G). */
  generateDebugInfo?: boolean;
  /** Generate line information (-lineinfo), for profilers. */
  generateLineInfo?: boolean;
  /** A fuller JIT log (see jitLog). */
  logVerbose?: boolean;
}

/** A variable of loaded code (__device__, __constant__ or __managed__): where it lives and how big it is. */
export interface DeviceVariable {
  /** Its device address. */
  readonly address: bigint;
  /** Its size in bytes. */
  readonly size: number;
}

export function codeBytes(code: CodeImage, name = 'code'): Uint8Array {
  if (code instanceof CompiledProgram || code instanceof LinkedProgram) return code.code;
  if (typeof code === 'string') {
    if (code.includes('\0')) throw new RangeError(`${name} must not contain NUL characters (PTX text ends at the first)`);
    return Buffer.from(code, 'utf8');
  }
  if (code instanceof Uint8Array) {
    if (code.length === 0) throw new RangeError(`${name} must not be empty`);
    return code;
  }
  throw new TypeError(`${name} must be a CompiledProgram, a LinkedProgram, PTX text or a Uint8Array of CUBIN, fatbin or PTX`);
}

export function checkJitOptions(options: JitOptions | undefined): JitOptions | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== 'object') throw new TypeError('jit must be an object');
  const { maxRegisters, optimizationLevel, generateDebugInfo, generateLineInfo, logVerbose } = options;
  if (maxRegisters !== undefined) checkInteger(maxRegisters, 'jit.maxRegisters', 1, 255);
  if (optimizationLevel !== undefined) checkInteger(optimizationLevel, 'jit.optimizationLevel', 0, 4);
  if (generateDebugInfo !== undefined) checkBoolean(generateDebugInfo, 'jit.generateDebugInfo');
  if (generateLineInfo !== undefined) checkBoolean(generateLineInfo, 'jit.generateLineInfo');
  if (logVerbose !== undefined) checkBoolean(logVerbose, 'jit.logVerbose');
  return { maxRegisters, optimizationLevel, generateDebugInfo, generateLineInfo, logVerbose };
}
