// describe() for the GPU tier: skipped, with the reason printed once by the
// global setup, where no GPU is usable.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { gpuAvailability, multiGpuAvailability } = require('./availability');

export const gpu: { gpu: boolean; driver: boolean; reason: string } = gpuAvailability();
export const describeGpu = gpu.gpu ? describe : describe.skip;
/** For tests that need a driver but must hide the devices themselves. */
export const describeWithDriver = gpu.driver ? describe : describe.skip;

export const multiGpu: { multiGpu: boolean; devices: number; peerAccess: boolean; reason: string } = multiGpuAvailability();
/** describe() for the multi-GPU tier: skipped where fewer than two devices are visible. */
export const describeMultiGpu = multiGpu.multiGpu ? describe : describe.skip;
/** describe() for multi-GPU tests that need devices 0 and 1 to reach each other's memory (P2P). */
export const describePeerAccess = multiGpu.multiGpu && multiGpu.peerAccess ? describe : describe.skip;
