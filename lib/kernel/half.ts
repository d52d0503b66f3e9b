// Half-precision values as the bit patterns kernels take: f16 (IEEE binary16)
// and bf16 (bfloat16), rounded to nearest, ties to even, straight from a
// JavaScript number (no intermediate float32 rounding).

import { checkInteger } from '../validate';

interface SmallFloat {
  exponentBits: number;
  mantissaBits: number;
  nan: number;
}

const f16: SmallFloat = { exponentBits: 5, mantissaBits: 10, nan: 0x7e00 };
const bf16: SmallFloat = { exponentBits: 8, mantissaBits: 7, nan: 0x7fc0 };

/** The f16 bits of a number (round to nearest even; overflow to ±Infinity). */
export function toFloat16Bits(value: number): number {
  return encode(value, f16);
}

/** The bfloat16 bits of a number (round to nearest even; overflow to ±Infinity). */
export function toBFloat16Bits(value: number): number {
  return encode(value, bf16);
}

/** The number f16 bits stand for. */
export function fromFloat16Bits(bits: number): number {
  return decode(bits, f16);
}

/** The number bfloat16 bits stand for. */
export function fromBFloat16Bits(bits: number): number {
  return decode(bits, bf16);
}

function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

function encode(value: number, format: SmallFloat): number {
  if (typeof value !== 'number') throw new TypeError(`value must be a number, got ${typeof value}`);
  const { exponentBits, mantissaBits } = format;
  const signBit = 1 << (exponentBits + mantissaBits);
  const infinity = ((1 << exponentBits) - 1) << mantissaBits;
  if (Number.isNaN(value)) return format.nan;
  const sign = value < 0 || Object.is(value, -0) ? signBit : 0;
  const magnitude = Math.abs(value);
  const bias = (1 << (exponentBits - 1)) - 1;
  const minExponent = 1 - bias;
  // Subnormals (and zero) are multiples of 2^(minExponent - mantissaBits); scaling by powers of two is exact.
  if (magnitude < 2 ** minExponent) {
    return sign | roundHalfEven(magnitude / 2 ** (minExponent - mantissaBits)); // may round up into the smallest normal
  }
  if (magnitude === Infinity) return sign | infinity;
  let exponent = Math.floor(Math.log2(magnitude));
  if (2 ** exponent > magnitude) exponent -= 1; // log2 can be off by one near powers of two
  else if (2 ** (exponent + 1) <= magnitude) exponent += 1;
  let mantissa = roundHalfEven((magnitude / 2 ** exponent - 1) * 2 ** mantissaBits);
  if (mantissa === 2 ** mantissaBits) {
    mantissa = 0;
    exponent += 1;
  }
  if (exponent > bias) return sign | infinity;
  return sign | ((exponent + bias) << mantissaBits) | mantissa;
}

function decode(bits: number, format: SmallFloat): number {
  const { exponentBits, mantissaBits } = format;
  const total = 1 + exponentBits + mantissaBits;
  checkInteger(bits, 'bits', 0, 2 ** total - 1);
  const sign = bits >> (exponentBits + mantissaBits) ? -1 : 1;
  const exponent = (bits >> mantissaBits) & ((1 << exponentBits) - 1);
  const mantissa = bits & ((1 << mantissaBits) - 1);
  const bias = (1 << (exponentBits - 1)) - 1;
  if (exponent === (1 << exponentBits) - 1) return mantissa ? NaN : sign * Infinity;
  if (exponent === 0) return sign * mantissa * 2 ** (1 - bias - mantissaBits);
  return sign * (1 + mantissa / 2 ** mantissaBits) * 2 ** (exponent - bias);
}
