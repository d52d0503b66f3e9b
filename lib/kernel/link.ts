// Linking device code with the driver's JIT linker (cuLink*): relocatable
// programs (compile with relocatable: true), PTX, CUBINs, fatbins, host
// objects and libraries become one CUBIN that Library.load and Module.load
// take. Kernels that launch graphs or kernels from the device need the
// toolkit's device runtime library, which deviceRuntime() finds.
import * as fs from 'fs';
import * as path from 'path';
import { Device, DeviceLike, ordinalOf } from '../device';
import { Disposable } from '../disposable';
import { CudaError } from '../errors';
import { native, NativeLinker, Slot } from '../native';
import { checkCString, checkObject, checkOptions, checkString, noOptions } from '../validate';
import { checkJitOptions, JitOptions } from './code-load';
import { CompiledProgram } from './compile';
import { LinkedProgram } from './linked-program';

/** What an input holds. */
export type LinkInputType = 'cubin' | 'ptx' | 'fatbin' | 'object' | 'library';

// CUjitInputType.
const inputTypes: Record<LinkInputType, number> = { cubin: 0, ptx: 1, fatbin: 2, object: 3, library: 4 };

/** An input given by its bytes (or PTX text); its type is read from the bytes when not given. */
export interface LinkInputData {
  /** The bytes of a CUBIN, fatbin, host object or library, or PTX (text or bytes). */
  data: Uint8Array | string;
  /** What data holds (default: told from its first bytes). */
  type?: LinkInputType;
  /** A name for the linker's log (default `input N`). */
  name?: string;
}

/** An input read by the driver from a file; its type comes from the extension (.cubin .ptx .fatbin .o .a) or its first bytes. */
export interface LinkInputFile {
  /** The file. */
  path: string;
  /** What the file holds (default: from its extension, else its first bytes). */
  type?: LinkInputType;
}

/** One input of a link: a compile's result (relocatable: true), PTX text, bytes, or a file. */
export type LinkInput = CompiledProgram | LinkedProgram | string | Uint8Array | LinkInputData | LinkInputFile;

/** Options of {@link link} and {@link Linker.create}: the JIT's options, for the device of one context. */
export interface LinkOptions extends JitOptions {
  /** The device to link for (its primary context; default 0). */
  device?: DeviceLike;
}

/** The driver's linker refused an input or the link; `log` holds what it said. */
export class LinkError extends CudaError {
  /** The linker's error log. */
  readonly log: string;
  /** The linker's information log. */
  readonly infoLog: string;
  /** The input it refused, or null when completing the link failed. */
  readonly input: string | null;
  /** @internal */
  constructor(cause: CudaError, log: string, infoLog: string, input: string | null) {
    super(cause.result, cause.code, cause.driverMessage, cause.call, input ?? '');
    this.log = log;
    this.infoLog = infoLog;
    this.input = input;
    const said = log.trimEnd();
    this.message = `${input === null ? 'the link failed' : `the linker refused ${input}`}: ${cause.code}` +
      (said ? `\n${said}` : cause.driverMessage ? `: ${cause.driverMessage}` : '');
  }
}

/** The toolkit's device runtime library (libcudadevrt.a) was not found. */
export class DeviceRuntimeNotFoundError extends Error {
  /** 'ERR_CUDA_DEVICE_RUNTIME_NOT_FOUND'. */
  readonly code = 'ERR_CUDA_DEVICE_RUNTIME_NOT_FOUND';
  /** Every path looked at. */
  readonly paths: readonly string[];
  /** @internal */
  constructor(paths: readonly string[]) {
    super(`the CUDA device runtime library (libcudadevrt.a) was not found; looked at ${paths.join(', ') || 'nothing'}. ` +
      'Install the CUDA toolkit (its cudart development package) and set CUDA_PATH to it');
    this.name = 'DeviceRuntimeNotFoundError';
    this.paths = Object.freeze([...paths]);
  }
}

/** The toolkit's device runtime: the library to link and the headers that declare it. */
export interface DeviceRuntime {
  /** The toolkit's root directory. */
  readonly root: string;
  /** libcudadevrt.a, as a link input. */
  readonly library: LinkInputFile;
  /** Include directories with cuda_device_runtime_api.h (for compile's includePaths); empty when the headers are missing. */
  readonly includePaths: readonly string[];
}

