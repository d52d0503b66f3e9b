// What the multi-GPU tier's files share: the two devices, peer access made sure
// of (the driver refuses a second enable, and an earlier test may have made it),
// the kernels they launch on either device, and the bytes they compare.
import { compile, CudaError, Device, Kernel, Library } from '../../lib';

const source = `
extern "C" __global__ void axpy(float a, const float* x, float* y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void iota(float* out, float base, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + i;
}`;

let loaded: { axpy: Kernel; iota: Kernel } | undefined;
/**
 * axpy(a, x, y, n): y = a·x + y; iota(out, base, n): out[i] = base + i. One
 * library: its kernels run on whichever device the stream or node names.
 */
export function kernels(): { axpy: Kernel; iota: Kernel } {
  if (!loaded) {
    const library = Library.load(compile(source, { name: 'multigpu.cu' }));
    loaded = { axpy: library.kernel('axpy'), iota: library.kernel('iota') };
  }
  return loaded;
}

/** Lets from's primary context map memory of to's, unless it already may. */
export function ensurePeerAccess(from: Device, to: Device): void {
  try {
    from.primaryContext.enablePeerAccess(to.primaryContext);
  } catch (error) {
    if (!(error instanceof CudaError && error.code === 'CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED')) throw error;
  }
}

/** Withdraws from's access to to's memory, if it had it. */
export function dropPeerAccess(from: Device, to: Device): void {
  try {
    from.primaryContext.disablePeerAccess(to.primaryContext);
  } catch (error) {
    if (!(error instanceof CudaError && error.code === 'CUDA_ERROR_PEER_ACCESS_NOT_ENABLED')) throw error;
  }
}

/** n floats: start, start + step, ... */
export function ramp(n: number, start = 0, step = 1): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => start + i * step);
}

/** Bytes in a pattern that differs by seed and over every 4 KiB. */
export function pattern(n: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 131 + seed * 7 + (i >> 12)) & 0xff;
  return bytes;
}
