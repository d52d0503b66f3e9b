"use strict";
var __addDisposableResource = (this && this.__addDisposableResource) || function (env, value, async) {
    if (value !== null && value !== void 0) {
        if (typeof value !== "object" && typeof value !== "function") throw new TypeError("Object expected.");
        var dispose, inner;
        if (async) {
            if (!Symbol.asyncDispose) throw new TypeError("Symbol.asyncDispose is not defined.");
            dispose = value[Symbol.asyncDispose];
        }
        if (dispose === void 0) {
            if (!Symbol.dispose) throw new TypeError("Symbol.dispose is not defined.");
            dispose = value[Symbol.dispose];
            if (async) inner = dispose;
        }
        if (typeof dispose !== "function") throw new TypeError("Object not disposable.");
        if (inner) dispose = function() { try { inner.call(this); } catch (e) { return Promise.reject(e); } };
        env.stack.push({ value: value, dispose: dispose, async: async });
    }
    else if (async) {
        env.stack.push({ async: true });
    }
    return value;
};
var __disposeResources = (this && this.__disposeResources) || (function (SuppressedError) {
    return function (env) {
        function fail(e) {
            env.error = env.hasError ? new SuppressedError(e, env.error, "An error was suppressed during disposal.") : e;
            env.hasError = true;
        }
        var r, s = 0;
        function next() {
            while (r = env.stack.pop()) {
                try {
                    if (!r.async && s === 1) return s = 0, env.stack.push(r), Promise.resolve().then(next);
                    if (r.dispose) {
                        var result = r.dispose.call(r.value);
                        if (r.async) return s |= 2, Promise.resolve(result).then(next, function(e) { fail(e); return next(); });
                    }
                    else s |= 1;
                }
                catch (e) {
                    fail(e);
                }
            }
            if (s === 1) return env.hasError ? Promise.reject(env.error) : Promise.resolve();
            if (env.hasError) throw env.error;
        }
        return next();
    };
})(typeof SuppressedError === "function" ? SuppressedError : function (error, suppressed, message) {
    var e = new Error(message);
    return e.name = "SuppressedError", e.error = error, e.suppressed = suppressed, e;
});
Object.defineProperty(exports, "__esModule", { value: true });
// Graphs against the real driver: every node kind, capture, analysis, update,
// conditional nodes, memory nodes, user objects, and lifetimes under GC.
const lib_1 = require("../../lib");
const gc_1 = require("../helpers/gc");
const toolkit_1 = require("../helpers/toolkit");
const tiers_1 = require("../helpers/tiers");
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
const floats = (f) => Float32Array.from({ length: n }, (_, i) => f(i));
(0, tiers_1.describeGpu)('graphs', () => {
    let lib;
    let stream;
    beforeAll(() => {
        lib = lib_1.Library.load((0, lib_1.compile)(source, { name: 'graph-kernels.cu', includePaths: (0, toolkit_1.toolkitIncludes)() }));
        stream = lib_1.Stream.create();
    });
    afterAll(() => {
        stream.dispose();
        lib.dispose();
    });
    // x = i; a = x*2 (+=), b = x*3 (+=), out = a + b  → out = 5i (a, b start at 0)
    function diamondBuffers() {
        return { x: lib_1.DeviceBuffer.from(floats((i) => i)), a: lib_1.DeviceBuffer.from(new Float32Array(n)), b: lib_1.DeviceBuffer.from(new Float32Array(n)), out: lib_1.DeviceBuffer.alloc(n * 4) };
    }
    test('a diamond built explicitly and by capture gives the same results', async () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const axpy = lib.kernel('axpy');
            const add = lib.kernel('add');
            const built = diamondBuffers();
            const graph = __addDisposableResource(env_1, lib_1.Graph.create(), false);
            const top = graph.addFill(built.a, 0, { elementBytes: 4, count: n }, { label: 'clear a' });
            const left = graph.addKernel(axpy, shape, [lib_1.arg.ptr(built.a), lib_1.arg.ptr(built.x), lib_1.arg.f32(2), lib_1.arg.u32(n)], { after: [top], label: 'a += 2x' });
            const right = graph.addKernel(axpy, shape, [lib_1.arg.ptr(built.b), lib_1.arg.ptr(built.x), lib_1.arg.f32(3), lib_1.arg.u32(n)], { after: [top], label: 'b += 3x' });
            graph.addKernel(add, shape, [lib_1.arg.ptr(built.out), lib_1.arg.ptr(built.a), lib_1.arg.ptr(built.b), lib_1.arg.u32(n)], { after: [left, right], label: 'out = a + b' });
            expect(graph.nodeCount).toBe(4);
            expect(graph.rootNodes()).toEqual([top]);
            expect(graph.edges()).toHaveLength(4);
            expect(left.dependencies().map((d) => d.node)).toEqual([top]);
            expect(top.dependents().map((d) => d.node).sort((p, q) => Number(p.handle - q.handle))).toEqual([left, right].sort((p, q) => Number(p.handle - q.handle)));
            expect(left.type).toBe('kernel');
            expect(graph.levels().map((l) => l.length)).toEqual([1, 2, 1]);
            expect(graph.criticalPath().length).toBe(3);
            const exec = __addDisposableResource(env_1, graph.instantiate(), false);
            await exec.run(stream);
            expect(built.out.readSync(Float32Array)[10]).toBe(50);
            const captured = diamondBuffers();
            const side = __addDisposableResource(env_1, lib_1.Stream.create(), false);
            const forked = __addDisposableResource(env_1, lib_1.Event.create(), false);
            const joined = __addDisposableResource(env_1, lib_1.Event.create(), false);
            const capturedGraph = __addDisposableResource(env_1, stream.capture((s) => {
                captured.a.fill(0, { elementBytes: 4, stream: s });
                forked.record(s);
                side.waitEvent(forked);
                axpy.launch({ ...shape, stream: s }, [lib_1.arg.ptr(captured.a), lib_1.arg.ptr(captured.x), lib_1.arg.f32(2), lib_1.arg.u32(n)]);
                axpy.launch({ ...shape, stream: side }, [lib_1.arg.ptr(captured.b), lib_1.arg.ptr(captured.x), lib_1.arg.f32(3), lib_1.arg.u32(n)]);
                joined.record(side);
                s.waitEvent(joined);
                add.launch({ ...shape, stream: s }, [lib_1.arg.ptr(captured.out), lib_1.arg.ptr(captured.a), lib_1.arg.ptr(captured.b), lib_1.arg.u32(n)]);
            }), false);
            expect(capturedGraph.nodeCount).toBe(4);
            expect(capturedGraph.levels().map((l) => l.length)).toEqual([1, 2, 1]);
            expect(capturedGraph.resourceCount).toBeGreaterThanOrEqual(5);
            const capturedExec = __addDisposableResource(env_1, capturedGraph.instantiate(), false);
            await capturedExec.run(stream);
            expect(Array.from(captured.out.readSync(Float32Array))).toEqual(Array.from(built.out.readSync(Float32Array)));
            for (const b of [built, captured])
                for (const buffer of Object.values(b))
                    buffer.dispose();
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('a data-flow graph infers the edges a hand-written one has, and prunes the redundant ones', () => {
        const env_2 = { stack: [], error: void 0, hasError: false };
        try {
            const axpy = lib.kernel('axpy');
            const add = lib.kernel('add');
            const { x, a, b, out } = diamondBuffers();
            const graph = __addDisposableResource(env_2, lib_1.Graph.create({ dataflow: true }), false);
            const clear = graph.addFill(a, 0, { elementBytes: 4 }, { label: 'clear a' });
            const left = graph.addKernel(axpy, shape, [lib_1.arg.ptr(a), lib_1.arg.ptr(x), lib_1.arg.f32(2), lib_1.arg.u32(n)], { reads: [x, a], writes: [a], label: 'a += 2x' });
            const right = graph.addKernel(axpy, shape, [lib_1.arg.ptr(b), lib_1.arg.ptr(x), lib_1.arg.f32(3), lib_1.arg.u32(n)], { reads: [x, b], writes: [b], label: 'b += 3x' });
            const sum = graph.addKernel(add, shape, [lib_1.arg.ptr(out), lib_1.arg.ptr(a), lib_1.arg.ptr(b), lib_1.arg.u32(n)], { reads: [a, b], writes: [out], label: 'out = a + b' });
            // A later reader of out and a disjoint write into a's upper half.
            const copyOut = graph.addCopy(b, out, { bytes: 1024 });
            const half = graph.addFill(a, 1, { elementBytes: 4, offset: n * 2, count: n / 2 }, { reads: [], writes: [new lib_1.ResourceRange(a, n * 2, n * 2)] });
            const edges = graph.edges().map((e) => [e.from, e.to]);
            const expected = [[clear, left], [left, sum], [right, sum], [sum, copyOut], [sum, half]];
            expect(edges.length).toBe(expected.length);
            for (const [from, to] of expected)
                expect(edges).toContainEqual([from, to]);
            // No edge clear → sum: it is implied through left.
            expect(edges).not.toContainEqual([clear, sum]);
            const dot = graph.toDot({ levels: true });
            expect(dot).toMatch(/label="RAW DeviceBuffer#\d+/);
            expect(dot).toContain('a += 2x');
            for (const buffer of [x, a, b, out])
                buffer.dispose();
        }
        catch (e_2) {
            env_2.error = e_2;
            env_2.hasError = true;
        }
        finally {
            __disposeResources(env_2);
        }
    });
    test('every node kind through cuGraphAddNode and the per-type calls; parameters read back and set', async () => {
        const env_3 = { stack: [], error: void 0, hasError: false };
        try {
            const graph = __addDisposableResource(env_3, lib_1.Graph.create(), false);
            const src = __addDisposableResource(env_3, lib_1.DeviceBuffer.from(floats((i) => i)), false);
            const dst = __addDisposableResource(env_3, lib_1.DeviceBuffer.alloc(n * 4), false);
            const pinned = __addDisposableResource(env_3, lib_1.HostBuffer.alloc(64, { mapped: true }), false);
            const event = __addDisposableResource(env_3, lib_1.Event.create(), false);
            const child = __addDisposableResource(env_3, lib_1.Graph.create(), false);
            child.addFill(dst, 7, { count: 16 });
            let hostCalls = 0;
            for (const perTypeCall of [false, true]) {
                const env_4 = { stack: [], error: void 0, hasError: false };
                try {
                    const copy = graph.addCopy(dst, src, { bytes: 1024 }, { perTypeCall });
                    const fill = graph.addFill(dst, 0x11, { offset: 2048, count: 64 }, { after: [copy], perTypeCall });
                    const host = graph.addHost(() => hostCalls++, { after: [fill], perTypeCall });
                    const empty = graph.addEmpty({ after: [host], perTypeCall });
                    const childNode = graph.addChild(child, { after: [empty], perTypeCall });
                    const record = graph.addEventRecord(event, { after: [childNode], perTypeCall });
                    const wait = graph.addEventWait(event, { after: [record], perTypeCall });
                    const ops = graph.addMemoryOps([{ op: 'writeValue32', target: pinned, value: 9 }], { after: [wait], perTypeCall });
                    expect([copy, fill, host, empty, childNode, record, wait, ops].map((node) => node.type)).toEqual(['memcpy', 'memset', 'host', 'empty', 'graph', 'eventRecord', 'eventWait', 'batchMemOp']);
                    expect(copy.params()).toMatchObject({ type: 'memcpy', copy: { bytes: 1024, dst: dst.address, src: src.address } });
                    expect(fill.params()).toMatchObject({ type: 'memset', value: 0x11, elementBytes: 1, width: 64, target: dst.address + 2048n });
                    expect(host.params()).toMatchObject({ hasCallback: true });
                    expect(childNode.params().graph.nodeCount).toBe(1);
                    expect(record.params().event).toBe(event.handle);
                    expect(wait.params().event).toBe(event.handle);
                    expect(ops.params()).toMatchObject({ type: 'batchMemOp', ops: [{ value: 9n }] });
                    fill.setParams({ type: 'memset', target: dst, value: 0x22, offset: 2048, count: 64 }, { perTypeCall });
                    expect(fill.params().value).toBe(0x22);
                    const other = __addDisposableResource(env_4, lib_1.Event.create(), false);
                    record.setParams({ type: 'eventRecord', event: other }, { perTypeCall });
                    expect(record.params().event).toBe(other.handle);
                    wait.setParams({ type: 'eventWait', event: other }, { perTypeCall });
                    host.setParams({ type: 'host', callback: () => (hostCalls += 10) }, { perTypeCall });
                    ops.setParams({ type: 'batchMemOp', ops: [{ op: 'writeValue32', target: pinned, value: 10 }] }, { perTypeCall });
                    copy.setParams({ type: 'memcpy', dst, src, bytes: 2048 }, { perTypeCall });
                }
                catch (e_3) {
                    env_4.error = e_3;
                    env_4.hasError = true;
                }
                finally {
                    __disposeResources(env_4);
                }
            }
            const exec = __addDisposableResource(env_3, graph.instantiate(), false);
            await exec.run(stream);
            await new Promise((resolve) => setTimeout(resolve, 50));
            expect(hostCalls).toBe(20);
            expect(pinned.view(Uint32Array)[0]).toBe(10);
            const out = dst.readSync(Uint8Array);
            expect(out[2048]).toBe(0x22);
            expect(new Float32Array(out.buffer, 0, 512)[100]).toBe(100);
        }
        catch (e_4) {
            env_3.error = e_4;
            env_3.hasError = true;
        }
        finally {
            __disposeResources(env_3);
        }
    });
    test('edges: add, remove, cycles refused before the driver; clone and find', () => {
        const env_5 = { stack: [], error: void 0, hasError: false };
        try {
            const graph = __addDisposableResource(env_5, lib_1.Graph.create(), false);
            const a = graph.addEmpty({ label: 'a' });
            const b = graph.addEmpty({ after: [a], label: 'b' });
            const c = graph.addEmpty({ label: 'c' });
            graph.addEdges([b], [c]);
            expect(graph.edges()).toHaveLength(2);
            expect(() => graph.addEdges([c], [a])).toThrow(lib_1.GraphCycleError);
            expect(() => graph.addEdges([c], [a])).toThrow('the graph has a cycle: a → b → c → a');
            graph.removeEdges([b], [c]);
            expect(graph.edges()).toHaveLength(1);
            graph.addEdges([a], [c], [{ type: 'default' }]);
            const { graph: copy, find } = graph.clone();
            const copied = __addDisposableResource(env_5, copy, false);
            expect(copied.nodeCount).toBe(3);
            expect(find(b)).toBeInstanceOf(lib_1.GraphNode);
            expect(find(b)).not.toBe(b);
            expect(find(b).dependencies().map((d) => d.node)).toEqual([find(a)]);
            c.destroy();
            expect(graph.nodeCount).toBe(2);
            expect(() => c.type).toThrow(/destroyed/);
            expect(graph.debugDot(1)).toMatch(/digraph/);
            expect(graph.toDot()).toMatch(/digraph/);
        }
        catch (e_5) {
            env_5.error = e_5;
            env_5.hasError = true;
        }
        finally {
            __disposeResources(env_5);
        }
    });
    test('update: parameter changes are taken; a topology change is refused with its reason', async () => {
        const env_6 = { stack: [], error: void 0, hasError: false };
        try {
            const scale = lib.kernel('scale');
            const y = __addDisposableResource(env_6, lib_1.DeviceBuffer.from(floats(() => 1)), false);
            const build = (factor, extra) => {
                const g = lib_1.Graph.create();
                const k = g.addKernel(scale, shape, [lib_1.arg.ptr(y), lib_1.arg.f32(factor), lib_1.arg.u32(n)]);
                if (extra)
                    g.addEmpty({ after: [k] });
                return g;
            };
            const first = __addDisposableResource(env_6, build(2, false), false);
            const exec = __addDisposableResource(env_6, first.instantiate(), false);
            await exec.run(stream);
            expect(y.readSync(Float32Array)[0]).toBe(2);
            const second = __addDisposableResource(env_6, build(3, false), false);
            exec.update(second);
            await exec.run(stream);
            expect(y.readSync(Float32Array)[0]).toBe(6);
            const third = __addDisposableResource(env_6, build(5, true), false);
            let refused;
            try {
                exec.update(third);
            }
            catch (e) {
                refused = e;
            }
            expect(refused).toBeInstanceOf(lib_1.GraphUpdateError);
            expect(refused.reason).toBe('topologyChanged');
            expect(refused.message).toMatch(/topologyChanged/);
            const replacement = exec.updateOrReinstantiate(third);
            expect(replacement).not.toBe(exec);
            expect(exec.disposed).toBe(true);
            await replacement.run(stream);
            expect(y.readSync(Float32Array)[0]).toBe(30);
            replacement.dispose();
        }
        catch (e_6) {
            env_6.error = e_6;
            env_6.hasError = true;
        }
        finally {
            __disposeResources(env_6);
        }
    });
    test('per-node updates on an executable; enable and disable; flags; upload', async () => {
        const env_7 = { stack: [], error: void 0, hasError: false };
        try {
            const scale = lib.kernel('scale');
            const y = __addDisposableResource(env_7, lib_1.DeviceBuffer.from(floats(() => 1)), false);
            const graph = __addDisposableResource(env_7, lib_1.Graph.create(), false);
            const k = graph.addKernel(scale, shape, [lib_1.arg.ptr(y), lib_1.arg.f32(2), lib_1.arg.u32(n)]);
            const f = graph.addFill(y, 0, { elementBytes: 4, count: 1 }, { after: [k] });
            const exec = __addDisposableResource(env_7, graph.instantiate({ upload: stream, useNodePriority: true }), false);
            // The driver reports the flags that shape the executable (upload is an action, not kept).
            expect(exec.flags).toMatchObject({ autoFreeOnLaunch: false, deviceLaunch: false });
            exec.setEnabled(f, false);
            expect(exec.isEnabled(f)).toBe(false);
            exec.upload(stream);
            await exec.run(stream);
            expect(y.readSync(Float32Array).slice(0, 2)).toEqual(new Float32Array([2, 2]));
            exec.setParams(k, { type: 'kernel', kernel: scale, ...shape, args: [lib_1.arg.ptr(y), lib_1.arg.f32(10), lib_1.arg.u32(n)] });
            await exec.run(stream);
            expect(y.readSync(Float32Array)[1]).toBe(20);
            exec.setParams(k, { type: 'kernel', kernel: scale, ...shape, args: [lib_1.arg.ptr(y), lib_1.arg.f32(0.5), lib_1.arg.u32(n)] }, { perTypeCall: true });
            exec.setEnabled(f, true);
            exec.setParams(f, { type: 'memset', target: y, value: 0, elementBytes: 4, count: 2 }, { perTypeCall: true });
            await exec.run(stream);
            expect(Array.from(y.readSync(Float32Array).slice(0, 3))).toEqual([0, 0, 10]);
            // A graph the driver cannot instantiate says why.
            const broken = __addDisposableResource(env_7, lib_1.Graph.create(), false);
            const handle = broken.conditionalHandle();
            void handle;
            expect(() => broken.instantiate()).toThrow(lib_1.GraphInstantiateError);
        }
        catch (e_7) {
            env_7.error = e_7;
            env_7.hasError = true;
        }
        finally {
            __disposeResources(env_7);
        }
    });
    test('kernel nodes through the per-type calls: parameters and launch attributes, read back and set; executable updates per type', async () => {
        const env_8 = { stack: [], error: void 0, hasError: false };
        try {
            const scale = lib.kernel('scale');
            const y = __addDisposableResource(env_8, lib_1.DeviceBuffer.from(floats(() => 1)), false);
            const z = __addDisposableResource(env_8, lib_1.DeviceBuffer.from(floats(() => 1)), false);
            const pinned = __addDisposableResource(env_8, lib_1.HostBuffer.alloc(64, { mapped: true }), false);
            const event = __addDisposableResource(env_8, lib_1.Event.create(), false);
            const other = __addDisposableResource(env_8, lib_1.Event.create(), false);
            const child = __addDisposableResource(env_8, lib_1.Graph.create(), false);
            child.addFill(z, 0, { elementBytes: 4, count: 1 });
            const graph = __addDisposableResource(env_8, lib_1.Graph.create(), false);
            const k = graph.addKernel(scale, shape, [lib_1.arg.ptr(y), lib_1.arg.f32(2), lib_1.arg.u32(n)], { perTypeCall: true });
            const k2 = graph.addKernel(scale, shape, [lib_1.arg.ptr(z), lib_1.arg.f32(3), lib_1.arg.u32(n)], { after: [k] });
            expect(k.params()).toMatchObject({ type: 'kernel', grid: [shape.grid, 1, 1], block: [256, 1, 1], sharedMemoryBytes: 0 });
            k.setParams({ type: 'kernel', kernel: scale, ...shape, args: [lib_1.arg.ptr(y), lib_1.arg.f32(4), lib_1.arg.u32(n)] }, { perTypeCall: true });
            k.setKernelAttribute('priority', 0);
            expect(k.kernelAttribute('priority')).toBe(0);
            k.setKernelAttribute('preferredSharedMemoryCarveout', 50);
            k2.copyKernelAttributesFrom(k);
            expect(k2.kernelAttribute('preferredSharedMemoryCarveout')).toBe(50);
            expect(k.kernelAttribute('cooperative')).toBe(false);
            let hostCalls = 0;
            const host = graph.addHost(() => hostCalls++, { after: [k2] });
            const copy = graph.addCopy(z, y, { bytes: 16 }, { after: [host] });
            const record = graph.addEventRecord(event, { after: [copy] });
            const wait = graph.addEventWait(event, { after: [record] });
            const ops = graph.addMemoryOps([{ op: 'writeValue32', target: pinned, value: 1 }], { after: [wait] });
            const childNode = graph.addChild(child, { after: [ops] });
            const { node: allocNode, allocation } = graph.addAlloc(4096, {}, { after: [childNode], perTypeCall: true });
            const freeNode = graph.addFree(allocation, { after: [allocNode], perTypeCall: true });
            expect(freeNode.params()).toMatchObject({ type: 'memFree', address: allocation.address });
            const exec = __addDisposableResource(env_8, graph.instantiate(), false);
            exec.setParams(host, { type: 'host', callback: () => (hostCalls += 100) }, { perTypeCall: true });
            exec.setParams(copy, { type: 'memcpy', dst: z, src: y, bytes: 32 }, { perTypeCall: true });
            exec.setParams(record, { type: 'eventRecord', event: other }, { perTypeCall: true });
            exec.setParams(wait, { type: 'eventWait', event: other }, { perTypeCall: true });
            exec.setParams(ops, { type: 'batchMemOp', ops: [{ op: 'writeValue32', target: pinned, value: 2 }] }, { perTypeCall: true });
            const replacementChild = __addDisposableResource(env_8, lib_1.Graph.create(), false);
            replacementChild.addFill(z, 0, { elementBytes: 4, offset: 4, count: 1 });
            exec.setChildGraph(childNode, replacementChild);
            await exec.run(stream);
            await new Promise((resolve) => setTimeout(resolve, 20));
            expect(hostCalls).toBe(100);
            expect(pinned.view(Uint32Array)[0]).toBe(2);
            const zs = z.readSync(Float32Array);
            // y = 4 (scaled by the updated kernel); z: copied 8 floats of y, then the replacement child cleared z[1].
            expect(Array.from(zs.slice(0, 3))).toEqual([4, 0, 4]);
            expect(zs[8]).toBe(3);
        }
        catch (e_8) {
            env_8.error = e_8;
            env_8.hasError = true;
        }
        finally {
            __disposeResources(env_8);
        }
    });
    test('external-semaphore nodes and batch decompression answer as the driver does', () => {
        const env_9 = { stack: [], error: void 0, hasError: false };
        try {
            const graph = __addDisposableResource(env_9, lib_1.Graph.create(), false);
            const answers = [];
            for (const kind of ['signal', 'wait']) {
                try {
                    const env_10 = { stack: [], error: void 0, hasError: false };
                    try {
                        const node = graph.addExternalSemaphoreNode(kind);
                        answers.push(`${kind} added with ${node.externalSemaphoreCount(kind)} semaphores`);
                        node.clearExternalSemaphores(kind);
                        const exec = __addDisposableResource(env_10, graph.instantiate(), false);
                        exec.clearExternalSemaphores(node, kind);
                    }
                    catch (e_9) {
                        env_10.error = e_9;
                        env_10.hasError = true;
                    }
                    finally {
                        __disposeResources(env_10);
                    }
                }
                catch (error) {
                    expect(error).toBeInstanceOf(lib_1.CudaError);
                    answers.push(`${kind}: ${error.name}`);
                }
            }
            expect(answers).toHaveLength(2);
            // A non-external-semaphore node is refused by the per-type getter.
            const empty = graph.addEmpty();
            expect(() => empty.externalSemaphoreCount('signal')).toThrow(lib_1.CudaError);
            const src = __addDisposableResource(env_9, lib_1.DeviceBuffer.alloc(64), false);
            const dst = __addDisposableResource(env_9, lib_1.DeviceBuffer.alloc(64), false);
            const actual = __addDisposableResource(env_9, lib_1.DeviceBuffer.alloc(4), false);
            let decompress;
            try {
                (0, lib_1.decompressBatch)([{ src, srcBytes: 64, dst, dstBytes: 64, actualBytes: actual, algorithm: 'deflate' }], stream);
                stream.synchronizeSync();
                decompress = 'accepted';
            }
            catch (error) {
                expect(error).toBeInstanceOf(lib_1.CudaError);
                decompress = error.name;
            }
            // Hopper has no decompression engine.
            if (lib_1.Device.get(0).computeCapability.major < 10)
                expect(['CUDA_ERROR_NOT_SUPPORTED', 'CUDA_ERROR_INVALID_VALUE']).toContain(decompress);
        }
        catch (e_10) {
            env_9.error = e_10;
            env_9.hasError = true;
        }
        finally {
            __disposeResources(env_9);
        }
    });
    test('a while loop runs on the GPU until a kernel clears its condition', async () => {
        const env_11 = { stack: [], error: void 0, hasError: false };
        try {
            const countdown = lib.kernel('countdown');
            const counter = __addDisposableResource(env_11, lib_1.DeviceBuffer.from(new Uint32Array([5])), false);
            const iterations = __addDisposableResource(env_11, lib_1.DeviceBuffer.from(new Uint32Array([0])), false);
            const graph = __addDisposableResource(env_11, lib_1.Graph.create(), false);
            const handle = graph.conditionalHandle({ defaultValue: 1 });
            const { body } = graph.addWhile(handle);
            body.addKernel(countdown, { grid: 1, block: 32 }, [lib_1.arg.ptr(counter), lib_1.arg.ptr(iterations), lib_1.arg.u64(handle.value)]);
            const exec = __addDisposableResource(env_11, graph.instantiate(), false);
            await exec.run(stream);
            expect(iterations.readSync(Uint32Array)[0]).toBe(5);
            expect(counter.readSync(Uint32Array)[0]).toBe(0);
        }
        catch (e_11) {
            env_11.error = e_11;
            env_11.hasError = true;
        }
        finally {
            __disposeResources(env_11);
        }
    });
    test('if/else and switch nodes pick their body from a kernel-set value', async () => {
        const env_12 = { stack: [], error: void 0, hasError: false };
        try {
            const choose = lib.kernel('choose');
            const out = __addDisposableResource(env_12, lib_1.DeviceBuffer.from(new Uint32Array(4)), false);
            for (const value of [0, 1, 2, 7]) {
                const env_13 = { stack: [], error: void 0, hasError: false };
                try {
                    const graph = __addDisposableResource(env_13, lib_1.Graph.create(), false);
                    const ifHandle = graph.conditionalHandle();
                    const switchHandle = graph.conditionalHandle();
                    const setIf = graph.addKernel(choose, { grid: 1, block: 1 }, [lib_1.arg.u64(ifHandle.value), lib_1.arg.u32(value)]);
                    const setSwitch = graph.addKernel(choose, { grid: 1, block: 1 }, [lib_1.arg.u64(switchHandle.value), lib_1.arg.u32(value)], { after: [setIf] });
                    const branch = graph.addIf(ifHandle, { after: [setSwitch], withElse: true });
                    branch.then.addFill(out, 1, { elementBytes: 4, count: 1 });
                    branch.else.addFill(out, 2, { elementBytes: 4, count: 1 });
                    const cases = graph.addSwitch(switchHandle, 3, { after: [branch.node] });
                    cases.cases.forEach((body, i) => body.addFill(out, 10 + i, { elementBytes: 4, offset: 4, count: 1 }));
                    out.fill(0);
                    const exec = __addDisposableResource(env_13, graph.instantiate(), false);
                    await exec.run(stream);
                    const [ifResult, switchResult] = out.readSync(Uint32Array);
                    expect(ifResult).toBe(value ? 1 : 2);
                    expect(switchResult).toBe(value < 3 ? 10 + value : 0);
                }
                catch (e_12) {
                    env_13.error = e_12;
                    env_13.hasError = true;
                }
                finally {
                    __disposeResources(env_13);
                }
            }
        }
        catch (e_13) {
            env_12.error = e_13;
            env_12.hasError = true;
        }
        finally {
            __disposeResources(env_12);
        }
    });
    test('memory nodes: allocate, use, free; auto-free on launch; graph memory accounting', async () => {
        const env_14 = { stack: [], error: void 0, hasError: false };
        try {
            const scale = lib.kernel('scale');
            const result = __addDisposableResource(env_14, lib_1.DeviceBuffer.alloc(n * 4), false);
            const source = __addDisposableResource(env_14, lib_1.DeviceBuffer.from(floats((i) => i)), false);
            const graph = __addDisposableResource(env_14, lib_1.Graph.create(), false);
            const { node: alloc, allocation } = graph.addAlloc(n * 4);
            expect(allocation.size).toBe(n * 4);
            const copyIn = graph.addCopy(allocation, source, {}, { after: [alloc] });
            const k = graph.addKernel(scale, shape, [lib_1.arg.ptr(allocation), lib_1.arg.f32(4), lib_1.arg.u32(n)], { after: [copyIn] });
            const copyOut = graph.addCopy(result, allocation, {}, { after: [k] });
            graph.addFree(allocation, { after: [copyOut] });
            expect(alloc.params()).toMatchObject({ type: 'memAlloc', bytes: n * 4, address: allocation.address });
            const exec = __addDisposableResource(env_14, graph.instantiate(), false);
            await exec.run(stream);
            expect(result.readSync(Float32Array)[3]).toBe(12);
            const usage = (0, lib_1.graphMemory)();
            expect(usage.reservedMemCurrent).toBeGreaterThanOrEqual(n * 4);
            (0, lib_1.resetGraphMemoryHigh)('usedMemHigh');
            (0, lib_1.trimGraphMemory)();
            // Without a free node: auto-free on launch frees it before the next launch.
            const leaky = __addDisposableResource(env_14, lib_1.Graph.create(), false);
            const { allocation: kept } = leaky.addAlloc(1 << 20);
            leaky.addFill(kept, 3);
            const autoFree = __addDisposableResource(env_14, leaky.instantiate({ autoFreeOnLaunch: true }), false);
            expect(autoFree.flags.autoFreeOnLaunch).toBe(true);
            await autoFree.run(stream);
            await autoFree.run(stream);
            // A child graph with memory nodes can only be moved into its parent.
            const movable = lib_1.Graph.create();
            const { allocation: inner } = movable.addAlloc(4096);
            movable.addFree(inner, { after: movable.nodes() });
            const parent = __addDisposableResource(env_14, lib_1.Graph.create(), false);
            expect(() => parent.addChild(leaky)).toThrow();
            parent.addChild(movable, { move: true });
            expect(parent.nodeCount).toBe(1);
            expect(() => movable.instantiate()).toThrow();
            const parentExec = __addDisposableResource(env_14, parent.instantiate(), false);
            await parentExec.run(stream);
        }
        catch (e_14) {
            env_14.error = e_14;
            env_14.hasError = true;
        }
        finally {
            __disposeResources(env_14);
        }
    });
    test('user objects: destructor runs once the graph, its executables and launches are done', async () => {
        let destroyed = 0;
        const object = lib_1.UserObject.create(() => destroyed++);
        expect(object.references).toBe(1);
        object.retain(2);
        expect(object.references).toBe(3);
        object.release(2);
        expect(() => object.release(5)).toThrow(RangeError);
        const graph = lib_1.Graph.create();
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
        for (let i = 0; i < 50 && destroyed === 0; i++)
            await new Promise((resolve) => setTimeout(resolve, 10));
        expect(destroyed).toBe(1);
    });
    test('a graph keeps running correctly after every reference to its buffers is dropped and GC ran', async () => {
        const env_15 = { stack: [], error: void 0, hasError: false };
        try {
            const axpy = lib.kernel('axpy');
            const result = new Float32Array(n);
            const pinnedOut = __addDisposableResource(env_15, lib_1.HostBuffer.alloc(n * 4), false);
            let exec;
            {
                const x = lib_1.DeviceBuffer.from(floats((i) => i));
                const y = lib_1.DeviceBuffer.from(floats(() => 1));
                const graph = lib_1.Graph.create();
                const k = graph.addKernel(axpy, shape, [lib_1.arg.ptr(y), lib_1.arg.ptr(x), lib_1.arg.f32(1), lib_1.arg.u32(n)]);
                graph.addCopy(pinnedOut, y, {}, { after: [k] });
                exec = graph.instantiate();
                // Drop every JavaScript handle the graph uses: buffers and the graph itself.
                x.dispose();
                y.dispose();
                graph.dispose();
            }
            for (let i = 0; i < 5; i++) {
                const env_16 = { stack: [], error: void 0, hasError: false };
                try {
                    (0, gc_1.collectGarbage)();
                    await new Promise((resolve) => setTimeout(resolve, 10));
                    // Allocations made now would reuse freed memory if the graph's buffers had gone.
                    const noise = __addDisposableResource(env_16, lib_1.DeviceBuffer.from(floats(() => -1)), false);
                    void noise;
                }
                catch (e_15) {
                    env_16.error = e_15;
                    env_16.hasError = true;
                }
                finally {
                    __disposeResources(env_16);
                }
            }
            for (let launch = 1; launch <= 3; launch++) {
                await exec.run(stream);
                result.set(pinnedOut.view(Float32Array));
                expect(result[7]).toBe(1 + launch * 7);
            }
            exec.dispose();
        }
        catch (e_16) {
            env_15.error = e_16;
            env_15.hasError = true;
        }
        finally {
            __disposeResources(env_15);
        }
    });
});
//# sourceMappingURL=graph.test.js.map