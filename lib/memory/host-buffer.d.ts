import { DeviceLike } from '../device';
import { Disposable } from '../disposable';
import { NativeHostBuffer } from '../native';
export interface HostAllocOptions {
    device?: DeviceLike;
    /** Pinned for every context, not only the device's (CU_MEMHOSTALLOC_PORTABLE). */
    portable?: boolean;
    /** Mapped into the device's address space (CU_MEMHOSTALLOC_DEVICEMAP). */
    mapped?: boolean;
    /** Write-combined: fast for the host to write and the device to read, slow for the host to read. */
    writeCombined?: boolean;
}
export interface HostRegisterOptions {
    device?: DeviceLike;
    portable?: boolean;
    mapped?: boolean;
    /** The device will only read it (CU_MEMHOSTREGISTER_READ_ONLY). */
    readOnly?: boolean;
}
export declare class HostBuffer extends Disposable<NativeHostBuffer> {
    /** @internal */
    constructor(handle: NativeHostBuffer);
    /** bytes of pinned host memory (cuMemAllocHost; cuMemHostAlloc when flags are given). */
    static alloc(bytes: number, options?: HostAllocOptions): HostBuffer;
    /**
     * Pins the memory of an existing buffer in place (cuMemHostRegister). The
     * buffer stays referenced, and pinned, until dispose(); do not transfer it meanwhile.
     */
    static register(buffer: ArrayBuffer | ArrayBufferView, options?: HostRegisterOptions): HostBuffer;
    /** The host address. */
    get address(): bigint;
    get size(): number;
    /** True for memory registered from a JavaScript buffer. */
    get registered(): boolean;
    /** The address device code uses for this memory (cuMemHostGetDevicePointer). */
    get devicePointer(): bigint;
    /**
     * The memory as an ArrayBuffer, without copying (for registered memory: the
     * buffer that was registered). Detached (length 0) once this is disposed.
     */
    get arrayBuffer(): ArrayBuffer;
    /** A typed view of the memory, e.g. hostBuffer.view(Float32Array). */
    view<T>(type?: {
        new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
        BYTES_PER_ELEMENT: number;
    }): T;
    toString(): string;
}
