import { Device, DeviceLike } from '../device';
import { Disposable } from '../disposable';
import { MemoryAccessName, MemoryHandleTypeName } from '../generated/enums';
import { Location } from '../memory/location';
import { NativeVirtualMemory } from '../native';
import { AccessEntry } from './access';
import { MappedSegment } from './mapping';
/** Options of {@link GrowableBuffer.create}. */
export interface GrowableBufferOptions {
    /** The most the buffer can ever hold: the address range reserved up front (rounded up to the granularity). */
    maxSize: number;
    /** The initial size in bytes (default 0). */
    size?: number;
    /** The device the memory lives on (default device 0). */
    device?: DeviceLike;
    /** Handle types each piece of physical memory may be exported as, e.g. ['posixFileDescriptor'] to share it. */
    handleTypes?: MemoryHandleTypeName[];
    /** Access to grant on every piece; default read-write for the buffer's device. */
    access?: AccessEntry[];
}
/**
 * Device memory that grows without moving: {@link resize} maps more physical
 * memory at the end of a range reserved up front. Usable wherever a DeviceBuffer
 * is, within {@link size} bytes.
 */
export declare class GrowableBuffer extends Disposable<NativeVirtualMemory> {
    #private;
    private constructor();
    /** Reserves options.maxSize of address space and maps options.size (if any) of it. */
    static create(options: GrowableBufferOptions): GrowableBuffer;
    /** The start address; it never changes. */
    get address(): bigint;
    /** Bytes in use: what copies, fills and reads may touch. */
    get size(): number;
    /** Bytes of physical memory mapped (at least size, a multiple of the granularity). */
    get capacity(): number;
    /** Bytes of address space reserved: the most the buffer can grow to. */
    get maxSize(): number;
    get device(): Device;
    /**
     * Sets the size. Growing past the capacity maps new physical memory after the
     * end: at least what is missing and, to keep the number of pieces small, at
     * least the current capacity (up to maxSize), rounded to the granularity. The
     * address and the contents so far stay; new bytes are undefined. Shrinking only
     * lowers the size: the memory stays mapped until the buffer is disposed.
     * All or nothing: a failed growth leaves the buffer as it was.
     */
    resize(bytes: number): void;
    /** The pieces of physical memory mapped, in address order (new handles: dispose them when done). */
    segments(): MappedSegment[];
    /** Grants or revokes access to everything mapped, and to what growth maps later. */
    setAccess(entries: AccessEntry[]): void;
    /** The access location has to the buffer at offset (default 0). */
    access(location: Location, offset?: number): MemoryAccessName;
    toString(): string;
}
