// Kernel arguments, typed explicitly: each has a type (i8 … u64, f16/bf16 as
// bits, f32, f64, a pointer, or raw bytes for a struct) and is laid out at the
// offset the driver reports for its parameter. A count or size that does not
// match the kernel is a KernelArgumentError before anything is launched.
import type { MemoryHandle } from '../memory/bytes';
import { DeviceBuffer } from '../memory/device-buffer';
import { HostBuffer } from '../memory/host-buffer';
import { checkInteger } from '../validate';
import type { KernelParam } from './kernel';

/** A scalar parameter type; f16 and bf16 are given as their 16-bit patterns (see toFloat16Bits). */
export type ScalarType = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f16' | 'bf16' | 'f32' | 'f64' | 'ptr';
/** A struct or other aggregate passed by value: its size and (for layouts the driver cannot report) its alignment. */
export interface BytesType {
  readonly bytes: number;
  readonly align?: number;
}
export type ArgType = ScalarType | BytesType;

/**
 * A pointer: a DeviceBuffer (its address), a HostBuffer the device can reach
 * (its device pointer), a device address, or null.
 */
export type PointerValue = DeviceBuffer | HostBuffer | bigint | null;
export type ArgValue = number | bigint | PointerValue | ArrayBufferView;

/** One typed argument of a launch; make them with {@link arg}. */
export class KernelArg {
  constructor(readonly type: ArgType, readonly value: ArgValue) {}
}

/** Typed arguments: `kernel.launch(config, [arg.ptr(x), arg.f32(2), arg.u32(n)])`. */
export const arg = {
  i8: (value: number) => new KernelArg('i8', value),
  u8: (value: number) => new KernelArg('u8', value),
  i16: (value: number) => new KernelArg('i16', value),
  u16: (value: number) => new KernelArg('u16', value),
  i32: (value: number) => new KernelArg('i32', value),
  u32: (value: number) => new KernelArg('u32', value),
  i64: (value: number | bigint) => new KernelArg('i64', value),
  u64: (value: number | bigint) => new KernelArg('u64', value),
  /** An f16 given as its bits (toFloat16Bits(x)). */
  f16: (bits: number) => new KernelArg('f16', bits),
  /** A bf16 given as its bits (toBFloat16Bits(x)). */
  bf16: (bits: number) => new KernelArg('bf16', bits),
  f32: (value: number) => new KernelArg('f32', value),
  f64: (value: number) => new KernelArg('f64', value),
  ptr: (value: PointerValue) => new KernelArg('ptr', value),
  /** A struct by value: exactly its bytes, with the struct's alignment for layouts the driver cannot report. */
  bytes: (data: ArrayBufferView, align?: number) => new KernelArg({ bytes: data.byteLength, align }, data),
} as const;

/** An argument list does not match the kernel's parameters. */
export class KernelArgumentError extends TypeError {
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
  readonly type: ArgType;
  readonly offset: number;
  readonly size: number;
}

/** The layout of an argument list in the parameter buffer. */
export interface ArgLayout {
  readonly slots: readonly ArgSlot[];
  /** The buffer's size: the end of the last parameter. */
  readonly bytes: number;
  /** True when the driver reported the parameters and the list was checked against them. */
  readonly checked: boolean;
}

/** The size and alignment of an argument type; TypeError for anything else. */
export function typeInfo(type: ArgType, name: string): { size: number; align: number } {
  if (typeof type === 'string') {
    const size = scalarSizes[type];
    if (size === undefined || !Object.prototype.hasOwnProperty.call(scalarSizes, type)) {
      throw new TypeError(`${name} must be one of ${Object.keys(scalarSizes).join(', ')} or { bytes, align }, got '${type}'`);
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
    const offset = Math.ceil(end / align) * align;
    end = offset + size;
    return Object.freeze({ type: types[i], offset, size });
  });
  return Object.freeze({ slots: Object.freeze(slots), bytes: end, checked: false });
}

