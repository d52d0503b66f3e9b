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
// Stream capture basics against the real driver (graph execution is tested with graphs).
const lib_1 = require("../../lib");
const tiers_1 = require("../helpers/tiers");
(0, tiers_1.describeGpu)('stream capture', () => {
    test('a scope captures work into a graph and always ends', () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_1, lib_1.Stream.create(), false);
            const a = __addDisposableResource(env_1, lib_1.DeviceBuffer.alloc(1024), false);
            const b = __addDisposableResource(env_1, lib_1.DeviceBuffer.alloc(1024), false);
            expect(s.captureStatus).toBe('none');
            {
                const env_2 = { stack: [], error: void 0, hasError: false };
                try {
                    const capture = __addDisposableResource(env_2, s.beginCapture(), false);
                    expect(s.captureStatus).toBe('active');
                    expect(capture.info().status).toBe('active');
                    (0, lib_1.fill)(a, 1, { stream: s });
                    (0, lib_1.copy)(b, a, { stream: s });
                    expect(capture.info().dependencies).toBe(1);
                    const graph = __addDisposableResource(env_2, capture.end(), false);
                    expect(graph.nodeCount).toBe(2);
                }
                catch (e_1) {
                    env_2.error = e_1;
                    env_2.hasError = true;
                }
                finally {
                    __disposeResources(env_2);
                }
            }
            expect(s.captureStatus).toBe('none');
            // A scope left without end() discards the capture and frees the stream.
            {
                const env_3 = { stack: [], error: void 0, hasError: false };
                try {
                    const capture = __addDisposableResource(env_3, s.beginCapture({ mode: 'relaxed' }), false);
                    (0, lib_1.fill)(a, 2, { stream: s });
                    void capture;
                }
                catch (e_2) {
                    env_3.error = e_2;
                    env_3.hasError = true;
                }
                finally {
                    __disposeResources(env_3);
                }
            }
            expect(s.captureStatus).toBe('none');
            s.synchronizeSync();
        }
        catch (e_3) {
            env_1.error = e_3;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('callback form; a throwing callback still ends the capture; promises are refused', () => {
        const env_4 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_4, lib_1.Stream.create(), false);
            const a = __addDisposableResource(env_4, lib_1.DeviceBuffer.alloc(64), false);
            const graph = __addDisposableResource(env_4, s.capture((st) => (0, lib_1.fill)(a, 3, { stream: st }), { mode: 'global' }), false);
            expect(graph.nodeCount).toBe(1);
            expect(() => s.capture(() => {
                throw new Error('inside');
            })).toThrow('inside');
            expect(s.captureStatus).toBe('none');
            expect(() => s.capture(async () => undefined)).toThrow(/returned a promise/);
            expect(s.captureStatus).toBe('none');
        }
        catch (e_4) {
            env_4.error = e_4;
            env_4.hasError = true;
        }
        finally {
            __disposeResources(env_4);
        }
    });
    test('capturing into an existing graph', () => {
        const env_5 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_5, lib_1.Stream.create(), false);
            const a = __addDisposableResource(env_5, lib_1.DeviceBuffer.alloc(64), false);
            const target = __addDisposableResource(env_5, lib_1.Graph.create(), false);
            const result = s.capture((st) => (0, lib_1.fill)(a, 4, { stream: st }), { into: target });
            expect(result).toBe(target);
            expect(target.nodeCount).toBe(1);
            s.capture((st) => (0, lib_1.fill)(a, 5, { stream: st }), { into: target });
            expect(target.nodeCount).toBe(2);
            // After a node of the target, and with the dependencies replaced mid-capture.
            const first = target.nodes()[0];
            const marker = target.addEmpty({ label: 'marker' });
            const capture = s.beginCapture({ into: target, after: [first], edges: [{}] });
            (0, lib_1.fill)(a, 6, { stream: s });
            capture.setDependencies([marker]);
            (0, lib_1.fill)(a, 7, { stream: s });
            capture.setDependencies([first], { add: true });
            (0, lib_1.fill)(a, 8, { stream: s });
            expect(capture.end()).toBe(target);
            expect(target.nodeCount).toBe(6);
            expect(marker.dependents()).toHaveLength(1);
        }
        catch (e_5) {
            env_5.error = e_5;
            env_5.hasError = true;
        }
        finally {
            __disposeResources(env_5);
        }
    });
    test('an invalidated capture names the call that broke it; the stream is usable after', () => {
        const env_6 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_6, lib_1.Stream.create(), false);
            const a = __addDisposableResource(env_6, lib_1.DeviceBuffer.alloc(64), false);
            const capture = s.beginCapture({ mode: 'global' });
            (0, lib_1.fill)(a, 1, { stream: s });
            // Synchronizing a capturing stream is not permitted and breaks the capture.
            let broke;
            try {
                s.synchronizeSync();
            }
            catch (e) {
                broke = e;
            }
            expect(broke).toBeInstanceOf(lib_1.CaptureUnsupportedError);
            expect(s.captureStatus).toBe('invalidated');
            let ended;
            try {
                capture.end();
            }
            catch (e) {
                ended = e;
            }
            expect(ended).toBeInstanceOf(lib_1.CaptureInvalidatedError);
            expect(ended.message).toMatch(/broken by cuStreamSynchronize/);
            expect(s.captureStatus).toBe('none');
            (0, lib_1.fill)(a, 6, { stream: s });
            s.synchronizeSync();
            expect(a.readSync()[0]).toBe(6);
        }
        catch (e_6) {
            env_6.error = e_6;
            env_6.hasError = true;
        }
        finally {
            __disposeResources(env_6);
        }
    });
    test('what cannot be captured is refused up front', () => {
        const env_7 = { stack: [], error: void 0, hasError: false };
        try {
            expect(() => lib_1.Stream.legacy().beginCapture()).toThrow(/legacy default stream cannot be captured/);
            const s = __addDisposableResource(env_7, lib_1.Stream.create(), false);
            const capture = __addDisposableResource(env_7, s.beginCapture(), false);
            expect(capture.active).toBe(true);
            expect(() => s.beginCapture()).toThrow(/already capturing/);
            expect(() => s.launchHostFunction(() => undefined)).toThrow(/host node/);
            const e = __addDisposableResource(env_7, lib_1.Event.create(), false);
            e.record(s);
        }
        catch (e_7) {
            env_7.error = e_7;
            env_7.hasError = true;
        }
        finally {
            __disposeResources(env_7);
        }
    });
});
//# sourceMappingURL=capture.test.js.map