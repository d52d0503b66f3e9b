// For the GPU tiers: count driver calls in every test file and leave them for
// the global teardown, which prints which driver functions the run exercised.
import * as fs from 'fs';
import * as path from 'path';
import { callCounters } from '../../lib';
import { gpu } from './tiers';

if (gpu.gpu) {
  beforeAll(() => callCounters.enable());
  afterAll(() => {
    const dir = process.env.CUDA_DRIVER_COUNTERS_DIR;
    if (!dir) return;
    const file = path.join(dir, `${path.basename(expect.getState().testPath ?? 'unknown')}.${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify(callCounters.read()));
  });
}
