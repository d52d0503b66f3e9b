// The package as its users get it: `npm pack` (which builds the prebuilt
// binaries), then installed into a fresh app with install scripts blocked, and
// with scripts run on a machine that has no compiler, cmake or CUDA headers.
// Each binary's glibc needs are read and it is loaded under a glibc 2.17 loader;
// the arm64 one also by an arm64 Node under qemu. Run with `npm run test:package`
// (it packs, so it builds both binaries: minutes, not seconds).
import { execFileSync, spawnSync, SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/* eslint-disable @typescript-eslint/no-require-imports */
const { elfNeeds, compareVersions } = require('../../scripts/prebuild/elf-needs') as {
  elfNeeds(file: string): { machine: string; glibc: string | null; cxxRuntime: string[]; libraries: string[]; unversioned: string[] };
  compareVersions(a: string, b: string): number;
};
const { sysroot } = require('../../scripts/prebuild/sysroot') as { sysroot(arch: string): string };
const { ensureNode } = require('../../scripts/node-release') as { ensureNode(arch: string, spec: string): string };
/* eslint-enable @typescript-eslint/no-require-imports */

const root = path.resolve(__dirname, '../..');
const npmCli = process.env.npm_execpath && /\.c?js$/.test(process.env.npm_execpath)
  ? process.env.npm_execpath
  : path.join(path.dirname(fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim())), 'npm-cli.js');
const arches = ['x64', 'arm64'];
const binaryOf = (arch: string) => `prebuilds/linux-${arch}/cuda-driver.napi.glibc.node`;
// The README promises glibc 2.28 (RHEL 8, Ubuntu 20.04, Debian 10); the binaries are built to need less.
const promisedGlibc = '2.28';
const noDriver = { CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' };

// Packing builds both binaries and each install reaches the registry: minutes, not seconds.
jest.setTimeout(15 * 60 * 1000);

let work: string;
let tarball: string;
let packed: { size: number; unpackedSize: number; files: Array<{ path: string }> };
const installs: Array<{ name: string; seconds: number; result: string }> = [];

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  if (r.error) throw r.error;
  return r;
}

function npm(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return run(process.execPath, [npmCli, ...args], options);
}

/** A new app folder with its own package.json. */
function freshApp(name: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  return dir;
}

function timedInstall(name: string, app: string, args: string[], env?: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
  const start = process.hrtime.bigint();
  const r = npm(['install', '--no-audit', '--no-fund', ...args, tarball], { cwd: app, env });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  installs.push({ name, seconds, result: r.status === 0 ? 'installed' : `failed (${r.status})` });
  if (r.status !== 0) throw new Error(`npm install ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r;
}

const probe = `
  const cuda = require('cuda-driver');
  import('cuda-driver').then((esm) => {
    const s = cuda.driverStatus();
    console.log(JSON.stringify({ stage: s.stage, esmStage: esm.driverStatus().stage, same: esm.Stream === cuda.Stream }));
  });`;

function probeApp(app: string, node = process.execPath, prefix: string[] = []): { stage: string; esmStage: string; same: boolean } {
  const r = run(prefix[0] ?? node, [...prefix.slice(1), ...(prefix.length ? [node] : []), '-e', probe],
    { cwd: app, env: { ...process.env, ...noDriver } });
  if (r.status !== 0) throw new Error(`the probe failed (${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** Every file under dir, relative to it. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)));
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-package-'));
  const r = npm(['pack', '--json', '--pack-destination', work], { cwd: root });
  if (r.status !== 0) throw new Error(`npm pack failed:\n${r.stderr}`);
  packed = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')))[0];
  tarball = path.join(work, (packed as unknown as { filename: string }).filename);
  fs.mkdirSync(path.join(work, 'extracted'));
  execFileSync('tar', ['-xzf', tarball, '-C', path.join(work, 'extracted')]);
}, 30 * 60 * 1000);

