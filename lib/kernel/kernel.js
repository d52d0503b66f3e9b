"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Kernel = void 0;
// Kernels: a library's context-independent kernel or a module's function.
// Attributes, the parameter layout the driver reports, occupancy, and launches
// whose arguments are checked against that layout before the driver sees them.
const context_1 = require("../context");
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const enums_1 = require("../generated/enums");
const native_1 = require("../native");
const validate_1 = require("../validate");
const args_1 = require("./args");
const launch_config_1 = require("./launch-config");
const prepared_launch_1 = require("./prepared-launch");
class Kernel extends disposable_1.Disposable {
    /** The context of a module's function; undefined for a library's kernel. */
    context;
    #name;
    #params;
    // Reused by plain launches while the argument types stay the same: the layout
    // and parameter buffer of the last types, and the encoded configuration.
    #lastTypes;
    #lastLayout;
    #scratch = new Uint8Array(0);
    #scratchView = new DataView(this.#scratch.buffer);
    #scratchPointers = new Float64Array(0);
    #config = new Int32Array(launch_config_1.LaunchConfigSlot.count);
    /** @internal */
    constructor(handle, context) {
        super(handle);
        this.context = context;
    }
    /** The kernel's (lowered) name. */
    get name() {
        return (this.#name ??= this.native.name);
    }
    /** 'library' for a context-independent CUkernel, 'module' for a module's CUfunction. */
    get kind() {
        return this.native.isLibraryKernel ? 'library' : 'module';
    }
    /** The CUkernel or CUfunction value, for logs and comparisons. */
    get handle() {
        return this.native.handle;
    }
    /**
     * The parameters' offsets and sizes, as the driver reports them; null when
     * the installed driver cannot say (before CUDA 12.4), in which case launches
     * lay arguments out by C's rules and cannot check them.
     */
    get params() {
        if (this.#params === undefined) {
            const raw = this.native.params();
            this.#params = raw && Object.freeze(raw.map(([offset, size]) => Object.freeze({ offset, size })));
        }
        return this.#params;
    }
    /** One attribute (registers, shared memory, max threads per block, ...) on a device (default 0; a module's function: its own). */
    attribute(name, device) {
        return this.native.getAttribute((0, validate_1.checkEnum)(name, enums_1.FunctionAttribute, 'name'), this.#ordinal(device));
    }
    /** Every attribute the installed driver knows, on a device. */
    attributes(device) {
        const ordinal = this.#ordinal(device);
        const out = {};
        for (const [name, value] of Object.entries(enums_1.FunctionAttribute)) {
            try {
                out[name] = this.native.getAttribute(value, ordinal);
            }
            catch (error) {
                // An attribute newer than the driver is left out rather than failing the rest.
                if (error.code !== enums_1.CudaResult.CUDA_ERROR_INVALID_VALUE)
                    throw error;
            }
        }
        return out;
    }
    /** Sets a settable attribute (max dynamic shared memory, carveout, cluster settings, ...). */
    setAttribute(name, value, device) {
        this.native.setAttribute((0, validate_1.checkEnum)(name, enums_1.FunctionAttribute, 'name'), (0, validate_1.checkInteger)(value, 'value', -(2 ** 31), 2 ** 31 - 1), this.#ordinal(device));
    }
    /** Lets launches use up to `bytes` of dynamic shared memory per block (above 48 KiB needs this). */
    setMaxDynamicSharedMemory(bytes, device) {
        this.setAttribute('maxDynamicSharedSizeBytes', (0, validate_1.checkInteger)(bytes, 'bytes', 0, 2 ** 31 - 1), device);
    }
    /** Whether the kernel's code is loaded in a context yet (lazy loading loads it at first launch). */
    isLoaded(context) {
        return this.native.isLoaded(this.#queryContext(context));
    }
    /** Loads the kernel's code in a context now, so that the first launch does not pay for it. */
    load(context) {
        this.native.load(this.#queryContext(context));
    }
    /** How many blocks of blockSize threads can be resident on one multiprocessor. */
    maxActiveBlocksPerMultiprocessor(blockSize, options = {}) {
        return this.native.maxActiveBlocksPerMultiprocessor(this.#queryContext(options.context), (0, validate_1.checkInteger)(blockSize, 'blockSize', 1), (0, validate_1.checkSize)(options.dynamicSharedMemory ?? 0, 'options.dynamicSharedMemory'), occupancyFlags(options));
    }
    /** The block size with the best occupancy, and the smallest grid that reaches it. */
    maxPotentialBlockSize(options = {}) {
        const shared = options.dynamicSharedMemory ?? 0;
        if (typeof shared !== 'function')
            (0, validate_1.checkSize)(shared, 'options.dynamicSharedMemory');
        return this.native.maxPotentialBlockSize(this.#queryContext(options.context), shared, (0, validate_1.checkInteger)(options.blockSizeLimit ?? 0, 'options.blockSizeLimit', 0), occupancyFlags(options));
    }
    /** The dynamic shared memory a block can have when blocksPerMultiprocessor blocks of blockSize share a multiprocessor. */
    availableDynamicSharedMemoryPerBlock(blocksPerMultiprocessor, blockSize, options = {}) {
        return this.native.availableDynamicSharedMemoryPerBlock(this.#queryContext(options.context), (0, validate_1.checkInteger)(blocksPerMultiprocessor, 'blocksPerMultiprocessor', 1), (0, validate_1.checkInteger)(blockSize, 'blockSize', 1));
    }
    /** The largest cluster this launch shape could use (its cluster dimension is ignored). */
    maxPotentialClusterSize(shape, options = {}) {
        return this.native.maxPotentialClusterSize(this.#queryContext(options.context), (0, launch_config_1.encodeLaunchShape)(shape));
    }
    /** How many clusters of the shape's cluster dimension can be resident at once. */
    maxActiveClusters(shape, options = {}) {
        return this.native.maxActiveClusters(this.#queryContext(options.context), (0, launch_config_1.encodeLaunchShape)(shape));
    }
    /**
     * Queues the kernel on config.stream with typed arguments, checked against
     * the kernel's parameters first: `kernel.launch({ grid, block, stream }, [arg.ptr(x), arg.u32(n)])`.
     * For launches repeated many times, prepare() once and launch that.
     */
    launch(config, args = []) {
        const stream = (0, launch_config_1.launchStream)(config);
        const layout = this.#layoutFor(args);
        const view = this.#scratchView;
        const bytes = this.#scratch;
        // Memory arguments go as [offset, memory slot] pairs: the native layer writes their addresses.
        const pointers = this.#scratchPointers;
        let pointerCount = 0;
        for (let i = 0; i < args.length; i++) {
            const slot = layout.slots[i];
            const memory = (0, args_1.writeArg)(view, bytes, slot, args[i].value, 'args', i);
            if (memory !== null) {
                pointers[2 * pointerCount] = slot.offset;
                pointers[2 * pointerCount + 1] = memory.native.slot;
                pointerCount++;
            }
        }
        native_1.native.kernelLaunch(this.native.slot, stream.slot, (0, launch_config_1.encodeLaunchShape)(config, this.#config), bytes, pointers, pointerCount);
    }
    // The layout of the arguments' types: the last one when the types are the
    // same, so that repeated launches check and allocate nothing new.
    #layoutFor(args) {
        if (!Array.isArray(args))
            throw new TypeError('args must be an array of arg.*() values');
        const last = this.#lastTypes;
        if (last !== undefined && last.length === args.length) {
            let i = 0;
            while (i < args.length && args[i] instanceof args_1.KernelArg && sameType(args[i].type, last[i]))
                i++;
            if (i === args.length)
                return this.#lastLayout;
        }
        const types = args.map((a, i) => {
            if (!(a instanceof args_1.KernelArg))
                throw new TypeError(`args[${i}] must be made with arg.*() (arg.f32(1.5), arg.ptr(buffer), ...)`);
            return a.type;
        });
        const layout = (0, args_1.argLayout)(this.name, this.params, types);
        this.#lastTypes = types;
        this.#lastLayout = layout;
        this.#scratch = new Uint8Array(layout.bytes);
        this.#scratchView = new DataView(this.#scratch.buffer);
        this.#scratchPointers = new Float64Array(2 * layout.slots.filter((s) => s.type === 'ptr').length);
        return layout;
    }
    /**
     * Fixes the stream, configuration and argument types for repeated launches;
     * the types are checked against the kernel's parameters here, once. Values
     * (optional here) are set in place with set() and used by every launch() after.
     */
    prepare(config, types, values) {
        const stream = (0, launch_config_1.launchStream)(config);
        const layout = (0, args_1.argLayout)(this.name, this.params, types);
        const prepared = new prepared_launch_1.PreparedLaunch(this, this.native.prepare(stream, (0, launch_config_1.encodeLaunchShape)(config), layout.bytes), layout);
        if (values !== undefined)
            prepared.setAll(values);
        return prepared;
    }
    #ordinal(device) {
        if (device !== undefined)
            return (0, device_1.ordinalOf)(device);
        return this.context ? this.context.deviceOrdinal : 0;
    }
    #queryContext(context) {
        if (context !== undefined)
            return (0, validate_1.checkInstance)(context, context_1.Context, 'context').native;
        return this.context ? null : device_1.Device.get(0).primaryContext.native;
    }
    toString() {
        return this.disposed ? 'Kernel(disposed)' : `Kernel(${this.name}, ${this.kind})`;
    }
}
exports.Kernel = Kernel;
function sameType(a, b) {
    return a === b || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && a.bytes === b.bytes && a.align === b.align);
}
function occupancyFlags(options) {
    return options.disableCachingOverride !== undefined && (0, validate_1.checkBoolean)(options.disableCachingOverride, 'options.disableCachingOverride') ? 1 : 0;
}
//# sourceMappingURL=kernel.js.map