// Kernel arguments, typed explicitly: each has a type (i8 … u64, f16/bf16 as
// bits, f32, f64, a pointer, or raw bytes for a struct) and is laid out at the
// offset the driver reports for its parameter. A count or size that does not
// match the kernel is a KernelArgumentError before anything is launched.
import type { GraphExec } from '../graph/exec';
import { isMemoryHandle, MemoryHandle } from '../memory/bytes';
import { checkInstance, checkInteger, checkSize } from '../validate';
import { TensorMap } from './tensor-map';

/** Where one parameter lives in the kernel's parameter buffer, as the driver reports it. */
export interface KernelParam {
  /** Byte offset in the parameter buffer. */
  readonly offset: number;
  /** Size in bytes. */
  readonly size: number;
}

/** A scalar parameter type; f16 and bf16 are given as their 16-bit patterns (see toFloat16Bits). */
export type ScalarType = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f16' | 'bf16' | 'f32' | 'f64' | 'ptr';
/** A struct or other aggregate passed by value: its size and (for layouts the driver cannot report) its alignment. */
export interface BytesType {
  /** The struct's size in bytes. */
  readonly bytes: number;
  /** Its alignment (a power of two; default 1). */
  readonly align?: number;
}
/**
 * A tensor map (`const __grid_constant__ CUtensorMap`): its 128-byte
 * descriptor by value, at the offset the driver reports (CUDA 12.4+ drivers).
 */
export type TensorMapType = 'tensorMap';
/** The type of one kernel argument: a scalar type name, a tensor map, or a struct's size and alignment. */
export type ArgType = ScalarType | TensorMapType | BytesType;

/**
 * A pointer into library memory: the memory and a byte offset in it (made by
 * `arg.ptr(memory, offset)`). As an argument it keeps the memory alive, as the
 * memory itself would; the native layer adds the offset to the memory's
 * device address when the launch is made, and refuses an offset past the
 * memory's end. The offset may equal the memory's size: an end pointer, which
 * C allows to be formed but not dereferenced.
 */
export class MemoryPointer {
  /**
   * @param memory The memory pointed into.
   * @param offset Bytes from its start: a non-negative safe integer, or a bigint of one.
   */
  constructor(memory: MemoryHandle, offset: number | bigint) {
    if (!isMemoryHandle(memory)) {
      throw new TypeError('memory must be library memory (DeviceBuffer, HostBuffer, GraphAllocation, ...); ' +
        'for a raw address, add the offset to the bigint');
    }
    this.memory = memory;
    this.offset = checkSize(offset, 'offset');
    Object.freeze(this);
  }
  /** The memory pointed into. */
  readonly memory: MemoryHandle;
  /** Bytes from its start. */
  readonly offset: number;
}

/**
 * A pointer: a DeviceBuffer (its address), a HostBuffer the device can reach
 * (its device pointer), a place in either (MemoryPointer), a device address,
 * or null.
 */
export type PointerValue = MemoryHandle | MemoryPointer | bigint | null;
/** The value of one kernel argument: a number or bigint, a pointer, a tensor map, or a struct's bytes. */
export type ArgValue = number | bigint | PointerValue | TensorMap | ArrayBufferView;

/** One typed argument of a launch; make them with {@link arg}. */
export class KernelArg {
  /**
   * @param type The argument's type.
   * @param value Its value.
   */
  constructor(
    /** The argument's type. */
    readonly type: ArgType,
    /** Its value. */
    readonly value: ArgValue,
  ) {}
}

