// The package's two entry points: require('cuda-driver') (CommonJS) and
// import('cuda-driver') (ES module) give the same API, and the same objects.
// Run in a plain Node process from the package root, so that the names resolve
// through package.json "exports" as they do for a user (a package may import
// itself by name).
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { root } from '../helpers/examples';

function run(source: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: root, encoding: 'utf8', timeout: 60000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('module formats', () => {
  test('the build has both entry points and their types', () => {
    for (const file of ['index.js', 'index.d.ts', 'index.mjs', 'index.d.mts']) {
      expect(fs.existsSync(path.join(root, 'dist', file))).toBe(true);
    }
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.exports['.'].import.default).toBe('./dist/index.mjs');
    expect(pkg.exports['.'].require.default).toBe('./dist/index.js');
    expect(pkg.exports['.'].import.types).toBe('./dist/index.d.mts');
    expect(pkg.exports['.'].require.types).toBe('./dist/index.d.ts');
  });

  test('require and import give the same names and the same objects', () => {
    const r = run(`
      import { createRequire } from 'module';
      const esm = await import('cuda-driver');
      const cjs = createRequire(process.cwd() + '/')('cuda-driver');
      const esmNames = Object.keys(esm).filter((n) => n !== 'default').sort();
      const cjsNames = Object.keys(cjs).sort();
      const different = esmNames.filter((n) => esm[n] !== cjs[n]);
      console.log(JSON.stringify({ esmNames, cjsNames, different, defaultIsCjs: esm.default === cjs }));
    `);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const { esmNames, cjsNames, different, defaultIsCjs } = JSON.parse(r.stdout);
    expect(esmNames).toEqual(cjsNames);
    expect(cjsNames).toEqual(expect.arrayContaining(['Stream', 'Graph', 'DeviceBuffer', 'compile', 'driverStatus', 'shareMemory']));
    expect(different).toEqual([]);
    expect(defaultIsCjs).toBe(true);
  });

  test('named imports work from an ES module, and work without a GPU', () => {
    const r = run(`
      import { driverStatus, Stream, arg } from 'cuda-driver';
      const status = driverStatus();
      console.log(JSON.stringify({ stage: status.stage, stream: typeof Stream.create, arg: typeof arg.f32 }));
    `);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(['library-missing', 'driver-too-old', 'init-failed', 'ready']).toContain(out.stage);
    expect(out.stream).toBe('function');
    expect(out.arg).toBe('function');
  });

  test('TypeScript finds the types through both conditions (node16 resolution)', () => {
    // A consumer project outside the package, with the package installed as a link.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-types-'));
    try {
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.symlinkSync(root, path.join(dir, 'node_modules', 'cuda-driver'), 'dir');
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
      fs.writeFileSync(path.join(dir, 'esm.mts'), [
        "import cuda, { Stream, type Graph, type DriverStatus } from 'cuda-driver';",
        'const status: DriverStatus = cuda.driverStatus();',
        'const create: typeof cuda.Stream.create = Stream.create;',
        'export const used: [DriverStatus, typeof create, Graph | undefined] = [status, create, undefined];',
      ].join('\n'));
      fs.writeFileSync(path.join(dir, 'cjs.cts'), [
        "import cuda = require('cuda-driver');",
        'export const stream: typeof cuda.Stream = cuda.Stream;',
      ].join('\n'));
      const program = ts.createProgram([path.join(dir, 'esm.mts'), path.join(dir, 'cjs.cts')], {
        module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16, target: ts.ScriptTarget.ES2022,
        strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [path.join(root, 'node_modules/@types')],
        lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'],
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
