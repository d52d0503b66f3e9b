// Questions about memory: free and total device memory, the allocation an
// address belongs to, and pointer attributes by name.
import { DeviceLike, ordinalOf } from '../device';
import { MemoryAccess, MemoryAccessName, MemoryHandleType, MemoryHandleTypeName, MemoryType, MemoryTypeName, PointerAttribute, PointerAttributeName } from '../generated/enums';
import { CudaError } from '../errors';
import { MemorySlot, native } from '../native';
import { checkArray, checkBoolean, checkEnum, checkSize, nameOfValue } from '../validate';
import { MemoryHandle, memorySlot } from './bytes';

/** Free and total memory of a device, in bytes (cuMemGetInfo). */
export function memoryInfo(device?: DeviceLike): {
  /** Bytes free now. */
  free: number;
  /** The device's memory in all. */
  total: number;
} {
  return native.memoryInfo(ordinalOf(device));
}

/** A pointer to ask about: library memory (optionally at an offset) or a raw address. */
export type PointerLike = MemoryHandle | bigint;

// An offset is added to a raw address here, and checked against a memory handle's size by the native layer.
function pointerArgs(pointer: PointerLike, offset: number | bigint | undefined): [MemorySlot | bigint, number | undefined] {
  const checked = offset === undefined ? undefined : checkSize(offset, 'offset');
  if (typeof pointer === 'bigint') {
    const address = pointer + BigInt(checked ?? 0);
    if (pointer < 0n || address >= 1n << 64n) throw new RangeError('pointer (plus offset) must be a 64-bit address');
    return [address, undefined];
  }
  return [memorySlot(pointer, 'pointer'), checked];
}

/** The allocation holding an address (cuMemGetAddressRange). */
export function addressRange(pointer: PointerLike, offset?: number | bigint): {
  /** The allocation's start address. */
  base: bigint;
  /** The allocation's size in bytes. */
  size: number;
} {
  const [p, o] = pointerArgs(pointer, offset);
  return native.addressRange(p, o);
}

/** What the driver knows about a pointer (CUpointer_attribute), by attribute name. */
export interface PointerAttributes {
  /** The CUcontext the memory was allocated in (0n for VMM and some pool memory). */
  context: bigint;
  /** 'host', 'device', 'array' or 'unified'. */
  memoryType: MemoryTypeName | undefined;
  /** The address device code uses for it. */
  devicePointer: bigint;
  /** The address host code uses for it (0n when host code cannot reach it). */
  hostPointer: bigint;
  /** Tokens for GPUDirect RDMA (nvidia-p2p). */
  p2pTokens: {
    /** The P2P token. */
    p2pToken: bigint;
    /** The VA space token. */
    vaSpaceToken: number;
  };
  /** Whether synchronous memory operations on it always synchronize (see setSyncMemops). */
  syncMemops: boolean;
  /** A process-wide unique id of the allocation. */
  bufferId: bigint;
  /** True for managed memory (cuMemAllocManaged). */
  isManaged: boolean;
  /** The device the memory belongs to (its CUdevice ordinal). */
  deviceOrdinal: number;
  /** Whether legacy IPC (cuIpcGetMemHandle) can share it. */
  isLegacyCudaIpcCapable: boolean;
  /** The start of the allocation the pointer lies in. */
  rangeStartAddr: bigint;
  /** The size of that allocation. */
  rangeSize: number;
  /** Whether the address is mapped (false for a VMM range reserved but not mapped). */
  mapped: boolean;
  /** How the memory can be exported to other processes. */
  allowedHandleTypes: MemoryHandleTypeName[];
  /** Whether GPUDirect RDMA can use it. */
  isGpuDirectRdmaCapable: boolean;
  /** The access the current device has ('readwrite', 'read', 'none'). */
  accessFlags: MemoryAccessName | undefined;
  /** The CUmemoryPool of stream-ordered memory (0n otherwise). */
  mempoolHandle: bigint;
  /** The size of the mapping the pointer lies in. */
  mappingSize: number;
  /** The start of that mapping. */
  mappingBaseAddr: bigint;
  /** The id of the allocation the mapping belongs to. */
  memoryBlockId: bigint;
  /** Whether hardware decompression can use it. */
  isHwDecompressCapable: boolean;
}

