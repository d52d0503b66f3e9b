// Whether this machine can run the GPU tiers, decided in a child process so that
// the test process itself has not loaded the driver.
const { spawnSync } = require('child_process');
const path = require('path');

let cached;
function gpuAvailability() {
  if (cached) return cached;
  const script = `
    const c = require(${JSON.stringify(path.resolve(__dirname, '../../dist'))});
    const s = c.driverStatus();
    let out;
    if (!s.available) out = { gpu: false, driver: s.stage !== 'library-missing' && s.stage !== 'driver-too-old',
      reason: s.stage === 'library-missing' ? 'no NVIDIA driver (' + s.detail + ')' : s.stage + ' ' + (s.initResult ? s.initResult.name : s.detail) };
    else { const d = c.Device.get(0); out = { gpu: true, driver: true, devices: c.Device.count(), reason: d.name + ', driver CUDA ' + s.driverVersion }; }
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  cached = r.status === 0 ? JSON.parse(r.stdout) : { gpu: false, driver: false, reason: `could not load the package: ${r.stderr.trim().split('\n').pop()}` };
  return cached;
}

// The multi-GPU tier needs at least two visible devices.
function multiGpuAvailability() {
  const g = gpuAvailability();
  if (!g.gpu) return { multiGpu: false, devices: 0, reason: g.reason };
  if (g.devices < 2) return { multiGpu: false, devices: g.devices, reason: `only ${g.devices} device visible (${g.reason})` };
  return { multiGpu: true, devices: g.devices, reason: `${g.devices} devices: ${g.reason}` };
}

module.exports = { gpuAvailability, multiGpuAvailability };