const libraryPlaces = ['lib64', 'lib', 'targets/x86_64-linux/lib', 'targets/sbsa-linux/lib', 'targets/aarch64-linux/lib'];

/**
 * Finds the CUDA toolkit's device runtime: in CUDA_PATH when it is set (and
 * only there: a toolkit named explicitly is not silently replaced by another),
 * else in CUDA_HOME, then /usr/local/cuda. Throws DeviceRuntimeNotFoundError
 * naming every path looked at when libcudadevrt.a is in none of them.
 */
export function deviceRuntime(): DeviceRuntime {
  const roots = process.env.CUDA_PATH ? [process.env.CUDA_PATH] : [process.env.CUDA_HOME, '/usr/local/cuda'].filter((r): r is string => !!r);
  const tried: string[] = [];
  for (const root of roots) {
    for (const place of libraryPlaces) {
      const file = path.join(root, place, 'libcudadevrt.a');
      tried.push(file);
      if (!fs.existsSync(file)) continue;
      const include = path.join(root, 'include');
      const includePaths = fs.existsSync(path.join(include, 'cuda_device_runtime_api.h'))
        ? [include, path.join(include, 'cccl')].filter((dir) => fs.existsSync(dir))
        : [];
      return Object.freeze({ root, library: Object.freeze({ path: file, type: 'library' as const }), includePaths: Object.freeze(includePaths) });
    }
  }
  throw new DeviceRuntimeNotFoundError(tried);
}

/**
 * A pending link (cuLinkCreate): add inputs, then complete() it. Each call
 * that fails throws a LinkError with the linker's log. Dispose of it when
 * done (link() does); the CUBIN complete() returned stays valid.
 */
export class Linker extends Disposable<NativeLinker> {
  readonly #names: string[] = [];

  /** @internal */
  constructor(handle: Slot<NativeLinker>) {
    super(handle);
  }

  /** A new linker for a device (default 0), with the JIT's options. */
  static create(options: LinkOptions = noOptions): Linker {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'Linker.create', linkKeys);
    const { device, ...jit } = options;
    const context = Device.get(ordinalOf(device, 'options.device')).primaryContext;
    return new Linker(native.linkCreate(context.slot, checkJitOptions(jit)));
  }

  /** Adds an input (cuLinkAddData, or cuLinkAddFile for a file). */
  add(input: LinkInput): this {
    const name = `input ${this.#names.length}`;
    if (input !== null && typeof input === 'object' && 'path' in input && !(input instanceof Uint8Array)) {
      checkOptions(input, 'input', 'Linker.add', ['path', 'type']);
      const file = checkCString(input.path, 'input.path');
      const type = input.type === undefined ? fileType(file) : checkType(input.type, 'input.type');
      this.#call(file, () => native.linkAddFile(this.slot, inputTypes[type], file));
      return this;
    }
    const { data, type, label } = inputData(input, name);
    this.#call(label, () => native.linkAddData(this.slot, inputTypes[type], data, label));
    return this;
  }

  /** Links what was added into one CUBIN (cuLinkComplete). */
  complete(): LinkedProgram {
    const code = this.#call(null, () => native.linkComplete(this.slot));
    return new LinkedProgram(new Uint8Array(code.buffer, code.byteOffset, code.byteLength), this.infoLog, this.#names);
  }

  /** What the linker has said so far ('' for nothing). */
  get infoLog(): string {
    return native.linkInfoLog(this.slot);
  }

  /** The errors the linker has reported so far ('' for none). */
  get errorLog(): string {
    return native.linkErrorLog(this.slot);
  }

  #call<T>(input: string | null, call: () => T): T {
    let result: T;
    try {
      result = call();
    } catch (error) {
      if (!(error instanceof CudaError)) throw error;
      throw new LinkError(error, this.errorLog, this.infoLog, input);
    }
    if (input !== null) this.#names.push(input);
    return result;
  }

  override toString(): string {
    return this.disposed ? 'Linker(disposed)' : `Linker(${this.#names.length} inputs)`;
  }
}

/**
 * Links inputs into one CUBIN that Library.load and Module.load take:
 * `link([compile(source, { relocatable: true }), deviceRuntime().library])`.
 * Throws LinkError with the linker's log when an input or the link fails.
 */
