// Physical memory of virtual memory management: made by cuMemCreate, imported
// from another process, or retained from an address it is mapped at. Each
// object holds one reference to the allocation, released (cuMemRelease) when it
// is disposed; the memory itself lives until it is also unmapped everywhere.
import { Device } from '../device';
import { Disposable } from '../disposable';
import { AllocationGranularityName, MemoryHandleType } from '../generated/enums';
import { OwnedFd } from '../ipc/fd-channel';
import { PointerLike } from '../memory/info';
import { memorySlot } from '../memory/bytes';
import { native, NativePhysicalAllocation, NativeReceivedFd, Slot } from '../native';
import { checkObject, checkOptions, checkSize, noOptions } from '../validate';
import { allocationKeys, AllocationOptions, AllocationProperties, decodeProperties, encodeProperties, granularityOf, roundToGranularity } from './granularity';

/** Options of {@link PhysicalAllocation.create}. */
export interface PhysicalAllocationOptions extends AllocationOptions {
  /** Which granularity the size is rounded up to: 'minimum' (default) or 'recommended'. */
  granularity?: AllocationGranularityName | number;
}

/** @internal The keys of PhysicalAllocationOptions. */
export const physicalAllocationKeys: readonly string[] = [...allocationKeys, 'granularity'];

/** @internal PhysicalAllocation.create once its caller has checked the options' keys. */
export function createAllocation(bytes: number | bigint, options: PhysicalAllocationOptions): PhysicalAllocation {
  const properties = encodeProperties(options);
  const size = roundToGranularity(checkSize(bytes, 'bytes'), granularityOf(properties, options.granularity ?? 'minimum'));
  if (size === 0) throw new RangeError('bytes must be at least 1');
  return new PhysicalAllocation(native.createAllocation(properties, size));
}

/**
 * Physical memory without an address (cuMemCreate): map it into an
 * {@link AddressReservation} to use it. One reference to the allocation: disposing
 * it releases that reference (cuMemRelease); mappings keep the memory until they go.
 */
export class PhysicalAllocation extends Disposable<NativePhysicalAllocation> {
  /** @internal */
  constructor(handle: Slot<NativePhysicalAllocation>) {
    super(handle);
  }

  /**
   * A new allocation of at least bytes (cuMemCreate), rounded up to the
   * granularity of its properties: {@link size} reports the rounded size. It
   * has no address until mapped ({@link AddressReservation.map}).
   */
  static create(bytes: number | bigint, options: PhysicalAllocationOptions = noOptions): PhysicalAllocation {
    checkOptions(checkObject(options, 'options'), 'options', 'PhysicalAllocation.create', physicalAllocationKeys);
    return createAllocation(bytes, options);
  }

  /**
   * The allocation mapped at an address (cuMemRetainAllocationHandle): any
   * address of a mapped range, given as library memory (plus offset) or a bigint.
   * Its size is that of the mapping the address lies in.
   */
  static retain(pointer: PointerLike, offset?: number | bigint): PhysicalAllocation {
    const p = typeof pointer === 'bigint' ? pointer : memorySlot(pointer, 'pointer');
    return new PhysicalAllocation(native.retainAllocation(p, offset === undefined ? undefined : checkSize(offset, 'offset')));
  }

  /**
   * An allocation another process exported (cuMemImportFromShareableHandle):
   * handle is the POSIX file descriptor it sent (a number or an OwnedFd, which
   * stays open and the caller's to close) or a fabric handle's 64 bytes. bytes is
   * the size the exporter announced. Most programs use openSharedMemory instead.
   */
  static import(handle: number | OwnedFd | Uint8Array, options: { bytes: number | bigint }): PhysicalAllocation {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'PhysicalAllocation.import', ['bytes']);
    const bytes = checkSize(options.bytes, 'options.bytes');
    if (handle instanceof Uint8Array) return new PhysicalAllocation(native.importAllocation(handle, MemoryHandleType.fabric, bytes));
    const fd = handle instanceof OwnedFd ? handle.fd : handle;
    return new PhysicalAllocation(native.importAllocation(fd, MemoryHandleType.posixFileDescriptor, bytes));
  }

  /** The driver's CUmemGenericAllocationHandle (for logs). */
  get handle(): bigint {
    return native.physicalAllocationHandle(this.slot);
  }

  /** Bytes of the allocation (rounded to its granularity when created here). */
  get size(): number {
    return native.physicalAllocationSize(this.slot);
  }

  /** The device whose primary context the allocation's calls use (device 0 for host memory). */
  get device(): Device {
    return Device.get(native.physicalAllocationOrdinal(this.slot));
  }

  /** Its properties as the driver reports them (cuMemGetAllocationPropertiesFromHandle). */
  properties(): AllocationProperties {
    return decodeProperties(native.physicalAllocationProperties(this.slot));
  }

  /**
   * Exports the allocation as a POSIX file descriptor (cuMemExportToShareableHandle),
   * for another process to import. Needs handleTypes: ['posixFileDescriptor']
   * at creation. The descriptor keeps the memory alive until it is closed: dispose it.
   */
  exportFd(): OwnedFd {
    return new OwnedFd(native.physicalAllocationExport(this.slot, MemoryHandleType.posixFileDescriptor) as Slot<NativeReceivedFd>);
  }

  /**
   * Exports the allocation as a fabric handle: 64 bytes that any process with
   * access to the same IMEX channel can import. Needs handleTypes: ['fabric'].
   */
  exportFabric(): Uint8Array {
    return new Uint8Array(native.physicalAllocationExport(this.slot, MemoryHandleType.fabric) as Buffer);
  }

  override toString(): string {
    return this.disposed ? 'PhysicalAllocation(disposed)' : `PhysicalAllocation(${this.size} bytes, 0x${this.handle.toString(16)})`;
  }
}
