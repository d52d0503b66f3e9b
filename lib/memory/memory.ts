// The base of every memory class (DeviceBuffer, HostBuffer, Mapping,
// GrowableBuffer, SharedMemory, GraphAllocation): what they all have, read by
// one native entry whichever class the slot names.
import { Device } from '../device';
import { Disposable, SlotGroup } from '../disposable';
import { native, NativeHandle as HandleBrand, Slot } from '../native';

/** Memory the library hands out: an address, a size and the device whose context it belongs to. */
export abstract class Memory<H extends HandleBrand = HandleBrand> extends Disposable<H> {
  /** @internal */
  protected constructor(handle: Slot<H>, group?: SlotGroup) {
    super(handle, group);
  }

  /** The start address (for host memory: the host address). */
  get address(): bigint {
    return native.memoryAddress(this.slot);
  }

  /** Its size in bytes: what copies, fills and reads may touch. */
  get size(): number {
    return native.memorySize(this.slot);
  }

  /** The device whose context the memory belongs to. */
  get device(): Device {
    return Device.get(native.memoryOrdinal(this.slot));
  }
}