/** Typed arguments: `kernel.launch(config, [arg.ptr(x), arg.f32(2), arg.u32(n)])`. */
export const arg = {
  /** A signed 8-bit integer (char, int8_t). */
  i8: (value: number) => new KernelArg('i8', value),
  /** An unsigned 8-bit integer (unsigned char, uint8_t). */
  u8: (value: number) => new KernelArg('u8', value),
  /** A signed 16-bit integer (short, int16_t). */
  i16: (value: number) => new KernelArg('i16', value),
  /** An unsigned 16-bit integer (unsigned short, uint16_t). */
  u16: (value: number) => new KernelArg('u16', value),
  /** A signed 32-bit integer (int, int32_t). */
  i32: (value: number) => new KernelArg('i32', value),
  /** An unsigned 32-bit integer (unsigned, uint32_t). */
  u32: (value: number) => new KernelArg('u32', value),
  /** A signed 64-bit integer (long long, int64_t): a safe-integer number or a bigint. */
  i64: (value: number | bigint) => new KernelArg('i64', value),
  /** An unsigned 64-bit integer (unsigned long long, uint64_t, size_t): a safe-integer number or a bigint. */
  u64: (value: number | bigint) => new KernelArg('u64', value),
  /** An f16 given as its bits (toFloat16Bits(x)). */
  f16: (bits: number) => new KernelArg('f16', bits),
  /** A bf16 given as its bits (toBFloat16Bits(x)). */
  bf16: (bits: number) => new KernelArg('bf16', bits),
  /** A float. */
  f32: (value: number) => new KernelArg('f32', value),
  /** A double. */
  f64: (value: number) => new KernelArg('f64', value),
  /**
   * A pointer: library memory (its device address), a bigint address, or
   * null. With an offset, a pointer that many bytes into the memory (0 to its
   * size; see MemoryPointer): the launch keeps the memory alive either way.
   */
  ptr: (value: PointerValue, offset?: number | bigint) =>
    new KernelArg('ptr', offset === undefined ? value : new MemoryPointer(value as MemoryHandle, offset)),
  /** A struct by value: exactly its bytes, with the struct's alignment for layouts the driver cannot report. */
  bytes: (data: ArrayBufferView, align?: number) => new KernelArg({ bytes: data.byteLength, align }, data),
  /**
   * A tensor map for a `const __grid_constant__ CUtensorMap` parameter: its
   * descriptor as it is when the launch, kernel node or prepared launch's
   * set() takes it, which keeps that descriptor and its memory alive.
   */
  tensorMap: (map: TensorMap) => new KernelArg('tensorMap', checkInstance(map, TensorMap, 'map')),
  /**
   * A device graph for device code's cudaGraphLaunch (a cudaGraphExec_t
   * parameter): instantiated with deviceLaunch and uploaded. The launch,
   * kernel node or prepared launch that passes it keeps it alive.
   */
  graphExec: (exec: GraphExec) => {
    if (typeof (exec as Partial<GraphExec> | null)?.deviceArgument !== 'function') throw new TypeError('exec must be a GraphExec');
    return new KernelArg('ptr', exec.deviceArgument());
  },
} as const;

/** An argument list does not match the kernel's parameters. */
export class KernelArgumentError extends TypeError {
  /** 'ERR_CUDA_KERNEL_ARGUMENT'. */
  readonly code = 'ERR_CUDA_KERNEL_ARGUMENT';
  /** The kernel's name. */
  readonly kernel: string;
  /** The argument at fault, or -1 when the count is wrong. */
  readonly index: number;
  constructor(kernel: string, index: number, message: string) {
    super(`${kernel}: ${message}`);
    this.name = 'KernelArgumentError';
    this.kernel = kernel;
    this.index = index;
  }
}

const scalarSizes: Record<ScalarType, number> = {
  i8: 1, u8: 1, i16: 2, u16: 2, f16: 2, bf16: 2, i32: 4, u32: 4, f32: 4, i64: 8, u64: 8, f64: 8, ptr: 8,
};

/** Where one argument goes. */
export interface ArgSlot {
  /** The argument's type. */
  readonly type: ArgType;
  /** Byte offset in the parameter buffer. */
  readonly offset: number;
  /** Size in bytes. */
  readonly size: number;
}

/** The layout of an argument list in the parameter buffer. */
export interface ArgLayout {
  /** Where each argument goes, in order. */
  readonly slots: readonly ArgSlot[];
  /** The buffer's size: the end of the last parameter. */
  readonly bytes: number;
  /** True when the driver reported the parameters and the list was checked against them. */
  readonly checked: boolean;
}

