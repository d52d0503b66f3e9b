// Node.js releases from the npm registry's per-platform packages
// (node-linux-<arch>@<version> holds bin/node), kept in node_modules/.cache and
// reused: the registry is the one source a machine that runs `npm ci` is sure to
// reach. For trying the package under other Nodes and other architectures.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const cacheRoot = path.join(root, 'node_modules', '.cache', 'cuda-driver-node');

// Run as an npm script, npm_execpath is the npm that runs us; otherwise the one on PATH.
function npm(args) {
  const cli = process.env.npm_execpath;
  const [cmd, pre] = cli && /\.c?js$/.test(cli) ? [process.execPath, [cli]] : ['npm', []];
  const r = spawnSync(cmd, [...pre, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`npm ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.status}:\n${r.stderr.trim()}`);
  return r.stdout;
}

/** The npm package whose bin/node runs on arch (x64 | arm64). */
function nodePackage(arch = process.arch) {
  if (arch !== 'x64' && arch !== 'arm64') throw new Error(`no node-linux-* package on npm is known for ${arch}`);
  return `node-linux-${arch}`;
}

const { compareVersions } = require('./prebuild/elf-needs');

function cachedVersions(pkg) {
  if (!fs.existsSync(cacheRoot)) return [];
  return fs.readdirSync(cacheRoot)
    .filter((d) => d.startsWith(`${pkg}-`) && fs.existsSync(path.join(cacheRoot, d, 'bin', 'node')))
    .map((d) => d.slice(pkg.length + 1));
}

/** Released versions (no prereleases), oldest first: the registry's list, or the cache's when it cannot be reached. */
function releasedVersions(pkg) {
  let list;
  try {
    list = JSON.parse(npm(['view', pkg, 'versions', '--json']));
    if (!Array.isArray(list)) list = [list];
  } catch (e) {
    list = cachedVersions(pkg);
    if (!list.length) throw e;
    process.stderr.write(`node-release: registry not reachable, using cached Nodes only (${e.message.split('\n')[0]})\n`);
  }
  return list.filter((v) => /^\d+\.\d+\.\d+$/.test(v)).sort(compareVersions);
}

/** The newest released version of a major ('newest': of all). */
function newestOf(pkg, major) {
  const versions = releasedVersions(pkg);
  const matching = major === 'newest' ? versions : versions.filter((v) => Number(v.split('.')[0]) === Number(major));
  if (!matching.length) throw new Error(`${pkg} has no release of major ${major}`);
  return matching[matching.length - 1];
}

/**
 * The path of bin/node for arch and a version ('22.11.0'), a major ('22') or
 * 'newest', fetched with `npm pack` unless cached. It runs only on that
 * architecture (or under qemu-user).
 */
function ensureNode(arch, spec) {
  const pkg = nodePackage(arch);
  const version = /^\d+\.\d+\.\d+$/.test(spec) ? spec : newestOf(pkg, spec);
  const dir = path.join(cacheRoot, `${pkg}-${version}`);
  const bin = path.join(dir, 'bin', 'node');
  if (fs.existsSync(bin)) return bin;
  // Unpacked beside its final place and renamed into it, so an interrupted fetch leaves no half binary in the cache.
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  try {
    const packed = JSON.parse(npm(['pack', `${pkg}@${version}`, '--pack-destination', tmp, '--ignore-scripts', '--json']));
    const tarball = path.join(tmp, packed[0].filename);
    const tar = spawnSync('tar', ['-xzf', tarball, '-C', tmp, '--strip-components=1', 'package/bin/node'], { encoding: 'utf8' });
    if (tar.status !== 0) throw new Error(`tar could not extract bin/node from ${tarball}: ${tar.stderr || tar.error}`);
    fs.rmSync(tarball);
    fs.chmodSync(path.join(tmp, 'bin', 'node'), 0o755);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

module.exports = { ensureNode, newestOf, nodePackage, releasedVersions };
