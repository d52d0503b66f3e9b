// NCCL's element types and reduction operations by name, with the numbers of
// ncclDataType_t and ncclRedOp_t.

/** The element types NCCL reduces and moves, by name, with ncclDataType_t's numbers. */
export const DataType = Object.freeze({
  int8: 0,
  uint8: 1,
  int32: 2,
  uint32: 3,
  int64: 4,
  uint64: 5,
  float16: 6,
  float32: 7,
  float64: 8,
  bfloat16: 9,
  /** NCCL 2.24 and newer. */
  float8e4m3: 10,
  /** NCCL 2.24 and newer. */
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
  sum: 0,
  prod: 1,
  max: 2,
  min: 3,
  /** The sum divided by the number of ranks. */
  avg: 4,
});
/** The name of a reduction operation: 'sum', 'prod', 'max', 'min' or 'avg'. */
export type ReduceOpName = keyof typeof ReduceOp;
