#!/usr/bin/env node
// npm's install step. When an addon binary loads here (a local build, or the one
// shipped for this platform in prebuilds/) there is nothing to do, and nothing
// is compiled. Otherwise, or when asked (--build-from-source), the addon is built
// from source: with cmake-js where it is installed (this repository's own
// devDependencies), else with the node-gyp that npm carries. A failed build fails
// the install only in this repository itself; as a dependency, the package still
// installs and imports, and its first native call says what is missing.
'use strict';
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const fromSource = process.env.npm_config_build_from_source === 'true' || process.argv.includes('--build-from-source');
const ownCheckout = path.resolve(process.env.INIT_CWD || process.cwd()) === root;

function loads() {
  try {
    require('node-gyp-build')(root);
    return true;
  } catch {
    return false;
  }
}

function resolveFrom(request) {
  try {
    return require.resolve(request, { paths: [root] });
  } catch {
    return null;
  }
}

function build() {
  if (!resolveFrom('node-addon-api')) {
    return 'node-addon-api is not installed (npm install node-addon-api, then npm rebuild cuda-driver --build-from-source)';
  }
  const cmakeJs = resolveFrom('cmake-js/bin/cmake-js');
  const nodeGyp = process.env.npm_config_node_gyp || resolveFrom('node-gyp/bin/node-gyp.js');
  const [tool, args] = cmakeJs ? [cmakeJs, ['compile', '--out', 'build']] : [nodeGyp, ['rebuild']];
  if (!tool) return 'neither cmake-js nor node-gyp was found';
  const run = spawnSync(process.execPath, [tool, ...args], { cwd: root, stdio: 'inherit' });
  return run.status === 0 ? null : `${path.basename(tool)} ${args[0]} exited with ${run.status ?? run.signal}`;
}

if (fromSource || !loads()) {
  const failure = build();
  if (failure) {
    console.error(`cuda-driver: building the native addon from source failed: ${failure}.\n` +
      `No prebuilt binary loads on ${process.platform}-${process.arch}. The package is installed; ` +
      'its first native call will throw AddonUnavailableError, and driverStatus() says "addon-missing". ' +
      'A source build needs cmake (or node-gyp), a C++17 compiler and the CUDA 13 headers (CUDA_PATH).');
    process.exit(ownCheckout ? 1 : 0);
  }
}