export function link(inputs: readonly LinkInput[], options: LinkOptions = noOptions): LinkedProgram {
  if (!Array.isArray(inputs) || inputs.length === 0) throw new TypeError('inputs must be a non-empty array of link inputs');
  const linker = Linker.create(options);
  try {
    for (const input of inputs) linker.add(input);
    return linker.complete();
  } finally {
    linker.dispose();
  }
}

const linkKeys: readonly string[] = ['device', 'maxRegisters', 'optimizationLevel', 'generateDebugInfo', 'generateLineInfo', 'logVerbose'];

function checkType(type: unknown, name: string): LinkInputType {
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(inputTypes, type)) {
    throw new RangeError(`${name} must be one of ${Object.keys(inputTypes).map((t) => `'${t}'`).join(', ')}, got ${String(type)}`);
  }
  return type as LinkInputType;
}

function inputData(input: LinkInput, fallback: string): { data: Uint8Array; type: LinkInputType; label: string } {
  if (input instanceof CompiledProgram) return { data: input.code, type: input.output, label: input.name };
  if (input instanceof LinkedProgram) return { data: input.code, type: 'cubin', label: fallback };
  if (typeof input === 'string') return { data: ptxBytes(input, 'input'), type: 'ptx', label: fallback };
  if (input instanceof Uint8Array) return { data: nonEmpty(input, 'input'), type: sniff(input, 'input'), label: fallback };
  if (input === null || typeof input !== 'object' || !('data' in input)) {
    throw new TypeError('a link input must be a CompiledProgram, a LinkedProgram, PTX text, a Uint8Array, { data, type?, name? } or { path, type? }');
  }
  checkOptions(input, 'input', 'Linker.add', ['data', 'type', 'name']);
  const label = input.name === undefined ? fallback : checkCString(input.name, 'input.name');
  if (typeof input.data === 'string') {
    if (input.type !== undefined && checkType(input.type, 'input.type') !== 'ptx') throw new TypeError('input.data is text, which only PTX is');
    return { data: ptxBytes(input.data, 'input.data'), type: 'ptx', label };
  }
  if (!(input.data instanceof Uint8Array)) throw new TypeError('input.data must be a Uint8Array or PTX text');
  const data = nonEmpty(input.data, 'input.data');
  return { data, type: input.type === undefined ? sniff(data, 'input.data') : checkType(input.type, 'input.type'), label };
}

function ptxBytes(text: string, name: string): Uint8Array {
  if (checkString(text, name).includes('\0')) throw new RangeError(`${name} must not contain NUL characters (PTX text ends at the first)`);
  return nonEmpty(Buffer.from(text, 'utf8'), name);
}

function nonEmpty(data: Uint8Array, name: string): Uint8Array {
  if (data.length === 0) throw new RangeError(`${name} must not be empty`);
  return data;
}

const extensions: Record<string, LinkInputType> = { '.cubin': 'cubin', '.ptx': 'ptx', '.fatbin': 'fatbin', '.o': 'object', '.obj': 'object', '.a': 'library', '.lib': 'library' };

function fileType(file: string): LinkInputType {
  const byExtension = extensions[path.extname(file).toLowerCase()];
  if (byExtension) return byExtension;
  let head: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      head = Buffer.alloc(64);
      head = head.subarray(0, fs.readSync(fd, head, 0, head.length, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    throw new TypeError(`cannot tell what ${file} holds (${(error as Error).message}); give input.type`);
  }
  return sniff(head, file);
}

// What bytes hold, from their first bytes: an ELF file is a CUBIN when it is
// for the GPU (machine 190, EM_CUDA), else a host object.
function sniff(data: Uint8Array, name: string): LinkInputType {
  const starts = (bytes: number[]) => bytes.every((b, i) => data[i] === b);
  if (starts([0x7f, 0x45, 0x4c, 0x46])) return data.length >= 20 && (data[18] | (data[19] << 8)) === 190 ? 'cubin' : 'object';
  if (starts([0x50, 0xed, 0x55, 0xba])) return 'fatbin';
  if (starts([...Buffer.from('!<arch>\n')])) return 'library';
  const text = Buffer.from(data.subarray(0, 256)).toString('latin1').trimStart();
  if (text.startsWith('//') || text.startsWith('.version') || text.startsWith('.target')) return 'ptx';
  throw new TypeError(`cannot tell what ${name} holds (not an ELF, a fatbin, an archive or PTX); give its type`);
}