/** The size and alignment of an argument type; TypeError for anything else. */
export function typeInfo(type: ArgType, name: string): { size: number; align: number } {
  if (typeof type === 'string') {
    // The alignment the encoders need (cuda.h declares 64 before CUDA 13, 128 since); argLayout places a map only where the driver reports it.
    if (type === 'tensorMap') return { size: 128, align: 64 };
    const size = scalarSizes[type];
    if (size === undefined || !Object.prototype.hasOwnProperty.call(scalarSizes, type)) {
      throw new TypeError(`${name} must be one of ${Object.keys(scalarSizes).join(', ')}, tensorMap or { bytes, align }, got '${type}'`);
    }
    return { size, align: size };
  }
  if (type === null || typeof type !== 'object') throw new TypeError(`${name} must be a type name or { bytes, align }`);
  const size = checkInteger(type.bytes, `${name}.bytes`, 1, 32764);
  const align = type.align === undefined ? 1 : checkInteger(type.align, `${name}.align`, 1, 256);
  if ((align & (align - 1)) !== 0) throw new RangeError(`${name}.align must be a power of two, got ${align}`);
  return { size, align };
}

function describeType(type: ArgType): string {
  return typeof type === 'string' ? type : `${type.bytes} bytes`;
}

/**
 * Lays out types for a kernel: at the driver's offsets when it reported the
 * parameters (after checking the count and every size), else by C's rules.
 */
export function argLayout(kernel: string, params: readonly KernelParam[] | null, types: readonly ArgType[]): ArgLayout {
  if (!Array.isArray(types)) throw new TypeError('types must be an array of argument types');
  const infos = types.map((t, i) => typeInfo(t, `types[${i}]`));
  if (params) {
    if (types.length !== params.length) {
      throw new KernelArgumentError(kernel, -1, `takes ${params.length} argument${params.length === 1 ? '' : 's'} ` +
        `(${params.map((p) => `${p.size} bytes`).join(', ') || 'none'}); ${types.length} given`);
    }
    const slots = params.map((p, i) => {
      if (infos[i].size !== p.size) {
        throw new KernelArgumentError(kernel, i, `argument ${i} is ${describeType(types[i])} (${infos[i].size} bytes) ` +
          `but parameter ${i} takes ${p.size} bytes`);
      }
      return Object.freeze({ type: types[i], offset: p.offset, size: p.size });
    });
    const bytes = params.reduce((end, p) => Math.max(end, p.offset + p.size), 0);
    return Object.freeze({ slots: Object.freeze(slots), bytes, checked: true });
  }
  let end = 0;
  const slots = infos.map(({ size, align }, i) => {
    if (types[i] === 'tensorMap') {
      // The compiler aligns a descriptor's device address, not its offset from the parameters' start (48 on sm_90).
      throw new KernelArgumentError(kernel, i, `argument ${i} is a tensor map, which needs the parameter layout the driver ` +
        'reports (a driver for CUDA 12.4 or newer): its offset depends on where the device places the parameters');
    }
    const offset = Math.ceil(end / align) * align;
    end = offset + size;
    return Object.freeze({ type: types[i], offset, size });
  });
  return Object.freeze({ slots: Object.freeze(slots), bytes: end, checked: false });
}

const two32 = 2 ** 32;

/**
 * Writes one argument into the parameter buffer (view over it; bytes the same
 * as Uint8Array). A pointer to memory (DeviceBuffer, HostBuffer, or a
 * MemoryPointer into one) is not written here: it is returned, and the native
 * layer writes its device address (plus the offset) and keeps the memory
 * alive for the launch; so is a tensor map's descriptor, whose bytes the
 * native layer writes. Errors name the argument as `${label}[${index}]`;
 * nothing is formatted unless there is an error.
 */
export function writeArg(view: DataView, bytes: Uint8Array, slot: ArgSlot, value: unknown, label: string, index: number):
  MemoryHandle | MemoryPointer | null {
  // The common cases, in a function small enough for V8 to inline into a
  // launch's loop; everything else, and every error, is writeAnyArg's.
  const offset = slot.offset;
  switch (slot.type) {
    case 'ptr':
      if (isMemoryHandle(value)) return value;
      break;
    case 'f32':
      if (typeof value === 'number') {
        view.setFloat32(offset, value, true);
        return null;
      }
      break;
    case 'f64':
      if (typeof value === 'number') {
        view.setFloat64(offset, value, true);
        return null;
      }
      break;
    case 'i32':
      if (typeof value === 'number' && (value | 0) === value) {
        view.setInt32(offset, value, true);
        return null;
      }
      break;
    case 'u32':
      if (typeof value === 'number' && value >>> 0 === value) {
        view.setUint32(offset, value, true);
        return null;
      }
      break;
  }
  return writeAnyArg(view, bytes, slot, value, label, index);
}

