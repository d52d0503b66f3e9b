// Graphs against the real driver: every node kind, capture, analysis, update,
// conditional nodes, memory nodes, user objects, and lifetimes under GC.
import {
  arg,
  compile,
  CudaError,
  decompressBatch,
  Device,
  DeviceBuffer,
  Event,
  Graph,
  GraphCycleError,
  GraphExec,
  GraphInstantiateError,
  GraphNode,
  GraphUpdateError,
  graphMemory,
  HostBuffer,
  Library,
  resetGraphMemoryHigh,
  ResourceRange,
  Stream,
  trimGraphMemory,
  UserObject,
} from '../../lib';
import { collectGarbage, drain } from '../helpers/gc';
import { runScript } from '../helpers/subprocess';
import { toolkitIncludes } from '../helpers/toolkit';
import { describeGpu } from '../helpers/tiers';

const source = `
#include <cuda_device_runtime_api.h>
extern "C" __global__ void axpy(float* y, const float* x, float a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
extern "C" __global__ void scale(float* y, float s, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= s;
}
extern "C" __global__ void add(float* out, const float* a, const float* b, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}
// One step of a loop run by a while node: count down, and stop at zero.
extern "C" __global__ void countdown(unsigned* counter, unsigned* iterations, cudaGraphConditionalHandle handle) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    unsigned left = --*counter;
    ++*iterations;
    cudaGraphSetConditional(handle, left > 0 ? 1 : 0);
  }
}
extern "C" __global__ void choose(cudaGraphConditionalHandle handle, unsigned value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(handle, value);
}
`;

const n = 4096;
const shape = { grid: Math.ceil(n / 256), block: 256 };
const floats = (f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));

