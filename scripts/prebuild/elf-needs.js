// What a built addon asks of the system that loads it, read with binutils'
// readelf: its machine, the highest glibc symbol version it needs, any C++
// runtime versions (none when libstdc++ is linked in), its shared libraries, and
// undefined symbols that no library version names (other than Node-API's own).
'use strict';
const { execFileSync } = require('child_process');

const machines = { 'Advanced Micro Devices X86-64': 'x64', AArch64: 'arm64' };

function compareVersions(a, b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  }
  return 0;
}

function readelf(args, file) {
  return execFileSync('readelf', ['-W', ...args, file], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** The needs of the ELF shared object at `file`. */
function elfNeeds(file) {
  const machine = /Machine:\s+(.+)/.exec(readelf(['-h'], file))[1].trim();
  const versions = new Set(readelf(['-V'], file).match(/\b(GLIBC|GLIBCXX|CXXABI|GCC)_[0-9.]+/g) ?? []);
  const glibc = [...versions].filter((v) => v.startsWith('GLIBC_')).map((v) => v.slice(6)).sort(compareVersions);
  const cxxRuntime = [...versions].filter((v) => v.startsWith('GLIBCXX_') || v.startsWith('CXXABI_')).sort();
  const libraries = [...readelf(['-d'], file).matchAll(/\(NEEDED\)\s+Shared library: \[(.+)\]/g)].map((m) => m[1]);
  const unversioned = readelf(['--dyn-syms'], file).split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 8 && f[4] === 'GLOBAL' && f[6] === 'UND' && !f[7].includes('@'))
    .map((f) => f[7])
    .filter((name) => !name.startsWith('napi_') && !name.startsWith('node_api_'));
  return {
    machine: machines[machine] ?? machine,
    glibc: glibc[glibc.length - 1] ?? null,
    cxxRuntime,
    libraries,
    unversioned,
  };
}

module.exports = { elfNeeds, compareVersions };
