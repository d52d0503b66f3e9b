// The memory-pool path, for stream-ordered allocations: the pool is exported
// once (a POSIX descriptor or a fabric handle) and each allocation as 64 bytes
// of export data. An importer imports each exporter's pool once and each
// allocation once per pool (importing the same pointer twice would map it
// twice, and the first free would unmap both); the pool lives while its
// imported pointers do.
// Imported pool memory must be released in every importer before the exporter
// frees it (the driver's rule).
import { Device, DeviceLike, ordinalOf } from '../device';
import { CudaError } from '../errors';
import { CudaResult, MemoryAccess, MemoryHandleType, MemoryLocationType } from '../generated/enums';
import type { DeviceBuffer } from '../memory/device-buffer';
import { MemoryPool } from '../memory/pool';
import { memorySlot } from '../memory/bytes';
import { addressRange } from '../memory/info';
import { native, NativeImportedMemory, NativeReceivedFd, Slot } from '../native';
import { checkEnum, checkInstance, checkObject, checkOptions, checkSize, checkString, noOptions } from '../validate';
import { decodeBytes, encodeBytes, PoolMemoryDescriptor } from './descriptor';
import { SharingUnsupportedError } from './errors';
import { requireFabric } from './fabric';
import { OwnedFd } from './fd-channel';
import { SharedMemory } from './shared-memory';

/** How a pool or an allocation travels: a POSIX file descriptor (one host) or a fabric handle. */
export type ShareableHandleType = 'posixFileDescriptor' | 'fabric';

const shareableTypes = { posixFileDescriptor: MemoryHandleType.posixFileDescriptor, fabric: MemoryHandleType.fabric };

/** @internal The remedy when a pool cannot be exported. */
export const exportablePoolRemedy =
  "Allocate from a pool created to be shared: MemoryPool.create({ handleTypes: ['posixFileDescriptor'] }) and " +
  'DeviceBuffer.allocAsync(bytes, stream, { pool }); a device\'s default pool cannot be exported';

/**
 * Exports a pool (cuMemPoolExportToShareableHandle) created with that handle
 * type: an OwnedFd to send over an FdChannel, or a fabric handle's 64 bytes.
 * pool may also be stream-ordered memory, meaning the pool it came from.
 */
export function exportPool(pool: MemoryPool | DeviceBuffer, options: { handleType?: ShareableHandleType } = noOptions): OwnedFd | Uint8Array {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'exportPool', ['handleType']);
  const type = checkEnum(options.handleType ?? 'posixFileDescriptor', shareableTypes, 'options.handleType');
  const handle = pool instanceof MemoryPool ? pool.slot : memorySlot(pool, 'pool');
  if (type === MemoryHandleType.fabric) requireFabric(pool.device);
  let exported: Slot<NativeReceivedFd> | Buffer;
  try {
    exported = native.exportPool(handle, type);
  } catch (error) {
    const refusals: number[] = [CudaResult.CUDA_ERROR_INVALID_VALUE, CudaResult.CUDA_ERROR_NOT_SUPPORTED, CudaResult.CUDA_ERROR_NOT_PERMITTED];
    if (error instanceof CudaError && refusals.includes(error.result)) {
      throw new SharingUnsupportedError('pool-not-exportable',
        `the memory pool cannot be exported as ${options.handleType ?? 'posixFileDescriptor'} (${error.name})`, exportablePoolRemedy);
    }
    throw error;
  }
  return exported instanceof Uint8Array ? new Uint8Array(exported) : new OwnedFd(exported);
}

/**
 * Imports a pool another process exported (cuMemPoolImportFromShareableHandle):
 * handle is the descriptor it sent (a number or an OwnedFd, which stays the
 * caller's to close; one that cannot be a driver export is refused with a
 * TypeError before the driver sees it) or its fabric handle's bytes. identity
 * names the exporter's pool: importing it again under the same identity while
 * this process still holds it returns the same pool, without looking at
 * handle. So make it something this process knows of the sender (as
 * openSharedMemory does: the peer's credentials), never a name the sender
 * chose alone. A pool this process imported already under another identity
 * is the same pool (the driver hands back the same handle). Imported pools
 * cannot allocate.
 */
