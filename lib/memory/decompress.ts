// Hardware decompression of many buffers at once (cuMemBatchDecompressAsync).
// It needs a decompression engine (NVIDIA Blackwell and later); other devices
// answer CudaNotSupportedError.
import { MemorySlot, native } from '../native';
import { Stream, streamSlot } from '../stream';
import { checkArray, checkEnum, checkObject, checkSize } from '../validate';
import { MemoryHandle, memorySlot } from './bytes';

/** One buffer of {@link decompressBatch}. */
export interface DecompressEntry {
  /** The compressed input. */
  src: MemoryHandle;
  /** Where in src the input starts (bytes, default 0). */
  srcOffset?: number | bigint;
  /** Compressed bytes to read. */
  srcBytes: number | bigint;
  /** Where the output goes. */
  dst: MemoryHandle;
  /** Where in dst the output starts (bytes, default 0). */
  dstOffset?: number | bigint;
  /** Bytes the output is expected to take (a scheduling hint for the driver). */
  dstBytes: number | bigint;
  /** Where the driver writes the bytes actually produced, as a 32-bit count. */
  actualBytes: MemoryHandle;
  /** Where in actualBytes the count goes (bytes, default 0). */
  actualBytesOffset?: number | bigint;
  /** The compression format of src. */
  algorithm: 'deflate' | 'snappy' | 'lz4';
}

const algorithms = { deflate: 1, snappy: 2, lz4: 4 };

/** Decompresses each entry on stream. Memory must be device memory the decompression engine can reach. */
export function decompressBatch(entries: readonly DecompressEntry[], stream: Stream): void {
  const encoded = checkArray<DecompressEntry>(entries, 'entries').map((e, i): [MemorySlot, number, number, MemorySlot, number, number, MemorySlot, number, number] => {
    checkObject(e, `entries[${i}]`);
    return [memorySlot(e.src, `entries[${i}].src`), checkSize(e.srcOffset ?? 0, `entries[${i}].srcOffset`), checkSize(e.srcBytes, `entries[${i}].srcBytes`),
      memorySlot(e.dst, `entries[${i}].dst`), checkSize(e.dstOffset ?? 0, `entries[${i}].dstOffset`), checkSize(e.dstBytes, `entries[${i}].dstBytes`),
      memorySlot(e.actualBytes, `entries[${i}].actualBytes`), checkSize(e.actualBytesOffset ?? 0, `entries[${i}].actualBytesOffset`),
      checkEnum(e.algorithm, algorithms, `entries[${i}].algorithm`)];
  });
  native.decompressBatch(encoded, streamSlot(stream));
}
