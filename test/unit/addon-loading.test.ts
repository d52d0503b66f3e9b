// The package where its native addon is missing: no binary for this platform,
// or install scripts blocked where none ships. Importing still works; the first
// native call says what was looked for and what to do.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { distPath } from '../helpers/subprocess';

const root = path.resolve(__dirname, '../..');
let pkg: string;

beforeAll(() => {
  // A copy of the package as installed, without build/ or prebuilds/.
  pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-no-addon-'));
  fs.cpSync(distPath, path.join(pkg, 'dist'), { recursive: true });
  fs.copyFileSync(path.join(root, 'package.json'), path.join(pkg, 'package.json'));
  fs.cpSync(path.join(root, 'node_modules/node-gyp-build'), path.join(pkg, 'node_modules/node-gyp-build'), { recursive: true });
});

afterAll(() => fs.rmSync(pkg, { recursive: true, force: true }));

function probe(source: string): any {
  // Without the override that points node-gyp-build at another build (scripts/asan.sh sets it).
  const env = { ...process.env, CUDA_DRIVER_PREBUILD: undefined };
  const r = spawnSync(process.execPath, ['-e', source], { cwd: pkg, encoding: 'utf8', env });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

test('importing works, and driverStatus says the addon is missing and why', () => {
  const r = probe(`const c = require('./dist'); const s = c.driverStatus();
    console.log(JSON.stringify({ s, header: String(c.headerVersion) }));`);
  expect(r.s).toMatchObject({ available: false, stage: 'addon-missing', initResult: null, driverVersion: null });
  expect(r.s.reason).toMatch(/^addon-missing: cuda-driver: the native addon could not be loaded on linux-/);
  expect(r.header).toBe('0.0');
});

test('a native call throws AddonUnavailableError naming the platform, the places searched and the remedy', () => {
  const r = probe(`const c = require('./dist'); let e;
    try { c.Device.count(); } catch (x) { e = { name: x.name, is: x instanceof c.AddonUnavailableError, call: x.call,
      platform: x.platform, searched: x.searched, message: x.message }; }
    console.log(JSON.stringify(e));`);
  const libc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;
  expect(r).toMatchObject({ name: 'AddonUnavailableError', is: true, call: 'deviceCount', platform: `linux-${process.arch}, glibc ${libc}` });
  expect(r.searched).toEqual([path.join(pkg, 'build/Release'), path.join(pkg, `prebuilds/linux-${process.arch}`)]);
  expect(r.message).toContain(`No native build was found for platform=linux arch=${process.arch}`);
  expect(r.message).toMatch(/npm rebuild cuda-driver --build-from-source/);
});

test('the ES module imports too', () => {
  const r = probe(`import('./dist/index.mjs').then((m) => console.log(JSON.stringify(m.driverStatus().stage)));`);
  expect(r).toBe('addon-missing');
});