afterAll(() => {
  if (packed) {
    const lines = [`tarball ${(packed.size / 1e6).toFixed(2)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(2)} MB unpacked, ${packed.files.length} files`];
    for (const arch of arches) {
      const file = path.join(work, 'extracted/package', binaryOf(arch));
      if (fs.existsSync(file)) lines.push(`${binaryOf(arch)}: ${fs.statSync(file).size} bytes, glibc ${elfNeeds(file).glibc}`);
    }
    for (const i of installs) lines.push(`${i.name}: ${i.result} in ${i.seconds.toFixed(1)} s`);
    process.stdout.write(`\n[cuda-driver package]\n  ${lines.join('\n  ')}\n`);
  }
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  test('holds both binaries, the licence, types and guides, and nothing only a developer needs', () => {
    const files = packed.files.map((f) => f.path);
    for (const arch of arches) expect(files).toContain(binaryOf(arch));
    for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts',
      'dist/index.d.mts', 'docs/memory.md', 'scripts/install.js', 'CMakeLists.txt']) {
      expect(files).toContain(f);
    }
    const unwanted = files.filter((f) => /\.map$|\.o$|^build\/|^test\/|^bench\/|^lib\/|^scripts\/(gen-|prebuild)|^\.gpu|node_modules/.test(f));
    expect(unwanted).toEqual([]);
    expect(packed.size).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  test('package.json names its home, licence and runtime needs only', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(work, 'extracted/package/package.json'), 'utf8'));
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository.url).toMatch(/^git\+https:/);
    expect(pkg.homepage).toMatch(/^https:/);
    expect(pkg.bugs.url).toMatch(/^https:/);
    expect(Object.keys(pkg.dependencies)).toEqual(['node-gyp-build']);
  });

  test('each binary is for its architecture, needs no C++ runtime and at most the promised glibc', () => {
    for (const arch of arches) {
      const needs = elfNeeds(path.join(work, 'extracted/package', binaryOf(arch)));
      expect(needs.machine).toBe(arch);
      expect(needs.cxxRuntime).toEqual([]);
      expect(needs.unversioned).toEqual([]);
      expect(needs.libraries).not.toContain('libstdc++.so.6');
      expect(compareVersions(needs.glibc!, promisedGlibc)).toBeLessThanOrEqual(0);
    }
  });

  test.each(arches)('the %s binary loads under glibc 2.17', (arch) => {
    // A C program built against the glibc 2.17 sysroot dlopens the binary with
    // every symbol bound now; Node-API's functions are stubs it exports itself.
    const binary = path.join(work, 'extracted/package', binaryOf(arch));
    const stubs = execFileSync('readelf', ['-W', '--dyn-syms', binary], { encoding: 'utf8' }).split('\n')
      .map((l) => l.trim().split(/\s+/)).filter((f) => f[6] === 'UND' && /^(napi|node_api)_/.test(f[7] ?? '')).map((f) => f[7]);
    const source = path.join(work, `loader-${arch}.c`);
    fs.writeFileSync(source, `#include <dlfcn.h>
#include <stdio.h>
${stubs.map((s) => `void ${s}(void) {}`).join('\n')}
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) { printf("%s\\n", dlerror()); return 1; }
  printf("loaded, entry %s\\n", dlsym(h, "napi_register_module_v1") ? "found" : "missing");
  return 0;
}
`);
    const sr = sysroot(arch);
    const cc = arch === process.arch ? 'gcc' : `${arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu-gcc`;
    const libDirs = ['lib64', 'usr/lib64', 'lib', 'usr/lib'].map((d) => path.join(sr, d)).filter((d) => fs.existsSync(d));
    const exe = path.join(work, `loader-${arch}`);
    execFileSync(cc, [`--sysroot=${sr}`, ...libDirs.map((d) => `-L${d}`), '-rdynamic', source, '-o', exe, '-ldl']);
    // Under qemu the sysroot is the guest's root (-L), as the 2.17 loader run directly there faults.
    const r = arch === process.arch
      ? run(path.join(sr, arch === 'x64' ? 'lib64/ld-linux-x86-64.so.2' : 'lib/ld-linux-aarch64.so.1'), ['--library-path', libDirs.join(':'), exe, binary])
      : run(`qemu-${arch === 'arm64' ? 'aarch64' : 'x86_64'}`, ['-L', sr, exe, binary]);
    expect(r.stdout.trim()).toBe('loaded, entry found');
    expect(r.status).toBe(0);
  });

  test('publint --strict finds nothing', () => {
    const r = run(process.execPath, [path.join(root, 'node_modules/publint/src/cli.js'), 'run', tarball, '--strict'], { cwd: work });
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/warning|error|suggestion/i);
    expect(r.status).toBe(0);
  });

  test('are-the-types-wrong finds nothing', () => {
    const r = run(process.execPath, [path.join(root, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarball, '--format', 'ascii', '--no-color'], { cwd: work });
    expect(r.stdout + r.stderr).toMatch(/No problems found/);
    expect(r.status).toBe(0);
  });
});

