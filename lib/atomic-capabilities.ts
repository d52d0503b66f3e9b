// Which atomic operations a link carries natively (cuDeviceGetHostAtomicCapabilities,
// cuDeviceGetP2PAtomicCapabilities): per operation, the operand kinds and widths
// the hardware does itself rather than the link emulating or refusing them.
// AtomicOperation and AtomicCapability, the names of CUatomicOperation and
// CUatomicOperationCapability, are generated from cuda.h (lib/generated/enums.ts).
import { AtomicCapability, AtomicOperation, type AtomicCapabilityName, type AtomicOperationName } from './generated/enums';
import { checkArray, checkEnum } from './validate';

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
