// The cuda-driver command line: argument handling, and what each command does
// where there is no GPU (and, for counters, with the stand-in driver).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { cliBin, runCli } from '../helpers/cli';
import { root } from '../helpers/examples';
import { fakeDriver } from '../helpers/subprocess';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const cli = require('../../bin/cli.js');

const noDriver = { CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' };

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-cli-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

describe('argument parsing', () => {
  test('commands, options, values and positionals', () => {
    expect(cli.parseArgs(['devices'])).toEqual({ command: 'devices', options: {}, positionals: [] });
    expect(cli.parseArgs(['devices', '--json'])).toEqual({ command: 'devices', options: { json: true }, positionals: [] });
    expect(cli.parseArgs(['dot', 'g.js', '-o', 'g.svg', '--direction=LR', '--levels', '--export', 'pipeline'])).toEqual({
      command: 'dot', options: { output: 'g.svg', direction: 'LR', levels: true, export: 'pipeline' }, positionals: ['g.js'],
    });
    expect(cli.parseArgs(['dot', '--format', 'dot', 'g.dot']).options).toEqual({ format: 'dot' });
  });

  test('counters passes everything after the script to it', () => {
    expect(cli.parseArgs(['counters', '--json', 'run.js', '--json', '-o', 'x', 'y'])).toEqual({
      command: 'counters', options: { json: true }, positionals: ['run.js', '--json', '-o', 'x', 'y'],
    });
    expect(cli.parseArgs(['counters', '-o', 'c.json', '--', '-weird.js', 'a']).positionals).toEqual(['-weird.js', 'a']);
  });

  test('help and version', () => {
    for (const args of [['--help'], ['-h'], ['help'], ['dot', '--help']]) expect(cli.parseArgs(args).command).toBe('help');
    expect(cli.parseArgs(['--version']).command).toBe('version');
  });

  test.each([
    [[], /no command/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['devices', '--verbose'], /devices has no option '--verbose'/],
    [['devices', 'extra'], /devices takes no arguments/],
    [['devices', '--json=yes'], /--json takes no value/],
    [['dot'], /dot needs an input file/],
    [['dot', 'a.js', 'b.js'], /dot takes 1 argument/],
    [['dot', 'a.js', '--format', 'png'], /--format must be one of svg, dot; got 'png'/],
    [['dot', 'a.js', '--direction'], /--direction needs a value/],
    [['counters'], /counters needs a script to run/],
    [['counters', '-x', 'a.js'], /counters has no option '-x'/],
  ])('%j is refused: %s', (args, message) => {
    expect(() => cli.parseArgs(args)).toThrow(cli.UsageError);
    expect(() => cli.parseArgs(args)).toThrow(message);
  });

  test('bad usage exits 2 with the message and the usage text', () => {
    const r = runCli(['frobnicate']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(r.stderr).toMatch(/Usage: cuda-driver <command>/);
  });

  test('--help and --version exit 0', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/devices \[--json\]/);
    const version = runCli(['--version']);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version);
  });

  test('the package declares the command', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.bin['cuda-driver']).toBe('bin/cuda-driver.js');
    expect(pkg.files).toContain('bin');
    expect(fs.statSync(cliBin).mode & 0o111).not.toBe(0);
  });
});

describe('devices', () => {
  test('without a driver: says why and exits 3', () => {
    const r = runCli(['devices'], noDriver);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/no usable GPU \(library-missing: \/nonexistent\/libcuda\.so\.1/);
    expect(r.stdout).toBe('');
  });

  test('without a driver, --json still prints the driver status', () => {
    const r = runCli(['devices', '--json'], noDriver);
    expect(r.status).toBe(3);
    const out = JSON.parse(r.stdout);
    expect(out.devices).toEqual([]);
    expect(out.driver).toMatchObject({ available: false, stage: 'library-missing', libraryPath: '/nonexistent/libcuda.so.1' });
  });

  test('with the stand-in driver: lists its device', () => {
    const r = runCli(['devices', '--json'], { CUDA_DRIVER_LIBRARY: fakeDriver() });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.driver).toMatchObject({ available: true, stage: 'ready', driverVersion: '12.8' });
    expect(out.devices).toHaveLength(1);
    expect(out.devices[0]).toMatchObject({ ordinal: 0, name: 'Fake GPU', computeCapability: '9.0' });
    expect(out.devices[0].capabilities.virtualMemoryManagement).toBe(true);
    const text = runCli(['devices'], { CUDA_DRIVER_LIBRARY: fakeDriver() });
    expect(text.stdout).toMatch(/\[0\] Fake GPU {2}sm_90/);
    expect(text.stdout).toMatch(/supports: .*virtualMemoryManagement/);
  });
});

