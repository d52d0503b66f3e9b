// Prints, once per run, whether the GPU tiers will run here and why not, and
// gives the GPU test files a place to leave their driver call counts.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { gpuAvailability } = require('./availability');

module.exports = async () => {
  const { gpu, reason } = gpuAvailability();
  process.stdout.write(`\n[cuda-driver] ${gpu ? `GPU tests run on ${reason}` : `GPU tests skipped: ${reason}`}\n`);
  if (gpu) process.env.CUDA_DRIVER_COUNTERS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-counters-'));
};
