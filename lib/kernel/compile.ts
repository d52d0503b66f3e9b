// Compiling CUDA C++ at run time with NVRTC. NVRTC is opened on the first
// compile (or nvrtcStatus()), never at import: a machine without it can use
// everything else, and the first compile says what is missing.
import { Device, DeviceLike, ordinalOf } from '../device';
import { native, NativeCompileOutcome, NativeCompileRequest } from '../native';
import { CudaUnavailableError } from '../unavailable-error';
import { checkBoolean, checkCString, checkInteger, checkObject, checkOptions, noOptions } from '../validate';
import { checkWaitOptions, raceWait, WaitOptions } from '../wait-options';

/** What NVRTC is installed, if any. */
export interface NvrtcStatus {
  /** True when NVRTC could be loaded. */
  readonly available: boolean;
  /** The library opened, or every path tried when none could be. NVRTC_LIBRARY overrides the search. */
  readonly libraryPath: string;
  /** Why loading failed, or ''. */
  readonly detail: string;
  /** NVRTC's version, when it loaded. */
  readonly version: {
    /** The major version. */
    major: number;
    /** The minor version. */
    minor: number;
  } | null;
  /** The real architectures NVRTC can compile for (90 for sm_90, ...). */
  readonly supportedArchs: readonly number[];
}

/** Loads NVRTC if that has not been tried yet and says what is there; never throws. */
export function nvrtcStatus(): NvrtcStatus {
  const s = native.nvrtcStatus();
  return Object.freeze({
    available: s.available,
    libraryPath: s.libraryPath,
    detail: s.detail,
    version: s.version ? { major: s.version[0], minor: s.version[1] } : null,
    supportedArchs: Object.freeze([...(s.supportedArchs ?? [])]),
  });
}

/** NVRTC could not be loaded; thrown by the first compile. A CudaUnavailableError. */
export class NvrtcUnavailableError extends CudaUnavailableError {
  /** 'ERR_CUDA_NVRTC_UNAVAILABLE'. */
  readonly code = 'ERR_CUDA_NVRTC_UNAVAILABLE';
  /** 'nvrtc-unavailable'. */
  readonly reason = 'nvrtc-unavailable';
  /** The paths tried, or the library that loaded but was unusable. */
  readonly libraryPath: string;
  /** The system's reason (dlopen's message, a missing entry point). */
  readonly detail: string;
  constructor(libraryPath: string, detail: string) {
    super(`NVRTC could not be loaded (tried ${libraryPath}: ${detail}); install CUDA's NVRTC library ` +
      `(e.g. the cuda-nvrtc package of your CUDA version) or set NVRTC_LIBRARY to the path of libnvrtc.so`);
    this.name = 'NvrtcUnavailableError';
    this.libraryPath = libraryPath;
    this.detail = detail;
  }
}

/** Where a compilation failed. */
export type CompileStage = 'compile' | 'create' | 'name-expression' | 'lowered-name' | 'output';

/** NVRTC refused the program; `log` holds everything the compiler said. */
export class CompileError extends Error {
  /** NVRTC's name for its result, e.g. `NVRTC_ERROR_COMPILATION` (the same as resultName). */
  readonly code: string;
  /** NVRTC's result code (6 for NVRTC_ERROR_COMPILATION). */
  readonly result: number;
  /** NVRTC's name for it, e.g. `NVRTC_ERROR_COMPILATION`. */
  readonly resultName: string;
  /** Where it failed: 'compile', 'create', 'name-expression', 'lowered-name' or 'output'. */
  readonly stage: CompileStage;
  /** The compiler's full log. */
  readonly log: string;
  /** The options the program was compiled with, as NVRTC got them. */
  readonly options: readonly string[];
  /** The program's name (the file name the log refers to). */
  readonly programName: string;
  /** @internal */
  constructor(outcome: NativeCompileOutcome, programName: string, options: readonly string[]) {
    const what = outcome.stage === 'compile' ? 'failed to compile' : `failed at ${outcome.stage}${outcome.detail ? ` (${outcome.detail})` : ''}`;
    super(`${programName} ${what}: ${outcome.resultName}${outcome.log ? `\n${outcome.log.trimEnd()}` : ''}`);
    this.name = 'CompileError';
    this.result = outcome.result;
    this.code = outcome.resultName;
    this.resultName = outcome.resultName;
    this.stage = outcome.stage as CompileStage;
    this.log = outcome.log;
    this.options = options;
    this.programName = programName;
  }
}

/** What the compiler produces: PTX (JIT-compiled by the driver at load) or CUBIN (one real architecture). */
export type CompileOutput = 'ptx' | 'cubin';