function decode<K extends PointerAttributeName>(name: K, view: DataView): PointerAttributes[K] {
  const u32 = () => view.getUint32(0, true);
  const u64 = () => view.getBigUint64(0, true);
  const value = ((): PointerAttributes[PointerAttributeName] => {
    switch (name) {
      case 'memoryType': return nameOfValue(MemoryType, u32());
      case 'p2pTokens': return { p2pToken: u64(), vaSpaceToken: view.getUint32(8, true) };
      case 'syncMemops': case 'isManaged': case 'isLegacyCudaIpcCapable': case 'mapped':
      case 'isGpuDirectRdmaCapable': case 'isHwDecompressCapable':
        return view.getUint8(0) !== 0;
      case 'deviceOrdinal': return view.getInt32(0, true);
      case 'rangeSize': case 'mappingSize': return Number(u64());
      case 'allowedHandleTypes': {
        const bits = Number(u64());
        return Object.entries(MemoryHandleType).filter(([, b]) => b !== 0 && (bits & b) === b).map(([n]) => n as MemoryHandleTypeName);
      }
      case 'accessFlags': return nameOfValue(MemoryAccess, u32());
      default: return u64();
    }
  })();
  return value as PointerAttributes[K];
}

/** One pointer attribute (cuPointerGetAttribute). */
export function pointerAttribute<K extends PointerAttributeName>(pointer: PointerLike, name: K, offset?: number | bigint): PointerAttributes[K] {
  const [p, o] = pointerArgs(pointer, offset);
  const bytes = native.pointerAttribute(p, o, checkEnum(name, PointerAttribute, 'name'));
  return decode(name, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/**
 * Several pointer attributes in one call (cuPointerGetAttributes). Without
 * names, every attribute this pointer has: the driver refuses a batch naming
 * one it cannot answer for this pointer, so those are then asked one by one
 * (cuPointerGetAttribute) and the ones it refuses are left out.
 */
export function pointerAttributes<K extends PointerAttributeName>(pointer: PointerLike, names?: K[], offset?: number | bigint): Pick<PointerAttributes, K> {
  const [p, o] = pointerArgs(pointer, offset);
  if (names === undefined) {
    const all = Object.keys(PointerAttribute) as K[];
    try {
      return batch(p, o, all);
    } catch (error) {
      if (!(error instanceof CudaError)) throw error;
      const out = {} as Pick<PointerAttributes, K>;
      for (const name of all) {
        try {
          out[name] = pointerAttribute(pointer, name, offset);
        } catch (inner) {
          if (!(inner instanceof CudaError)) throw inner;
        }
      }
      return out;
    }
  }
  return batch(p, o, checkArray<K>(names, 'names') as K[]);
}

function batch<K extends PointerAttributeName>(p: MemorySlot | bigint, o: number | undefined, list: K[]): Pick<PointerAttributes, K> {
  const bytes = native.pointerAttributes(p, o, list.map((n) => checkEnum(n, PointerAttribute, 'names')));
  const out = {} as Pick<PointerAttributes, K>;
  list.forEach((name, i) => {
    out[name] = decode(name, new DataView(bytes.buffer, bytes.byteOffset + i * 64, 64));
  });
  return out;
}

/** Makes synchronous memory operations on the allocation synchronize (CU_POINTER_ATTRIBUTE_SYNC_MEMOPS). */
export function setSyncMemops(buffer: MemoryHandle, enabled: boolean): void {
  native.setSyncMemops(memorySlot(buffer, 'buffer'), checkBoolean(enabled, 'enabled'));
}
