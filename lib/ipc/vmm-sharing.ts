// The virtual-memory path, for Mapping and GrowableBuffer memory: each physical
// allocation under the shared range is exported (a POSIX descriptor each, or a
// fabric handle), and the importer maps the same allocations the same way into a
// range of its own. An imported allocation stays alive while this process maps
// it, even after the exporting process is gone (the driver frees VMM memory only
// once every handle and mapping of it is released).
import { Device } from '../device';
import { native, NativeImportedMemory, NativeSegment, Slot } from '../native';
import { encodeAccess } from '../vmm/access';
import { AddressReservation } from '../vmm/address-reservation';
import { allocationGranularity } from '../vmm/granularity';
import type { GrowableBuffer } from '../vmm/growable-buffer';
import { defaultAccess, type Mapping, type MappedSegment } from '../vmm/mapping';
import { PhysicalAllocation } from '../vmm/physical-allocation';
import { decodeBytes, encodeBytes, maxDescriptorSegments, VmmMemoryDescriptor, VmmSegment } from './descriptor';
import { SharingUnsupportedError } from './errors';
import { requireFabric } from './fabric';
import { OwnedFd } from './fd-channel';
import type { ShareableHandleType } from './pool-sharing';

/**
 * @internal The VMM path's part of a descriptor for a view [offset, offset +
 * bytes) of memory, the descriptors that travel with it, and the bytes an
 * importer reaches: every byte of the physical allocations the view touches
 * (each handle names a whole allocation), none of the others.
 */
export function exportVmmMemory(memory: Mapping | GrowableBuffer, offset: number, bytes: number, handleType: ShareableHandleType):
  { fields: Pick<VmmMemoryDescriptor, 'kind' | 'handleType' | 'segments' | 'offset'>; fds: OwnedFd[]; reachableBytes: number } {
  const all = memory.segments();
  const fds: OwnedFd[] = [];
  try {
    // Only the allocations under the shared range travel.
    const used: MappedSegment[] = [];
    let start = 0;
    let at = 0;
    for (const segment of all) {
      if (at + segment.bytes > offset && at < offset + bytes) {
        if (used.length === 0) start = at;
        used.push(segment);
      }
      at += segment.bytes;
    }
    if (used.length > maxDescriptorSegments) {
      throw new SharingUnsupportedError('too-many-pieces', `the range spans ${used.length} physical allocations`,
        `Share at most ${maxDescriptorSegments} at a time (a smaller range), or grow the buffer in larger steps`);
    }
    for (const segment of used) {
      if (!segment.allocation.properties().handleTypes.includes(handleType)) {
        throw new SharingUnsupportedError('handle-type-not-requested',
          `the memory was not created to be exported as ${handleType}`,
          `Create it with handleTypes: ['${handleType}'] (Mapping.alloc(bytes, { handleTypes }), GrowableBuffer.create({ maxSize, handleTypes }) or PhysicalAllocation.create)`);
      }
    }
    if (handleType === 'fabric') requireFabric(memory.device);
    const segments = used.map((segment): VmmSegment => {
      const base = { allocationSize: segment.allocation.size, allocationOffset: segment.allocationOffset, bytes: segment.bytes };
      if (handleType === 'fabric') return { ...base, fabric: encodeBytes(segment.allocation.exportFabric()) };
      fds.push(segment.allocation.exportFd());
      return base;
    });
    const reachableBytes = used.reduce((sum, segment) => sum + segment.allocation.size, 0);
    return { fields: { kind: 'vmm', handleType, segments, offset: offset - start }, fds, reachableBytes };
  } catch (error) {
    for (const fd of fds) fd.dispose();
    throw error;
  } finally {
    for (const segment of all) segment.allocation.dispose();
  }
}

/**
 * @internal Opens a VMM descriptor on a device: imports each allocation, maps
 * them one after another into a new reservation with read-write access for the
 * device (all or nothing), and returns a view of the shared bytes.
 */
export function openVmmMemory(descriptor: VmmMemoryDescriptor, device: Device, fds: readonly OwnedFd[]): Slot<NativeImportedMemory> {
  if (descriptor.handleType === 'fabric') requireFabric(device);
  const total = descriptor.segments.reduce((sum, s) => sum + s.bytes, 0);
  const reservation = AddressReservation.reserve(total, { device, alignment: allocationGranularity({ location: device }) });
  const allocations: PhysicalAllocation[] = [];
  try {
    descriptor.segments.forEach((s, i) => {
      allocations.push(PhysicalAllocation.import(s.fabric !== undefined ? decodeBytes(s.fabric) : fds[i], { bytes: s.allocationSize }));
    });
    const segments = descriptor.segments.map((s, i): NativeSegment => [allocations[i].slot, s.allocationOffset, s.bytes]);
    const mapped = native.mapMemory(reservation.slot, 0, segments, encodeAccess(defaultAccess(device), 'access'));
    try {
      return native.memoryView(mapped, descriptor.offset, descriptor.size, 'vmm');
    } finally {
      native.disposeHandle(mapped);  // the view holds the mapping
    }
  } finally {
    // The mapping holds what it maps; on failure these were the only references.
    for (const allocation of allocations) allocation.dispose();
    reservation.dispose();
  }
}
