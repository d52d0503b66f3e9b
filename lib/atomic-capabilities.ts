// Which atomic operations a link carries natively (cuDeviceGetHostAtomicCapabilities,
// cuDeviceGetP2PAtomicCapabilities): per operation, the operand kinds and widths
// the hardware does itself rather than the link emulating or refusing them.
import { checkArray, checkEnum } from './validate';

/** The atomic operations a capability query asks about, by name, with the driver's CUatomicOperation numbers. */
export const AtomicOperation = {
  /** Integer atomicAdd (CU_ATOMIC_OPERATION_INTEGER_ADD). */
  'integer-add': 0,
  /** Integer atomicMin. */
  'integer-min': 1,
  /** Integer atomicMax. */
  'integer-max': 2,
  /** atomicInc. */
  'integer-increment': 3,
  /** atomicDec. */
  'integer-decrement': 4,
  /** atomicAnd. */
  and: 5,
  /** atomicOr. */
  or: 6,
  /** atomicXor. */
  xor: 7,
  /** atomicExch. */
  exchange: 8,
  /** atomicCAS. */
  'compare-and-swap': 9,
  /** Floating-point atomicAdd. */
  'float-add': 10,
  /** Floating-point atomicMin. */
  'float-min': 11,
  /** Floating-point atomicMax. */
  'float-max': 12,
} as const;
/** A name of {@link AtomicOperation}. */
export type AtomicOperationName = keyof typeof AtomicOperation;

/** What a link does natively for one operation: the driver's CUatomicOperationCapability bits, by name. */
export const AtomicCapability = {
  /** On signed operands. */
  signed: 1 << 0,
  /** On unsigned operands. */
  unsigned: 1 << 1,
  /** As a reduction (the result not returned). */
  reduction: 1 << 2,
  /** On 32-bit operands. */
  'scalar-32': 1 << 3,
  /** On 64-bit operands. */
  'scalar-64': 1 << 4,
  /** On 128-bit operands. */
  'scalar-128': 1 << 5,
  /** On vectors of four 32-bit values. */
  'vector-32x4': 1 << 6,
} as const;
/** A name of {@link AtomicCapability}. */
export type AtomicCapabilityName = keyof typeof AtomicCapability;

/** Per operation asked about, the capabilities the link has for it natively (empty: none). */
export type AtomicCapabilities = Partial<Record<AtomicOperationName, AtomicCapabilityName[]>>;

const operationNames = Object.keys(AtomicOperation) as AtomicOperationName[];

/** The operations' numbers, checked (default: every operation). */
export function atomicOperationNumbers(operations: readonly AtomicOperationName[] | undefined): number[] {
  if (operations === undefined) return operationNames.map((name) => AtomicOperation[name]);
  const list = checkArray<AtomicOperationName>(operations, 'operations');
  if (list.length === 0) throw new RangeError('operations must name at least one operation');
  return list.map((name, i) => {
    if (typeof name !== 'string') throw new TypeError(`operations[${i}] must be a name of AtomicOperation, got ${typeof name}`);
    return checkEnum(name, AtomicOperation, `operations[${i}]`);
  });
}

/** The driver's bitmasks, one per operation number, as names. */
export function atomicCapabilityNames(operations: readonly number[], masks: readonly number[]): AtomicCapabilities {
  const out: AtomicCapabilities = {};
  operations.forEach((operation, i) => {
    const name = operationNames.find((n) => AtomicOperation[n] === operation) as AtomicOperationName;
    out[name] = (Object.keys(AtomicCapability) as AtomicCapabilityName[]).filter((c) => (masks[i] & AtomicCapability[c]) !== 0);
  });
  return out;
}
