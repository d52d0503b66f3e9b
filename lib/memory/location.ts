// Where memory lives or should go: a device, the host, or a host NUMA node.
import { Device } from '../device';
import { MemoryLocationType } from '../generated/enums';
import { checkInteger } from '../validate';

/**
 * Where memory lives or should go: a Device or ordinal, 'host', a host NUMA
 * node ({ hostNuma: node }), or the NUMA node of the calling thread ('hostNumaCurrent').
 */
export type Location = Device | number | 'host' | {
  /** The host NUMA node. */
  hostNuma: number;
} | 'hostNumaCurrent';

/** The driver's CUmemLocation of a Location. */
export function locationOf(location: Location, name = 'location'): { type: number; id: number } {
  if (location instanceof Device) return { type: MemoryLocationType.device, id: location.ordinal };
  if (typeof location === 'number') return { type: MemoryLocationType.device, id: Device.get(location).ordinal };
  if (location === 'host') return { type: MemoryLocationType.host, id: 0 };
  if (location === 'hostNumaCurrent') return { type: MemoryLocationType.hostNumaCurrent, id: 0 };
  if (typeof location === 'object' && location !== null && 'hostNuma' in location) {
    return { type: MemoryLocationType.hostNuma, id: checkInteger(location.hostNuma, `${name}.hostNuma`, 0) };
  }
  throw new TypeError(`${name} must be a Device, a device ordinal, 'host', 'hostNumaCurrent' or { hostNuma: node }`);
}

/** The Location of a driver CUmemLocation. */
export function locationFrom(type: number, id: number): Location {
  switch (type) {
    case MemoryLocationType.device: return Device.get(id);
    case MemoryLocationType.host: return 'host';
    case MemoryLocationType.hostNuma: return { hostNuma: id };
    case MemoryLocationType.hostNumaCurrent: return 'hostNumaCurrent';
    default: throw new RangeError(`unknown memory location type ${type}`);
  }
}
