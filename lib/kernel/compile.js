"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CompiledProgram = exports.CompileError = exports.NvrtcUnavailableError = void 0;
exports.nvrtcStatus = nvrtcStatus;
exports.compile = compile;
exports.compileAsync = compileAsync;
// Compiling CUDA C++ at run time with NVRTC. NVRTC is opened on the first
// compile (or nvrtcStatus()), never at import: a machine without it can use
// everything else, and the first compile says what is missing.
const device_1 = require("../device");
const native_1 = require("../native");
const validate_1 = require("../validate");
/** Loads NVRTC if that has not been tried yet and says what is there; never throws. */
function nvrtcStatus() {
    const s = native_1.native.nvrtcStatus();
    return Object.freeze({
        available: s.available,
        libraryPath: s.libraryPath,
        detail: s.detail,
        version: s.version ? { major: s.version[0], minor: s.version[1] } : null,
        supportedArchs: Object.freeze([...(s.supportedArchs ?? [])]),
    });
}
/** NVRTC could not be loaded; thrown by the first compile. */
class NvrtcUnavailableError extends Error {
    /** The paths tried, or the library that loaded but was unusable. */
    libraryPath;
    /** The system's reason (dlopen's message, a missing entry point). */
    detail;
    constructor(libraryPath, detail) {
        super(`NVRTC could not be loaded (tried ${libraryPath}: ${detail}); install CUDA's NVRTC library ` +
            `(e.g. the cuda-nvrtc package of your CUDA version) or set NVRTC_LIBRARY to the path of libnvrtc.so`);
        this.name = 'NvrtcUnavailableError';
        this.libraryPath = libraryPath;
        this.detail = detail;
    }
}
exports.NvrtcUnavailableError = NvrtcUnavailableError;
/** NVRTC refused the program; `log` holds everything the compiler said. */
class CompileError extends Error {
    /** NVRTC's result code (6 for NVRTC_ERROR_COMPILATION). */
    result;
    /** NVRTC's name for it, e.g. `NVRTC_ERROR_COMPILATION`. */
    resultName;
    /** Where it failed: 'compile', 'create', 'name-expression', 'lowered-name' or 'output'. */
    stage;
    /** The compiler's full log. */
    log;
    /** The options the program was compiled with, as NVRTC got them. */
    options;
    /** The program's name (the file name the log refers to). */
    programName;
    constructor(outcome, programName, options) {
        const what = outcome.stage === 'compile' ? 'failed to compile' : `failed at ${outcome.stage}${outcome.detail ? ` (${outcome.detail})` : ''}`;
        super(`${programName} ${what}: ${outcome.resultName}${outcome.log ? `\n${outcome.log.trimEnd()}` : ''}`);
        this.name = 'CompileError';
        this.result = outcome.result;
        this.resultName = outcome.resultName;
        this.stage = outcome.stage;
        this.log = outcome.log;
        this.options = options;
        this.programName = programName;
    }
}
exports.CompileError = CompileError;
/** The result of a successful compile. */
class CompiledProgram {
    /** PTX text (as bytes, no terminating NUL) or the CUBIN image. */
    code;
    output;
    /** The architecture compiled for, e.g. `sm_90` or `compute_90`. */
    arch;
    /** The program's name. */
    name;
    /** Warnings and notes from the compiler ('' when it said nothing). */
    log;
    /** The options NVRTC was given. */
    options;
    #lowered;
    /** @internal */
    constructor(outcome, name, arch, output, options) {
        this.code = outcome.code;
        this.output = output;
        this.arch = arch;
        this.name = name;
        this.log = outcome.log;
        this.options = options;
        this.#lowered = new Map(outcome.loweredNames);
    }
    /** The PTX text; only for PTX output. */
    get ptx() {
        if (this.output !== 'ptx')
            throw new Error(`${this.name} was compiled to ${this.output}, not PTX`);
        return Buffer.from(this.code).toString('utf8');
    }
    /** The lowered (mangled) name of a name expression given at compile time. */
    loweredName(expression) {
        const lowered = this.#lowered.get(expression);
        if (lowered === undefined) {
            throw new RangeError(`'${expression}' was not among the nameExpressions of ${this.name}; ` +
                `known: ${[...this.#lowered.keys()].map((e) => `'${e}'`).join(', ') || 'none'}`);
        }
        return lowered;
    }
    /** Every name expression and its lowered name. */
    get loweredNames() {
        return this.#lowered;
    }
}
exports.CompiledProgram = CompiledProgram;
/** Compiles CUDA C++ source, blocking the calling thread; throws CompileError with the log on failure. */
function compile(source, options = {}) {
    const prepared = prepare(source, options);
    return finish(native_1.native.nvrtcCompile(prepared.request), prepared);
}
/** The same, compiled on a worker thread: the event loop keeps running meanwhile. */
async function compileAsync(source, options = {}) {
    const prepared = prepare(source, options);
    return finish(await native_1.native.nvrtcCompileAsync(prepared.request), prepared);
}
function finish(outcome, prepared) {
    const { request } = prepared;
    if (outcome.stage === 'unavailable')
        throw new NvrtcUnavailableError(outcome.libraryPath, outcome.detail);
    if (outcome.stage !== 'done')
        throw new CompileError(outcome, request.name, request.options);
    return new CompiledProgram(outcome, request.name, prepared.arch, prepared.output, request.options);
}
const archFlag = /^(-arch|--gpu-architecture)(=|$)/;
function prepare(source, options) {
    (0, validate_1.checkCString)(source, 'source');
    if (options === null || typeof options !== 'object')
        throw new TypeError('options must be an object');
    const name = options.name === undefined ? 'kernel.cu' : (0, validate_1.checkCString)(options.name, 'options.name');
    const extra = stringArray(options.options, 'options.options');
    if (extra.some((o) => archFlag.test(o))) {
        throw new RangeError('options.options must not set the architecture; use options.arch');
    }
    const { arch, output } = target(options);
    const flags = [`--gpu-architecture=${arch}`];
    for (const dir of stringArray(options.includePaths, 'options.includePaths'))
        flags.push(`--include-path=${dir}`);
    for (const [macro, value] of Object.entries(options.defines ?? {})) {
        if (value === true)
            flags.push(`--define-macro=${macro}`);
        else if (typeof value === 'string' || typeof value === 'number')
            flags.push(`--define-macro=${macro}=${value}`);
        else
            throw new TypeError(`options.defines.${macro} must be a string, a number or true`);
    }
    const headers = Object.entries(options.headers ?? {});
    for (const [include, text] of headers)
        (0, validate_1.checkCString)(text, `options.headers['${include}']`);
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
function target(options) {
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
    if (!status.available)
        throw new NvrtcUnavailableError(status.libraryPath, status.detail);
    const device = device_1.Device.get((0, device_1.ordinalOf)(options.device, 'options.device'));
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
function parseArch(arch) {
    if (typeof arch === 'number')
        return { virtual: false, number: String((0, validate_1.checkInteger)(arch, 'options.arch', 10, 9999)) };
    const m = typeof arch === 'string' ? /^(sm|compute)_(\d+[a-z]?)$/.exec(arch) : null;
    if (!m)
        throw new RangeError(`options.arch must look like 'sm_90', 'compute_90' or 90, got ${JSON.stringify(arch)}`);
    return { virtual: m[1] === 'compute', number: m[2] };
}
function stringArray(value, name) {
    if (value === undefined)
        return [];
    if (!Array.isArray(value))
        throw new TypeError(`${name} must be an array of strings`);
    return value.map((v, i) => (0, validate_1.checkCString)(v, `${name}[${i}]`));
}
//# sourceMappingURL=compile.js.map