// The glibc 2.17 sysroots that the shipped binaries are linked against. They come
// from the npm registry inside @napi-rs/cross-toolchain-x64-target-* (a GCC 4.8
// cross toolchain, too old for C++17, whose sysroot alone is used here), pinned by
// integrity, and are unpacked once into node_modules/.cache.
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const toolchains = {
  x64: {
    spec: '@napi-rs/cross-toolchain-x64-target-x86_64@1.0.0',
    integrity: 'sha512-lecoghCfoTAX9MLFcIx9/nL9M8xdkZ9n8Pki8qjKUNzjiq1zbECdEbzIZAMMHRtrXxifK9dAyYuh8gSxNbr2og==',
    triple: 'x86_64-unknown-linux-gnu',
  },
  arm64: {
    spec: '@napi-rs/cross-toolchain-x64-target-aarch64@1.0.3',
    integrity: 'sha512-EMFcy/ahFsmCY3BI1tMC3wRUYZ+cDuILg7nP1micaKXW1tO1+RvUB1CC6QYe+cv2W4Tuz9wr3qcFExWyjgWf2w==',
    triple: 'aarch64-unknown-linux-gnu',
  },
};

const root = path.resolve(__dirname, '../..');
const cache = path.join(root, 'node_modules/.cache/cuda-driver-sysroots');

/** The sysroot folder for an architecture (x64 | arm64), fetched and unpacked when missing. */
function sysroot(arch) {
  const toolchain = toolchains[arch];
  if (!toolchain) throw new Error(`no sysroot is known for ${arch} (known: ${Object.keys(toolchains).join(', ')})`);
  const dir = path.join(cache, toolchain.triple);
  const ready = path.join(dir, '.complete');
  if (fs.existsSync(ready) && fs.readFileSync(ready, 'utf8') === toolchain.integrity) return path.join(dir, 'sysroot');

  fs.rmSync(dir, { recursive: true, force: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-sysroot-'));
  try {
    console.log(`fetching the ${arch} sysroot (${toolchain.spec}, about 45 MB, once)`);
    const [packed] = JSON.parse(execFileSync('npm', ['pack', toolchain.spec, '--json', '--pack-destination', work],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    const tgz = path.join(work, packed.filename);
    const digest = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(tgz)).digest('base64')}`;
    if (digest !== toolchain.integrity) throw new Error(`${toolchain.spec}: integrity ${digest}, expected ${toolchain.integrity}`);
    const archive = `package/${toolchain.triple}.tar.xz`;
    execFileSync('tar', ['-xzf', tgz, '-C', work, archive]);
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xJf', path.join(work, archive), '-C', dir, '--strip-components=2', '--wildcards',
      `./${toolchain.triple}/sysroot/*`]);
    fs.writeFileSync(ready, toolchain.integrity);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return path.join(dir, 'sysroot');
}

module.exports = { sysroot };