const integerRanges: Partial<Record<ScalarType, [number, number]>> = {
  i8: [-128, 127], u8: [0, 255], i16: [-32768, 32767], u16: [0, 65535], f16: [0, 65535], bf16: [0, 65535],
  i32: [-(2 ** 31), 2 ** 31 - 1], u32: [0, 2 ** 32 - 1],
};
const two32 = 2 ** 32;

/**
 * Writes one argument into the parameter buffer (view over it; bytes the same
 * as Uint8Array) and returns the memory handle a pointer argument names, if any.
 */
export function writeArg(view: DataView, bytes: Uint8Array, slot: ArgSlot, value: unknown, name: string): MemoryHandle | null {
  const { type, offset } = slot;
  switch (type) {
    case 'i8': view.setInt8(offset, integer(value, type, name)); return null;
    case 'u8': view.setUint8(offset, integer(value, type, name)); return null;
    case 'i16': view.setInt16(offset, integer(value, type, name), true); return null;
    case 'u16': case 'f16': case 'bf16': view.setUint16(offset, integer(value, type, name), true); return null;
    case 'i32': view.setInt32(offset, integer(value, type, name), true); return null;
    case 'u32': view.setUint32(offset, integer(value, type, name), true); return null;
    case 'f32': view.setFloat32(offset, float(value, name), true); return null;
    case 'f64': view.setFloat64(offset, float(value, name), true); return null;
    case 'i64': writeWide(view, offset, value, true, name); return null;
    case 'u64': writeWide(view, offset, value, false, name); return null;
    case 'ptr': return writePointer(view, offset, value, name);
    default: {
      if (!ArrayBuffer.isView(value)) throw new TypeError(`${name} must be an ArrayBufferView of ${slot.size} bytes (a struct's bytes)`);
      if (value.byteLength !== slot.size) {
        throw new RangeError(`${name} must be ${slot.size} bytes, got ${value.byteLength}`);
      }
      bytes.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength), offset);
      return null;
    }
  }
}

function integer(value: unknown, type: ScalarType, name: string): number {
  const [min, max] = integerRanges[type]!;
  return checkInteger(value, `${name} (${type})`, min, max);
}

function float(value: unknown, name: string): number {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeof value}`);
  return value;
}

// A 64-bit integer from a safe-integer number (written as two halves, so that
// no bigint is made) or a bigint.
function writeWide(view: DataView, offset: number, value: unknown, signed: boolean, name: string): void {
  if (typeof value === 'number') {
    checkInteger(value, name, signed ? Number.MIN_SAFE_INTEGER : 0, Number.MAX_SAFE_INTEGER);
    if (value >= 0) {
      view.setUint32(offset, value % two32, true);
      view.setUint32(offset + 4, Math.floor(value / two32), true);
    } else {
      view.setBigInt64(offset, BigInt(value), true);
    }
    return;
  }
  if (typeof value !== 'bigint') throw new TypeError(`${name} must be a number or a bigint, got ${typeof value}`);
  if (signed ? BigInt.asIntN(64, value) !== value : BigInt.asUintN(64, value) !== value) {
    throw new RangeError(`${name} is out of range for ${signed ? 'i64' : 'u64'}: ${value}`);
  }
  if (signed) view.setBigInt64(offset, value, true);
  else view.setBigUint64(offset, value, true);
}

function writePointer(view: DataView, offset: number, value: unknown, name: string): MemoryHandle | null {
  if (value === null) {
    view.setBigUint64(offset, 0n, true);
    return null;
  }
  if (typeof value === 'bigint') {
    if (BigInt.asUintN(64, value) !== value) throw new RangeError(`${name} is not a 64-bit address: ${value}`);
    view.setBigUint64(offset, value, true);
    return null;
  }
  if (value instanceof DeviceBuffer) {
    view.setBigUint64(offset, value.address, true);
    return value;
  }
  if (value instanceof HostBuffer) {
    view.setBigUint64(offset, value.devicePointer, true);
    return value;
  }
  throw new TypeError(`${name} must be a DeviceBuffer, a HostBuffer, a bigint address or null`);
}
