// Allocation properties as the driver takes them, and the granularity that
// virtual memory sizes, offsets and addresses must be multiples of.
import { Device } from '../device';
import {
  AllocationGranularity,
  AllocationGranularityName,
  MemoryCompression,
  MemoryHandleType,
  MemoryHandleTypeName,
  MemoryLocationType,
  MemoryLocationTypeName,
} from '../generated/enums';
import { Location, locationOf } from '../memory/location';
import { native } from '../native';
import { checkBoolean, checkEnum, checkFlags, checkInteger, checkObject, checkOptions, checkSize, flagNames, nameOfValue, noOptions } from '../validate';

/** CU_MEM_CREATE_USAGE_HW_DECOMPRESS: a buffer for hardware-accelerated decompression. */
const usageHardwareDecompress = 0x2;

/** What a physical allocation is made of (CUmemAllocationProp). */
export interface AllocationOptions {
  /** Where the memory lives: a device (default device 0), 'host' or { hostNuma: node }. */
  location?: Location;
  /**
   * How the allocation may be exported to other processes: 'posixFileDescriptor'
   * (Linux, same host) and/or 'fabric' (across nodes, needs an IMEX channel).
   * Host allocations cannot be exported. Default: none.
   */
  handleTypes?: MemoryHandleTypeName | MemoryHandleTypeName[] | number;
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
  /** How it may be exported to other processes. */
  readonly handleTypes: MemoryHandleTypeName[];
  /** Whether it is compressible memory. */
  readonly compression: boolean;
  /** Whether GPUDirect RDMA can use it. */
  readonly gpuDirectRdma: boolean;
  /** Whether it is a buffer for hardware-accelerated decompression. */
  readonly hardwareDecompress: boolean;
}

/** @internal The keys of AllocationOptions. */
export const allocationKeys: readonly string[] = ['location', 'handleTypes', 'compression', 'gpuDirectRdma', 'hardwareDecompress'];

/** @internal The native encoding: [locationType, locationId, handleTypes, compression, gpuDirectRdma, usage]. */
export function encodeProperties(options: AllocationOptions, name = 'options'): number[] {
  checkObject(options, name);
  const { type, id } = locationOf(options.location ?? 0, `${name}.location`);
  const handleTypes = checkFlags(options.handleTypes ?? [], MemoryHandleType, `${name}.handleTypes`);
  const flag = (value: unknown, field: string) => (value === undefined ? false : checkBoolean(value, `${name}.${field}`));
  return [
    type,
    id,
    handleTypes,
    flag(options.compression, 'compression') ? MemoryCompression.generic : MemoryCompression.none,
    flag(options.gpuDirectRdma, 'gpuDirectRdma') ? 1 : 0,
    flag(options.hardwareDecompress, 'hardwareDecompress') ? usageHardwareDecompress : 0,
  ];
}

/** @internal Decodes what the native layer reports. */
export function decodeProperties(raw: readonly number[]): AllocationProperties {
  const [, locationType, locationId, handleTypes, compression, rdma, usage] = raw;
  return Object.freeze({
    locationType: nameOfValue(MemoryLocationType, locationType) ?? ('invalid' as MemoryLocationTypeName),
    locationId: locationType === MemoryLocationType.host ? 0 : locationId,
    handleTypes: flagNames(handleTypes, MemoryHandleType),
    compression: compression !== MemoryCompression.none,
    gpuDirectRdma: rdma !== 0,
    hardwareDecompress: (usage & usageHardwareDecompress) !== 0,
  });
}

/**
 * The granularity of allocations with these properties (cuMemGetAllocationGranularity):
 * 'minimum' (default), which sizes, offsets and addresses must be multiples of,
 * or 'recommended', the one for best performance. Typically 2 MiB on current GPUs.
 */
export function allocationGranularity(options: AllocationOptions = noOptions, kind: AllocationGranularityName | number = 'minimum'): number {
  checkOptions(checkObject(options, 'options'), 'options', 'allocationGranularity', allocationKeys);
  return granularityOf(encodeProperties(options), kind);
}

/** @internal The granularity of allocations with encoded properties (options a caller checked already). */
export function granularityOf(properties: number[], kind: AllocationGranularityName | number): number {
  const which = checkEnum(kind, AllocationGranularity, 'kind');
  return native.allocationGranularity(properties, which === AllocationGranularity.recommended);
}

/**
 * bytes rounded up to a multiple of granularity (sizes handed to the driver's
 * virtual memory calls must be). RangeError when the result is not a safe integer.
 */
export function roundToGranularity(bytes: number, granularity: number): number {
  const size = checkSize(bytes, 'bytes');
  const unit = checkInteger(granularity, 'granularity', 1);
  const rest = size % unit;
  if (rest === 0) return size;
  const rounded = size + (unit - rest);
  if (rounded > Number.MAX_SAFE_INTEGER) throw new RangeError(`bytes (${size}) rounded up to a multiple of ${unit} is too large`);
  return rounded;
}

/** @internal The minimum granularity of plain allocations on a device. */
export function deviceGranularity(device: Device, kind: AllocationGranularityName = 'minimum'): number {
  return allocationGranularity({ location: device }, kind);
}
