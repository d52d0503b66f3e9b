// NCCL's element types and reduction operations by name, with the numbers of
// ncclDataType_t and ncclRedOp_t.

/** The element types NCCL reduces and moves, by name, with ncclDataType_t's numbers. */
export const DataType = Object.freeze({
  /** Signed 8-bit integers. */
  int8: 0,
  /** Unsigned 8-bit integers. */
  uint8: 1,
  /** Signed 32-bit integers. */
  int32: 2,
  /** Unsigned 32-bit integers. */
  uint32: 3,
  /** Signed 64-bit integers. */
  int64: 4,
  /** Unsigned 64-bit integers. */
  uint64: 5,
  /** IEEE half precision. */
  float16: 6,
  /** IEEE single precision. */
  float32: 7,
  /** IEEE double precision. */
  float64: 8,
  /** bfloat16: float32's exponent, 8 bits of mantissa. */
  bfloat16: 9,
  /** 8-bit floats with 4 exponent bits (E4M3); NCCL 2.24 and newer. */
  float8e4m3: 10,
  /** 8-bit floats with 5 exponent bits (E5M2); NCCL 2.24 and newer. */
  float8e5m2: 11,
});
/** The name of an element type: 'float32', 'int64', 'bfloat16', ... */
export type DataTypeName = keyof typeof DataType;

/** Bytes per element of each type, by ncclDataType_t number. */
export const elementBytes: readonly number[] = [1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1];

/** The first NCCL release (as ncclGetVersion codes it) with the 8-bit float types. */
export const float8Version = 22400;

/** The reduction operations, by name, with ncclRedOp_t's numbers. */
export const ReduceOp = Object.freeze({
  /** The sum. */
  sum: 0,
  /** The product. */
  prod: 1,
  /** The largest value. */
  max: 2,
  /** The smallest value. */
  min: 3,
  /** The sum divided by the number of ranks. */
  avg: 4,
});
/** The name of a reduction operation: 'sum', 'prod', 'max', 'min' or 'avg'. */
export type ReduceOpName = keyof typeof ReduceOp;
