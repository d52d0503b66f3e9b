import { DeviceLike } from '../device';
import { MemoryAccessName, MemoryHandleTypeName, MemoryTypeName, PointerAttributeName } from '../generated/enums';
import { MemoryHandle } from './bytes';
/** Free and total memory of a device, in bytes (cuMemGetInfo). */
export declare function memoryInfo(device?: DeviceLike): {
    free: number;
    total: number;
};
/** A pointer to ask about: library memory (optionally at an offset) or a raw address. */
export type PointerLike = MemoryHandle | bigint;
/** The allocation holding an address (cuMemGetAddressRange). */
export declare function addressRange(pointer: PointerLike, offset?: number): {
    base: bigint;
    size: number;
};
export interface PointerAttributes {
    context: bigint;
    memoryType: MemoryTypeName | undefined;
    devicePointer: bigint;
    hostPointer: bigint;
    p2pTokens: {
        p2pToken: bigint;
        vaSpaceToken: number;
    };
    syncMemops: boolean;
    bufferId: bigint;
    isManaged: boolean;
    deviceOrdinal: number;
    isLegacyCudaIpcCapable: boolean;
    rangeStartAddr: bigint;
    rangeSize: number;
    mapped: boolean;
    allowedHandleTypes: MemoryHandleTypeName[];
    isGpuDirectRdmaCapable: boolean;
    accessFlags: MemoryAccessName | undefined;
    mempoolHandle: bigint;
    mappingSize: number;
    mappingBaseAddr: bigint;
    memoryBlockId: bigint;
    isHwDecompressCapable: boolean;
}
/** One pointer attribute (cuPointerGetAttribute). */
export declare function pointerAttribute<K extends PointerAttributeName>(pointer: PointerLike, name: K, offset?: number): PointerAttributes[K];
/**
 * Several pointer attributes in one call (cuPointerGetAttributes). Without
 * names, every attribute this pointer has: the driver refuses a batch naming
 * one it cannot answer for this pointer, so those are then asked one by one
 * (cuPointerGetAttribute) and the ones it refuses are left out.
 */
export declare function pointerAttributes<K extends PointerAttributeName>(pointer: PointerLike, names?: K[], offset?: number): Pick<PointerAttributes, K>;
/** Makes synchronous memory operations on the allocation synchronize (CU_POINTER_ATTRIBUTE_SYNC_MEMOPS). */
export declare function setSyncMemops(buffer: MemoryHandle, enabled: boolean): void;
