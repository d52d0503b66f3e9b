// `cuda-driver devices`: the driver and every visible device with its capabilities.
'use strict';
const { exit } = require('./cli');

function describe(cuda, device) {
  const { major, minor } = device.computeCapability;
  const capabilities = device.capabilities;
  return {
    ordinal: device.ordinal,
    name: device.name,
    uuid: device.uuid,
    pciBusId: device.pciBusId,
    computeCapability: `${major}.${minor}`,
    totalMemory: device.totalMemory,
    multiprocessors: device.attribute('multiprocessorCount'),
    l2CacheBytes: device.attribute('l2CacheSize'),
    capabilities,
    peerAccess: cuda.Device.all().filter((peer) => peer !== device).map((peer) => ({ ordinal: peer.ordinal, canAccess: device.canAccessPeer(peer) })),
  };
}

function devices(options, io) {
  const cuda = require('..');
  const status = cuda.driverStatus();
  const driver = {
    available: status.available,
    stage: status.stage,
    detail: status.detail,
    libraryPath: status.libraryPath,
    driverVersion: status.driverVersion ? String(status.driverVersion) : null,
    headerVersion: String(status.headerVersion),
  };
  if (!status.available) {
    if (options.json) io.stdout.write(`${JSON.stringify({ driver, devices: [] }, null, 2)}\n`);
    io.stderr.write(`no usable GPU (${status.reason})\n`);
    return exit.noGpu;
  }
  const list = cuda.Device.all().map((device) => describe(cuda, device));
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ driver, devices: list }, null, 2)}\n`);
    return exit.ok;
  }
  const lines = [`driver: CUDA ${driver.driverVersion} (${driver.libraryPath}); cuda-driver built against CUDA ${driver.headerVersion}`];
  for (const d of list) {
    const gib = (d.totalMemory / 2 ** 30).toFixed(1);
    lines.push('', `[${d.ordinal}] ${d.name}  sm_${d.computeCapability.replace('.', '')}  ${gib} GiB  ${d.multiprocessors} SMs  ${(d.l2CacheBytes / 2 ** 20).toFixed(0)} MiB L2`);
    lines.push(`    ${d.uuid}  PCI ${d.pciBusId}`);
    const yes = Object.entries(d.capabilities).filter(([, v]) => v === true).map(([k]) => k);
    const no = Object.entries(d.capabilities).filter(([, v]) => v === false).map(([k]) => k);
    lines.push(`    supports: ${yes.join(', ') || 'none of the listed features'}`);
    if (no.length) lines.push(`    not supported: ${no.join(', ')}`);
    lines.push(`    memory pool handle types: ${d.capabilities.memoryPoolHandleTypes.join(', ') || 'none'}`);
    for (const p of d.peerAccess) lines.push(`    peer access to [${p.ordinal}]: ${p.canAccess ? 'yes' : 'no'}`);
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return exit.ok;
}

module.exports = { devices };