describe('dot', () => {
  const dotText = 'digraph pipeline {\n  a -> b;\n}\n';
  const graphviz = ['/usr/bin', '/usr/local/bin', ...(process.env.PATH ?? '').split(':')].some((d) => d && fs.existsSync(path.join(d, 'dot')));

  test('a DOT file without Graphviz is written as DOT, with a note', () => {
    const file = write('saved.dot', dotText);
    const r = runCli(['dot', file], { PATH: '/nonexistent' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(dotText);
    expect(r.stderr).toMatch(/Graphviz's dot is not installed/);
  });

  test('-o name.svg without Graphviz writes name.dot instead', () => {
    const file = write('saved2.dot', dotText);
    const out = path.join(dir, 'drawn.svg');
    const r = runCli(['dot', file, '-o', out], { PATH: '/nonexistent' });
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'drawn.dot'), 'utf8')).toBe(dotText);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('--format svg without Graphviz fails with what to do, writing nothing', () => {
    const file = write('saved5.dot', dotText);
    const out = path.join(dir, 'asked.svg');
    const r = runCli(['dot', file, '--format', 'svg', '-o', out], { PATH: '/nonexistent' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--format svg needs Graphviz's dot, which is not installed here: install Graphviz .*--format dot/);
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'asked.dot'))).toBe(false);
  });

  test('parsing goes through util.parseArgs: an option missing its value is refused', () => {
    expect(() => cli.parseArgs(['dot', 'a.js', '-o'])).toThrow(/option --output needs a value/);
    expect(() => cli.parseArgs(['dot', 'a.js', '--name'])).toThrow(/option --name needs a value/);
  });

  (graphviz ? test : test.skip)('a DOT file with Graphviz becomes SVG', () => {
    const file = write('saved3.dot', dotText);
    const r = runCli(['dot', file]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/<svg[\s\S]*pipeline[\s\S]*<\/svg>/);
  });

  test('--format dot writes DOT even where Graphviz is installed', () => {
    const file = write('saved4.dot', dotText);
    expect(runCli(['dot', file, '--format', 'dot']).stdout).toBe(dotText);
  });

  test('a module: its export is drawn with toDot(options); functions are called, --export picks one', () => {
    const cjs = write('graph.cjs', "exports.other = { toDot: (o) => `digraph ${o.name} { x -> y; }` };\n" +
      "module.exports.graph = { toDot: (o) => `digraph ${o.name ?? 'g'} { levels_${o.levels} -> ${o.direction ?? 'TB'}; }` };\n");
    expect(runCli(['dot', cjs, '--format', 'dot', '--levels', '--direction', 'LR']).stdout).toBe('digraph g { levels_true -> LR; }\n');
    expect(runCli(['dot', cjs, '--format', 'dot', '--export', 'other', '--name', 'named']).stdout).toBe('digraph named { x -> y; }\n');
    const esm = write('graph.mjs', "export default async () => ({ toDot: () => 'digraph async { a; }' });\n");
    expect(runCli(['dot', esm, '--format', 'dot']).stdout).toBe('digraph async { a; }\n');
    const text = write('text.mjs', "export const graph = 'digraph text { b; }';\n");
    expect(runCli(['dot', text, '--format', 'dot']).stdout).toBe('digraph text { b; }\n');
  });

  test('a module that exports no graph, or throws, fails with a message', () => {
    const none = write('none.cjs', 'module.exports = { answer: 42 };\n');
    const r = runCli(['dot', none]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/exports no graph/);
    const missing = runCli(['dot', none, '--export', 'nope']);
    expect(missing.stderr).toMatch(/no export named 'nope'/);
    expect(runCli(['dot', path.join(dir, 'absent.js')]).stderr).toMatch(/does not exist/);
  });

  test("the DOT file examples/graph-pipeline.js writes with --dot (its writer, over a graph built on the stand-in) is drawn", () => {
    const saved = path.join(dir, 'pipeline.dot');
    const script = write('saves.js', `const cuda = require(${JSON.stringify(root)});
      const { writeDotIfAsked } = require(${JSON.stringify(path.join(root, 'examples', 'common', 'write-dot.js'))});
      const graph = cuda.Graph.create({ dataflow: true });
      const x = cuda.DeviceBuffer.alloc(64), host = cuda.HostBuffer.alloc(64);
      graph.addCopy(x, host, {}, { label: 'upload x' });
      graph.addCopy(host, x, {}, { label: 'download x' });
      if (writeDotIfAsked(graph, []) !== undefined) throw new Error('wrote without --dot');
      writeDotIfAsked(graph, ['--dot', ${JSON.stringify(saved)}]);`);
    const made = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, CUDA_DRIVER_LIBRARY: fakeDriver() } });
    expect(made.stderr).toBe('');
    expect(made.stdout).toBe(`wrote ${saved}; draw it with: npx cuda-driver dot ${saved} -o graph.svg\n`);
    const text = fs.readFileSync(saved, 'utf8');
    expect(text).toMatch(/^digraph /);
    expect(text).toMatch(/upload x[\s\S]*download x/);
    expect(text).toMatch(/n\d+ -> n\d+/);  // the data-flow edge from the upload to the download
    const r = runCli(['dot', saved, '--format', 'dot']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(text);
    const out = path.join(dir, 'drawn-pipeline.svg');
    const drawn = runCli(['dot', saved, '-o', out]);
    expect(drawn.status).toBe(0);
    expect(fs.existsSync(graphviz ? out : path.join(dir, 'drawn-pipeline.dot'))).toBe(true);
  });

  test('a module that builds a Graph, without a GPU: says so and exits 3', () => {
    const file = write('builds.cjs', `const { Graph } = require(${JSON.stringify(root)});\nmodule.exports = Graph.create();\n`);
    const r = runCli(['dot', file], noDriver);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/needs a GPU to build its graph.*library-missing.*give a saved DOT file instead/);
  });
});

