// Tensor maps (TMA descriptors): the driver encodes a tensor's shape in memory
// of the library into 128 bytes that a kernel receives by value
// (`const __grid_constant__ CUtensorMap`) and hands to the Tensor Memory
// Accelerator's bulk copies. Every rule the driver states for the encoders is
// checked here first, with the option named; what it refuses still is a
// CudaError. A map holds its memory, and so do the launches and kernel nodes
// that take it (native/kernel/tensor_map.cc).
import { Disposable } from '../disposable';
import { DisposedError } from '../errors';
import {
  TensorMapDataType,
  TensorMapDataTypeName,
  TensorMapIm2colWideMode,
  TensorMapIm2colWideModeName,
  TensorMapInterleave,
  TensorMapInterleaveName,
  TensorMapL2Promotion,
  TensorMapL2PromotionName,
  TensorMapOobFill,
  TensorMapOobFillName,
  TensorMapSwizzle,
  TensorMapSwizzleName,
} from '../generated/enums';
import { isMemoryHandle, MemoryHandle } from '../memory/bytes';
import { native, NativeTensorMap, NativeTensorMapArgument, Slot } from '../native';
import { checkArray, checkEnum, checkInteger, checkObject, checkOptions, nameOfValue } from '../validate';
import { MemoryPointer } from './args';

/** Options every tensor map takes. */
export interface TensorMapOptions {
  /**
   * The tensor's memory: library memory the device can reach (from its
   * start), or a MemoryPointer into it (`new MemoryPointer(memory, offset)`).
   * The map keeps it alive.
   */
  memory: MemoryHandle | MemoryPointer;
  /** The element type: `'float32'`, `'bfloat16'`, `'uint8'`, ... or the driver's number. */
  dataType: TensorMapDataTypeName | number;
  /** Elements along each dimension, innermost (contiguous) first: 1 to 5 of them (im2col: 3 to 5), each 1 to 2^32. */
  dims: readonly number[];
  /**
   * Bytes from one index to the next along dimensions 1 to rank - 1 (the
   * innermost is contiguous), each a multiple of 16 (32 with interleave '32B'
   * or a 16-byte-aligned packed type) below 2^40. Default: the dense layout,
   * which must meet the same rule.
   */
  strides?: readonly number[];
  /** The step along each dimension, 1 to 8 (default 1 everywhere; the innermost is ignored without interleave). */
  elementStrides?: readonly number[];
  /** An interleaved layout ('16B' or '32B': rank 3 or more); default 'none'. */
  interleave?: TensorMapInterleaveName | number;
  /** How shared memory is swizzled; default 'none'. */
  swizzle?: TensorMapSwizzleName | number;
  /** The size of L2 fetches; default 'none'. */
  l2Promotion?: TensorMapL2PromotionName | number;
  /** What elements outside the tensor read as: 'none' (zero) or 'nanRequestZeroFma' (floating types only); default 'none'. */
  oobFill?: TensorMapOobFillName | number;
}

/** Options of {@link TensorMap.tiled}. */
export interface TiledTensorMapOptions extends TensorMapOptions {
  /**
   * The box (tile) one copy moves: elements along each dimension, 1 to 256.
   * Without interleave its innermost row must be a multiple of 16 bytes, and
   * with a swizzle no longer than the swizzle's span.
   */
  box: readonly number[];
}

/** Options of {@link TensorMap.im2col}. */
export interface Im2colTensorMapOptions extends TensorMapOptions {
  /** The corner offsets (D, H, W of the spatial dimensions: rank - 2 of them) where the bounding box starts. */
  pixelBoxLowerCorner: readonly number[];
  /** The corner offsets where it ends. Rank 3: each in [-32768, 32767]; rank 4: [-128, 127]; rank 5: [-16, 15]. */
  pixelBoxUpperCorner: readonly number[];
  /** Elements along the channel dimension per pixel: 1 to 256 (128 for a 16-byte-aligned packed type). */
  channelsPerPixel: number;
  /** Pixels one copy moves: 1 to 1024. */
  pixelsPerColumn: number;
}

