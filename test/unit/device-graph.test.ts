// Device graphs over the stand-in driver (test/fixtures/fake-libcuda.c): what
// instantiate({ deviceLaunch: true }) refuses and how the error names the
// node, the upload that must come before device code launches one, uploads
// after updates, and arg.graphExec: the CUgraphExec the kernel receives, and
// the executable kept alive by what passes it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

const image = ['FAKE', 'kernel launcher 8', 'kernel work 8'].join('\n');

const prelude = `
  const fs = require('fs');
  const log = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n')
    .filter((l) => /^(graph|exec|launch)/.test(l));
  const clearLog = () => fs.writeFileSync(process.env.FAKE_CUDA_LOG, '');
  const d = (e) => ({ type: e.constructor.name, message: e.message, code: e.code, reason: e.reason,
    node: e.node === undefined ? undefined : String(e.node), isInstantiateError: e instanceof cuda.GraphInstantiateError });
  const attempt = (f) => { try { f(); return null; } catch (e) { return d(e); } };
  const library = cuda.Library.load(${JSON.stringify(image)});
  const launcher = library.kernel('launcher');
  const work = library.kernel('work');
  const buffer = cuda.DeviceBuffer.alloc(64);
  const stream = cuda.Stream.create();
  const hex = (value) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(value); return b.toString('hex'); };
  const deviceGraph = () => {
    const g = cuda.Graph.create();
    g.addKernel(work, { grid: 1, block: 1 }, [cuda.arg.ptr(buffer)]);
    return g;
  };
`;

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-device-graph-'));
  env = { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: path.join(dir, 'log') };
});
beforeEach(() => fs.writeFileSync(env.FAKE_CUDA_LOG, ''));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (body: string) => {
  const r = runScript(prelude + body, env);
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

describe('instantiating device graphs', () => {
  test('nodes no device graph may hold are refused before the driver is asked, naming the node', () => {
    const r = run(`
      const withHost = deviceGraph();
      withHost.addHost(() => {}, { label: 'log progress' });
      const onlyEmpty = cuda.Graph.create();
      onlyEmpty.addEmpty();
      clearLog();
      report({
        host: attempt(() => withHost.instantiate({ deviceLaunch: true })),
        empty: attempt(() => cuda.Graph.create().instantiate({ deviceLaunch: true })),
        onlyEmpty: attempt(() => onlyEmpty.instantiate({ deviceLaunch: true })),
        autoFree: attempt(() => deviceGraph().instantiate({ deviceLaunch: true, autoFreeOnLaunch: true })),
        hostGraphStillFine: withHost.instantiate().deviceLaunch,
        log: log() });`);
    expect(r.host).toMatchObject({ type: 'DeviceGraphError', code: 'CUDA_ERROR_INVALID_VALUE', reason: 'nodeOperationNotSupported',
      node: 'GraphNode(log progress)', isInstantiateError: true });
    expect(r.host.message).toMatch(/^a device graph may hold only kernel, memcpy, memset and child graph nodes; GraphNode\(log progress\) is a host node/);
    expect(r.onlyEmpty).toMatchObject({ type: 'DeviceGraphError', reason: 'nodeOperationNotSupported', node: 'GraphNode(empty)' });
    expect(r.empty).toMatchObject({ type: 'DeviceGraphError', reason: 'invalidStructure' });
    expect(r.empty.message).toMatch(/at least one kernel, memcpy or memset node/);
    expect(r.autoFree).toMatchObject({ type: 'RangeError' });
    expect(r.hostGraphStillFine).toBe(false);
    // Only the host graph reached the driver.
    expect(r.log.filter((l: string) => l.startsWith('exec create'))).toHaveLength(1);
  });
});

describe('passing a device graph to a kernel', () => {
  test('arg.graphExec needs a device graph, uploaded; the kernel receives its CUgraphExec', () => {
    const r = run(`
      const hostExec = deviceGraph().instantiate();
      const exec = deviceGraph().instantiate({ deviceLaunch: true });
      const notDevice = attempt(() => cuda.arg.graphExec(hostExec));
      const notUploaded = attempt(() => cuda.arg.graphExec(exec));
      const notExec = attempt(() => cuda.arg.graphExec(buffer));
      const before = { deviceLaunch: exec.deviceLaunch, uploaded: exec.uploaded };
      exec.upload(stream);
      clearLog();
      launcher.launch({ grid: 1, block: 1, stream }, [cuda.arg.graphExec(exec)]);
      const launchedFromHost = deviceGraph().instantiate({ deviceLaunch: true });
      launchedFromHost.launch(stream);
      const uploadedAtInstantiate = deviceGraph().instantiate({ deviceLaunch: true, upload: stream });
      const submitted = deviceGraph().instantiate({ deviceLaunch: true });
      stream.submit([hostExec, submitted, hostExec]);
      const notQueued = deviceGraph().instantiate({ deviceLaunch: true });
      const refusedBatch = attempt(() => stream.submit([notQueued, buffer]));
      report({ notDevice, notUploaded, notExec, before, uploaded: exec.uploaded, handle: hex(exec.handle), log: log(),
        byLaunch: launchedFromHost.uploaded, byInstantiate: uploadedAtInstantiate.uploaded,
        bySubmit: submitted.uploaded, byRefusedBatch: notQueued.uploaded, refusedBatch, hostGraph: hostExec.uploaded });`);
    expect(r.notDevice).toMatchObject({ type: 'TypeError' });
    expect(r.notDevice.message).toMatch(/was not instantiated for device launch: use graph\.instantiate\(\{ deviceLaunch: true \}\)/);
    expect(r.notUploaded).toMatchObject({ type: 'Error' });
    expect(r.notUploaded.message).toMatch(/must be uploaded before device code launches it: exec\.upload\(stream\)/);
    expect(r.notExec).toMatchObject({ type: 'TypeError', message: 'exec must be a GraphExec' });
    expect(r.before).toEqual({ deviceLaunch: true, uploaded: false });
    expect(r).toMatchObject({ uploaded: true, byLaunch: true, byInstantiate: true, bySubmit: true, byRefusedBatch: false, hostGraph: false });
    expect(r.refusedBatch).toMatchObject({ type: 'TypeError' });
    expect(r.log[0]).toBe(`launch launcher grid=1,1,1 block=1,1,1 smem=0 stream=1 args=${r.handle}`);
  });

  test('updates of a device graph upload it again on the stream it was uploaded on; a host graph is left alone', () => {
    const r = run(`
      const g = deviceGraph();
      const exec = g.instantiate({ deviceLaunch: true });
      const node = g.nodes()[0];
      const other = cuda.Stream.create();
      clearLog();
      exec.upload(other);
      const uploads = () => { const lines = log().filter((l) => l.startsWith('graph upload')); clearLog(); return lines; };
      const first = uploads();
      exec.update(deviceGraph());
      const afterUpdate = uploads();
      exec.setParams(node, { type: 'kernel', kernel: work, grid: 2, block: 1, args: [cuda.arg.ptr(buffer)] });
      const afterSetParams = uploads();
      const hostExec = g.instantiate();
      hostExec.update(deviceGraph());
      hostExec.setParams(node, { type: 'kernel', kernel: work, grid: 2, block: 1, args: [cuda.arg.ptr(buffer)] });
      report({ first, afterUpdate, afterSetParams, host: uploads() });`);
    expect(r.first).toHaveLength(1);
    expect(r.first[0]).toMatch(/^graph upload \d+ stream=\d+$/);
    expect(r.afterUpdate).toEqual(r.first);
    expect(r.afterSetParams).toEqual(r.first);
    expect(r.host).toEqual([]);
  });

  test('a kernel node and a prepared launch that pass a device graph keep it alive after its dispose()', () => {
    const r = run(`
      const exec = deviceGraph().instantiate({ deviceLaunch: true, upload: stream });
      const id = /exec create (\\d+)/.exec(log().filter((l) => l.startsWith('exec create')).pop())[1];
      const destroyed = () => log().includes('exec destroy ' + id);
      const parent = cuda.Graph.create();
      parent.addKernel(launcher, { grid: 1, block: 1 }, [cuda.arg.graphExec(exec)]);
      const parentExec = parent.instantiate();
      const prepared = launcher.prepare({ grid: 1, block: 1, stream }, ['ptr'], [cuda.arg.graphExec(exec).value]);
      exec.dispose();
      const afterDispose = attempt(() => cuda.arg.graphExec(exec));
      parentExec.launch(stream);
      prepared.launch();
      (async () => {
        await stream.synchronize();
        const whileHeld = destroyed();
        parentExec.dispose();
        parent.dispose();
        const whilePrepared = destroyed();
        prepared.dispose();
        await stream.synchronize();
        await new Promise((resolve) => setImmediate(resolve));
        report({ afterDispose, whileHeld, whilePrepared, afterAll: destroyed() });
      })();`);
    expect(r.afterDispose).toMatchObject({ type: 'DisposedError' });
    expect(r).toMatchObject({ whileHeld: false, whilePrepared: false, afterAll: true });
  });
});
