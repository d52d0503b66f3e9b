import { Context } from '../context';
import { Device, DeviceLike } from '../device';
import { Disposable } from '../disposable';
import { MemoryAdviceName } from '../generated/enums';
import { NativeDeviceBuffer } from '../native';
import { Stream } from '../stream';
import { FillOptions } from './copy';
import { Location } from './location';
import { MemoryPool } from './pool';
type TypedArrayConstructor<T> = {
    new (buffer: ArrayBuffer): T;
    BYTES_PER_ELEMENT: number;
};
export declare class DeviceBuffer extends Disposable<NativeDeviceBuffer> {
    #private;
    /** @internal */
    constructor(handle: NativeDeviceBuffer);
    /**
     * bytes of device memory (cuMemAlloc), in the device's primary context or in
     * options.context (a context of its own, from Device.createContext). Contents are undefined.
     */
    static alloc(bytes: number, options?: {
        device?: DeviceLike;
        context?: Context;
    }): DeviceBuffer;
    /** A new buffer holding a copy of data. */
    static from(data: ArrayBuffer | ArrayBufferView, options?: {
        device?: DeviceLike;
    }): DeviceBuffer;
    /**
     * height rows of widthBytes, each row starting at a multiple of the pitch the
     * driver chooses for elementBytes-sized accesses (cuMemAllocPitch).
     */
    static allocPitched(widthBytes: number, height: number, options?: {
        elementBytes?: 4 | 8 | 16;
        device?: DeviceLike;
    }): DeviceBuffer;
    /**
     * Stream-ordered memory (cuMemAllocAsync, or cuMemAllocFromPoolAsync with a
     * pool): usable by work queued on stream after this call; freed on the same
     * stream, after the work queued there before dispose().
     */
    static allocAsync(bytes: number, stream: Stream, options?: {
        pool?: MemoryPool;
    }): DeviceBuffer;
    /**
     * Managed memory, migrated between host and device on demand
     * (cuMemAllocManaged). attach: 'global' (default) or 'host'.
     */
    static allocManaged(bytes: number, options?: {
        device?: DeviceLike;
        attach?: 'global' | 'host';
    }): DeviceBuffer;
    /** The device address. */
    get address(): bigint;
    get size(): number;
    /** Bytes per row of a pitched allocation; 0 otherwise. */
    get pitch(): number;
    get allocation(): 'plain' | 'pitched' | 'stream-ordered' | 'managed';
    get device(): Device;
    /** Copies data into this buffer at offset (synchronously, or queued on options.stream). */
    write(data: ArrayBuffer | ArrayBufferView, options?: {
        offset?: number;
        stream?: Stream;
    }): void;
    /** Copies the buffer (or bytes of it from offset) into a new typed array, synchronously. */
    readSync<T = Uint8Array>(type?: TypedArrayConstructor<T>, options?: {
        offset?: number;
        bytes?: number;
    }): T;
    /** Sets the buffer (or part of it) to value, in 1-, 2- or 4-byte elements. */
    fill(value: number, options?: FillOptions): void;
    /** Migrates managed memory toward location on stream (cuMemPrefetchAsync). */
    prefetch(location: Location, stream: Stream, options?: {
        offset?: number;
        bytes?: number;
    }): void;
    /** Advises the driver how managed memory will be used (cuMemAdvise). */
    advise(advice: MemoryAdviceName, location?: Location, options?: {
        offset?: number;
        bytes?: number;
    }): void;
    /** What the driver knows of a managed range (cuMemRangeGetAttribute / cuMemRangeGetAttributes). */
    rangeAttributes(options?: {
        offset?: number;
        bytes?: number;
    }): ManagedRangeAttributes;
    toString(): string;
}
export interface ManagedRangeAttributes {
    readMostly: boolean;
    /** 'device N', 'host', 'hostNuma', ... or 'none'. */
    preferredLocation: string;
    lastPrefetchLocation: string;
    /** Ordinals of devices set as accessing the range. */
    accessedBy: number[];
}
export {};