/** Options of {@link TensorMap.im2colWide}. */
export interface Im2colWideTensorMapOptions extends Omit<TensorMapOptions, 'swizzle'> {
  /** Where the bounding box starts along W: -32768 to 32767. */
  pixelBoxLowerCornerWidth: number;
  /** Where it ends along W: -32768 to 32767. */
  pixelBoxUpperCornerWidth: number;
  /** Elements along the channel dimension per pixel: 1 to 256 (128 for a 16-byte-aligned packed type). */
  channelsPerPixel: number;
  /** Pixels one copy moves along W: 1 to 1024 (ignored in mode 'w128'). */
  pixelsPerColumn: number;
  /** 'w' (pixelsPerColumn along W, the default) or 'w128'. */
  mode?: TensorMapIm2colWideModeName | number;
  /** The swizzle: '64B', '128B' or '128BAtom32B' (wide maps have no 'none'). */
  swizzle: TensorMapSwizzleName | number;
}

/** How a map addresses its tensor. */
export type TensorMapKind = 'tiled' | 'im2col' | 'im2colWide';

// Bytes of memory per element; the packed types hold 16 values in 8 bytes
// (16u4Align8B) or in 16 bytes with gaps (the ALIGN16B ones).
const elementBytes: Readonly<Record<TensorMapDataTypeName, number>> = {
  uint8: 1, uint16: 2, uint32: 4, int32: 4, uint64: 8, int64: 8, float16: 2, float32: 4, float64: 8, bfloat16: 2,
  float32Ftz: 4, tfloat32: 4, tfloat32Ftz: 4, '16u4Align8B': 0.5, '16u4Align16B': 1, '16u6Align16B': 1,
};
const floating: ReadonlySet<TensorMapDataTypeName> = new Set(['float16', 'float32', 'float64', 'bfloat16', 'float32Ftz', 'tfloat32', 'tfloat32Ftz']);
const aligned16: ReadonlySet<TensorMapDataTypeName> = new Set(['16u4Align16B', '16u6Align16B']);
// The span a swizzle pattern repeats over, in bytes.
const swizzleSpan: Readonly<Record<TensorMapSwizzleName, number>> = {
  none: 0, '32B': 32, '64B': 64, '128B': 128, '128BAtom32B': 128, '128BAtom32BFlip8B': 128, '128BAtom64B': 128,
};
const rankLimit = 5;
const commonKeys = ['memory', 'dataType', 'dims', 'strides', 'elementStrides', 'interleave', 'swizzle', 'l2Promotion', 'oobFill'];

// What the three encoders share, checked and encoded for the native layer.
interface Checked {
  memory: MemoryHandle;
  offset: number;
  dataType: TensorMapDataTypeName;
  dims: number[];
  strides: number[];
  elementStrides: number[];
  interleave: TensorMapInterleaveName;
  swizzle: TensorMapSwizzleName;
  l2Promotion: number;
  oobFill: number;
}

function enumName<M extends Record<string, number>>(value: unknown, map: M, name: string): keyof M & string {
  const number = checkEnum(value, map, name);
  const known = nameOfValue(map, number);
  if (known === undefined) throw new RangeError(`${name} must be one of ${Object.keys(map).join(', ')}; got ${number}`);
  return known;
}

function integers(value: unknown, name: string, count: number, min: number, max: number): number[] {
  const list = checkArray(value, name);
  if (list.length !== count) throw new RangeError(`${name} must have ${count} entries, got ${list.length}`);
  return list.map((v, i) => checkInteger(v, `${name}[${i}]`, min, max));
}

