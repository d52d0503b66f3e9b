// Memory that graphs allocate (memory nodes), and the device-wide accounting
// and trimming of it.
import { DeviceLike, ordinalOf } from '../device';
import { native, NativeGraphAllocation, Slot } from '../native';
import { Memory } from '../memory/memory';
import { checkEnum } from '../validate';

/**
 * Memory a graph's allocation node hands out. Usable by the nodes after the
 * allocation node (as an operand of copies, fills and kernel arguments) and,
 * after a launch, by stream work until it is freed; the graph, not this object,
 * frees it. dispose() only drops this handle.
 */
export class GraphAllocation extends Memory<NativeGraphAllocation> {
  /** @internal */
  constructor(handle: Slot<NativeGraphAllocation>) {
    super(handle);
  }

  override toString(): string {
    return this.disposed ? 'GraphAllocation(disposed)' : `GraphAllocation(${this.size} bytes at 0x${this.address.toString(16)})`;
  }
}

const attributes = { usedMemCurrent: 0, usedMemHigh: 1, reservedMemCurrent: 2, reservedMemHigh: 3 };

/** Graph memory of a device, in bytes (CUgraphMem_attribute). */
export interface GraphMemoryUsage {
  /** Memory graphs' allocations hold now. */
  usedMemCurrent: number;
  /** The most usedMemCurrent has been since the last reset (resetGraphMemoryHigh). */
  usedMemHigh: number;
  /** Memory reserved for graph allocations now (used, or kept for reuse). */
  reservedMemCurrent: number;
  /** The most reservedMemCurrent has been since the last reset. */
  reservedMemHigh: number;
}

/** Bytes graphs use or reserve on a device (cuDeviceGetGraphMemAttribute). */
export function graphMemory(device?: DeviceLike): GraphMemoryUsage {
  const ordinal = ordinalOf(device);
  const out = {} as GraphMemoryUsage;
  for (const [name, id] of Object.entries(attributes) as Array<[keyof typeof attributes, number]>) {
    out[name] = native.graphMemoryAttribute(ordinal, id);
  }
  return out;
}

/** Resets a high watermark to 0 (cuDeviceSetGraphMemAttribute). */
export function resetGraphMemoryHigh(which: 'usedMemHigh' | 'reservedMemHigh', device?: DeviceLike): void {
  native.resetGraphMemoryHigh(ordinalOf(device), checkEnum(which, { usedMemHigh: 1, reservedMemHigh: 3 }, 'which'));
}

/** Returns memory graphs reserve but do not use to the system (cuDeviceGraphMemTrim). */
export function trimGraphMemory(device?: DeviceLike): void {
  native.trimGraphMemory(ordinalOf(device));
}
