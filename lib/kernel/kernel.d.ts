import { Context } from '../context';
import { DeviceLike } from '../device';
import { Disposable } from '../disposable';
import { FunctionAttributeName } from '../generated/enums';
import { NativeKernel } from '../native';
import { ArgType, ArgValue, KernelArg } from './args';
import { LaunchConfig, LaunchShape } from './launch-config';
import { PreparedLaunch } from './prepared-launch';
/** Where one parameter lives in the kernel's parameter buffer, as the driver reports it. */
export interface KernelParam {
    readonly offset: number;
    readonly size: number;
}
export interface OccupancyOptions {
    /** Dynamic shared memory per block, in bytes (default 0). */
    dynamicSharedMemory?: number;
    /** CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE: assume global caching stays on. */
    disableCachingOverride?: boolean;
    /** The context whose device is asked about (a library kernel's default: device 0's primary). */
    context?: Context;
}
export interface BlockSizeOptions extends Omit<OccupancyOptions, 'dynamicSharedMemory'> {
    /** Dynamic shared memory per block in bytes, or a function of the block size. */
    dynamicSharedMemory?: number | ((blockSize: number) => number);
    /** The largest block size the kernel handles (default: the device's or kernel's limit). */
    blockSizeLimit?: number;
}
export declare class Kernel extends Disposable<NativeKernel> {
    #private;
    /** The context of a module's function; undefined for a library's kernel. */
    readonly context: Context | undefined;
    /** @internal */
    constructor(handle: NativeKernel, context?: Context);
    /** The kernel's (lowered) name. */
    get name(): string;
    /** 'library' for a context-independent CUkernel, 'module' for a module's CUfunction. */
    get kind(): 'library' | 'module';
    /** The CUkernel or CUfunction value, for logs and comparisons. */
    get handle(): bigint;
    /**
     * The parameters' offsets and sizes, as the driver reports them; null when
     * the installed driver cannot say (before CUDA 12.4), in which case launches
     * lay arguments out by C's rules and cannot check them.
     */
    get params(): readonly KernelParam[] | null;
    /** One attribute (registers, shared memory, max threads per block, ...) on a device (default 0; a module's function: its own). */
    attribute(name: FunctionAttributeName | number, device?: DeviceLike): number;
    /** Every attribute the installed driver knows, on a device. */
    attributes(device?: DeviceLike): Partial<Record<FunctionAttributeName, number>>;
    /** Sets a settable attribute (max dynamic shared memory, carveout, cluster settings, ...). */
    setAttribute(name: FunctionAttributeName | number, value: number, device?: DeviceLike): void;
    /** Lets launches use up to `bytes` of dynamic shared memory per block (above 48 KiB needs this). */
    setMaxDynamicSharedMemory(bytes: number, device?: DeviceLike): void;
    /** Whether the kernel's code is loaded in a context yet (lazy loading loads it at first launch). */
    isLoaded(context?: Context): boolean;
    /** Loads the kernel's code in a context now, so that the first launch does not pay for it. */
    load(context?: Context): void;
    /** How many blocks of blockSize threads can be resident on one multiprocessor. */
    maxActiveBlocksPerMultiprocessor(blockSize: number, options?: OccupancyOptions): number;
    /** The block size with the best occupancy, and the smallest grid that reaches it. */
    maxPotentialBlockSize(options?: BlockSizeOptions): {
        minGridSize: number;
        blockSize: number;
    };
    /** The dynamic shared memory a block can have when blocksPerMultiprocessor blocks of blockSize share a multiprocessor. */
    availableDynamicSharedMemoryPerBlock(blocksPerMultiprocessor: number, blockSize: number, options?: {
        context?: Context;
    }): number;
    /** The largest cluster this launch shape could use (its cluster dimension is ignored). */
    maxPotentialClusterSize(shape: LaunchShape, options?: {
        context?: Context;
    }): number;
    /** How many clusters of the shape's cluster dimension can be resident at once. */
    maxActiveClusters(shape: LaunchShape, options?: {
        context?: Context;
    }): number;
    /**
     * Queues the kernel on config.stream with typed arguments, checked against
     * the kernel's parameters first: `kernel.launch({ grid, block, stream }, [arg.ptr(x), arg.u32(n)])`.
     * For launches repeated many times, prepare() once and launch that.
     */
    launch(config: LaunchConfig, args?: readonly KernelArg[]): void;
    /**
     * Fixes the stream, configuration and argument types for repeated launches;
     * the types are checked against the kernel's parameters here, once. Values
     * (optional here) are set in place with set() and used by every launch() after.
     */
    prepare(config: LaunchConfig, types: readonly ArgType[], values?: readonly ArgValue[]): PreparedLaunch;
    toString(): string;
}
