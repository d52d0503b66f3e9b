// Copies and fills between any library memory and JavaScript bytes. The
// native layer checks every operand's range before the driver sees a pointer
// (a RangeError), and takes the byte count from the operands when none is
// given, so that a copy or fill reads no size here. Without a stream they are
// synchronous; with one, they are queued on it and the stream keeps the
// library memory they touch alive.
import { MemorySlot, native } from '../native';
import { Stream, streamSlot } from '../stream';
import { checkArray, checkBoolean, checkInteger, checkObject, checkOptions, checkSize, noOptions } from '../validate';
import { Bytes, bytesOperand, isMemoryHandle, MemoryHandle, memorySlot } from './bytes';

/** Options of {@link copy}. */
export interface CopyOptions {
  /** Where in dst to start (bytes, default 0). */
  dstOffset?: number | bigint;
  /** Where in src to start (bytes, default 0). */
  srcOffset?: number | bigint;
  /** How many bytes (default: the rest of src). */
  bytes?: number | bigint;
  /** Queue the copy on this stream instead of copying synchronously. */
  stream?: Stream;
}

function optionalStream(stream: Stream | undefined): number | undefined {
  return stream === undefined ? undefined : streamSlot(stream, 'options.stream');
}

/**
 * Copies bytes from src to dst: host↔device, device↔device (peer copies across
 * devices), managed and host memory alike. An out-of-range copy is a RangeError.
 */
export function copy(dst: Bytes, src: Bytes, options: CopyOptions = noOptions): void {
  if (options !== noOptions) {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'copy', ['dstOffset', 'srcOffset', 'bytes', 'stream']);
  }
  const { stream } = options;
  const count = options.bytes === undefined ? undefined : checkSize(options.bytes, 'options.bytes');
  const dstOffset = checkSize(options.dstOffset ?? 0, 'options.dstOffset');
  const srcOffset = checkSize(options.srcOffset ?? 0, 'options.srcOffset');
  // Between two memory handles (the usual copy): the hot entries, which take
  // slots only (and -1 for the rest of src).
  if (isMemoryHandle(dst) && isMemoryHandle(src)) {
    if (stream === undefined) native.memcpySync(dst.slot, dstOffset, src.slot, srcOffset, count ?? -1);
    else native.memcpyAsync(dst.slot, dstOffset, src.slot, srcOffset, count ?? -1, streamSlot(stream, 'options.stream'));
    return;
  }
  native.memcpy(bytesOperand(dst, 'dst'), dstOffset, bytesOperand(src, 'src'), srcOffset, count, optionalStream(stream));
}

/** One side of a pitched (2D or 3D) copy. */
export interface PitchedOperand {
  /** The memory: library memory or JavaScript bytes. */
  memory: Bytes;
  /** Byte offset of the region's first byte (default 0). */
  offset?: number | bigint;
  /** Bytes from one row to the next. */
  pitch: number | bigint;
  /** 3D only: rows from one slice to the next (default: the copy's height). */
  rowsPerSlice?: number | bigint;
}

/** Options of {@link copy2D}. */
export interface Copy2DOptions {
  /** Queue the copy on this stream instead of copying synchronously. */
  stream?: Stream;
  /** Use cuMemcpy2DUnaligned (synchronous copies only). */
  unaligned?: boolean;
}

function operand(o: PitchedOperand, name: string) {
  checkObject(o, name);
  return {
    memory: bytesOperand(o.memory, `${name}.memory`),
    offset: checkSize(o.offset ?? 0, `${name}.offset`),
    pitch: checkSize(o.pitch, `${name}.pitch`),
  };
}

/** Copies height rows of width bytes between pitched regions. */
export function copy2D(dst: PitchedOperand, src: PitchedOperand, width: number | bigint, height: number | bigint, options: Copy2DOptions = noOptions): void {
  const d = operand(dst, 'dst');
  const s = operand(src, 'src');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'copy2D', ['stream', 'unaligned']);
  const unaligned = options.unaligned === undefined ? false : checkBoolean(options.unaligned, 'options.unaligned');
  if (unaligned && options.stream) throw new RangeError('options.unaligned applies to synchronous copies only');
  native.memcpy2D({
    dst: d.memory, dstOffset: d.offset, dstPitch: d.pitch,
    src: s.memory, srcOffset: s.offset, srcPitch: s.pitch,
    width: checkSize(width, 'width'), height: checkSize(height, 'height'),
  }, optionalStream(options.stream), unaligned);
}

/** The size of a 3D copy. */
export interface Extent3D {
  /** Bytes per row. */
  width: number | bigint;
  /** Rows per slice. */
  height: number | bigint;
  /** Slices. */
  depth: number | bigint;
}

