// The shared base of "CUDA is not usable here" errors. In a module of its own,
// with no imports, so that lib/addon.ts (loaded before the addon exists) can use it.

/** Why CUDA cannot be used here. */
export type CudaUnavailableReason =
  | 'addon-unavailable'
  | 'library-missing'
  | 'driver-too-old'
  | 'init-failed'
  | 'not-loaded'
  | 'nvrtc-unavailable'
  | 'nccl-unavailable';

const brand = Symbol('CudaUnavailableError');

/**
 * CUDA cannot be used in this process: the addon does not load
 * (AddonUnavailableError), the driver is missing, too old or failed to
 * initialise (DriverUnavailableError), or NVRTC or NCCL cannot be loaded
 * (NvrtcUnavailableError, nccl.NcclUnavailableError). Catch this one to fall back to running without a
 * GPU. DriverUnavailableError stays a CudaError (it carries the driver's
 * result), so `instanceof CudaUnavailableError` recognises it by a brand
 * rather than by its prototype chain.
 */
export abstract class CudaUnavailableError extends Error {
  /** A string code, as Node's errors carry (see each subclass). */
  abstract readonly code: string;
  /** Why, in a word. */
  abstract readonly reason: CudaUnavailableReason;

  /**
   * True for any error saying CUDA is not usable here, DriverUnavailableError
   * included (a CudaError, so it cannot extend this class).
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== CudaUnavailableError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [brand]?: boolean })[brand] === true;
  }
}
(CudaUnavailableError.prototype as unknown as Record<symbol, boolean>)[brand] = true;

/** @internal Marks a class outside CudaUnavailableError's chain as one of its kind. */
export function brandUnavailable(errorClass: { prototype: object }): void {
  (errorClass.prototype as Record<symbol, boolean>)[brand] = true;
}
