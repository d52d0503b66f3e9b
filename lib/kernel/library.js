"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Library = void 0;
// Libraries: code loaded once for every context (cuLibrary*). Their kernels are
// context-independent: one Kernel launches on a stream of any context.
const context_1 = require("../context");
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
const code_load_1 = require("./code-load");
const kernel_1 = require("./kernel");
const module_1 = require("./module");
class Library extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /** Loads a compiled program, PTX text, or CUBIN/fatbin/PTX bytes. */
    static load(code, options = {}) {
        return new Library(native_1.native.loadLibraryData((0, code_load_1.codeBytes)(code), (0, code_load_1.checkJitOptions)(options.jit)));
    }
    /** Loads a CUBIN, fatbin or PTX file. */
    static loadFile(path, options = {}) {
        return new Library(native_1.native.loadLibraryFile((0, validate_1.checkCString)(path, 'path'), (0, code_load_1.checkJitOptions)(options.jit)));
    }
    /** The CUlibrary value, for logs and comparisons. */
    get handle() {
        return this.native.handle;
    }
    /** What the driver's JIT compiler said while loading PTX ('' otherwise). */
    get jitLog() {
        return this.native.jitLog;
    }
    /** The kernel with this (lowered) name; see CompiledProgram.loweredName for C++ names. */
    kernel(name) {
        return new kernel_1.Kernel(this.native.kernel((0, validate_1.checkCString)(name, 'name')));
    }
    get kernelCount() {
        return this.native.kernelCount();
    }
    /** Every kernel of the library. */
    kernels() {
        return this.native.kernels().map((k) => new kernel_1.Kernel(k));
    }
    /** A __device__ or __constant__ variable, as it lives in one context (default: device 0's primary). */
    global(name, context = device_1.Device.get(0).primaryContext) {
        return this.native.global((0, validate_1.checkCString)(name, 'name'), (0, validate_1.checkInstance)(context, context_1.Context, 'context').native);
    }
    /** A __managed__ variable, shared by every device. */
    managed(name) {
        return this.native.managed((0, validate_1.checkCString)(name, 'name'));
    }
    /** The address of a unified function (needs a device with unified function pointers). */
    unifiedFunction(symbol) {
        return this.native.unifiedFunction((0, validate_1.checkCString)(symbol, 'symbol'));
    }
    /** The library's module in one context (default: device 0's primary); the library owns it. */
    module(context = device_1.Device.get(0).primaryContext) {
        (0, validate_1.checkInstance)(context, context_1.Context, 'context');
        return new module_1.Module(this.native.module(context.native), context);
    }
    toString() {
        return this.disposed ? 'Library(disposed)' : `Library(0x${this.handle.toString(16)})`;
    }
}
exports.Library = Library;
//# sourceMappingURL=library.js.map