export function importPool(handle: number | OwnedFd | Uint8Array, options: { identity: string; device?: DeviceLike }): MemoryPool {
  checkObject(options, 'options');
  checkOptions(options, 'options', 'importPool', ['identity', 'device']);
  const identity = checkString(options.identity, 'options.identity');
  const ordinal = ordinalOf(options.device, 'options.device');
  if (handle instanceof Uint8Array) return new MemoryPool(native.importPool(ordinal, handle, MemoryHandleType.fabric, identity));
  const fd = handle instanceof OwnedFd ? handle.fd : handle;
  return new MemoryPool(native.importPool(ordinal, fd, MemoryHandleType.posixFileDescriptor, identity));
}

/**
 * The export data of a stream-ordered allocation (cuMemPoolExportPointer), after
 * its stream has reached the allocation (synchronized here), so that an
 * importer never touches memory not yet allocated.
 */
export function exportPoolPointer(buffer: DeviceBuffer): Uint8Array {
  return new Uint8Array(native.exportPoolPointer(memorySlot(buffer, 'buffer')));
}

/**
 * Imports an allocation of an imported pool (cuMemPoolImportPointer), once per
 * pool and export data: a second import through the same pool returns a view
 * of the same mapping. Export data of another pool's allocation is passed to
 * the driver with this pool, and the driver refuses it (a CudaError), so data
 * can be tried against each pool held until one accepts it. bytes (from
 * offset) must lie within the allocation.
 */
export function importPoolPointer(pool: MemoryPool, data: Uint8Array, options: { offset?: number | bigint; bytes: number | bigint }): SharedMemory {
  checkInstance(pool, MemoryPool, 'pool');
  if (!(data instanceof Uint8Array)) throw new TypeError('data must be a Uint8Array');
  checkObject(options, 'options');
  checkOptions(options, 'options', 'importPoolPointer', ['offset', 'bytes']);
  const imported = native.importPoolPointer(pool.slot, data, checkSize(options.offset ?? 0, 'options.offset'), checkSize(options.bytes, 'options.bytes'));
  return new SharedMemory(imported, undefined);
}

/**
 * @internal The pool path's part of a descriptor, the descriptor that travels
 * with it, and the bytes an importer reaches: the whole allocation (the export
 * data names it, and cuMemPoolImportPointer maps all of it).
 */
export function exportPoolMemory(buffer: DeviceBuffer, poolId: bigint, offset: number, handleType: ShareableHandleType):
  { fields: Pick<PoolMemoryDescriptor, 'kind' | 'handleType' | 'pool' | 'poolHandle' | 'pointer' | 'offset'>; fds: OwnedFd[]; reachableBytes: number } {
  const poolHandle = exportPool(buffer, { handleType });
  try {
    const pointer = encodeBytes(exportPoolPointer(buffer));
    const pool = poolId.toString(16);
    const reachableBytes = addressRange(buffer).size;
    if (poolHandle instanceof OwnedFd) return { fields: { kind: 'pool', handleType, pool, pointer, offset }, fds: [poolHandle], reachableBytes };
    return { fields: { kind: 'pool', handleType, pool, poolHandle: encodeBytes(poolHandle), pointer, offset }, fds: [], reachableBytes };
  } catch (error) {
    if (poolHandle instanceof OwnedFd) poolHandle.dispose();
    throw error;
  }
}

/**
 * @internal Opens a pool descriptor on a device, given its descriptors (if any)
 * and the identity its pool is imported under (see share.ts poolIdentity).
 */
export function openPoolMemory(descriptor: PoolMemoryDescriptor, device: Device, fds: readonly OwnedFd[], identity: string): Slot<NativeImportedMemory> {
  if (descriptor.handleType === 'fabric') requireFabric(device);
  const handle = descriptor.poolHandle !== undefined ? decodeBytes(descriptor.poolHandle) : fds[0];
  const pool = importPool(handle, { identity, device });
  try {
    // Grant the device access unless it has it already (the owning device does,
    // and cuMemPoolSetAccess rejects a batch naming it), as NVIDIA's IPC sample does.
    if (native.poolGetAccess(pool.slot, MemoryLocationType.device, device.ordinal) !== MemoryAccess.readwrite) {
      native.poolSetAccess(pool.slot, [[MemoryLocationType.device, device.ordinal, MemoryAccess.readwrite]]);
    }
    return native.importPoolPointer(pool.slot, decodeBytes(descriptor.pointer), descriptor.offset, descriptor.size);
  } finally {
    pool.dispose();  // the imported pointer holds the pool
  }
}
