// Batched submission (stream.submit) against the stand-in driver
// (test/fixtures/fake-libcuda.c), which logs every launch with its arguments'
// bytes and every graph launch: a batch reaches the driver in its order, with
// each prepared launch's values as they are when it is submitted, and a batch
// with an item it cannot queue queues nothing.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { distPath, fakeDriver, runScript } from '../helpers/subprocess';

const image = ['FAKE', 'kernel saxpy 4,8,8,4', 'kernel empty'].join('\n');

const prelude = `
  const fs = require('fs');
  const log = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n')
    .filter((l) => /^(launch|graph launch)/.test(l));
  const clearLog = () => fs.writeFileSync(process.env.FAKE_CUDA_LOG, '');
  const d = (e) => ({ type: e.constructor.name, message: e.message, code: e.code, call: e.call, detail: e.detail });
  const attempt = (f) => { try { f(); return null; } catch (e) { return d(e); } };
  const lib = cuda.Library.load(${JSON.stringify(image)});
  const saxpy = lib.kernel('saxpy');
  const stream = cuda.Stream.create();
  const graphOf = () => {
    const graph = cuda.Graph.create();
    graph.addEmpty();
    return graph;
  };
`;

let logFile: string;
let env: Record<string, string>;
beforeAll(() => {
  logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-submit-')), 'log');
  env = { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: logFile };
});
beforeEach(() => fs.writeFileSync(logFile, ''));

