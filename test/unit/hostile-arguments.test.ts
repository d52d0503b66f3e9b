// Arguments whose getters dispose, destroy or detach what the same call names,
// passed to the addon's entries directly (the TypeScript layer reads user
// objects itself before it calls them). An entry reads every argument before it
// looks up a handle or takes a pointer, so the call ends in a clear error; before
// that rule held, each of these read freed memory or wrote into it, and five of
// them crashed the process. Each runs in a child process, over the stand-in
// driver, so that a crash fails its test.
import * as path from 'path';
import { distPath, fakeDriver, runScript } from '../helpers/subprocess';

const distNative = path.join(distPath, 'native.js');

function run(body: string): unknown {
  const r = runScript(`
    const { native } = require(${JSON.stringify(distNative)});
    const attempt = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
    // An array whose element i is read through a getter.
    const withGetter = (list, i, get) => Object.defineProperty(list, i, { get, enumerable: true });
    report((() => { ${body} })());`, { CUDA_DRIVER_LIBRARY: fakeDriver() }, ['--expose-gc']);
  if (r.status !== 0 || r.signal) throw new Error(`the child ended with ${r.signal ?? r.status}:\n${r.stderr}`);
  return r.report;
}

const M = 2 << 20;

describe('a getter that frees what the call already named', () => {
  test.each([
    ['memcpy2D: the src getter detaches dst, a 1 MiB JavaScript buffer, and collects its memory', `
      const dst = new Uint8Array(1 << 20);
      const src = cuda.DeviceBuffer.alloc(1 << 20);
      const params = { dst, dstOffset: 0, dstPitch: 1 << 20, srcOffset: 0, srcPitch: 1 << 20, width: 1 << 20, height: 1,
        get src() { structuredClone(dst.buffer, { transfer: [dst.buffer] }); global.gc(); return src.slot; } };
      return attempt(() => native.memcpy2D(params, undefined, false));`,
    'RangeError: dst: range [0, 0+1048576) exceeds its 0 bytes'],
    ['memcpy3D: the same', `
      const dst = new Uint8Array(1 << 20);
      const src = cuda.DeviceBuffer.alloc(1 << 20);
      const params = { dst, dstOffset: 0, dstPitch: 1 << 20, dstHeight: 1, srcOffset: 0, srcPitch: 1 << 20, srcHeight: 1,
        width: 1 << 20, height: 1, depth: 1,
        get src() { structuredClone(dst.buffer, { transfer: [dst.buffer] }); global.gc(); return src.slot; } };
      return attempt(() => native.memcpy3D(params, undefined));`,
    'RangeError: dst: range [0, 0+1048576) exceeds its 0 bytes'],
    ['memcpyBatch: a copy\'s byte count getter disposes the stream', `
      const stream = cuda.Stream.create();
      const a = cuda.DeviceBuffer.alloc(64), b = cuda.DeviceBuffer.alloc(64);
      const copy = withGetter([a.slot, 0, b.slot, 0], 4, () => { stream.dispose(); return 64; });
      return attempt(() => native.memcpyBatch([copy], stream.slot));`,
    'DisposedError: Stream has been disposed'],
    ['memcpy3DBatch: a copy\'s depth getter disposes the stream', `
      const stream = cuda.Stream.create();
      const a = cuda.DeviceBuffer.alloc(64), b = cuda.DeviceBuffer.alloc(64);
      const copy = { dst: a.slot, dstOffset: 0, dstPitch: 64, dstHeight: 1, src: b.slot, srcOffset: 0, srcPitch: 64, srcHeight: 1,
        width: 64, height: 1, get depth() { stream.dispose(); return 1; } };
      return attempt(() => native.memcpy3DBatch([copy], stream.slot));`,
    'DisposedError: Stream has been disposed'],
    ['addNode: the type getter destroys the dependency', `
      const graph = cuda.Graph.create();
      const dep = graph.addEmpty();
      return attempt(() => native.addNode(graph.slot, [dep.slot], undefined, { get type() { native.graphNodeDestroy(dep.slot); return 5; } }));`,
    'TypeError: dependency was destroyed (GraphNode.destroy)'],
    ['addNode: the type getter disposes the graph', `
      const graph = cuda.Graph.create();
      return attempt(() => native.addNode(graph.slot, undefined, undefined, { get type() { graph.dispose(); return 5; } }));`,
    'DisposedError: Graph has been disposed'],
    ['addNode: a child graph node\'s move getter disposes the child', `
      const graph = cuda.Graph.create();
      const child = cuda.Graph.create();
      child.addEmpty();
      return attempt(() => native.addNode(graph.slot, undefined, undefined,
        { type: 4, graph: child.slot, get move() { child.dispose(); return false; } }));`,
    'DisposedError: Graph has been disposed'],
    ['setNodeParams: the bytes getter disposes the node', `
      const graph = cuda.Graph.create();
      const a = cuda.DeviceBuffer.alloc(64), b = cuda.DeviceBuffer.alloc(64);
      const node = graph.addCopy(a, b);
      return attempt(() => native.setNodeParams(node.slot, { type: 1, dst: a.slot, dstOffset: 0, src: b.slot, srcOffset: 0,
        get bytes() { native.disposeHandle(node.slot); return 64; } }));`,
    'DisposedError: GraphNode has been disposed'],
    ['GraphExec#setNodeParams: the bytes getter disposes the executable', `
      const graph = cuda.Graph.create();
      const a = cuda.DeviceBuffer.alloc(64), b = cuda.DeviceBuffer.alloc(64);
      const node = graph.addCopy(a, b);
      const exec = graph.instantiate();
      return attempt(() => native.graphExecSetNodeParams(exec.slot, node.slot, { type: 1, dst: a.slot, dstOffset: 0, src: b.slot, srcOffset: 0,
        get bytes() { exec.dispose(); global.gc(); return 64; } }));`,
    'DisposedError: GraphExec has been disposed'],
    ['Graph#addEdges: an element getter disposes the graph', `
      const graph = cuda.Graph.create();
      const x = graph.addEmpty(), y = graph.addEmpty();
      const from = withGetter([], 0, () => { graph.dispose(); global.gc(); return x.slot; });
      return attempt(() => native.graphAddEdges(graph.slot, from, [y.slot]));`,
    'DisposedError: Graph has been disposed'],
    ['Stream#batchMemoryOps: an operation\'s flags getter disposes the stream', `
      const stream = cuda.Stream.create();
      const word = cuda.DeviceBuffer.alloc(8);
      const op = withGetter([3, word.slot, 0, 1], 4, () => { stream.dispose(); return 0; });
      return attempt(() => native.streamBatchMemoryOps(stream.slot, [op], 0));`,
    'DisposedError: Stream has been disposed'],
    ['beginCapture into a graph: a dependency getter disposes the stream', `
      const stream = cuda.Stream.create();
      const graph = cuda.Graph.create();
      const dep = graph.addEmpty();
      const after = withGetter([], 0, () => { stream.dispose(); return dep.slot; });
      return attempt(() => native.beginCapture(stream.slot, 0, graph.slot, after, undefined));`,
    'DisposedError: Stream has been disposed'],
    ['mapMemory: a segment\'s size getter disposes the reservation', `
      const reservation = cuda.AddressReservation.reserve(${M});
      const allocation = cuda.PhysicalAllocation.create(${M});
      const segment = withGetter([allocation.slot, 0], 2, () => { reservation.dispose(); return ${M}; });
      return attempt(() => native.mapMemory(reservation.slot, 0, [segment], [[1, 0, 3]]));`,
    'DisposedError: AddressReservation has been disposed'],
    ['GrowableBuffer\'s extend: a segment\'s size getter disposes the buffer', `
      const growable = cuda.GrowableBuffer.create({ maxSize: ${4 * M}, size: ${M} });
      const allocation = cuda.PhysicalAllocation.create(${M});
      const segment = withGetter([allocation.slot, 0], 2, () => { growable.dispose(); global.gc(); return ${M}; });
      return attempt(() => native.virtualMemoryExtend(growable.slot, [segment], [[1, 0, 3]]));`,
    'DisposedError: VirtualMemory has been disposed'],
    ['MemoryPool#setAccess: an entry\'s flags getter disposes the pool', `
      const pool = cuda.MemoryPool.create();
      const entry = withGetter([1, 0], 2, () => { pool.dispose(); global.gc(); return 3; });
      return attempt(() => native.poolSetAccess(pool.slot, [entry]));`,
    'DisposedError: MemoryPool has been disposed'],
    ['loadModuleData: a JIT option getter disposes the context', `
      const context = cuda.Device.get(0).createContext();
      const slot = context.slot;
      return attempt(() => native.loadModuleData(slot, new TextEncoder().encode('FAKE\\nkernel k 8'),
        { get maxRegisters() { context.dispose(); return 32; } }));`,
    'DisposedError: Context has been disposed'],
  ])('%s', (_name, body, expected) => {
    const result = run(body);
    // A handle disposed in the task that made it frees its slot at once
    // (lib/disposable.ts): the number the call read before then names no
    // handle, and the call refuses it as one of no handle of that class.
    const disposed = /^DisposedError: (\w+) has been disposed$/.exec(expected)?.[1];
    if (disposed && typeof result === 'string' && result.startsWith('TypeError')) {
      expect(result).toMatch(new RegExp(`^TypeError: \\w+ must be an? ${disposed}$`));
    } else {
      expect(result).toBe(expected);
    }
  });
});

