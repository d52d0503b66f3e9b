// Memory that graphs allocate (memory nodes), and the device-wide accounting
// and trimming of it.
import { DeviceLike, ordinalOf } from '../device';
import { Disposable } from '../disposable';
import { native, NativeGraphAllocation } from '../native';
import { checkEnum } from '../validate';

/**
 * Memory a graph's allocation node hands out. Usable by the nodes after the
 * allocation node (as an operand of copies, fills and kernel arguments) and,
 * after a launch, by stream work until it is freed; the graph, not this object,
 * frees it. dispose() only drops this handle.
 */
export class GraphAllocation extends Disposable<NativeGraphAllocation> {
  /** @internal */
  constructor(handle: NativeGraphAllocation) {
    super(handle);
  }

  get address(): bigint {
    return this.native.address;
  }

  get size(): number {
    return this.native.size;
  }

  override toString(): string {
    return this.disposed ? 'GraphAllocation(disposed)' : `GraphAllocation(${this.size} bytes at 0x${this.address.toString(16)})`;
  }
}

const attributes = { usedMemCurrent: 0, usedMemHigh: 1, reservedMemCurrent: 2, reservedMemHigh: 3 };

/** Bytes graphs use or reserve on a device (cuDeviceGetGraphMemAttribute). */
export function graphMemory(device?: DeviceLike): Record<keyof typeof attributes, number> {
  const ordinal = ordinalOf(device);
  const out = {} as Record<keyof typeof attributes, number>;
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
