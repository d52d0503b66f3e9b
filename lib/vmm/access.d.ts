import { MemoryAccessName } from '../generated/enums';
import { PointerLike } from '../memory/info';
import { Location } from '../memory/location';
import { NativeAccessEntry } from '../native';
/** One grant: where (a device, or a host NUMA node for host memory) and what access. */
export interface AccessEntry {
    /** A Device or ordinal, or { hostNuma: node } for host allocations. */
    location: Location;
    /** 'readwrite', 'read' (read-only) or 'none' (revoke). */
    access: MemoryAccessName;
}
/** @internal Access entries in the native encoding. */
export declare function encodeAccess(entries: readonly AccessEntry[], name: string): NativeAccessEntry[];
/** @internal An access value as its name. */
export declare function accessName(flags: number): MemoryAccessName;
/**
 * The access location has to the mapped memory at pointer (cuMemGetAccess):
 * library memory (plus offset) or any bigint address of a mapped range.
 */
export declare function memoryAccess(pointer: PointerLike, location: Location, offset?: number): MemoryAccessName;