describe('a setter JavaScript put on a prototype, run while a result is built', () => {
  // Setting a property of a new object or array runs a setter of that name on
  // Object.prototype or Array.prototype: calls hold what they still use while
  // they build their result. Before, each of these crashed.
  const onPrototype = (proto: string, key: string, action: string, call: string) => `
    let disposed = false;
    Object.defineProperty(${proto}.prototype, ${key}, { configurable: true, set(v) {
      Object.defineProperty(this, ${key}, { value: v, writable: true, enumerable: true, configurable: true });
      if (!disposed) { disposed = true; ${action}; global.gc(); }
    } });
    let result;
    try { result = ${call}; } catch (e) { result = e.constructor.name + ': ' + e.message; } finally { delete ${proto}.prototype[${key}]; }
    return result;`;

  test('Graph#nodes: an element setter disposes the graph', () => {
    expect(run(`
      const graph = cuda.Graph.create();
      graph.addEmpty(); graph.addEmpty(); graph.addEmpty();
      ${onPrototype('Array', '0', 'graph.dispose()', 'native.graphNodes(graph.slot).length')}`)).toBe(3);
  });

  test('nodeParams: a property setter disposes the node (the stand-in then lacks the query that reads it)', () => {
    expect(run(`
      const graph = cuda.Graph.create();
      const a = cuda.DeviceBuffer.alloc(64), b = cuda.DeviceBuffer.alloc(64);
      const node = graph.addCopy(a, b);
      ${onPrototype('Object', "'type'", 'native.disposeHandle(node.slot)', 'native.graphNodeParams(node.slot)')}`))
      .toMatch(/^FunctionUnavailableError: cuGraphMemcpyNodeGetParams is not provided/);
  });
});

