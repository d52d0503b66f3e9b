/** A CUDA version as the driver encodes it (12080) and split (12.8). */
export interface CudaVersion {
    readonly raw: number;
    readonly major: number;
    readonly minor: number;
    toString(): string;
}
export declare function cudaVersion(raw: number): CudaVersion;
export interface DriverStatus {
    /** True when driver calls can be made. */
    readonly available: boolean;
    /** How far loading got. */
    readonly stage: 'library-missing' | 'driver-too-old' | 'init-failed' | 'ready';
    /** The library that was (or would have been) opened; CUDA_DRIVER_LIBRARY overrides it. */
    readonly libraryPath: string;
    /** Why loading stopped, in the system's words, or ''. */
    readonly detail: string;
    /** The result of cuInit, when it was called (CUDA_ERROR_NO_DEVICE, ...). */
    readonly initResult: {
        code: number;
        name: string;
    } | null;
    /** The CUDA version the installed driver supports, when the library loaded. */
    readonly driverVersion: CudaVersion | null;
    /** The CUDA version of the headers this addon was built against. */
    readonly headerVersion: CudaVersion;
}
/**
 * Loads the driver if that has not been tried yet and says what is there. Never
 * throws: a machine without a driver or a device gets an answer, not an error.
 */
export declare function driverStatus(): DriverStatus;
/** The CUDA version of the headers the addon was built against. */
export declare const headerVersion: CudaVersion;
export interface DriverFunction {
    /** The header's name, e.g. `cuMemAlloc`. */
    readonly name: string;
    /** The CUDA version whose ABI the binding uses; a driver must be at least this new. */
    readonly requiredVersion: CudaVersion;
    /** Whether the installed driver provides it (false before the driver is loaded). */
    readonly available: boolean;
}
/** Every driver function the package binds, and whether this driver has it. */
export declare function driverFunctions(): DriverFunction[];
export interface CallCount {
    readonly name: string;
    readonly calls: number;
    readonly errors: number;
}
/**
 * Counts of driver calls and failed calls per function, for the whole process.
 * Off by default (costing one relaxed load per call); on from the start when the
 * environment variable CUDA_DRIVER_COUNTERS=1 is set, or from enable().
 */
export declare const callCounters: {
    enable(): void;
    disable(): void;
    readonly enabled: boolean;
    /** Functions called at least once, most-called first. */
    read(): CallCount[];
    reset(): void;
    /** A text table of read(). */
    summary(): string;
};