function place(memory: unknown, name: string): { memory: MemoryHandle; offset: number } {
  if (memory instanceof MemoryPointer) return { memory: memory.memory, offset: memory.offset };
  if (isMemoryHandle(memory)) return { memory, offset: 0 };
  throw new TypeError(`${name} must be library memory (DeviceBuffer, HostBuffer, ...) or a MemoryPointer into it`);
}

function checkCommon(options: TensorMapOptions, minRank: number): Checked {
  const { memory, offset } = place(options.memory, 'options.memory');
  const dataType = enumName(options.dataType, TensorMapDataType, 'options.dataType');
  const dimList = checkArray(options.dims, 'options.dims');
  if (dimList.length < minRank || dimList.length > rankLimit) {
    throw new RangeError(`options.dims must have ${minRank} to ${rankLimit} entries (the tensor's rank), got ${dimList.length}`);
  }
  const rank = dimList.length;
  const dims = dimList.map((d, i) => checkInteger(d, `options.dims[${i}]`, 1, 2 ** 32));
  const interleave = enumName(options.interleave ?? 'none', TensorMapInterleave, 'options.interleave');
  const swizzle = enumName(options.swizzle ?? 'none', TensorMapSwizzle, 'options.swizzle');
  const packed16 = aligned16.has(dataType);
  const strideUnit = interleave === '32B' || packed16 ? 32 : 16;
  const bytes = elementBytes[dataType];
  let strides: number[];
  if (options.strides === undefined) {
    strides = [];
    let stride = dims[0] * bytes;
    for (let i = 1; i < rank; i++) {
      if (stride % strideUnit !== 0) {
        throw new RangeError(`the dense stride of dimension ${i} (${stride} bytes) is not a multiple of ${strideUnit}: ` +
          'pad the rows and give options.strides');
      }
      strides.push(stride);
      stride *= dims[i];
    }
  } else {
    strides = integers(options.strides, 'options.strides', rank - 1, 1, 2 ** 40 - 1);
    strides.forEach((s, i) => {
      if (s % strideUnit !== 0) throw new RangeError(`options.strides[${i}] must be a multiple of ${strideUnit} bytes, got ${s}`);
    });
  }
  const elementStrides = options.elementStrides === undefined ? new Array<number>(rank).fill(1)
    : integers(options.elementStrides, 'options.elementStrides', rank, 1, 8);
  if (interleave !== 'none' && rank < 3) throw new RangeError(`options.interleave '${interleave}' needs a tensor of rank 3 or more`);
  if (interleave === '32B' && swizzle !== '32B') throw new RangeError(`options.interleave '32B' needs options.swizzle '32B', got '${swizzle}'`);
  if (dataType === '16u6Align16B' && interleave !== 'none') throw new RangeError(`options.dataType '16u6Align16B' needs options.interleave 'none'`);
  if (packed16 && dims[0] % 128 !== 0) throw new RangeError(`options.dims[0] must be a multiple of 128 for '${dataType}', got ${dims[0]}`);
  if (dataType === '16u4Align8B' && dims[0] % 2 !== 0) throw new RangeError(`options.dims[0] must be even for '16u4Align8B', got ${dims[0]}`);
  const oobFill = checkEnum(options.oobFill ?? 'none', TensorMapOobFill, 'options.oobFill');
  if (oobFill === TensorMapOobFill.nanRequestZeroFma && !floating.has(dataType)) {
    throw new RangeError(`options.oobFill 'nanRequestZeroFma' needs a floating-point dataType, got '${dataType}'`);
  }
  const l2Promotion = checkEnum(options.l2Promotion ?? 'none', TensorMapL2Promotion, 'options.l2Promotion');
  return { memory, offset, dataType, dims, strides, elementStrides, interleave, swizzle, l2Promotion, oobFill };
}