/** The same as writeArg for every type and value: the path of the uncommon cases and of every error. */
export function writeAnyArg(view: DataView, bytes: Uint8Array, slot: ArgSlot, value: unknown, label: string, index: number):
  MemoryHandle | MemoryPointer | null {
  const { type, offset } = slot;
  switch (type) {
    case 'i8': view.setInt8(offset, integer(value, -128, 127, type, label, index)); return null;
    case 'u8': view.setUint8(offset, integer(value, 0, 255, type, label, index)); return null;
    case 'i16': view.setInt16(offset, integer(value, -32768, 32767, type, label, index), true); return null;
    case 'u16': case 'f16': case 'bf16': view.setUint16(offset, integer(value, 0, 65535, type, label, index), true); return null;
    case 'i32': view.setInt32(offset, integer(value, -2147483648, 2147483647, type, label, index), true); return null;
    case 'u32': view.setUint32(offset, integer(value, 0, 4294967295, type, label, index), true); return null;
    case 'f32':
      if (typeof value !== 'number') throw new TypeError(`${label}[${index}] must be a number, got ${typeof value}`);
      view.setFloat32(offset, value, true);
      return null;
    case 'f64':
      if (typeof value !== 'number') throw new TypeError(`${label}[${index}] must be a number, got ${typeof value}`);
      view.setFloat64(offset, value, true);
      return null;
    case 'i64': writeWide(view, offset, value, true, label, index); return null;
    case 'u64': writeWide(view, offset, value, false, label, index); return null;
    case 'ptr': return writePointer(view, offset, value, label, index);
    case 'tensorMap':
      // The native layer writes the descriptor's bytes, as it writes a pointer's address.
      if (value instanceof TensorMap) return value.argument();
      throw new TypeError(`${label}[${index}] must be a TensorMap`);
    default: {
      if (!ArrayBuffer.isView(value)) {
        throw new TypeError(`${label}[${index}] must be an ArrayBufferView of ${slot.size} bytes (a struct's bytes)`);
      }
      if (value.byteLength !== slot.size) throw new RangeError(`${label}[${index}] must be ${slot.size} bytes, got ${value.byteLength}`);
      bytes.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), offset);
      return null;
    }
  }
}

function integer(value: unknown, min: number, max: number, type: string, label: string, index: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  return checkInteger(value, `${label}[${index}] (${type})`, min, max); // throws
}

// A 64-bit integer from a safe-integer number (written as two halves, so that
// no bigint is made) or a bigint.
function writeWide(view: DataView, offset: number, value: unknown, signed: boolean, label: string, index: number): void {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || (!signed && value < 0)) {
      checkInteger(value, `${label}[${index}]`, signed ? Number.MIN_SAFE_INTEGER : 0, Number.MAX_SAFE_INTEGER); // throws
    }
    if (value >= 0) {
      view.setUint32(offset, value % two32, true);
      view.setUint32(offset + 4, Math.floor(value / two32), true);
    } else {
      view.setBigInt64(offset, BigInt(value), true);
    }
    return;
  }
  if (typeof value !== 'bigint') throw new TypeError(`${label}[${index}] must be a number or a bigint, got ${typeof value}`);
  if (signed ? BigInt.asIntN(64, value) !== value : BigInt.asUintN(64, value) !== value) {
    throw new RangeError(`${label}[${index}] is out of range for ${signed ? 'i64' : 'u64'}: ${value}`);
  }
  if (signed) view.setBigInt64(offset, value, true);
  else view.setBigUint64(offset, value, true);
}

function writePointer(view: DataView, offset: number, value: unknown, label: string, index: number): MemoryHandle | MemoryPointer | null {
  if (isMemoryHandle(value) || value instanceof MemoryPointer) return value;
  if (value === null) {
    view.setBigUint64(offset, 0n, true);
    return null;
  }
  if (typeof value === 'bigint') {
    if (BigInt.asUintN(64, value) !== value) throw new RangeError(`${label}[${index}] is not a 64-bit address: ${value}`);
    view.setBigUint64(offset, value, true);
    return null;
  }
  throw new TypeError(`${label}[${index}] must be library memory (DeviceBuffer, HostBuffer, GraphAllocation, ...), ` +
    'a MemoryPointer, a bigint address or null');
}
