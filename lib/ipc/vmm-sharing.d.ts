import { Device } from '../device';
import { NativeImportedMemory } from '../native';
import type { GrowableBuffer } from '../vmm/growable-buffer';
import { type Mapping } from '../vmm/mapping';
import { VmmMemoryDescriptor } from './descriptor';
import { OwnedFd } from './fd-channel';
import type { ShareableHandleType } from './pool-sharing';
/** @internal The VMM path's part of a descriptor for [offset, offset + bytes) of memory, and the descriptors that travel with it. */
export declare function exportVmmMemory(memory: Mapping | GrowableBuffer, offset: number, bytes: number, handleType: ShareableHandleType): {
    fields: Pick<VmmMemoryDescriptor, 'kind' | 'handleType' | 'segments' | 'offset'>;
    fds: OwnedFd[];
};
/**
 * @internal Opens a VMM descriptor on a device: imports each allocation, maps
 * them one after another into a new reservation with read-write access for the
 * device (all or nothing), and returns a view of the shared bytes.
 */
export declare function openVmmMemory(descriptor: VmmMemoryDescriptor, device: Device, fds: readonly OwnedFd[]): NativeImportedMemory;
