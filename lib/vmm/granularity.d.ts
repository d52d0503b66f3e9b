import { Device } from '../device';
import { AllocationGranularityName, MemoryHandleTypeName, MemoryLocationTypeName } from '../generated/enums';
import { Location } from '../memory/location';
/** What a physical allocation is made of (CUmemAllocationProp). */
export interface AllocationOptions {
    /** Where the memory lives: a device (default device 0), 'host' or { hostNuma: node }. */
    location?: Location;
    /**
     * How the allocation may be exported to other processes: 'posixFileDescriptor'
     * (Linux, same host) and/or 'fabric' (across nodes, needs an IMEX channel).
     * Host allocations cannot be exported. Default: none.
     */
    handleTypes?: MemoryHandleTypeName[];
    /** Ask for compressible memory (a hint: check properties().compression). Default false. */
    compression?: boolean;
    /** Ask for memory usable by GPUDirect RDMA. Default false. */
    gpuDirectRdma?: boolean;
    /** Memory used as a buffer for hardware-accelerated decompression. Default false. */
    hardwareDecompress?: boolean;
}
/** The properties of a physical allocation, as the driver reports them. */
export interface AllocationProperties {
    /** 'device', 'host' or 'hostNuma'. */
    readonly locationType: MemoryLocationTypeName;
    /** The device ordinal or NUMA node (0 for 'host'). */
    readonly locationId: number;
    readonly handleTypes: MemoryHandleTypeName[];
    readonly compression: boolean;
    readonly gpuDirectRdma: boolean;
    readonly hardwareDecompress: boolean;
}
/** @internal The native encoding: [locationType, locationId, handleTypes, compression, gpuDirectRdma, usage]. */
export declare function encodeProperties(options: AllocationOptions, name?: string): number[];
/** @internal Decodes what the native layer reports. */
export declare function decodeProperties(raw: readonly number[]): AllocationProperties;
/**
 * The granularity of allocations with these properties (cuMemGetAllocationGranularity):
 * 'minimum' (default), which sizes, offsets and addresses must be multiples of,
 * or 'recommended', the one for best performance. Typically 2 MiB on current GPUs.
 */
export declare function allocationGranularity(options?: AllocationOptions, kind?: AllocationGranularityName): number;
/**
 * bytes rounded up to a multiple of granularity (sizes handed to the driver's
 * virtual memory calls must be). RangeError when the result is not a safe integer.
 */
export declare function roundToGranularity(bytes: number, granularity: number): number;
/** @internal The minimum granularity of plain allocations on a device. */
export declare function deviceGranularity(device: Device, kind?: AllocationGranularityName): number;
