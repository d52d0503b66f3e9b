// Who may read or write mapped virtual memory: per device (or host NUMA node)
// read-write, read-only or no access (cuMemSetAccess / cuMemGetAccess).
import { MemoryAccess, MemoryAccessName } from '../generated/enums';
import { memorySlot } from '../memory/bytes';
import { PointerLike } from '../memory/info';
import { Location, locationOf } from '../memory/location';
import { native, NativeAccessEntry } from '../native';
import { checkArray, checkEnum, checkObject, checkSize, nameOfValue } from '../validate';

/** One grant: where (a device, or a host NUMA node for host memory) and what access. */
export interface AccessEntry {
  /** A Device or ordinal, or { hostNuma: node } for host allocations. */
  location: Location;
  /** 'readwrite', 'read' (read-only) or 'none' (revoke). */
  access: MemoryAccessName | number;
}

/** @internal Access entries in the native encoding. */
export function encodeAccess(entries: readonly AccessEntry[], name: string): NativeAccessEntry[] {
  return checkArray<AccessEntry>(entries, name).map((entry, i) => {
    checkObject(entry, `${name}[${i}]`);
    const { type, id } = locationOf(entry.location, `${name}[${i}].location`);
    return [type, id, checkEnum(entry.access, MemoryAccess, `${name}[${i}].access`)];
  });
}

/** @internal An access value as its name. */
export function accessName(flags: number): MemoryAccessName {
  return nameOfValue(MemoryAccess, flags) ?? 'none';
}

/**
 * The access location has to the mapped memory at pointer (cuMemGetAccess):
 * library memory (plus offset) or any bigint address of a mapped range.
 */
export function memoryAccess(pointer: PointerLike, location: Location, offset?: number | bigint): MemoryAccessName {
  const p = typeof pointer === 'bigint' ? pointer : memorySlot(pointer, 'pointer');
  const { type, id } = locationOf(location);
  return accessName(native.memoryAccess(p, offset === undefined ? undefined : checkSize(offset, 'offset'), type, id));
}