function params3D(dst: PitchedOperand, src: PitchedOperand, extent: Extent3D) {
  const d = operand(dst, 'dst');
  const s = operand(src, 'src');
  checkObject(extent, 'extent');
  const width = checkSize(extent.width, 'extent.width');
  const height = checkSize(extent.height, 'extent.height');
  const depth = checkSize(extent.depth, 'extent.depth');
  return {
    dst: d.memory, dstOffset: d.offset, dstPitch: d.pitch, dstHeight: checkSize(dst.rowsPerSlice ?? height, 'dst.rowsPerSlice'),
    src: s.memory, srcOffset: s.offset, srcPitch: s.pitch, srcHeight: checkSize(src.rowsPerSlice ?? height, 'src.rowsPerSlice'),
    width, height, depth,
  };
}

/** Copies a 3D region (cuMemcpy3D; cuMemcpy3DPeer between devices). */
export function copy3D(dst: PitchedOperand, src: PitchedOperand, extent: Extent3D, options: { stream?: Stream } = noOptions): void {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'copy3D', ['stream']);
  native.memcpy3D(params3D(dst, src, extent), optionalStream(options.stream));
}

/** One copy of {@link copyBatch}. */
export interface BatchCopy {
  /** Where to copy to. */
  dst: MemoryHandle;
  /** Where to copy from. */
  src: MemoryHandle;
  /** Byte offset into dst (default 0). */
  dstOffset?: number | bigint;
  /** Byte offset into src (default 0). */
  srcOffset?: number | bigint;
  /** How many bytes. */
  bytes: number | bigint;
}

/** Many 1D copies between library memory in one cuMemcpyBatchAsync on stream. */
export function copyBatch(copies: BatchCopy[], stream: Stream): void {
  const encoded = checkArray<BatchCopy>(copies, 'copies').map((c, i): [MemorySlot, number, MemorySlot, number, number] => {
    checkObject(c, `copies[${i}]`);
    return [memorySlot(c.dst, `copies[${i}].dst`), checkSize(c.dstOffset ?? 0, `copies[${i}].dstOffset`),
      memorySlot(c.src, `copies[${i}].src`), checkSize(c.srcOffset ?? 0, `copies[${i}].srcOffset`), checkSize(c.bytes, `copies[${i}].bytes`)];
  });
  native.memcpyBatch(encoded, streamSlot(stream));
}

/** Many 3D copies between library memory in one cuMemcpy3DBatchAsync on stream. */
export function copy3DBatch(copies: Array<{ dst: PitchedOperand; src: PitchedOperand; extent: Extent3D }>, stream: Stream): void {
  const encoded = checkArray<{ dst: PitchedOperand; src: PitchedOperand; extent: Extent3D }>(copies, 'copies').map((c, i) => {
    checkObject(c, `copies[${i}]`);
    return params3D(c.dst, c.src, c.extent);
  });
  native.memcpy3DBatch(encoded, streamSlot(stream));
}

/** Options of {@link fill}. */
export interface FillOptions {
  /** 1, 2 or 4: the size of value (default 1). */
  elementBytes?: 1 | 2 | 4;
  /** Byte offset to start at (default 0; aligned to elementBytes). */
  offset?: number | bigint;
  /** Elements to write (default: to the end). */
  count?: number | bigint;
  /** Queue the fill on this stream instead of filling synchronously. */
  stream?: Stream;
}

/** Sets count elements of target to value (cuMemsetD8/D16/D32, Async with a stream). */
export function fill(target: MemoryHandle, value: number, options: FillOptions = noOptions): void {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'fill', ['elementBytes', 'offset', 'count', 'stream']);
  const element = checkElement(options.elementBytes ?? 1);
  native.memset(memorySlot(target, 'target'), checkSize(options.offset ?? 0, 'options.offset'),
    checkInteger(value, 'value', 0, 2 ** (8 * element) - 1), options.count === undefined ? undefined : checkSize(options.count, 'options.count'),
    element, optionalStream(options.stream));
}

/** Sets a pitched 2D region: height rows of width elements, pitch bytes apart (cuMemsetD2D*). */
export function fill2D(target: MemoryHandle, value: number, region: { pitch: number | bigint; width: number | bigint; height: number | bigint; offset?: number | bigint },
  options: { elementBytes?: 1 | 2 | 4; stream?: Stream } = noOptions): void {
  checkObject(region, 'region');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'fill2D', ['elementBytes', 'stream']);
  const element = checkElement(options.elementBytes ?? 1);
  native.memset2D(memorySlot(target, 'target'), checkSize(region.offset ?? 0, 'region.offset'), checkSize(region.pitch, 'region.pitch'),
    checkInteger(value, 'value', 0, 2 ** (8 * element) - 1), checkSize(region.width, 'region.width'),
    checkSize(region.height, 'region.height'), element, optionalStream(options.stream));
}

function checkElement(value: unknown): 1 | 2 | 4 {
  if (value !== 1 && value !== 2 && value !== 4) throw new RangeError('elementBytes must be 1, 2 or 4');
  return value;
}
