"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.codeBytes = codeBytes;
exports.checkJitOptions = checkJitOptions;
// What loading a module or library takes and gives: code images (a compiled
// program, PTX text, or CUBIN/fatbin/PTX bytes), options for the driver's JIT
// compiler, and the variables loaded code exposes.
const compile_1 = require("./compile");
const validate_1 = require("../validate");
function codeBytes(code, name = 'code') {
    if (code instanceof compile_1.CompiledProgram)
        return code.code;
    if (typeof code === 'string') {
        if (code.includes('\0'))
            throw new RangeError(`${name} must not contain NUL characters (PTX text ends at the first)`);
        return Buffer.from(code, 'utf8');
    }
    if (code instanceof Uint8Array) {
        if (code.length === 0)
            throw new RangeError(`${name} must not be empty`);
        return code;
    }
    throw new TypeError(`${name} must be a CompiledProgram, PTX text or a Uint8Array of CUBIN, fatbin or PTX`);
}
function checkJitOptions(options) {
    if (options === undefined)
        return undefined;
    if (options === null || typeof options !== 'object')
        throw new TypeError('jit must be an object');
    const { maxRegisters, optimizationLevel, generateDebugInfo, generateLineInfo, logVerbose } = options;
    if (maxRegisters !== undefined)
        (0, validate_1.checkInteger)(maxRegisters, 'jit.maxRegisters', 1, 255);
    if (optimizationLevel !== undefined)
        (0, validate_1.checkInteger)(optimizationLevel, 'jit.optimizationLevel', 0, 4);
    if (generateDebugInfo !== undefined)
        (0, validate_1.checkBoolean)(generateDebugInfo, 'jit.generateDebugInfo');
    if (generateLineInfo !== undefined)
        (0, validate_1.checkBoolean)(generateLineInfo, 'jit.generateLineInfo');
    if (logVerbose !== undefined)
        (0, validate_1.checkBoolean)(logVerbose, 'jit.logVerbose');
    return { maxRegisters, optimizationLevel, generateDebugInfo, generateLineInfo, logVerbose };
}
//# sourceMappingURL=code-load.js.map