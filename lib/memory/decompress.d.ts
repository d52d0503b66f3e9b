import { Stream } from '../stream';
import { MemoryHandle } from './bytes';
export interface DecompressEntry {
    src: MemoryHandle;
    srcOffset?: number;
    /** Compressed bytes to read. */
    srcBytes: number;
    dst: MemoryHandle;
    dstOffset?: number;
    /** Bytes the output is expected to take (a scheduling hint for the driver). */
    dstBytes: number;
    /** Where the driver writes the bytes actually produced, as a 32-bit count. */
    actualBytes: MemoryHandle;
    actualBytesOffset?: number;
    algorithm: 'deflate' | 'snappy' | 'lz4';
}
/** Decompresses each entry on stream. Memory must be device memory the decompression engine can reach. */
export declare function decompressBatch(entries: readonly DecompressEntry[], stream: Stream): void;