const run = (body: string, extraEnv: Record<string, string> = {}) => {
  const r = runScript(prelude + body, { ...env, ...extraEnv });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

const saxpyLine = (a: string, n: string) =>
  `launch saxpy grid=2,1,1 block=128,1,1 smem=0 stream=1 args=${a}|1000000000000000|2000000000000000|${n}`;

describe('stream.submit', () => {
  test('queues prepared launches and graph launches in order, each launch with its values as they are', () => {
    const r = run(`
      const a = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      const empty = lib.kernel('empty').prepare({ grid: 1, block: 32, stream }, []);
      const g1 = graphOf().instantiate();
      const g2 = graphOf().instantiate();
      clearLog();
      stream.submit([a, g1, empty, g2, a]);
      const first = log();
      clearLog();
      a.set(3, 8);
      stream.submit([g2, a, a.set(0, -1)]);
      const second = log();
      clearLog();
      stream.submit([]);
      stream.synchronizeSync();
      report({ first, second, none: log(), g1: g1.slot, g2: g2.slot });`);
    const graphLine = (n: number) => expect.stringMatching(new RegExp(`^graph launch ${n} stream=1$`));
    const [g1, g2] = [r.first[1], r.first[3]].map((l: string) => Number(/graph launch (\d+)/.exec(l)![1]));
    expect(g1).not.toBe(g2);
    expect(r.first).toEqual([
      saxpyLine('0000803f', '07000000'), graphLine(g1),
      'launch empty grid=1,1,1 block=32,1,1 smem=0 stream=1 args=', graphLine(g2),
      saxpyLine('0000803f', '07000000'),
    ]);
    // set() before the call: both launches of `a` see -1 and 8.
    expect(r.second).toEqual([graphLine(g2), saxpyLine('000080bf', '08000000'), saxpyLine('000080bf', '08000000')]);
    expect(r.none).toEqual([]);
  });

  test('an item it cannot queue stops the whole batch before the driver is called', () => {
    const r = run(`
      const a = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      const unset = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32']);
      const other = cuda.Stream.create();
      const elsewhere = saxpy.prepare({ grid: 2, block: 128, stream: other }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      const exec = graphOf().instantiate();
      const goneLaunch = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      goneLaunch.dispose();
      const goneExec = graphOf().instantiate();
      goneExec.dispose();
      const gone = cuda.Stream.create();
      gone.dispose();
      clearLog();
      report({
        notArray: attempt(() => stream.submit(a)),
        wrongType: attempt(() => stream.submit([a, exec, other])),
        number: attempt(() => stream.submit([a, 3])),
        nothing: attempt(() => stream.submit([exec, null])),
        graph: attempt(() => stream.submit([a, graphOf()])),
        disposedLaunch: attempt(() => stream.submit([a, exec, goneLaunch])),
        disposedExec: attempt(() => stream.submit([a, goneExec])),
        unset: attempt(() => stream.submit([a, unset])),
        otherStream: attempt(() => stream.submit([a, elsewhere])),
        disposedStream: attempt(() => gone.submit([exec])),
        log: log(),
      });`);
    expect(r.notArray).toMatchObject({ type: 'TypeError', message: 'items must be an array of PreparedLaunch and GraphExec objects' });
    expect(r.wrongType).toMatchObject({ type: 'TypeError', message: 'items[2] must be a PreparedLaunch or a GraphExec' });
    expect(r.number).toMatchObject({ type: 'TypeError', message: 'items[1] must be a PreparedLaunch or a GraphExec' });
    expect(r.nothing).toMatchObject({ type: 'TypeError', message: 'items[1] must be a PreparedLaunch or a GraphExec' });
    expect(r.graph).toMatchObject({ type: 'TypeError', message: 'items[1] must be a PreparedLaunch or a GraphExec' });
    expect(r.disposedLaunch).toMatchObject({ type: 'DisposedError', message: 'PreparedLaunch has been disposed' });
    expect(r.disposedExec).toMatchObject({ type: 'DisposedError', message: 'GraphExec has been disposed' });
    expect(r.unset).toMatchObject({ type: 'KernelArgumentError', message: 'saxpy: argument 0 has not been set' });
    expect(r.otherStream).toMatchObject({ type: 'TypeError', message: expect.stringContaining('items[1] was prepared for another stream') });
    expect(r.disposedStream).toMatchObject({ type: 'DisposedError', message: 'Stream has been disposed' });
    expect(r.log).toEqual([]);
  });

  test('a prepared launch joins a batch once its last argument is set, and no more after dispose()', () => {
    const r = run(`
      const p = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32']);
      const exec = graphOf().instantiate();
      const none = attempt(() => stream.submit([exec, p]));
      p.set(0, 1).set(1, 0x10n).set(2, 0x20n);
      const oneLeft = attempt(() => stream.submit([exec, p]));
      p.set(3, 7);
      clearLog();
      const ready = attempt(() => stream.submit([p, exec, p]));
      const launched = log();
      p.dispose();
      report({ none, oneLeft, ready, launched, disposed: attempt(() => stream.submit([exec, p])) });`);
    expect(r.none).toMatchObject({ type: 'KernelArgumentError', message: 'saxpy: argument 0 has not been set' });
    expect(r.oneLeft).toMatchObject({ type: 'KernelArgumentError', message: 'saxpy: argument 3 has not been set' });
    expect(r.ready).toBeNull();
    expect(r.launched).toEqual([saxpyLine('0000803f', '07000000'), expect.stringMatching(/^graph launch/), saxpyLine('0000803f', '07000000')]);
    expect(r.disposed).toMatchObject({ type: 'DisposedError', message: 'PreparedLaunch has been disposed' });
  });

  test('a launch the driver refuses names its item; the items before it stay queued', () => {
    const r = run(`
      const a = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      const exec = graphOf().instantiate();
      clearLog();
      report({ error: attempt(() => stream.submit([a, a, exec, a])), log: log() });`, { FAKE_CUDA_FAIL: 'cuGraphLaunch=1' });
    expect(r.error).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_INVALID_VALUE', call: 'cuGraphLaunch', detail: 'items[2]' });
    expect(r.log).toEqual([saxpyLine('0000803f', '07000000'), saxpyLine('0000803f', '07000000')]);
  });

  test('a batch keeps what it uses until the stream is idle', () => {
    const r = run(`
      const a = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      const exec = graphOf().instantiate();
      const { native } = require(${JSON.stringify(path.join(distPath, 'native.js'))});
      stream.submit([a, exec]);
      const kept = native.streamPendingResources(stream.slot);
      stream.synchronizeSync();
      report({ kept, after: native.streamPendingResources(stream.slot) });`);
    expect(r).toEqual({ kept: 2, after: 0 });
  });

  test('a batch the driver stops keeps what the items queued before the refusal use, and nothing of the rest', () => {
    const script = `
      const a = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      const first = graphOf().instantiate(), second = graphOf().instantiate();
      const { native } = require(${JSON.stringify(path.join(distPath, 'native.js'))});
      const error = attempt(() => stream.submit(ITEMS));
      const kept = native.streamPendingResources(stream.slot);
      stream.synchronizeSync();
      report({ error, kept, after: native.streamPendingResources(stream.slot) });`;
    // Two executables queued, then a prepared launch refused: both stay kept.
    const kernelRefused = run(script.replace('ITEMS', '[first, second, a]'), { FAKE_CUDA_FAIL: 'cuLaunchKernel=1' });
    expect(kernelRefused).toEqual({ error: expect.objectContaining({ call: 'cuLaunchKernel', detail: 'items[2], saxpy' }), kept: 2, after: 0 });
    // A prepared launch queued, then an executable refused: only the launch's resources.
    const graphRefused = run(script.replace('ITEMS', '[a, first, second]'), { FAKE_CUDA_FAIL: 'cuGraphLaunch=1' });
    expect(graphRefused).toEqual({ error: expect.objectContaining({ call: 'cuGraphLaunch', detail: 'items[1]' }), kept: 1, after: 0 });
  });

  test('the native entry checks what it is given, called directly', () => {
    const r = run(`
      const { native } = require(${JSON.stringify(path.join(distPath, 'native.js'))});
      const a = saxpy.prepare({ grid: 2, block: 128, stream }, ['f32', 'ptr', 'ptr', 'u32'], [1, 0x10n, 0x20n, 7]);
      const other = cuda.Stream.create();
      const slots = new Float64Array([a.slot, stream.slot]);
      clearLog();
      report({
        notBuffer: attempt(() => native.streamSubmit(stream.slot, [a.slot], 1)),
        tooMany: attempt(() => native.streamSubmit(stream.slot, slots.buffer, 3)),
        notItem: attempt(() => native.streamSubmit(stream.slot, slots.buffer, 2)),
        garbage: attempt(() => native.streamSubmit(stream.slot, new Float64Array([NaN, -1]).buffer, 2)),
        otherStream: attempt(() => native.streamSubmit(other.slot, slots.buffer, 1)),
        notStream: attempt(() => native.streamSubmit(a.slot, slots.buffer, 1)),
        log: log(),
      });`);
    expect(r.notBuffer).toMatchObject({ type: 'TypeError' });
    expect(r.tooMany).toMatchObject({ type: 'RangeError' });
    expect(r.notItem).toMatchObject({ type: 'TypeError', message: 'items[1] must be a PreparedLaunch or a GraphExec' });
    expect(r.garbage).toMatchObject({ type: 'TypeError', message: 'items[0] must be a PreparedLaunch or a GraphExec' });
    expect(r.otherStream).toMatchObject({ type: 'TypeError', message: expect.stringContaining('another stream') });
    expect(r.notStream).toMatchObject({ type: 'TypeError', message: expect.stringContaining('stream must be a Stream') });
    expect(r.log).toEqual([]);
  });
});
