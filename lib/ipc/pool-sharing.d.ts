import { Device, DeviceLike } from '../device';
import type { DeviceBuffer } from '../memory/device-buffer';
import { MemoryPool } from '../memory/pool';
import { NativeImportedMemory } from '../native';
import { PoolMemoryDescriptor } from './descriptor';
import { OwnedFd } from './fd-channel';
import { SharedMemory } from './shared-memory';
/** How a pool or an allocation travels: a POSIX file descriptor (one host) or a fabric handle. */
export type ShareableHandleType = 'posixFileDescriptor' | 'fabric';
/** @internal The remedy when a pool cannot be exported. */
export declare const exportablePoolRemedy: string;
/**
 * Exports a pool (cuMemPoolExportToShareableHandle) created with that handle
 * type: an OwnedFd to send over an FdChannel, or a fabric handle's 64 bytes.
 * pool may also be stream-ordered memory, meaning the pool it came from.
 */
export declare function exportPool(pool: MemoryPool | DeviceBuffer, options?: {
    handleType?: ShareableHandleType;
}): OwnedFd | Uint8Array;
/**
 * Imports a pool another process exported (cuMemPoolImportFromShareableHandle):
 * handle is the descriptor it sent (a number or an OwnedFd, which stays the
 * caller's to close) or its fabric handle's bytes. identity names the
 * exporter's pool: importing it again under the same identity while this
 * process still holds it returns the same pool. Imported pools cannot allocate.
 */
export declare function importPool(handle: number | OwnedFd | Uint8Array, options: {
    identity: string;
    device?: DeviceLike;
}): MemoryPool;
/**
 * The export data of a stream-ordered allocation (cuMemPoolExportPointer), after
 * its stream has reached the allocation (synchronized here), so that an
 * importer never touches memory not yet allocated.
 */
export declare function exportPoolPointer(buffer: DeviceBuffer): Uint8Array;
/**
 * Imports an allocation of an imported pool (cuMemPoolImportPointer), once per
 * export data: a second import returns a view of the same mapping. bytes (from
 * offset) must lie within the allocation.
 */
export declare function importPoolPointer(pool: MemoryPool, data: Uint8Array, options: {
    offset?: number;
    bytes: number;
}): SharedMemory;
/** @internal The pool path's part of a descriptor, and the descriptor that travels with it. */
export declare function exportPoolMemory(buffer: DeviceBuffer, poolId: bigint, offset: number, handleType: ShareableHandleType): {
    fields: Pick<PoolMemoryDescriptor, 'kind' | 'handleType' | 'pool' | 'poolHandle' | 'pointer' | 'offset'>;
    fds: OwnedFd[];
};
/** @internal Opens a pool descriptor on a device, given its descriptors (if any). */
export declare function openPoolMemory(descriptor: PoolMemoryDescriptor, device: Device, fds: readonly OwnedFd[]): NativeImportedMemory;