// The swizzles the 16-byte-aligned packed types allow.
function checkPackedSwizzle(c: Checked): void {
  const allowed: TensorMapSwizzleName[] = c.dataType === '16u6Align16B' ? ['none', '128B', '128BAtom32B', '128BAtom64B']
    : c.dataType === '16u4Align16B' ? ['none', '128B', '128BAtom32B'] : [];
  if (allowed.length !== 0 && !allowed.includes(c.swizzle)) {
    throw new RangeError(`options.swizzle must be ${allowed.join(', ')} for '${c.dataType}', got '${c.swizzle}'`);
  }
}

// Without interleave, a swizzled row (the innermost extent of a copy, in bytes) fits the swizzle's span.
function checkSwizzledRow(c: Checked, rowBytes: number, what: string): void {
  const span = swizzleSpan[c.swizzle];
  if (c.interleave === 'none' && span !== 0 && rowBytes > span) {
    throw new RangeError(`${what} is ${rowBytes} bytes, more than options.swizzle '${c.swizzle}' spans (${span})`);
  }
}

function checkChannels(value: unknown, c: Checked, name: string): number {
  const channels = checkInteger(value, name, 1, 256);
  if (aligned16.has(c.dataType) && channels !== 128) throw new RangeError(`${name} must be 128 for '${c.dataType}', got ${channels}`);
  return channels;
}

// The address rules and the tensor's extent, for the place a map is (re)pointed at.
function checkPlace(memory: MemoryHandle, offset: number, c: Checked, name: string): void {
  const align = c.interleave === '32B' || aligned16.has(c.dataType) ? 32 : 16;
  const address = native.memoryAddress(memory.slot) + BigInt(offset);
  if (address % BigInt(align) !== 0n) throw new RangeError(`${name} must be aligned to ${align} bytes, got address 0x${address.toString(16)}`);
  let extent = Math.ceil(c.dims[0] * elementBytes[c.dataType]);
  for (let i = 1; i < c.dims.length; i++) extent += (c.dims[i] - 1) * c.strides[i - 1];
  const room = memory.size - offset;
  if (extent > room) {
    throw new RangeError(`the tensor spans ${extent} bytes but ${name} has ${room} from offset ${offset}: check options.dims and options.strides`);
  }
}

// Float64Array for the 64-bit lists (each below 2^53), as the native layer reads them.
const f64 = (list: readonly number[]) => Float64Array.from(list);

/**
 * A tensor map: a TMA descriptor of a tensor in memory of the library, which a
 * kernel takes as `const __grid_constant__ CUtensorMap` (pass it with
 * {@link arg}.tensorMap). Make one with {@link TensorMap.tiled},
 * {@link TensorMap.im2col} or {@link TensorMap.im2colWide}; they need a device
 * of compute capability 9.0 or newer to be used (im2colWide: 10.0, and CUDA 12.8).
 *
 * The map holds its memory, and every launch, prepared launch or kernel node
 * that takes it holds the descriptor and memory it had then, so disposing of
 * either while work may use them is safe.
 */
export class TensorMap extends Disposable<NativeTensorMap> {
  /** How it addresses the tensor. */
  readonly kind: TensorMapKind;
  /** The element type. */
  readonly dataType: TensorMapDataTypeName;
  /** Elements along each dimension, innermost first. */
  readonly dims: readonly number[];
  /** Bytes between indices of dimensions 1 to rank - 1. */
  readonly strides: readonly number[];
  readonly #checked: Checked;
  #memory: MemoryHandle;
  #offset: number;
  #argument: TensorMapArgument | undefined;

  private constructor(handle: Slot<NativeTensorMap>, kind: TensorMapKind, checked: Checked) {
    super(handle);
    this.kind = kind;
    this.dataType = checked.dataType;
    this.dims = Object.freeze([...checked.dims]);
    this.strides = Object.freeze([...checked.strides]);
    this.#checked = checked;
    this.#memory = checked.memory;
    this.#offset = checked.offset;
  }

