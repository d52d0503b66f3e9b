import { Stream } from '../stream';
import { Bytes, MemoryHandle } from './bytes';
export interface CopyOptions {
    /** Where in dst to start (bytes, default 0). */
    dstOffset?: number;
    /** Where in src to start (bytes, default 0). */
    srcOffset?: number;
    /** How many bytes (default: the rest of src). */
    bytes?: number;
    /** Queue the copy on this stream instead of copying synchronously. */
    stream?: Stream;
}
/**
 * Copies bytes from src to dst: host↔device, device↔device (peer copies across
 * devices), managed and host memory alike. An out-of-range copy is a RangeError.
 */
export declare function copy(dst: Bytes, src: Bytes, options?: CopyOptions): void;
/** One side of a pitched (2D or 3D) copy. */
export interface PitchedOperand {
    memory: Bytes;
    /** Byte offset of the region's first byte (default 0). */
    offset?: number;
    /** Bytes from one row to the next. */
    pitch: number;
    /** 3D only: rows from one slice to the next (default: the copy's height). */
    rowsPerSlice?: number;
}
export interface Copy2DOptions {
    stream?: Stream;
    /** Use cuMemcpy2DUnaligned (synchronous copies only). */
    unaligned?: boolean;
}
/** Copies height rows of width bytes between pitched regions. */
export declare function copy2D(dst: PitchedOperand, src: PitchedOperand, width: number, height: number, options?: Copy2DOptions): void;
export interface Extent3D {
    /** Bytes per row. */
    width: number;
    /** Rows per slice. */
    height: number;
    /** Slices. */
    depth: number;
}
/** Copies a 3D region (cuMemcpy3D; cuMemcpy3DPeer between devices). */
export declare function copy3D(dst: PitchedOperand, src: PitchedOperand, extent: Extent3D, options?: {
    stream?: Stream;
}): void;
export interface BatchCopy {
    dst: MemoryHandle;
    src: MemoryHandle;
    dstOffset?: number;
    srcOffset?: number;
    bytes: number;
}
/** Many 1D copies between library memory in one cuMemcpyBatchAsync on stream. */
export declare function copyBatch(copies: BatchCopy[], stream: Stream): void;
/** Many 3D copies between library memory in one cuMemcpy3DBatchAsync on stream. */
export declare function copy3DBatch(copies: Array<{
    dst: PitchedOperand;
    src: PitchedOperand;
    extent: Extent3D;
}>, stream: Stream): void;
export interface FillOptions {
    /** 1, 2 or 4: the size of value (default 1). */
    elementBytes?: 1 | 2 | 4;
    /** Byte offset to start at (default 0; aligned to elementBytes). */
    offset?: number;
    /** Elements to write (default: to the end). */
    count?: number;
    stream?: Stream;
}
/** Sets count elements of target to value (cuMemsetD8/D16/D32, Async with a stream). */
export declare function fill(target: MemoryHandle, value: number, options?: FillOptions): void;
/** Sets a pitched 2D region: height rows of width elements, pitch bytes apart (cuMemsetD2D*). */
export declare function fill2D(target: MemoryHandle, value: number, region: {
    pitch: number;
    width: number;
    height: number;
    offset?: number;
}, options?: {
    elementBytes?: 1 | 2 | 4;
    stream?: Stream;
}): void;
