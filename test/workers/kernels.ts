// The kernels the worker-thread program launches (test/workers), as CUDA C++
// for the GPU and as the stand-in driver's image syntax (parameter sizes).

/** fill_slice(slice, src, n, add), read_slice(slice, out, n), spin_fill(slice, n, value, cycles). */
export const workerKernelSource = `
extern "C" __global__ void fill_slice(unsigned* slice, const unsigned* src, unsigned n, unsigned add) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) slice[i] = src[i] + add;
}
extern "C" __global__ void read_slice(const unsigned* slice, unsigned* out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = slice[i];
}
extern "C" __global__ void spin_fill(unsigned* slice, unsigned n, unsigned value, long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) slice[i] = value;
}
`;

export const workerStandInImage = 'FAKE\nkernel fill_slice 8,8,4,4\nkernel read_slice 8,8,4\nkernel spin_fill 8,4,4,8';

/** What worker w puts at element i of its slice in round r. */
export const sliceValue = (w: number, i: number, r: number): number => (w * 1_000_003 + i * 7 + r) >>> 0;
