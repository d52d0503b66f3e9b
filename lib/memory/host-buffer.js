"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HostBuffer = void 0;
// Page-locked (pinned) host memory: fast, asynchronous copies to and from the
// device, and (mapped) direct access by device code. Allocated memory is seen
// from JavaScript through arrayBuffer, a zero-copy view that dispose() detaches,
// so a view never outlives the memory.
const device_1 = require("../device");
const disposable_1 = require("../disposable");
const native_1 = require("../native");
const validate_1 = require("../validate");
function flag(value, name, bit) {
    return value !== undefined && (0, validate_1.checkBoolean)(value, name) ? bit : 0;
}
class HostBuffer extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /** bytes of pinned host memory (cuMemAllocHost; cuMemHostAlloc when flags are given). */
    static alloc(bytes, options = {}) {
        (0, validate_1.checkObject)(options, 'options');
        const flags = flag(options.portable, 'options.portable', 0x1) | flag(options.mapped, 'options.mapped', 0x2) |
            flag(options.writeCombined, 'options.writeCombined', 0x4);
        return new HostBuffer(native_1.native.allocateHost((0, device_1.ordinalOf)(options.device, 'options.device'), (0, validate_1.checkSize)(bytes, 'bytes'), flags));
    }
    /**
     * Pins the memory of an existing buffer in place (cuMemHostRegister). The
     * buffer stays referenced, and pinned, until dispose(); do not transfer it meanwhile.
     */
    static register(buffer, options = {}) {
        if (!(buffer instanceof ArrayBuffer) && !ArrayBuffer.isView(buffer))
            throw new TypeError('buffer must be an ArrayBuffer or a view of one');
        if (buffer instanceof ArrayBuffer && buffer.resizable)
            throw new TypeError('buffer must not be resizable');
        (0, validate_1.checkObject)(options, 'options');
        const flags = flag(options.portable, 'options.portable', 0x1) | flag(options.mapped, 'options.mapped', 0x2) |
            flag(options.readOnly, 'options.readOnly', 0x8);
        return new HostBuffer(native_1.native.registerHost((0, device_1.ordinalOf)(options.device, 'options.device'), buffer, flags));
    }
    /** The host address. */
    get address() {
        return this.native.address;
    }
    get size() {
        return this.native.size;
    }
    /** True for memory registered from a JavaScript buffer. */
    get registered() {
        return this.native.registered;
    }
    /** The address device code uses for this memory (cuMemHostGetDevicePointer). */
    get devicePointer() {
        return this.native.devicePointer();
    }
    /**
     * The memory as an ArrayBuffer, without copying (for registered memory: the
     * buffer that was registered). Detached (length 0) once this is disposed.
     */
    get arrayBuffer() {
        const view = this.native.view();
        return view instanceof ArrayBuffer ? view : view.buffer;
    }
    /** A typed view of the memory, e.g. hostBuffer.view(Float32Array). */
    view(type = Uint8Array) {
        const view = this.native.view();
        const [buffer, offset, bytes] = view instanceof ArrayBuffer ? [view, 0, view.byteLength] : [view.buffer, view.byteOffset, view.byteLength];
        return new type(buffer, offset, Math.floor(bytes / type.BYTES_PER_ELEMENT));
    }
    toString() {
        return this.disposed ? 'HostBuffer(disposed)' : `HostBuffer(${this.size} bytes${this.registered ? ', registered' : ''})`;
    }
}
exports.HostBuffer = HostBuffer;
//# sourceMappingURL=host-buffer.js.map