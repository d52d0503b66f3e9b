// describe() for the GPU tier: skipped, with the reason printed once by the
// global setup, where no GPU is usable.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { gpuAvailability } = require('./availability');

export const gpu: { gpu: boolean; driver: boolean; reason: string } = gpuAvailability();
export const describeGpu = gpu.gpu ? describe : describe.skip;
/** For tests that need a driver but must hide the devices themselves. */
export const describeWithDriver = gpu.driver ? describe : describe.skip;
