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
    else {
      const d = c.Device.get(0), devices = c.Device.count();
      const peerAccess = devices > 1 && d.canAccessPeer(c.Device.get(1)) && c.Device.get(1).canAccessPeer(d);
      out = { gpu: true, driver: true, devices, peerAccess, reason: d.name + ', driver CUDA ' + s.driverVersion };
    }
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  cached = r.status === 0 ? JSON.parse(r.stdout) : { gpu: false, driver: false, reason: `could not load the package: ${r.stderr.trim().split('\n').pop()}` };
  return cached;
}

// The multi-GPU tier needs at least two visible devices; its peer-access tests
// also need devices 0 and 1 to reach each other's memory.
function multiGpuAvailability() {
  const g = gpuAvailability();
  if (!g.gpu) return { multiGpu: false, devices: 0, peerAccess: false, reason: g.reason };
  if (g.devices < 2) return { multiGpu: false, devices: g.devices, peerAccess: false, reason: `only ${g.devices} device visible (${g.reason})` };
  const peers = g.peerAccess ? 'peer access between devices 0 and 1' : 'no peer access between devices 0 and 1 (its tests are skipped)';
  return { multiGpu: true, devices: g.devices, peerAccess: g.peerAccess, reason: `${g.devices} devices, ${peers}: ${g.reason}` };
}

module.exports = { gpuAvailability, multiGpuAvailability };
