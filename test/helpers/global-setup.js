// Prints, once per run, whether the GPU tiers will run here and why not (or
// fails the run when REQUIRE_GPU=1 and they cannot), and
// gives the GPU test files a place to leave their driver call counts.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { gpuAvailability, multiGpuAvailability } = require('./availability');

module.exports = async () => {
  const { gpu, reason } = gpuAvailability();
  // A GPU CI runner whose container lost its GPU must go red, not skip.
  if (!gpu && process.env.REQUIRE_GPU === '1') throw new Error(`[cuda-driver] REQUIRE_GPU=1, but no GPU is usable: ${reason}`);
  process.stdout.write(`\n[cuda-driver] ${gpu ? `GPU tests run on ${reason}` : `GPU tests skipped: ${reason}`}\n`);
  const multi = multiGpuAvailability();
  if (!multi.multiGpu && process.env.REQUIRE_MULTI_GPU === '1') throw new Error(`[cuda-driver] REQUIRE_MULTI_GPU=1, but ${multi.reason}`);
  process.stdout.write(`[cuda-driver] ${multi.multiGpu ? `multi-GPU tests run on ${multi.reason}` : `multi-GPU tests skipped: ${multi.reason}`}\n`);
  if (gpu) process.env.CUDA_DRIVER_COUNTERS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-counters-'));
};