/** Options of {@link compile} and {@link compileAsync}. */
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
  /**
   * Relocatable device code (NVRTC's `--relocatable-device-code=true`): code
   * that calls functions defined elsewhere, such as the device runtime's
   * cudaGraphLaunch, and must go through {@link link} before it loads.
   */
  relocatable?: boolean;
  /** Any further NVRTC options, passed as given (`-std=c++17`, `-lineinfo`, `--use_fast_math`, ...). */
  options?: string[];
}

/** The result of a successful compile. */
export class CompiledProgram {
  /** PTX text (as bytes, no terminating NUL) or the CUBIN image. */
  readonly code: Uint8Array;
  /** What `code` holds: 'cubin' or 'ptx'. */
  readonly output: CompileOutput;
  /** The architecture compiled for, e.g. `sm_90` or `compute_90`. */
  readonly arch: string;
  /** The program's name. */
  readonly name: string;
  /** Warnings and notes from the compiler ('' when it said nothing). */
  readonly log: string;
  /** The options NVRTC was given. */
  readonly options: readonly string[];
  /** True for relocatable device code, to be linked (see {@link link}) before it loads. */
  readonly relocatable: boolean;
  readonly #lowered: ReadonlyMap<string, string>;

  /** @internal */
  constructor(outcome: NativeCompileOutcome, name: string, arch: string, output: CompileOutput, options: readonly string[]) {
    this.code = outcome.code!;
    this.output = output;
    this.arch = arch;
    this.name = name;
    this.log = outcome.log;
    this.options = options;
    this.relocatable = options.some((o) => relocatableFlag.test(o));
    this.#lowered = new Map(outcome.loweredNames);
  }

  /** The PTX text; only for PTX output. */
  get ptx(): string {
    if (this.output !== 'ptx') throw new Error(`${this.name} was compiled to ${this.output}, not PTX`);
    return Buffer.from(this.code).toString('utf8');
  }

  /** The lowered (mangled) name of a name expression given at compile time. */
  loweredName(expression: string): string {
    const lowered = this.#lowered.get(expression);
    if (lowered === undefined) {
      throw new RangeError(`'${expression}' was not among the nameExpressions of ${this.name}; ` +
        `known: ${[...this.#lowered.keys()].map((e) => `'${e}'`).join(', ') || 'none'}`);
    }
    return lowered;
  }

  /** Every name expression and its lowered name. */
  get loweredNames(): ReadonlyMap<string, string> {
    return this.#lowered;
  }
}

interface PreparedCompile {
  request: NativeCompileRequest;
  arch: string;
  output: CompileOutput;
}

/** Compiles CUDA C++ source, blocking the calling thread; throws CompileError with the log on failure. */
export function compile(source: string, options: CompileOptions = noOptions): CompiledProgram {
  checkOptions(checkObject(options, 'options'), 'options', 'compile', compileKeys);
  const prepared = prepare(source, options);
  return finish(native.nvrtcCompile(prepared.request), prepared);
}

/** Options of {@link compileAsync}: those of {@link compile}, and a way to give up the wait. */
export interface CompileAsyncOptions extends CompileOptions, WaitOptions {}

/**
 * The same, compiled on a worker thread: the event loop keeps running
 * meanwhile. options.signal and options.timeoutMs give up the wait (AbortError,
 * TimeoutError); the compile itself runs to its end on its thread, keeping the
 * process alive until it does, and its result is dropped.
 */
export async function compileAsync(source: string, options: CompileAsyncOptions = noOptions): Promise<CompiledProgram> {
  checkOptions(checkObject(options, 'options'), 'options', 'compileAsync', compileAsyncKeys);
  const prepared = prepare(source, options);
  const wait = checkWaitOptions(options);
  return finish(await raceWait(wait, 'compileAsync', () => native.nvrtcCompileAsync(prepared.request)), prepared);
}

function finish(outcome: NativeCompileOutcome, prepared: PreparedCompile): CompiledProgram {
  const { request } = prepared;
  if (outcome.stage === 'unavailable') throw new NvrtcUnavailableError(outcome.libraryPath, outcome.detail);
  if (outcome.stage !== 'done') throw new CompileError(outcome, request.name, request.options);
  return new CompiledProgram(outcome, request.name, prepared.arch, prepared.output, request.options);
}

const compileKeys: readonly string[] = ['name', 'arch', 'device', 'output', 'includePaths', 'defines', 'headers', 'nameExpressions', 'relocatable', 'options'];
const compileAsyncKeys: readonly string[] = [...compileKeys, 'signal', 'timeoutMs'];

const archFlag = /^(-arch|--gpu-architecture)(=|$)/;
// The forms NVRTC takes for relocatable device code.
const relocatableFlag = /^(-rdc|--relocatable-device-code)=true$|^(-dc|--device-c)$/;

