#!/usr/bin/env node
// Prints the driver's status and every visible device with its capabilities.
// On a machine without a GPU it says why and exits normally.
const cuda = require('..');

const status = cuda.driverStatus();
console.log(`cuda-driver built against CUDA ${status.headerVersion}`);
if (!status.available) {
  const why = status.stage === 'init-failed' ? `${status.initResult.name}` : status.detail;
  console.log(`driver not usable here (${status.stage}): ${why}`);
  process.exit(0);
}
console.log(`driver supports CUDA ${status.driverVersion} (${status.libraryPath})`);

for (const device of cuda.Device.all()) {
  const { major, minor } = device.computeCapability;
  const gib = (device.totalMemory / 2 ** 30).toFixed(1);
  console.log(`\n[${device.ordinal}] ${device.name}  sm_${major}${minor}  ${gib} GiB`);
  console.log(`    ${device.uuid}  PCI ${device.pciBusId}`);
  console.log(`    ${device.attribute('multiprocessorCount')} SMs, ${device.attribute('l2CacheSize') >> 20} MiB L2`);
  const caps = device.capabilities;
  const yes = Object.entries(caps).filter(([, v]) => v === true).map(([k]) => k);
  console.log(`    supports: ${yes.join(', ')}`);
  console.log(`    pool handle types: ${caps.memoryPoolHandleTypes.join(', ') || 'none'}`);
  for (const peer of cuda.Device.all()) {
    if (peer !== device) console.log(`    peer access to [${peer.ordinal}]: ${device.canAccessPeer(peer)}`);
  }
}
