"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PreparedLaunch = void 0;
// A prepared launch: kernel, stream, configuration and argument layout fixed
// once, checked once against the kernel's parameters; set() writes a value in
// place and launch() is one call into the driver with nothing allocated.
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
const args_1 = require("./args");
class PreparedLaunch extends disposable_1.Disposable {
    kernel;
    /** Where each argument goes, and whether it was checked against the driver's parameter layout. */
    layout;
    #view;
    #bytes;
    // The values set, so that memory handles stay reachable while they are arguments.
    #values;
    #unset;
    /** @internal */
    constructor(kernel, handle, layout) {
        super(handle);
        this.kernel = kernel;
        this.layout = layout;
        const buffer = handle.arguments;
        if (buffer.byteLength < layout.bytes)
            throw new Error(`the parameter buffer of ${kernel.name} is smaller than its layout`);
        this.#view = new DataView(buffer);
        this.#bytes = new Uint8Array(buffer);
        this.#values = new Array(layout.slots.length).fill(undefined);
        this.#unset = layout.slots.length;
    }
    /** Sets argument `index` in place; later launches use it. */
    set(index, value) {
        const slot = this.layout.slots[index];
        if (slot === undefined) {
            (0, validate_1.checkInteger)(index, 'index', 0);
            throw new RangeError(`index ${index} is out of range: ${this.kernel.name} takes ${this.layout.slots.length} arguments`);
        }
        const memory = (0, args_1.writeArg)(this.#view, this.#bytes, slot, value, 'values', index);
        // Memory's address is written by the native layer, which also keeps the memory for the launches.
        if (slot.type === 'ptr')
            this.native.setPointer(slot.offset, memory !== null ? memory.native : null);
        if (this.#values[index] === undefined)
            this.#unset -= 1;
        this.#values[index] = value;
        return this;
    }
    /** Sets every argument, in order. */
    setAll(values) {
        if (!Array.isArray(values) || values.length !== this.layout.slots.length) {
            throw new args_1.KernelArgumentError(this.kernel.name, -1, `takes ${this.layout.slots.length} arguments; ` +
                `${Array.isArray(values) ? values.length : 'no array of values'} given`);
        }
        for (let i = 0; i < values.length; i++)
            this.set(i, values[i]);
        return this;
    }
    /** The value argument `index` was last set to. */
    get(index) {
        return this.#values[index];
    }
    /** Queues the kernel on the stream with the arguments as they are now. */
    launch() {
        if (this.#unset !== 0) {
            const missing = this.#values.findIndex((v) => v === undefined);
            throw new args_1.KernelArgumentError(this.kernel.name, missing, `argument ${missing} has not been set`);
        }
        native_1.native.preparedLaunch(this.native.slot);
    }
    toString() {
        return this.disposed ? 'PreparedLaunch(disposed)' : `PreparedLaunch(${this.kernel.name})`;
    }
}
exports.PreparedLaunch = PreparedLaunch;
//# sourceMappingURL=prepared-launch.js.map