  /**
   * A tiled map (cuTensorMapEncodeTiled): copies move boxes of `box` elements.
   *
   * ```ts
   * const map = TensorMap.tiled({ memory: matrix, dataType: 'float32', dims: [cols, rows], box: [32, 16] });
   * kernel.launch(config, [arg.tensorMap(map), arg.ptr(out)]);
   * ```
   */
  static tiled(options: TiledTensorMapOptions): TensorMap {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'TensorMap.tiled', [...commonKeys, 'box']);
    const c = checkCommon(options, 1);
    const box = integers(options.box, 'options.box', c.dims.length, 1, 256);
    const row = box[0] * elementBytes[c.dataType];
    if (c.interleave === 'none' && row % 16 !== 0) {
      throw new RangeError(`options.box[0] × the element size must be a multiple of 16 bytes without interleave, got ${row}`);
    }
    if (aligned16.has(c.dataType) && box[0] !== 128) throw new RangeError(`options.box[0] must be 128 for '${c.dataType}', got ${box[0]}`);
    checkPackedSwizzle(c);
    checkSwizzledRow(c, row, 'the box\'s inner row (options.box[0] × the element size)');
    checkPlace(c.memory, c.offset, c, 'options.memory');
    return new TensorMap(native.tensorMapEncodeTiled(c.memory.slot, c.offset, TensorMapDataType[c.dataType], f64(c.dims), f64(c.strides),
      Uint32Array.from(box), Uint32Array.from(c.elementStrides), TensorMapInterleave[c.interleave], TensorMapSwizzle[c.swizzle],
      c.l2Promotion, c.oobFill), 'tiled', c);
  }

  /**
   * An im2col map (cuTensorMapEncodeIm2col) of an NHWC-style tensor (channels
   * innermost), for convolutions: copies gather pixelsPerColumn pixels of
   * channelsPerPixel channels from the bounding box.
   */
  static im2col(options: Im2colTensorMapOptions): TensorMap {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'TensorMap.im2col',
      [...commonKeys, 'pixelBoxLowerCorner', 'pixelBoxUpperCorner', 'channelsPerPixel', 'pixelsPerColumn']);
    const c = checkCommon(options, 3);
    const rank = c.dims.length;
    // The corners' range narrows as the spatial dimensions grow.
    const limit = rank === 3 ? 32768 : rank === 4 ? 128 : 16;
    const lower = integers(options.pixelBoxLowerCorner, 'options.pixelBoxLowerCorner', rank - 2, -limit, limit - 1);
    const upper = integers(options.pixelBoxUpperCorner, 'options.pixelBoxUpperCorner', rank - 2, -limit, limit - 1);
    const channels = checkChannels(options.channelsPerPixel, c, 'options.channelsPerPixel');
    const pixels = checkInteger(options.pixelsPerColumn, 'options.pixelsPerColumn', 1, 1024);
    checkPackedSwizzle(c);
    checkSwizzledRow(c, channels * elementBytes[c.dataType], 'a pixel\'s channels (options.channelsPerPixel × the element size)');
    checkPlace(c.memory, c.offset, c, 'options.memory');
    return new TensorMap(native.tensorMapEncodeIm2col(c.memory.slot, c.offset, TensorMapDataType[c.dataType], f64(c.dims), f64(c.strides),
      Int32Array.from(lower), Int32Array.from(upper), channels, pixels, Uint32Array.from(c.elementStrides),
      TensorMapInterleave[c.interleave], TensorMapSwizzle[c.swizzle], c.l2Promotion, c.oobFill), 'im2col', c);
  }

  /**
   * A wide im2col map (cuTensorMapEncodeIm2colWide; compute capability 10.0
   * and a CUDA 12.8 driver): rows are always loaded along W, of an NWC, NHWC
   * or NDHWC tensor.
   */
  static im2colWide(options: Im2colWideTensorMapOptions): TensorMap {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'TensorMap.im2colWide',
      [...commonKeys, 'pixelBoxLowerCornerWidth', 'pixelBoxUpperCornerWidth', 'channelsPerPixel', 'pixelsPerColumn', 'mode']);
    if (options.swizzle === undefined) throw new TypeError('options.swizzle is required for TensorMap.im2colWide: \'64B\', \'128B\' or \'128BAtom32B\'');
    const c = checkCommon(options, 3);
    if (!['64B', '128B', '128BAtom32B'].includes(c.swizzle)) {
      throw new RangeError(`options.swizzle must be 64B, 128B or 128BAtom32B for TensorMap.im2colWide, got '${c.swizzle}'`);
    }
    const lower = checkInteger(options.pixelBoxLowerCornerWidth, 'options.pixelBoxLowerCornerWidth', -32768, 32767);
    const upper = checkInteger(options.pixelBoxUpperCornerWidth, 'options.pixelBoxUpperCornerWidth', -32768, 32767);
    const channels = checkChannels(options.channelsPerPixel, c, 'options.channelsPerPixel');
    const pixels = checkInteger(options.pixelsPerColumn, 'options.pixelsPerColumn', 1, 1024);
    const mode = checkEnum(options.mode ?? 'w', TensorMapIm2colWideMode, 'options.mode');
    checkPackedSwizzle(c);
    checkSwizzledRow(c, channels * elementBytes[c.dataType], 'a pixel\'s channels (options.channelsPerPixel × the element size)');
    checkPlace(c.memory, c.offset, c, 'options.memory');
    return new TensorMap(native.tensorMapEncodeIm2colWide(c.memory.slot, c.offset, TensorMapDataType[c.dataType], f64(c.dims),
      f64(c.strides), lower, upper, channels, pixels, Uint32Array.from(c.elementStrides), TensorMapInterleave[c.interleave], mode,
      TensorMapSwizzle[c.swizzle], c.l2Promotion, c.oobFill), 'im2colWide', c);
  }

  /** The memory the map points at now. */
  get memory(): MemoryHandle {
    return this.#memory;
  }

  /** Where in it the tensor starts, in bytes. */
  get offset(): number {
    return this.#offset;
  }

  /**
   * Points the map at other memory of the same shape (cuTensorMapReplaceAddress),
   * checked as the map was: alignment and room for the tensor. Later
   * launches, prepared-launch set() calls and kernel nodes get the new
   * address; what took the map before keeps the old descriptor and memory.
   */
  replaceAddress(memory: MemoryHandle | MemoryPointer): void {
    if (this.released) throw new DisposedError('TensorMap');
    const next = place(memory, 'memory');
    checkPlace(next.memory, next.offset, this.#checked, 'memory');
    native.tensorMapReplaceAddress(this.slot, next.memory.slot, next.offset);
    this.#memory = next.memory;
    this.#offset = next.offset;
    this.#argument?.dispose();
    this.#argument = undefined;
  }

  /** @internal The current descriptor as a kernel argument: memory, to a launch, taken by value. */
  argument(): TensorMapArgument {
    if (this.#argument === undefined || this.#argument.disposed) this.#argument = new TensorMapArgument(native.tensorMapArgument(this.slot));
    return this.#argument;
  }

  override dispose(): void {
    this.#argument?.dispose();
    super.dispose();
  }

  protected override inspectSummary(): Record<string, unknown> {
    return { kind: this.kind, dataType: this.dataType, dims: this.dims, ...super.inspectSummary() };
  }

  override toString(): string {
    return this.disposed ? 'TensorMap(disposed)' : `TensorMap(${this.kind}, ${this.dataType}, [${this.dims.join(', ')}])`;
  }
}

/**
 * @internal A descriptor as a kernel argument: memory whose parameter is its
 * 128 bytes, which holds the tensor's memory (native/kernel/tensor_map.cc).
 */
export class TensorMapArgument extends Disposable<NativeTensorMapArgument> {
  /** @internal */
  constructor(handle: Slot<NativeTensorMapArgument>) {
    super(handle);
  }

  /** 0: no bytes are read or written through it. */
  get size(): number {
    return 0;
  }
}
