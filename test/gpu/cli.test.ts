// The cuda-driver command on a GPU: devices lists the real devices, dot draws a
// graph a module builds, counters reports the driver calls of a script.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Device } from '../../lib';
import { runCli } from '../helpers/cli';
import { root } from '../helpers/examples';
import { describeGpu } from '../helpers/tiers';

const run = (args: string[]) => runCli(args, {}, { timeoutMs: 120000 });

describeGpu('cuda-driver command', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-cli-gpu-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('devices lists every visible device', () => {
    const r = run(['devices', '--json']);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.driver.available).toBe(true);
    expect(out.devices.map((d: { name: string }) => d.name)).toEqual(Device.all().map((d) => d.name));
    expect(out.devices[0].uuid).toBe(Device.get(0).uuid);
    const text = run(['devices']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^\[0\] .+ {2}sm_\d+ {2}[\d.]+ GiB {2}\d+ SMs/m);
  });

  test('dot draws a data-flow graph a module builds, with its labels', () => {
    const file = path.join(dir, 'pipeline.cjs');
    fs.writeFileSync(file, `const cuda = require(${JSON.stringify(root)});
      module.exports = () => {
        const x = cuda.DeviceBuffer.alloc(1024), y = cuda.DeviceBuffer.alloc(1024);
        const graph = cuda.Graph.create({ dataflow: true });
        graph.addFill(x, 1, {}, { label: 'fill x' });
        graph.addCopy(y, x, {}, { label: 'copy x to y' });
        return graph;
      };\n`);
    const r = run(['dot', file, '--format', 'dot']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^digraph/);
    expect(r.stdout).toMatch(/fill x/);
    expect(r.stdout).toMatch(/copy x to y/);
    expect(r.stdout).toMatch(/->/);
  });

  test('counters reports the driver calls of an example', () => {
    const r = run(['counters', path.join(root, 'examples', 'saxpy.js')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/y = 2x \+ 1: correct/);
    expect(r.stderr).toMatch(/cuLaunchKernel +1000\d +0/);
    expect(r.stderr).toMatch(/cuMemAlloc +\d+ +0/);
  });
});