function prepare(source: string, options: CompileOptions): PreparedCompile {
  checkCString(source, 'source');
  checkObject(options, 'options');
  const name = options.name === undefined ? 'kernel.cu' : checkCString(options.name, 'options.name');
  const extra = stringArray(options.options, 'options.options');
  if (extra.some((o) => archFlag.test(o))) {
    throw new RangeError('options.options must not set the architecture; use options.arch');
  }
  const { arch, output } = target(options);
  const flags = [`--gpu-architecture=${arch}`];
  if (options.relocatable !== undefined && checkBoolean(options.relocatable, 'options.relocatable')) flags.push('--relocatable-device-code=true');
  for (const dir of stringArray(options.includePaths, 'options.includePaths')) flags.push(`--include-path=${dir}`);
  for (const [macro, value] of Object.entries(checkObject(options.defines ?? {}, 'options.defines'))) {
    if (value === true) flags.push(`--define-macro=${macro}`);
    else if (typeof value === 'string' || typeof value === 'number') flags.push(`--define-macro=${macro}=${value}`);
    else throw new TypeError(`options.defines.${macro} must be a string, a number or true`);
  }
  const headers = Object.entries(checkObject(options.headers ?? {}, 'options.headers'));
  for (const [include, text] of headers) checkCString(text, `options.headers['${include}']`);
  return {
    request: {
      source,
      name,
      headerNames: headers.map(([include]) => include),
      headerSources: headers.map(([, text]) => text),
      options: [...flags, ...extra],
      nameExpressions: stringArray(options.nameExpressions, 'options.nameExpressions'),
      output,
    },
    arch,
    output,
  };
}

/**
 * The architecture and output of a compile. With no arch given, the device's own
 * is used when NVRTC supports it; for a device newer than NVRTC knows, PTX for
 * the newest architecture NVRTC supports, which the driver compiles at load.
 */
function target(options: CompileOptions): { arch: string; output: CompileOutput } {
  if (options.output !== undefined && options.output !== 'ptx' && options.output !== 'cubin') {
    throw new RangeError(`options.output must be 'ptx' or 'cubin', got ${String(options.output)}`);
  }
  if (options.arch !== undefined) {
    const { virtual, number } = parseArch(options.arch);
    if (virtual && options.output === 'cubin') {
      throw new RangeError(`options.arch compute_${number} is a virtual architecture: it has PTX but no CUBIN; use sm_${number}`);
    }
    const output = options.output ?? (virtual ? 'ptx' : 'cubin');
    return { arch: `${output === 'ptx' ? 'compute' : 'sm'}_${number}`, output };
  }
  const status = nvrtcStatus();
  if (!status.available) throw new NvrtcUnavailableError(status.libraryPath, status.detail);
  const device = Device.get(ordinalOf(options.device, 'options.device'));
  const { major, minor } = device.computeCapability;
  const own = major * 10 + minor;
  const supported = status.supportedArchs;
  if (supported.length === 0 || supported.includes(own)) {
    const output = options.output ?? 'cubin';
    return { arch: `${output === 'ptx' ? 'compute' : 'sm'}_${own}`, output };
  }
  const older = supported.filter((a) => a < own);
  if (older.length === 0) {
    throw new RangeError(`NVRTC ${status.version?.major}.${status.version?.minor} cannot compile for ${device.name} (sm_${own}); ` +
      `it supports ${supported.map((a) => `sm_${a}`).join(', ')}`);
  }
  if (options.output === 'cubin') {
    throw new RangeError(`NVRTC ${status.version?.major}.${status.version?.minor} has no CUBIN target for sm_${own}; ` +
      `ask for PTX (the driver compiles it at load) or install a newer NVRTC`);
  }
  return { arch: `compute_${Math.max(...older)}`, output: 'ptx' };
}

/** 'sm_90', 'sm_90a', 'compute_90', 'compute_90a' or 90. */
function parseArch(arch: string | number): { virtual: boolean; number: string } {
  if (typeof arch === 'number') return { virtual: false, number: String(checkInteger(arch, 'options.arch', 10, 9999)) };
  const m = typeof arch === 'string' ? /^(sm|compute)_(\d+[a-z]?)$/.exec(arch) : null;
  if (!m) throw new RangeError(`options.arch must look like 'sm_90', 'compute_90' or 90, got ${JSON.stringify(arch)}`);
  return { virtual: m[1] === 'compute', number: m[2] };
}

function stringArray(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError(`${name} must be an array of strings`);
  return value.map((v, i) => checkCString(v, `${name}[${i}]`));
}