describe('installed into a fresh app', () => {
  test('with install scripts blocked: require and import work, and the shipped binary is the one loaded', () => {
    const app = freshApp('app-ignore-scripts');
    timedInstall('npm install --ignore-scripts', app, ['--ignore-scripts']);
    expect(probeApp(app)).toEqual({ stage: 'library-missing', esmStage: 'library-missing', same: true });
    // Only what runs: the package and its loader, no build tree or object files.
    expect(fs.readdirSync(path.join(app, 'node_modules')).filter((d) => !d.startsWith('.')).sort()).toEqual(['cuda-driver', 'node-gyp-build']);
    const installed = filesUnder(path.join(app, 'node_modules/cuda-driver'));
    expect(installed.filter((f) => f.startsWith('build/') || f.endsWith('.o'))).toEqual([]);
  });

  test('with scripts, on a machine with no compiler, cmake or CUDA headers: nothing is built', () => {
    const app = freshApp('app-no-toolchain');
    const bin = path.join(work, 'bin-node-only');
    fs.mkdirSync(bin);
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
    const env = { ...process.env, PATH: bin, CUDA_PATH: '/nonexistent' };
    for (const tool of ['cmake', 'cc', 'gcc', 'g++', 'c++', 'make']) {
      expect(run('/bin/sh', ['-c', `command -v ${tool} || echo none`], { env }).stdout.trim()).toBe('none');
    }
    timedInstall('npm install (no compiler, cmake or CUDA_PATH)', app, [], env);
    expect(fs.existsSync(path.join(app, 'node_modules/cuda-driver/build'))).toBe(false);
    expect(probeApp(app)).toEqual({ stage: 'library-missing', esmStage: 'library-missing', same: true });
  });

  test('a TypeScript app type-checks against the installed types without skipLibCheck', () => {
    const app = path.join(work, 'app-ignore-scripts');
    fs.writeFileSync(path.join(app, 'main.ts'), `import { driverStatus, Stream, DeviceBuffer, type DriverStatus } from 'cuda-driver';
const s: DriverStatus = driverStatus();
export const names: string[] = [s.stage, typeof Stream.create, typeof DeviceBuffer.alloc];
`);
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const r = run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
      '--target', 'es2022', '--lib', 'es2022,esnext.disposable', '--types', 'node', '--typeRoots', path.join(root, 'node_modules/@types'), 'main.ts'], { cwd: app });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('an arm64 Node under qemu loads the arm64 binary from the installed package', () => {
    const app = path.join(work, 'app-ignore-scripts');
    const node = ensureNode('arm64', '20');
    expect(probeApp(app, node, ['qemu-aarch64', '-L', '/usr/aarch64-linux-gnu'])).toEqual({ stage: 'library-missing', esmStage: 'library-missing', same: true });
  }, 10 * 60 * 1000);
});
