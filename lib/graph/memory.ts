// Memory that graphs allocate (memory nodes), its frees outside a graph, and
// the device-wide accounting and trimming of it.
import { DeviceLike, ordinalOf } from '../device';
import { native, NativeGraphAllocation, Slot } from '../native';
import { Memory } from '../memory/memory';
import { Stream, streamSlot } from '../stream';
import { checkEnum } from '../validate';

/**
 * Memory a graph's allocation node hands out. Usable by the nodes after the
 * allocation node (as an operand of copies, fills and kernel arguments) and,
 * after a launch, by stream work until it is freed. A free node frees it (in
 * its graph or in another one), or, as in C, freeAsync(stream) or free() once a
 * launch has allocated it (docs/graphs.md, "Memory nodes"). dispose() only
 * drops this handle.
 */
export class GraphAllocation extends Memory<NativeGraphAllocation> {
  /** @internal */
  constructor(handle: Slot<NativeGraphAllocation>) {
    super(handle);
  }

  /**
   * Frees the allocation a launch made, outside the graph, on stream
   * (cuMemFreeAsync), after the work queued there before this call; while
   * stream is capturing, the free becomes a free node of the graph it builds.
   * Disposes this handle. Refused when a free node of the allocating graph
   * frees it (every launch does); otherwise the driver's rules apply: the
   * allocation must be live (launched, not freed since) and must not be
   * freed again by a free node of another graph.
   */
  freeAsync(stream: Stream): void {
    this.#refuseFreedInGraph('freeAsync');
    native.freeGraphAllocation(this.slot, streamSlot(stream));
    this.dispose();
  }

  /**
   * Frees the allocation a launch made, now (cuMemFree): the work that uses it
   * must be done, as the driver does not wait for it. Disposes this handle;
   * the same rules as freeAsync.
   */
  free(): void {
    this.#refuseFreedInGraph('free');
    native.freeGraphAllocation(this.slot, undefined);
    this.dispose();
  }

  #refuseFreedInGraph(call: string): void {
    if (native.graphAllocationFreedInGraph(this.slot)) {
      throw new Error(`${call}: a free node of the allocating graph frees this allocation at every launch; freeing it outside too would free it twice`);
    }
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
