// What a handle shows to util.inspect (its kind and what identifies it, never
// its internal fields), and that it refuses structured clone (postMessage to a
// worker) instead of arriving there as a plain object.
import { fakeDriver, runScript } from '../helpers/subprocess';

const run = (body: string) => {
  const r = runScript(`const util = require('util');\n${body}`, { CUDA_DRIVER_LIBRARY: fakeDriver() });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

test('util.inspect shows the kind, device and size; a disposed handle says so', () => {
  const report = run(`
    const buffer = cuda.DeviceBuffer.alloc(1024);
    const stream = cuda.Stream.create();
    const graph = cuda.Graph.create();
    const before = util.inspect(stream);
    stream.dispose();
    report({ buffer: util.inspect(buffer), stream: before, disposed: util.inspect(stream), graph: util.inspect(graph),
      nested: util.inspect({ a: { b: { c: buffer } } }), inArray: util.inspect([buffer], { depth: 0 }),
      logged: util.format('%o', buffer) });
  `);
  expect(report).toEqual({
    buffer: 'DeviceBuffer { device: 0, size: 1024 }',
    stream: 'Stream { device: 0 }',
    disposed: 'Stream { disposed: true }',
    graph: 'Graph { nodes: 0 }',
    nested: '{ a: { b: { c: [DeviceBuffer] } } }',
    inArray: '[ [DeviceBuffer] ]', // past the depth, as Node shows an object
    logged: expect.stringMatching(/^DeviceBuffer \{ device: 0, size: 1024 \}$/),
  });
  expect(JSON.stringify(report)).not.toMatch(/slotNumber|releasedFlag|notCloneable/);
});

test('structuredClone and postMessage refuse a handle with a DataCloneError that says why', () => {
  const report = run(`
    const { MessageChannel } = require('worker_threads');
    const buffer = cuda.DeviceBuffer.alloc(64);
    const stream = cuda.Stream.create();
    const attempt = (f) => { try { f(); return 'cloned'; } catch (e) { return { name: e.name, message: e.message }; } };
    const { port1, port2 } = new MessageChannel();
    const out = {
      clone: attempt(() => structuredClone(buffer)),
      nested: attempt(() => structuredClone({ stream })),
      post: attempt(() => port1.postMessage({ buffer })),
      json: JSON.stringify(buffer),
    };
    port1.close(); port2.close();
    report(out);
  `);
  const refused = { name: 'DataCloneError', message: expect.stringMatching(/a handle of cuda-driver cannot be cloned or posted to a worker/) };
  expect(report).toEqual({ clone: refused, nested: refused, post: refused, json: expect.any(String) });
});