describe('other hostile arguments', () => {
  test('a getter that calls into the same entry sees a consistent call, and so does the outer one', () => {
    expect(run(`
      const a = cuda.DeviceBuffer.alloc(16), b = cuda.DeviceBuffer.alloc(16);
      b.fill(7);
      const out = new Uint8Array(16);
      const params = { dst: out, dstOffset: 0, dstPitch: 16, src: a.slot, srcOffset: 0, srcPitch: 16, height: 1,
        get width() { native.memcpy2D({ dst: a.slot, dstOffset: 0, dstPitch: 16, src: b.slot, srcOffset: 0, srcPitch: 16,
          width: 16, height: 1 }, undefined, false); return 16; } };
      return [attempt(() => native.memcpy2D(params, undefined, false)), Array.from(out)];`))
      .toEqual(['no error', new Array(16).fill(7)]);
  });

  test('one dependency given as a number no slot can have (negative, NaN) is refused, not read as a list', () => {
    // The number was kept as the slot and -1 meant "a list": a negative number or NaN then read the
    // list's values, which were never set (the fuzzer crashed in addKernelNode).
    expect(run(`
      const graph = cuda.Graph.create();
      const stream = cuda.Stream.create();
      const seen = new Set();
      for (let i = 0; i < 200; i++) {
        for (const dep of [-1, -(2 ** 53), -0.5, NaN, -Infinity]) {
          seen.add(attempt(() => native.addKernelNode(graph.slot, dep, undefined, 1, new ArrayBuffer(256))));
          seen.add(attempt(() => native.addNode(graph.slot, dep, undefined, { type: 5 })));
          seen.add(attempt(() => native.beginCapture(stream.slot, 0, graph.slot, dep, undefined)));
        }
      }
      return [...seen];`)).toEqual(['TypeError: dependency must be a GraphNode']);
  });

  test('Proxies posing as handles and buffers are refused; a throwing toPrimitive is never called', () => {
    expect(run(`
      const a = cuda.DeviceBuffer.alloc(16);
      const posing = new Proxy(a, {});
      const bytes = new Proxy(new Uint8Array(16), {});
      const noCoercion = { [Symbol.toPrimitive]() { throw new Error('coerced'); } };
      return {
        handle: attempt(() => native.memcpy(posing, 0, a.slot, 0, undefined, undefined)),
        bytes: attempt(() => native.memcpy(a.slot, 0, bytes, 0, undefined, undefined)),
        size: attempt(() => native.memcpy(a.slot, noCoercion, new Uint8Array(16), 0, undefined, undefined)),
        publicSize: attempt(() => cuda.copy(a, new Uint8Array(16), { bytes: noCoercion })),
      };`)).toEqual({
      handle: expect.stringMatching(/^TypeError: dst must be a memory handle/),
      bytes: expect.stringMatching(/^TypeError: src must be a memory handle/),
      size: 'TypeError: dstOffset must be an integer',
      publicSize: 'TypeError: options.bytes must be an integer, got Object',
    });
  });
});