describeGpu('graphs', () => {
  let lib: Library;
  let stream: Stream;
  beforeAll(() => {
    lib = Library.load(compile(source, { name: 'graph-kernels.cu', includePaths: toolkitIncludes() }));
    stream = Stream.create();
  });
  afterAll(() => {
    stream.dispose();
    lib.dispose();
  });

  // x = i; a = x*2 (+=), b = x*3 (+=), out = a + b  → out = 5i (a, b start at 0)
  function diamondBuffers() {
    return { x: DeviceBuffer.from(floats((i) => i)), a: DeviceBuffer.from(new Float32Array(n)), b: DeviceBuffer.from(new Float32Array(n)), out: DeviceBuffer.alloc(n * 4) };
  }

  test('a diamond built explicitly and by capture gives the same results', async () => {
    const axpy = lib.kernel('axpy');
    const add = lib.kernel('add');
    const built = diamondBuffers();
    using graph = Graph.create();
    const top = graph.addFill(built.a, 0, { elementBytes: 4, count: n }, { label: 'clear a' });
    const left = graph.addKernel(axpy, shape, [arg.ptr(built.a), arg.ptr(built.x), arg.f32(2), arg.u32(n)], { after: [top], label: 'a += 2x' });
    const right = graph.addKernel(axpy, shape, [arg.ptr(built.b), arg.ptr(built.x), arg.f32(3), arg.u32(n)], { after: [top], label: 'b += 3x' });
    graph.addKernel(add, shape, [arg.ptr(built.out), arg.ptr(built.a), arg.ptr(built.b), arg.u32(n)], { after: [left, right], label: 'out = a + b' });
    expect(graph.nodeCount).toBe(4);
    expect(graph.rootNodes()).toEqual([top]);
    expect(graph.edges()).toHaveLength(4);
    expect(left.dependencies().map((d) => d.node)).toEqual([top]);
    expect(top.dependents().map((d) => d.node).sort((p, q) => Number(p.handle - q.handle))).toEqual([left, right].sort((p, q) => Number(p.handle - q.handle)));
    expect(left.type).toBe('kernel');
    expect(graph.levels().map((l) => l.length)).toEqual([1, 2, 1]);
    expect(graph.criticalPath().length).toBe(3);
    using exec = graph.instantiate();
    await exec.run(stream);
    expect(built.out.readSync(Float32Array)[10]).toBe(50);

    const captured = diamondBuffers();
    using side = Stream.create();
    using forked = Event.create();
    using joined = Event.create();
    using capturedGraph = stream.capture((s) => {
      captured.a.fill(0, { elementBytes: 4, stream: s });
      forked.record(s);
      side.waitEvent(forked);
      axpy.launch({ ...shape, stream: s }, [arg.ptr(captured.a), arg.ptr(captured.x), arg.f32(2), arg.u32(n)]);
      axpy.launch({ ...shape, stream: side }, [arg.ptr(captured.b), arg.ptr(captured.x), arg.f32(3), arg.u32(n)]);
      joined.record(side);
      s.waitEvent(joined);
      add.launch({ ...shape, stream: s }, [arg.ptr(captured.out), arg.ptr(captured.a), arg.ptr(captured.b), arg.u32(n)]);
    });
    expect(capturedGraph.nodeCount).toBe(4);
    expect(capturedGraph.levels().map((l) => l.length)).toEqual([1, 2, 1]);
    expect(capturedGraph.resourceCount).toBeGreaterThanOrEqual(5);
    using capturedExec = capturedGraph.instantiate();
    await capturedExec.run(stream);
    expect(Array.from(captured.out.readSync(Float32Array))).toEqual(Array.from(built.out.readSync(Float32Array)));
    for (const b of [built, captured]) for (const buffer of Object.values(b)) buffer.dispose();
  });

  test('a data-flow graph infers the edges a hand-written one has, and prunes the redundant ones', () => {
    const axpy = lib.kernel('axpy');
    const add = lib.kernel('add');
    const { x, a, b, out } = diamondBuffers();
    using graph = Graph.create({ dataflow: true });
    const clear = graph.addFill(a, 0, { elementBytes: 4 }, { label: 'clear a' });
    const left = graph.addKernel(axpy, shape, [arg.ptr(a), arg.ptr(x), arg.f32(2), arg.u32(n)], { reads: [x, a], writes: [a], label: 'a += 2x' });
    const right = graph.addKernel(axpy, shape, [arg.ptr(b), arg.ptr(x), arg.f32(3), arg.u32(n)], { reads: [x, b], writes: [b], label: 'b += 3x' });
    const sum = graph.addKernel(add, shape, [arg.ptr(out), arg.ptr(a), arg.ptr(b), arg.u32(n)], { reads: [a, b], writes: [out], label: 'out = a + b' });
    // A later reader of out and a disjoint write into a's upper half.
    const copyOut = graph.addCopy(b, out, { bytes: 1024 });
    const half = graph.addFill(a, 1, { elementBytes: 4, offset: n * 2, count: n / 2 }, { reads: [], writes: [new ResourceRange(a, n * 2, n * 2)] });
    const edges = graph.edges().map((e) => [e.from, e.to]);
    const expected = [[clear, left], [left, sum], [right, sum], [sum, copyOut], [sum, half]];
    expect(edges.length).toBe(expected.length);
    for (const [from, to] of expected) expect(edges).toContainEqual([from, to]);
    // No edge clear → sum: it is implied through left.
    expect(edges).not.toContainEqual([clear, sum]);
    const dot = graph.toDot({ levels: true });
    expect(dot).toMatch(/label="RAW DeviceBuffer#\d+/);
    expect(dot).toContain('a += 2x');
    for (const buffer of [x, a, b, out]) buffer.dispose();
  });

  test('a data-flow graph joins explicit dependencies, with their edge data, to inferred ones, and refuses a node of another graph', () => {
    using buffer = DeviceBuffer.alloc(1024);
    using graph = Graph.create({ dataflow: true });
    using other = Graph.create({ dataflow: true });
    const first = graph.addFill(buffer, 1, {}, { label: 'first' });
    const foreign = other.addFill(buffer, 2);
    const marker = graph.addEmpty({ label: 'marker' });
    const second = graph.addFill(buffer, 3, {}, { after: [marker], edges: [{ type: 'default' }], label: 'second' });
    expect(() => graph.addEmpty({ after: [foreign] })).toThrow(TypeError);
    expect(() => graph.addEmpty({ after: [foreign] })).toThrow(/not added through this data-flow graph/);
    const edges = graph.edges().map((e) => [e.from, e.to]);
    expect(edges).toHaveLength(2);
    expect(edges).toContainEqual([first, second]);
    expect(edges).toContainEqual([marker, second]);
    const dot = graph.toDot();
    expect(dot).toMatch(/label="WAW DeviceBuffer#\d+"/);
    expect(dot).toContain('label="explicit"');
    expect(graph.nodeCount).toBe(3);
  });

  test('every node kind through cuGraphAddNode; parameters read back and set', async () => {
    using graph = Graph.create();
    using src = DeviceBuffer.from(floats((i) => i));
    using dst = DeviceBuffer.alloc(n * 4);
    using pinned = HostBuffer.alloc(64, { mapped: true });
    using event = Event.create();
    using child = Graph.create();
    child.addFill(dst, 7, { count: 16 });
    let hostCalls = 0;
    for (let round = 0; round < 2; round++) {
      const copy = graph.addCopy(dst, src, { bytes: 1024 });
      const fill = graph.addFill(dst, 0x11, { offset: 2048, count: 64 }, { after: [copy] });
      const host = graph.addHost(() => hostCalls++, { after: [fill] });
      const empty = graph.addEmpty({ after: [host] });
      const childNode = graph.addChild(child, { after: [empty] });
      const record = graph.addEventRecord(event, { after: [childNode] });
      const wait = graph.addEventWait(event, { after: [record] });
      const ops = graph.addMemoryOps([{ op: 'writeValue32', target: pinned, value: 9 }], { after: [wait] });
      expect([copy, fill, host, empty, childNode, record, wait, ops].map((node) => node.type)).toEqual(
        ['memcpy', 'memset', 'host', 'empty', 'graph', 'eventRecord', 'eventWait', 'batchMemOp']);
      expect(copy.params()).toMatchObject({ type: 'memcpy', copy: { bytes: 1024, dst: dst.address, src: src.address } });
      expect(fill.params()).toMatchObject({ type: 'memset', value: 0x11, elementBytes: 1, width: 64, target: dst.address + 2048n });
      expect(host.params()).toMatchObject({ hasCallback: true });
      expect((childNode.params().graph as Graph).nodeCount).toBe(1);
      expect(record.params().event).toBe(event.handle);
      expect(wait.params().event).toBe(event.handle);
      expect(ops.params()).toMatchObject({ type: 'batchMemOp', ops: [{ value: 9n }] });
      fill.setParams({ type: 'memset', target: dst, value: 0x22, offset: 2048, count: 64 });
      expect(fill.params().value).toBe(0x22);
      using other = Event.create();
      record.setParams({ type: 'eventRecord', event: other });
      expect(record.params().event).toBe(other.handle);
      wait.setParams({ type: 'eventWait', event: other });
      host.setParams({ type: 'host', callback: () => (hostCalls += 10) });
      ops.setParams({ type: 'batchMemOp', ops: [{ op: 'writeValue32', target: pinned, value: 10 }] });
      copy.setParams({ type: 'memcpy', dst, src, bytes: 2048 });
    }
    using exec = graph.instantiate();
    await exec.run(stream);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hostCalls).toBe(20);
    expect(pinned.view(Uint32Array)[0]).toBe(10);
    const out = dst.readSync(Uint8Array);
    expect(out[2048]).toBe(0x22);
    expect(new Float32Array(out.buffer, 0, 512)[100]).toBe(100);
  });

  test('edges: add, remove, cycles refused before the driver; clone and find', () => {
    using graph = Graph.create();
    const a = graph.addEmpty({ label: 'a' });
    const b = graph.addEmpty({ after: [a], label: 'b' });
    const c = graph.addEmpty({ label: 'c' });
    graph.addEdges([b], [c]);
    expect(graph.edges()).toHaveLength(2);
    expect(() => graph.addEdges([c], [a])).toThrow(GraphCycleError);
    expect(() => graph.addEdges([c], [a])).toThrow('the graph has a cycle: a → b → c → a');
    graph.removeEdges([b], [c]);
    expect(graph.edges()).toHaveLength(1);
    graph.addEdges([a], [c], [{ type: 'default' }]);
    const { graph: copy, find } = graph.clone();
    using copied = copy;
    expect(copied.nodeCount).toBe(3);
    expect(find(b)).toBeInstanceOf(GraphNode);
    expect(find(b)).not.toBe(b);
    expect(find(b).dependencies().map((d) => d.node)).toEqual([find(a)]);
    c.destroy();
    expect(graph.nodeCount).toBe(2);
    expect(() => c.type).toThrow(/destroyed/);
    expect(graph.debugDot(1)).toMatch(/digraph/);
    expect(graph.toDot()).toMatch(/digraph/);
  });

  test('a node is one object: the builder, nodes(), rootNodes(), edges(), dependencies(), dependents() and a clone\'s find agree', () => {
    using graph = Graph.create();
    const a = graph.addEmpty();
    const b = graph.addEmpty({ after: [a] });
    const c = graph.addEmpty({ after: [a, b] });
    const order = [a, b, c];
    const index = (node: GraphNode) => order.indexOf(node);
    expect(graph.nodes().map(index).sort()).toEqual([0, 1, 2]);
    expect(graph.rootNodes()).toEqual([a]);
    expect(graph.rootNodes()[0]).toBe(a);
    expect(graph.edges().map((e) => [index(e.from), index(e.to)]).sort()).toEqual([[0, 1], [0, 2], [1, 2]]);
    expect(c.dependencies().map((d) => index(d.node)).sort()).toEqual([0, 1]);
    expect(a.dependents().map((d) => index(d.node)).sort()).toEqual([1, 2]);
    const { graph: copy, find } = graph.clone();
    using copied = copy;
    const b2 = find(b);
    expect(b2).toBe(find(b));
    expect(b2.graph).toBe(copied);
    expect(copied.nodes()).toContain(b2);
    expect(b2.dependencies()[0].node).toBe(find(a));
    expect(b2.dependencies()[0].node.graph).toBe(copied);
  });

  test('update: parameter changes are taken; a topology change is refused with its reason', async () => {
    const scale = lib.kernel('scale');
    using y = DeviceBuffer.from(floats(() => 1));
    const build = (factor: number, extra: boolean) => {
      const g = Graph.create();
      const k = g.addKernel(scale, shape, [arg.ptr(y), arg.f32(factor), arg.u32(n)]);
      if (extra) g.addEmpty({ after: [k] });
      return g;
    };
    using first = build(2, false);
    using exec = first.instantiate();
    await exec.run(stream);
    expect(y.readSync(Float32Array)[0]).toBe(2);
    using second = build(3, false);
    exec.update(second);
    await exec.run(stream);
    expect(y.readSync(Float32Array)[0]).toBe(6);
    using third = build(5, true);
    let refused: unknown;
    try {
      exec.update(third);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(GraphUpdateError);
    expect((refused as GraphUpdateError).reason).toBe('topologyChanged');
    expect((refused as Error).message).toMatch(/topologyChanged/);
    const replacement = exec.updateOrReinstantiate(third);
    expect(replacement).not.toBe(exec);
    expect(exec.disposed).toBe(true);
    await replacement.run(stream);
    expect(y.readSync(Float32Array)[0]).toBe(30);
    replacement.dispose();
  });

  test('per-node updates on an executable; enable and disable; flags; upload', async () => {
    const scale = lib.kernel('scale');
    using y = DeviceBuffer.from(floats(() => 1));
    using graph = Graph.create();
    const k = graph.addKernel(scale, shape, [arg.ptr(y), arg.f32(2), arg.u32(n)]);
    const f = graph.addFill(y, 0, { elementBytes: 4, count: 1 }, { after: [k] });
    using exec = graph.instantiate({ upload: stream, useNodePriority: true });
    // The driver reports the flags that shape the executable (upload is an action, not kept).
    expect(exec.flags).toMatchObject({ autoFreeOnLaunch: false, deviceLaunch: false });
    exec.setEnabled(f, false);
    expect(exec.isEnabled(f)).toBe(false);
    exec.upload(stream);
    await exec.run(stream);
    expect(y.readSync(Float32Array).slice(0, 2)).toEqual(new Float32Array([2, 2]));
    exec.setParams(k, { type: 'kernel', kernel: scale, ...shape, args: [arg.ptr(y), arg.f32(10), arg.u32(n)] });
    await exec.run(stream);
    expect(y.readSync(Float32Array)[1]).toBe(20);
    exec.setParams(k, { type: 'kernel', kernel: scale, ...shape, args: [arg.ptr(y), arg.f32(0.5), arg.u32(n)] });
    exec.setEnabled(f, true);
    exec.setParams(f, { type: 'memset', target: y, value: 0, elementBytes: 4, count: 2 });
    await exec.run(stream);
    expect(Array.from(y.readSync(Float32Array).slice(0, 3))).toEqual([0, 0, 10]);
    // A graph the driver cannot instantiate says why.
    using broken = Graph.create();
    const handle = broken.conditionalHandle();
    void handle;
    expect(() => broken.instantiate()).toThrow(GraphInstantiateError);
  });

  test('a prepared launch updates an executable\'s kernel node each iteration; the executable keeps the memory it names', async () => {
    const scale = lib.kernel('scale');
    using y = DeviceBuffer.from(floats(() => 1));
    using graph = Graph.create();
    const k = graph.addKernel(scale, shape, [arg.ptr(y), arg.f32(1), arg.u32(n)]);
    using exec = graph.instantiate();
    using other = Stream.create();
    // Its stream plays no part in an update.
    using prepared = scale.prepare({ ...shape, stream: other }, ['ptr', 'f32', 'u32'], [y, 2, n]);
    const seen: number[] = [];
    for (const factor of [2, 3, 0.5]) {
      prepared.set(1, factor);
      exec.setParams(k, prepared);
      await exec.run(stream);
      seen.push(y.readSync(Float32Array)[n - 1]);
    }
    expect(seen).toEqual([2, 6, 3]);
    // Memory only the prepared launch named stays alive for the executable.
    let z: DeviceBuffer | undefined = DeviceBuffer.from(floats((i) => i));
    prepared.set(0, z);
    exec.setParams(k, prepared);
    z = undefined;
    prepared.set(0, y);
    prepared.dispose();
    collectGarbage();
    await drain();
    await exec.run(stream);
    expect(y.readSync(Float32Array)[n - 1]).toBe(3);  // y untouched: the node scaled the other buffer
    expect(() => exec.setParams(k, prepared)).toThrow('PreparedLaunch has been disposed');
  });

  // The per-type calls serve drivers without cuGraphAddNode / cuGraphNodeSetParams /
  // cuGraphExecNodeSetParams; CUDA_DRIVER_GRAPH_PER_TYPE_CALLS makes the package use
  // them here too. It is read once, so the graph is built in a process of its own.
  test('every node kind through the per-type calls: parameters and launch attributes, read back and set; executable updates per type', () => {
    const result = runScript(`
      const { arg, DeviceBuffer, HostBuffer, Event, Graph, Library, Stream, callCounters } = cuda;
      const n = ${n};
      const shape = ${JSON.stringify(shape)};
      const floats = (f) => Float32Array.from({ length: n }, (_, i) => f(i));
      const lib = Library.load(cuda.compile(${JSON.stringify(source)}, { name: 'graph-kernels.cu', includePaths: ${JSON.stringify(toolkitIncludes())} }));
      const stream = Stream.create();
      const scale = lib.kernel('scale');
      const y = DeviceBuffer.from(floats(() => 1));
      const z = DeviceBuffer.from(floats(() => 1));
      const pinned = HostBuffer.alloc(64, { mapped: true });
      const w = DeviceBuffer.alloc(64);
      const event = Event.create();
      const other = Event.create();
      const child = Graph.create();
      child.addFill(z, 0, { elementBytes: 4, count: 1 });
      const graph = Graph.create();
      callCounters.enable();
      const k = graph.addKernel(scale, shape, [arg.ptr(y), arg.f32(2), arg.u32(n)]);
      const k2 = graph.addKernel(scale, shape, [arg.ptr(z), arg.f32(3), arg.u32(n)], { after: [k] });
      const kernelParams = k.params();
      k.setParams({ type: 'kernel', kernel: scale, ...shape, args: [arg.ptr(y), arg.f32(4), arg.u32(n)] });
      k.setKernelAttribute('priority', 0);
      const priority = k.kernelAttribute('priority');
      k.setKernelAttribute('preferredSharedMemoryCarveout', 50);
      k2.copyKernelAttributesFrom(k);
      const carveout = k2.kernelAttribute('preferredSharedMemoryCarveout');
      let hostCalls = 0;
      const host = graph.addHost(() => hostCalls++, { after: [k2] });
      const copy = graph.addCopy(z, y, { bytes: 16 }, { after: [host] });
      const fill = graph.addFill(w, 0, { offset: 32, count: 4 }, { after: [copy] });
      const empty = graph.addEmpty({ after: [fill] });
      const record = graph.addEventRecord(event, { after: [empty] });
      const wait = graph.addEventWait(event, { after: [record] });
      const ops = graph.addMemoryOps([{ op: 'writeValue32', target: pinned, value: 1 }], { after: [wait] });
      const childNode = graph.addChild(child, { after: [ops] });
      const { node: allocNode, allocation } = graph.addAlloc(4096, {}, { after: [childNode] });
      const freeNode = graph.addFree(allocation, { after: [allocNode] });
      fill.setParams({ type: 'memset', target: w, value: 7, offset: 32, count: 4 });
      record.setParams({ type: 'eventRecord', event });
      wait.setParams({ type: 'eventWait', event });
      const read = { kernel: kernelParams, fill: fill.params().value, free: freeNode.params().address === allocation.address,
        types: [k, host, copy, fill, empty, record, wait, ops, childNode, allocNode, freeNode].map((node) => node.type) };
      const exec = graph.instantiate();
      exec.setParams(k, { type: 'kernel', kernel: scale, ...shape, args: [arg.ptr(y), arg.f32(4), arg.u32(n)] });
      exec.setParams(fill, { type: 'memset', target: w, value: 9, offset: 32, count: 4 });
      exec.setParams(host, { type: 'host', callback: () => (hostCalls += 100) });
      exec.setParams(copy, { type: 'memcpy', dst: z, src: y, bytes: 32 });
      exec.setParams(record, { type: 'eventRecord', event: other });
      exec.setParams(wait, { type: 'eventWait', event: other });
      exec.setParams(ops, { type: 'batchMemOp', ops: [{ op: 'writeValue32', target: pinned, value: 2 }] });
      const replacementChild = Graph.create();
      replacementChild.addFill(z, 0, { elementBytes: 4, offset: 4, count: 1 });
      exec.setChildGraph(childNode, replacementChild);
      exec.run(stream).then(() => new Promise((resolve) => setTimeout(resolve, 20))).then(() => {
        const called = callCounters.read().map((c) => c.name);
        const zs = z.readSync(Float32Array);
        report({ read, priority, carveout, hostCalls, word: pinned.view(Uint32Array)[0], filled: w.readSync(Uint8Array)[32],
          z: Array.from(zs.slice(0, 3)), z8: zs[8], called });
      });
    `, { CUDA_DRIVER_GRAPH_PER_TYPE_CALLS: '1' });
    expect(result.stderr).toBe('');
    const r = result.report;
    expect(r.read.kernel).toMatchObject({ type: 'kernel', grid: [shape.grid, 1, 1], block: [256, 1, 1], sharedMemoryBytes: 0 });
    expect(r.read.types).toEqual(['kernel', 'host', 'memcpy', 'memset', 'empty', 'eventRecord', 'eventWait', 'batchMemOp', 'graph', 'memAlloc', 'memFree']);
    expect(r.read).toMatchObject({ fill: 7, free: true });
    expect(r).toMatchObject({ priority: 0, carveout: 50, hostCalls: 100, word: 2, filled: 9 });
    // y = 4 (scaled by the updated kernel); z: copied 8 floats of y, then the replacement child cleared z[1].
    expect(r.z).toEqual([4, 0, 4]);
    expect(r.z8).toBe(3);
    expect(r.called).toEqual(expect.arrayContaining([
      'cuGraphAddKernelNode', 'cuGraphAddHostNode', 'cuGraphAddMemcpyNode', 'cuGraphAddMemsetNode', 'cuGraphAddEmptyNode',
      'cuGraphAddEventRecordNode', 'cuGraphAddEventWaitNode', 'cuGraphAddBatchMemOpNode', 'cuGraphAddChildGraphNode',
      'cuGraphAddMemAllocNode', 'cuGraphAddMemFreeNode', 'cuGraphKernelNodeSetParams', 'cuGraphMemsetNodeSetParams',
      'cuGraphEventRecordNodeSetEvent', 'cuGraphEventWaitNodeSetEvent', 'cuGraphExecKernelNodeSetParams',
      'cuGraphExecMemsetNodeSetParams', 'cuGraphExecHostNodeSetParams',
      'cuGraphExecMemcpyNodeSetParams', 'cuGraphExecEventRecordNodeSetEvent', 'cuGraphExecEventWaitNodeSetEvent',
      'cuGraphExecBatchMemOpNodeSetParams']));
    expect(r.called).not.toContain('cuGraphAddNode');
    expect(r.called).not.toContain('cuGraphNodeSetParams');
    expect(r.called).not.toContain('cuGraphExecNodeSetParams');
  });

  test('a host node\'s call still runs when its graph and executable are disposed right after the work completes', async () => {
    // A node that does not wait posts the call to the JavaScript thread from
    // CUDA's; a synchronize then disposal released the graph's resources (the
    // callback with them) before the posted call ran.
    const calls: number[] = [];
    for (let round = 0; round < 20; round++) {
      const graph = Graph.create();
      graph.addHost(() => calls.push(round), { wait: false });
      const exec = graph.instantiate();
      exec.launch(stream);
      stream.synchronizeSync();
      exec.dispose();
      graph.dispose();
      collectGarbage();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  test('external-semaphore nodes and batch decompression answer as the driver does', () => {
    using graph = Graph.create();
    const answers: string[] = [];
    for (const kind of ['signal', 'wait'] as const) {
      try {
        const node = graph.addExternalSemaphoreNode(kind);
        answers.push(`${kind} added with ${node.externalSemaphoreCount(kind)} semaphores`);
        node.clearExternalSemaphores(kind);
        using exec = graph.instantiate();
        exec.clearExternalSemaphores(node, kind);
      } catch (error) {
        expect(error).toBeInstanceOf(CudaError);
        answers.push(`${kind}: ${(error as CudaError).name}`);
      }
    }
    expect(answers).toHaveLength(2);
    // Each kind is either accepted with no semaphores or refused by the driver, by name.
    expect(answers[0]).toMatch(/^signal( added with 0 semaphores|: CUDA_ERROR_\w+)$/);
    expect(answers[1]).toMatch(/^wait( added with 0 semaphores|: CUDA_ERROR_\w+)$/);
    // A node named twice among the dependencies is refused before the driver
    // (whose external-semaphore calls fault on it); once is accepted as before.
    const before = graph.addEmpty();
    for (const kind of ['signal', 'wait'] as const) {
      expect(() => graph.addExternalSemaphoreNode(kind, { after: [before, before] }))
        .toThrow(new RangeError('dependencies must not name a node twice'));
    }
    const nodes = graph.nodeCount;
    try {
      graph.addExternalSemaphoreNode('wait', { after: [before] });
      expect(graph.nodeCount).toBe(nodes + 1);
    } catch (error) {
      expect(error).toBeInstanceOf(CudaError);
    }
    // A non-external-semaphore node is refused by the per-type getter.
    const empty = graph.addEmpty();
    expect(() => empty.externalSemaphoreCount('signal')).toThrow(CudaError);
    using src = DeviceBuffer.alloc(64);
    using dst = DeviceBuffer.alloc(64);
    using actual = DeviceBuffer.alloc(4);
    let decompress: string;
    try {
      decompressBatch([{ src, srcBytes: 64, dst, dstBytes: 64, actualBytes: actual, algorithm: 'deflate' }], stream);
      stream.synchronizeSync();
      decompress = 'accepted';
    } catch (error) {
      expect(error).toBeInstanceOf(CudaError);
      decompress = (error as CudaError).code;
    }
    // Hopper has no decompression engine.
    if (Device.get(0).computeCapability.major < 10) expect(['CUDA_ERROR_NOT_SUPPORTED', 'CUDA_ERROR_INVALID_VALUE']).toContain(decompress);
    // Compute capability 10 and later may accept it or refuse it (the source is 64 uninitialized bytes): either way, by name.
    else expect(decompress).toMatch(/^(accepted|CUDA_ERROR_\w+)$/);
  });

  test('a while loop runs on the GPU until a kernel clears its condition', async () => {
    const countdown = lib.kernel('countdown');
    using counter = DeviceBuffer.from(new Uint32Array([5]));
    using iterations = DeviceBuffer.from(new Uint32Array([0]));
    using graph = Graph.create();
    const handle = graph.conditionalHandle({ defaultValue: 1 });
    const { body } = graph.addWhile(handle);
    body.addKernel(countdown, { grid: 1, block: 32 }, [arg.ptr(counter), arg.ptr(iterations), arg.u64(handle.value)]);
    using exec = graph.instantiate();
    await exec.run(stream);
    expect(iterations.readSync(Uint32Array)[0]).toBe(5);
    expect(counter.readSync(Uint32Array)[0]).toBe(0);
  });

  test('if/else and switch nodes pick their body from a kernel-set value', async () => {
    const choose = lib.kernel('choose');
    using out = DeviceBuffer.from(new Uint32Array(4));
    for (const value of [0, 1, 2, 7]) {
      using graph = Graph.create();
      const ifHandle = graph.conditionalHandle();
      const switchHandle = graph.conditionalHandle();
      const setIf = graph.addKernel(choose, { grid: 1, block: 1 }, [arg.u64(ifHandle.value), arg.u32(value)]);
      const setSwitch = graph.addKernel(choose, { grid: 1, block: 1 }, [arg.u64(switchHandle.value), arg.u32(value)], { after: [setIf] });
      const branch = graph.addIf(ifHandle, { after: [setSwitch], withElse: true });
      branch.then.addFill(out, 1, { elementBytes: 4, count: 1 });
      branch.else!.addFill(out, 2, { elementBytes: 4, count: 1 });
      const cases = graph.addSwitch(switchHandle, 3, { after: [branch.node] });
      cases.cases.forEach((body, i) => body.addFill(out, 10 + i, { elementBytes: 4, offset: 4, count: 1 }));
      out.fill(0);
      using exec = graph.instantiate();
      await exec.run(stream);
      const [ifResult, switchResult] = out.readSync(Uint32Array);
      expect(ifResult).toBe(value ? 1 : 2);
      expect(switchResult).toBe(value < 3 ? 10 + value : 0);
    }
  });

  test('memory nodes: allocate, use, free; auto-free on launch; graph memory accounting', async () => {
    const scale = lib.kernel('scale');
    using result = DeviceBuffer.alloc(n * 4);
    using source = DeviceBuffer.from(floats((i) => i));
    using graph = Graph.create();
    const { node: alloc, allocation } = graph.addAlloc(n * 4);
    expect(allocation.size).toBe(n * 4);
    const copyIn = graph.addCopy(allocation, source, {}, { after: [alloc] });
    const k = graph.addKernel(scale, shape, [arg.ptr(allocation), arg.f32(4), arg.u32(n)], { after: [copyIn] });
    const copyOut = graph.addCopy(result, allocation, {}, { after: [k] });
    graph.addFree(allocation, { after: [copyOut] });
    expect(alloc.params()).toMatchObject({ type: 'memAlloc', bytes: n * 4, address: allocation.address });
    using exec = graph.instantiate();
    await exec.run(stream);
    expect(result.readSync(Float32Array)[3]).toBe(12);
    const usage = graphMemory();
    expect(usage.reservedMemCurrent).toBeGreaterThanOrEqual(n * 4);
    resetGraphMemoryHigh('usedMemHigh');
    trimGraphMemory();

    // Without a free node: auto-free on launch frees it before the next launch.
    using leaky = Graph.create();
    const { allocation: kept } = leaky.addAlloc(1 << 20);
    leaky.addFill(kept, 3);
    using autoFree = leaky.instantiate({ autoFreeOnLaunch: true });
    expect(autoFree.flags.autoFreeOnLaunch).toBe(true);
    await autoFree.run(stream);
    await autoFree.run(stream);
    // A child graph with memory nodes can only be moved into its parent.
    const movable = Graph.create();
    const { allocation: inner } = movable.addAlloc(4096);
    movable.addFree(inner, { after: movable.nodes() });
    using parent = Graph.create();
    expect(() => parent.addChild(leaky)).toThrow();
    parent.addChild(movable, { move: true });
    expect(parent.nodeCount).toBe(1);
    expect(() => movable.instantiate()).toThrow();
    using parentExec = parent.instantiate();
    await parentExec.run(stream);
  });

  test('user objects: destructor runs once the graph, its executables and launches are done', async () => {
    let destroyed = 0;
    const object = UserObject.create(() => destroyed++);
    expect(object.references).toBe(1);
    object.retain(2);
    expect(object.references).toBe(3);
    object.release(2);
    expect(() => object.release(5)).toThrow(RangeError);
    const graph = Graph.create();
    graph.addEmpty();
    graph.retainUserObject(object, { count: 2 });
    graph.releaseUserObject(object, 1);
    expect(() => graph.releaseUserObject(object, 5)).toThrow(RangeError);
    graph.retainUserObject(object, { move: true });
    expect(object.references).toBe(0);
    const exec = graph.instantiate();
    graph.dispose();
    await exec.run(stream);
    expect(destroyed).toBe(0);
    exec.dispose();
    object.dispose();
    await stream.synchronize();
    for (let i = 0; i < 50 && destroyed === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(destroyed).toBe(1);
  });

  test('a graph keeps running correctly after every reference to its buffers is dropped and GC ran', async () => {
    const axpy = lib.kernel('axpy');
    const result = new Float32Array(n);
    using pinnedOut = HostBuffer.alloc(n * 4);
    let exec: GraphExec;
    {
      const x = DeviceBuffer.from(floats((i) => i));
      const y = DeviceBuffer.from(floats(() => 1));
      const graph = Graph.create();
      const k = graph.addKernel(axpy, shape, [arg.ptr(y), arg.ptr(x), arg.f32(1), arg.u32(n)]);
      graph.addCopy(pinnedOut, y, {}, { after: [k] });
      exec = graph.instantiate();
      // Drop every JavaScript handle the graph uses: buffers and the graph itself.
      x.dispose();
      y.dispose();
      graph.dispose();
    }
    for (let i = 0; i < 5; i++) {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Allocations made now would reuse freed memory if the graph's buffers had gone.
      using noise = DeviceBuffer.from(floats(() => -1));
      void noise;
    }
    for (let launch = 1; launch <= 3; launch++) {
      await exec.run(stream);
      result.set(pinnedOut.view(Float32Array));
      expect(result[7]).toBe(1 + launch * 7);
    }
    exec.dispose();
  });
});
