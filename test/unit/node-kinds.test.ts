// Graph node kinds: the table that names each kind once (lib/graph/node-kinds.ts),
// and the native layer's own choice of the per-type driver calls when the driver
// lacks the generic ones, over the stand-in driver.
import { Graph, NodeType } from '../../lib';
import { builderOf, dotKindOf, nodeTypeName } from '../../lib/graph/node-kinds';
import { fakeDriver, runScript } from '../helpers/subprocess';

const env = (extra: Record<string, string> = {}) => ({ CUDA_DRIVER_LIBRARY: fakeDriver(), ...extra });
const capture = `const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };`;

describe('graph node kinds', () => {
  test('each kind has one name, mapped to its CUgraphNodeType both ways, its Graph method and its DOT kind', () => {
    const names = Object.keys(NodeType) as Array<keyof typeof NodeType>;
    expect(names).toEqual(['kernel', 'memcpy', 'memset', 'host', 'graph', 'empty', 'eventWait', 'eventRecord',
      'extSemaphoreSignal', 'extSemaphoreWait', 'memAlloc', 'memFree', 'batchMemOp', 'conditional']);
    for (const name of names) {
      expect(nodeTypeName(NodeType[name])).toBe(name);
      expect(typeof (Graph.prototype as unknown as Record<string, unknown>)[builderOf(name)]).toBe('function');
      expect(typeof dotKindOf(name)).toBe('string');
    }
    expect(names.map((name) => NodeType[name])).toEqual(names.map((_, i) => i));
    expect(nodeTypeName(99)).toBeUndefined();
    expect(builderOf('memset')).toBe('addFill');
    expect(builderOf('memcpy')).toBe('addCopy');
  });

  test('a driver without cuGraphAddNode / cuGraphNodeSetParams gets the per-type calls, chosen natively', () => {
    // The stand-in at CUDA 12.1 lacks the generic calls (12.2, 12.3); of the per-type ones it has only cuGraphAddEmptyNode.
    const r = runScript(`${capture}
      const graph = cuda.Graph.create();
      const buffer = cuda.DeviceBuffer.alloc(64);
      cuda.callCounters.enable();
      const a = graph.addEmpty();
      const b = graph.addEmpty({ after: [a] });
      report({
        nodes: graph.nodeCount, types: [a.type, b.type],
        called: cuda.callCounters.read().map((c) => c.name),
        fill: t(() => graph.addFill(buffer, 1)),
        edges: t(() => graph.addEmpty({ after: [a], edges: [{ type: 'programmatic' }] })),
      });`, env({ FAKE_CUDA_VERSION: '12010' }));
    expect(r.stderr).toBe('');
    expect(r.report).toMatchObject({ nodes: 2, types: ['empty', 'empty'] });
    expect(r.report.called).toContain('cuGraphAddEmptyNode');
    expect(r.report.called).not.toContain('cuGraphAddNode');
    expect(r.report.fill).toMatch(/^FunctionUnavailableError: cuGraphAddMemsetNode is not provided by the installed driver/);
    // Edge data needs the generic call, which this driver lacks.
    expect(r.report.edges).toMatch(/cuGraphAddNode is not provided by the installed driver/);
  });

  test('a kernel node with edge data is added through the generic call, after the node it names', () => {
    const r = runScript(`${capture}
      const lib = cuda.Library.load(['FAKE', 'kernel empty'].join('\\n'));
      const empty = lib.kernel('empty');
      const graph = cuda.Graph.create();
      const a = graph.addKernel(empty, { grid: 1, block: 32 });
      cuda.callCounters.enable();
      const b = graph.addKernel(empty, { grid: 2, block: 32 }, [], { after: [a], edges: [{ type: 'programmatic' }] });
      const c = graph.addKernel(empty, { grid: 3, block: 32 }, [], { after: [b] });
      report({
        called: cuda.callCounters.read().map((c) => [c.name, c.calls]),
        edges: graph.edges().map((e) => [[a, b, c].indexOf(e.from), [a, b, c].indexOf(e.to)]),
        types: [b.type, c.type],
        mismatch: t(() => graph.addKernel(empty, { grid: 1, block: 32 }, [], { after: [a, b], edges: [{}] })),
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report.called).toEqual(expect.arrayContaining([['cuGraphAddNode', 2]]));
    expect(r.report).toMatchObject({ edges: [[0, 1], [1, 2]], types: ['kernel', 'kernel'] });
    expect(r.report.mismatch).toBe('RangeError: options.edges must have one entry per options.after node');
  });

  test('an external-semaphore node naming a dependency twice is refused before any driver call', () => {
    const r = runScript(`${capture}
      const graph = cuda.Graph.create();
      const a = graph.addEmpty(), b = graph.addEmpty();
      cuda.callCounters.enable();
      report({
        signal: t(() => graph.addExternalSemaphoreNode('signal', { after: [a, b, a] })),
        wait: t(() => graph.addExternalSemaphoreNode('wait', { after: [b, b] })),
        called: cuda.callCounters.read().map((c) => c.name),
        nodes: graph.nodeCount,
      });`, env());
    expect(r.stderr).toBe('');
    expect(r.report).toMatchObject({
      signal: 'RangeError: dependencies must not name a node twice',
      wait: 'RangeError: dependencies must not name a node twice',
      nodes: 2,
    });
    expect(r.report.called).not.toEqual(expect.arrayContaining([expect.stringMatching(/ExternalSemaphores/)]));
  });

  test('CUDA_DRIVER_GRAPH_PER_TYPE_CALLS makes the per-type calls be used on any driver; what they cannot express still goes generic', () => {
    const script = `${capture}
      const graph = cuda.Graph.create();
      cuda.callCounters.enable();
      const a = graph.addEmpty();
      graph.addEmpty({ after: [a], edges: [{ type: 'programmatic' }] });
      report({ nodes: graph.nodeCount, called: cuda.callCounters.read().map((c) => [c.name, c.calls]) });`;
    const forced = runScript(script, env({ CUDA_DRIVER_GRAPH_PER_TYPE_CALLS: '1' }));
    expect(forced.stderr).toBe('');
    expect(forced.report.nodes).toBe(2);
    expect(forced.report.called).toEqual(expect.arrayContaining([['cuGraphAddEmptyNode', 1], ['cuGraphAddNode', 1]]));
    const plain = runScript(script, env());
    expect(plain.report.called).toEqual(expect.arrayContaining([['cuGraphAddNode', 2]]));
    expect(plain.report.called.map((c: [string, number]) => c[0])).not.toContain('cuGraphAddEmptyNode');
  });
});
