// The driver itself: whether it could be loaded, its version, the functions it
// provides, and the opt-in call counters.
import { native } from './native';
import { checkInteger } from './validate';

/** A CUDA version as the driver encodes it (12080) and split (12.8). */
export interface CudaVersion {
  /** As the driver encodes it: 1000 × major + 10 × minor. */
  readonly raw: number;
  /** The major version (12 in 12.8). */
  readonly major: number;
  /** The minor version (8 in 12.8). */
  readonly minor: number;
  /** `major.minor`. */
  toString(): string;
}

/** A CudaVersion from the driver's encoding (12080 → 12.8). */
export function cudaVersion(raw: number): CudaVersion {
  checkInteger(raw, 'raw', 0, 2 ** 31 - 1);
  const major = Math.floor(raw / 1000);
  const minor = Math.floor((raw % 1000) / 10);
  return Object.freeze({ raw, major, minor, toString: () => `${major}.${minor}` });
}

/** Whether the driver could be loaded, and if not, why: see {@link driverStatus}. */
export interface DriverStatus {
  /** True when driver calls can be made. */
  readonly available: boolean;
  /**
   * How far loading got. 'addon-missing': the package's own native addon did not
   * load (no binary for this platform, or one the system refused); `detail` says
   * what was searched and what to do, and `headerVersion` is 0.0.
   */
  readonly stage: 'addon-missing' | 'library-missing' | 'driver-too-old' | 'init-failed' | 'ready';
  /** The library that was (or would have been) opened; CUDA_DRIVER_LIBRARY overrides it. */
  readonly libraryPath: string;
  /** Why loading stopped, in the system's words, or ''. */
  readonly detail: string;
  /** The result of cuInit, when it was called (CUDA_ERROR_NO_DEVICE, ...). */
  readonly initResult: {
    /** The CUresult. */
    code: number;
    /** Its name, e.g. `CUDA_ERROR_NO_DEVICE`. */
    name: string;
  } | null;
  /** The CUDA version the installed driver supports, when the library loaded. */
  readonly driverVersion: CudaVersion | null;
  /** The CUDA version of the headers this addon was built against. */
  readonly headerVersion: CudaVersion;
  /** One line on why driver calls cannot be made ('' when available), e.g. `init-failed: CUDA_ERROR_NO_DEVICE`. */
  readonly reason: string;
}

/**
 * Loads the driver if that has not been tried yet and says what is there. Never
 * throws: a machine without a driver or a device gets an answer, not an error.
 */
export function driverStatus(): DriverStatus {
  const s = native.driverStatus();
  const tried = s.stage === 'init-failed' || s.stage === 'ready';
  const stage = s.stage === 'not-loaded' ? 'library-missing' : s.stage;
  return Object.freeze({
    available: s.stage === 'ready',
    stage,
    libraryPath: s.libraryPath,
    detail: s.detail,
    initResult: tried ? { code: s.initResult, name: s.initResultName } : null,
    driverVersion: s.driverVersion ? cudaVersion(s.driverVersion) : null,
    headerVersion: cudaVersion(s.headerVersion),
    reason: s.stage === 'ready' ? '' : reasonOf(stage, s.stage === 'init-failed' ? s.initResultName : s.detail),
  });
}

function reasonOf(stage: string, why: string): string {
  return why ? `${stage}: ${why}` : stage;
}

/** The CUDA version of the headers the addon was built against. */
export const headerVersion: CudaVersion = cudaVersion(native.headerVersion);

/** A driver function the package binds: see {@link driverFunctions}. */
export interface DriverFunction {
  /** The header's name, e.g. `cuMemAlloc`. */
  readonly name: string;
  /** The CUDA version whose ABI the binding uses; a driver must be at least this new. */
  readonly requiredVersion: CudaVersion;
  /** Whether the installed driver provides it (false before the driver is loaded). */
  readonly available: boolean;
}

/** Every driver function the package binds, and whether this driver has it. */
export function driverFunctions(): DriverFunction[] {
  return native.driverFunctions().map(([name, version, available]) => ({
    name,
    requiredVersion: cudaVersion(version),
    available,
  }));
}

/** How often one driver function was called: see {@link callCounters}. */
export interface CallCount {
  /** The function's name, e.g. `cuLaunchKernel`. */
  readonly name: string;
  /** Calls counted. */
  readonly calls: number;
  /** Calls that returned an error. */
  readonly errors: number;
}

/**
 * Counts of driver calls and failed calls per function, for the whole process.
 * Off by default (costing one relaxed load per call); on from the start when the
 * environment variable CUDA_DRIVER_COUNTERS=1 is set, or from enable().
 */
export const callCounters = {
  /** Starts counting (from now; counts so far are kept). */
  enable(): void {
    native.setCounting(true);
  },
  /** Stops counting (counts are kept). */
  disable(): void {
    native.setCounting(false);
  },
  /** Whether calls are being counted. */
  get enabled(): boolean {
    return native.isCounting();
  },
  /** Functions called at least once, most-called first. */
  read(): CallCount[] {
    return native
      .readCounters()
      .map(([name, calls, errors]) => ({ name, calls, errors }))
      .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
  },
  /** Sets every count to 0. */
  reset(): void {
    native.resetCounters();
  },
  /** A text table of read(). */
  summary(): string {
    const rows = callCounters.read();
    const width = Math.max(8, ...rows.map((r) => r.name.length));
    const total = rows.reduce((n, r) => n + r.calls, 0);
    const lines = rows.map((r) => `${r.name.padEnd(width)} ${String(r.calls).padStart(10)} ${String(r.errors).padStart(8)}`);
    return [`${'function'.padEnd(width)} ${'calls'.padStart(10)} ${'errors'.padStart(8)}`, ...lines,
      `${rows.length} functions, ${total} calls`].join('\n');
  },
};
