#!/usr/bin/env node
// Builds the addon binaries that ship inside the npm package (run by `npm pack`
// through prepack): prebuilds/linux-<arch>/cuda-driver.napi.glibc.node, the
// layout node-gyp-build looks in. N-API and a driver opened at run time make one
// file per architecture serve every Node >= 20 and every driver. Each is linked
// against a glibc 2.17 sysroot with libstdc++ inside, stripped, and checked
// before it is copied into place.
//
//   node scripts/prebuild.js [x64] [arm64]     default: both
//
// Needs cmake, the CUDA headers (as a source build does) and, for each
// architecture other than this machine's, Debian's cross compiler
// (g++-aarch64-linux-gnu or g++-x86-64-linux-gnu).
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { sysroot } = require('./prebuild/sysroot');
const { elfNeeds, compareVersions } = require('./prebuild/elf-needs');

/** The highest glibc symbol version a shipped binary may need. */
const glibcCeiling = '2.17';
const debianTriples = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };
const debianCompilers = { x64: 'g++-x86-64-linux-gnu', arm64: 'g++-aarch64-linux-gnu' };

const root = path.resolve(__dirname, '..');

function hasCommand(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function build(arch) {
  const triple = debianTriples[arch];
  if (!triple) throw new Error(`prebuild: no target ${arch} (known: ${Object.keys(debianTriples).join(', ')})`);
  const prefix = arch === process.arch ? '' : `${triple}-`;
  if (!hasCommand(`${prefix}g++`)) {
    throw new Error(`prebuild: ${prefix}g++ not found; install Debian's ${debianCompilers[arch]} to build the ${arch} binary`);
  }
  const out = path.join('build', `prebuild-${arch}`);
  const env = {
    ...process.env,
    CUDA_DRIVER_TARGET_TRIPLE: triple,
    CUDA_DRIVER_COMPILER_PREFIX: prefix,
    CUDA_DRIVER_SYSROOT: sysroot(arch),
  };
  console.log(`prebuild: linux-${arch} with ${prefix}g++ into ${out}`);
  execFileSync(process.execPath, [require.resolve('cmake-js/bin/cmake-js'), 'compile', '--out', out,
    '--CDCMAKE_TOOLCHAIN_FILE=scripts/prebuild/toolchain.cmake', '--CDCUDA_DRIVER_PORTABLE=ON'],
  { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });

  const binary = path.join(root, out, 'Release', 'cuda_driver.node');
  const needs = elfNeeds(binary);
  const problems = [
    needs.machine !== arch && `its machine is ${needs.machine}`,
    needs.glibc && compareVersions(needs.glibc, glibcCeiling) > 0 && `it needs glibc ${needs.glibc} (ceiling ${glibcCeiling})`,
    needs.cxxRuntime.length > 0 && `it needs the shared C++ runtime (${needs.cxxRuntime.join(' ')})`,
    needs.unversioned.length > 0 && `it leaves symbols undefined: ${needs.unversioned.join(' ')}`,
  ].filter(Boolean);
  if (problems.length) throw new Error(`prebuild: ${binary}: ${problems.join('; ')}`);

  const dest = path.join(root, 'prebuilds', `linux-${arch}`);
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  fs.copyFileSync(binary, path.join(dest, 'cuda-driver.napi.glibc.node'));
  console.log(`prebuild: prebuilds/linux-${arch}/cuda-driver.napi.glibc.node, ${fs.statSync(binary).size} bytes, glibc ${needs.glibc}`);
}

const arches = process.argv.slice(2);
for (const arch of arches.length ? arches : ['x64', 'arm64']) build(arch);

module.exports = { glibcCeiling };