describe('counters', () => {
  test('runs the script with its arguments, passes its exit status on, prints the counts', () => {
    const script = write('counted.js', `const cuda = require(${JSON.stringify(root)});
      console.log('args', JSON.stringify(process.argv.slice(2)), 'counting', cuda.callCounters.enabled);
      cuda.Device.count(); cuda.Device.get(0).name;
      process.exitCode = 7;\n`);
    const r = runCli(['counters', script, '--flag', 'value'], { CUDA_DRIVER_LIBRARY: fakeDriver() });
    expect(r.status).toBe(7);
    expect(r.stdout).toMatch(/args \["--flag","value"\] counting true/);
    expect(r.stderr).toMatch(/driver calls of .*counted\.js \(exit status 7\)/);
    expect(r.stderr).toMatch(/cuDeviceGetCount +\d+ +0/);
    expect(r.stderr).toMatch(/cuDeviceGetName +1 +0/);
  });

  test('--json -o writes the counts as JSON to a file; the script environment stays clean', () => {
    const script = write('counted2.js', `require(${JSON.stringify(root)}).Device.count();
      console.log(JSON.stringify(Object.keys(process.env).filter((k) => k.startsWith('CUDA_DRIVER_COUNTERS_'))));\n`);
    const out = path.join(dir, 'counts.json');
    const r = runCli(['counters', '--json', '-o', out, script], { CUDA_DRIVER_LIBRARY: fakeDriver() });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    expect(report.exitCode).toBe(0);
    expect(report.counters.find((c: { name: string }) => c.name === 'cuDeviceGetCount').calls).toBeGreaterThanOrEqual(1);
  });

  test('without a driver the script still runs, and counts nothing', () => {
    const script = write('plain.js', "console.log('ran');\n");
    const r = runCli(['counters', script], noDriver);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('ran\n');
    expect(r.stderr).toMatch(/0 functions, 0 calls/);
  });

  test('a script that does not exist', () => {
    const r = runCli(['counters', path.join(dir, 'absent.js')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/does not exist/);
  });
});
