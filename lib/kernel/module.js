"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Module = void 0;
// Modules: code loaded into one context (cuModule*). Their functions run only
// in that context. Most programs want a Library instead, which serves every context.
const fs_1 = require("fs");
const context_1 = require("../context");
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
const code_load_1 = require("./code-load");
const kernel_1 = require("./kernel");
class Module extends disposable_1.Disposable {
    /** The context the module is loaded in. */
    context;
    /** @internal */
    constructor(handle, context) {
        super(handle);
        this.context = context;
    }
    /** Loads a compiled program, PTX text, or CUBIN/fatbin/PTX bytes into a context. */
    static load(code, options = {}) {
        const context = options.context === undefined ? device_1.Device.get(0).primaryContext : (0, validate_1.checkInstance)(options.context, context_1.Context, 'options.context');
        return new Module(native_1.native.loadModuleData(context.native, (0, code_load_1.codeBytes)(code), (0, code_load_1.checkJitOptions)(options.jit)), context);
    }
    /** Loads a CUBIN, fatbin or PTX file into a context. */
    static loadFile(path, options = {}) {
        return Module.load((0, fs_1.readFileSync)((0, validate_1.checkCString)(path, 'path')), options);
    }
    /** How this process loads code: 'lazy' (on first use; CUDA_MODULE_LOADING=LAZY, the default) or 'eager'. */
    static loadingMode() {
        return native_1.native.moduleLoadingMode();
    }
    /** The CUmodule value, for logs and comparisons. */
    get handle() {
        return this.native.handle;
    }
    /** What the driver's JIT compiler said while loading PTX ('' otherwise). */
    get jitLog() {
        return this.native.jitLog;
    }
    /** True for a library's module (Library.module): the library unloads it. */
    get ownedByLibrary() {
        return this.native.ownedByLibrary;
    }
    /** The function with this (lowered) name. */
    function(name) {
        return new kernel_1.Kernel(this.native.function((0, validate_1.checkCString)(name, 'name')), this.context);
    }
    get functionCount() {
        return this.native.functionCount();
    }
    /** Every function of the module. */
    functions() {
        return this.native.functions().map((f) => new kernel_1.Kernel(f, this.context));
    }
    /** A __device__ or __constant__ variable of the module. */
    global(name) {
        return this.native.global((0, validate_1.checkCString)(name, 'name'));
    }
    toString() {
        return this.disposed ? 'Module(disposed)' : `Module(0x${this.handle.toString(16)}, device ${this.context.deviceOrdinal})`;
    }
}
exports.Module = Module;
//# sourceMappingURL=module.js.map