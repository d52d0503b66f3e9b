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
// Streams and events against the real driver.
const lib_1 = require("../../lib");
const subprocess_1 = require("../helpers/subprocess");
const tiers_1 = require("../helpers/tiers");
(0, tiers_1.describeGpu)('streams', () => {
    test('create with flags and priority; query the driver about it', () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const range = (() => {
                const env_2 = { stack: [], error: void 0, hasError: false };
                try {
                    const s = __addDisposableResource(env_2, lib_1.Stream.create(), false);
                    return s.device.primaryContext.streamPriorityRange;
                }
                catch (e_2) {
                    env_2.error = e_2;
                    env_2.hasError = true;
                }
                finally {
                    __disposeResources(env_2);
                }
            })();
            const blocking = __addDisposableResource(env_1, lib_1.Stream.create({ nonBlocking: false }), false);
            const high = __addDisposableResource(env_1, lib_1.Stream.create({ priority: range.greatest }), false);
            const plain = __addDisposableResource(env_1, lib_1.Stream.create(), false);
            expect(plain.nonBlocking).toBe(true);
            expect(blocking.nonBlocking).toBe(false);
            expect(high.priority).toBe(range.greatest);
            expect(plain.priority).toBe(range.least);
            expect(high.id).not.toBe(plain.id);
            expect(plain.contextHandle()).toBe(plain.device.primaryContext.handle);
            expect(plain.contextHandle(true)).toBe(plain.device.primaryContext.handle);
            expect(plain.queryDevice()).toBe(0);
            expect(plain.query()).toBe(true);
            expect(plain.handle).not.toBe(0n);
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('the legacy and per-thread streams are explicit, shared, and never disposed', () => {
        const legacy = lib_1.Stream.legacy();
        expect(lib_1.Stream.legacy(0)).toBe(legacy);
        expect(legacy.handle).toBe(1n);
        expect(lib_1.Stream.perThread().handle).toBe(2n);
        legacy.dispose();
        expect(legacy.disposed).toBe(false);
        legacy.synchronizeSync();
        expect(legacy.query()).toBe(true);
    });
    test('a disposed stream throws and never becomes the default stream', () => {
        const env_3 = { stack: [], error: void 0, hasError: false };
        try {
            const s = lib_1.Stream.create();
            s.dispose();
            expect(() => s.synchronizeSync()).toThrow(lib_1.DisposedError);
            const buf = __addDisposableResource(env_3, lib_1.DeviceBuffer.alloc(16), false);
            expect(() => (0, lib_1.copy)(buf, new Uint8Array(16), { stream: s })).toThrow(lib_1.DisposedError);
            expect(s.toString()).toBe('Stream(disposed)');
        }
        catch (e_3) {
            env_3.error = e_3;
            env_3.hasError = true;
        }
        finally {
            __disposeResources(env_3);
        }
    });
    test('async copies and fills on a stream, ordered, then synchronize (promise and blocking)', async () => {
        const env_4 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_4, lib_1.Stream.create(), false);
            const n = 1 << 20;
            const dev = __addDisposableResource(env_4, lib_1.DeviceBuffer.alloc(n * 4), false);
            const pinned = __addDisposableResource(env_4, lib_1.HostBuffer.alloc(n * 4), false);
            const input = pinned.view(Uint32Array);
            for (let i = 0; i < n; i++)
                input[i] = i * 3;
            (0, lib_1.copy)(dev, pinned, { stream: s });
            (0, lib_1.fill)(dev, 7, { elementBytes: 4, offset: 4 * 10, count: 5, stream: s });
            const out = new Uint32Array(n);
            const back = __addDisposableResource(env_4, lib_1.HostBuffer.alloc(n * 4), false);
            (0, lib_1.copy)(back, dev, { stream: s });
            await s.synchronize();
            out.set(back.view(Uint32Array));
            expect(out[9]).toBe(27);
            expect(Array.from(out.subarray(10, 15))).toEqual([7, 7, 7, 7, 7]);
            expect(out[15]).toBe(45);
            expect(out[n - 1]).toBe((n - 1) * 3);
            s.synchronizeSync();
            expect(s.query()).toBe(true);
        }
        catch (e_4) {
            env_4.error = e_4;
            env_4.hasError = true;
        }
        finally {
            __disposeResources(env_4);
        }
    });
    test('a stream keeps the memory of queued work alive until it is known to be done', async () => {
        const env_5 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_5, lib_1.Stream.create(), false);
            const dev = lib_1.DeviceBuffer.alloc(64 << 20);
            const pinned = lib_1.HostBuffer.alloc(64 << 20);
            (0, lib_1.copy)(dev, pinned, { stream: s });
            (0, lib_1.copy)(pinned, dev, { stream: s });
            expect(s.pendingResources).toBe(2);
            dev.dispose();
            pinned.dispose();
            // The buffers are unusable from JavaScript at once, but the stream still holds them.
            expect(() => dev.size).toThrow(lib_1.DisposedError);
            expect(s.pendingResources).toBe(2);
            await s.synchronize();
            expect(s.pendingResources).toBe(0);
        }
        catch (e_5) {
            env_5.error = e_5;
            env_5.hasError = true;
        }
        finally {
            __disposeResources(env_5);
        }
    });
    test('waitEvent orders two streams; events query, synchronize and time', async () => {
        const env_6 = { stack: [], error: void 0, hasError: false };
        try {
            const a = __addDisposableResource(env_6, lib_1.Stream.create(), false);
            const b = __addDisposableResource(env_6, lib_1.Stream.create(), false);
            const buf = __addDisposableResource(env_6, lib_1.DeviceBuffer.alloc(4 << 20), false);
            const start = __addDisposableResource(env_6, lib_1.Event.create({ timing: true }), false);
            const end = __addDisposableResource(env_6, lib_1.Event.create({ timing: true }), false);
            const ready = __addDisposableResource(env_6, lib_1.Event.create(), false);
            expect(start.timing).toBe(true);
            expect(ready.timing).toBe(false);
            start.record(a);
            (0, lib_1.fill)(buf, 0xab, { stream: a });
            ready.record(a);
            end.record(a);
            b.waitEvent(ready);
            const host = new Uint8Array(4 << 20);
            (0, lib_1.copy)(host, buf, { stream: b });
            await end.synchronize();
            expect(end.query()).toBe(true);
            expect(ready.query()).toBe(true);
            b.synchronizeSync();
            expect(host[0]).toBe(0xab);
            expect(host[host.length - 1]).toBe(0xab);
            const ms = start.elapsedTime(end);
            expect(ms).toBeGreaterThanOrEqual(0);
            expect(ms).toBeLessThan(10000);
            ready.synchronizeSync();
            end.record(a, { external: false });
        }
        catch (e_6) {
            env_6.error = e_6;
            env_6.hasError = true;
        }
        finally {
            __disposeResources(env_6);
        }
    });
    test('elapsedTime explains why it cannot be computed', () => {
        const env_7 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_7, lib_1.Stream.create(), false);
            const timed = __addDisposableResource(env_7, lib_1.Event.create({ timing: true }), false);
            const untimed = __addDisposableResource(env_7, lib_1.Event.create(), false);
            const never = __addDisposableResource(env_7, lib_1.Event.create({ timing: true }), false);
            timed.record(s);
            untimed.record(s);
            s.synchronizeSync();
            expect(() => timed.elapsedTime(untimed)).toThrow(/created without timing/);
            let error;
            try {
                timed.elapsedTime(never);
            }
            catch (e) {
                error = e;
            }
            expect(error).toBeInstanceOf(lib_1.CudaError);
            expect(error.call).toBe('cuEventElapsedTime');
            expect(() => lib_1.Event.create({ interprocess: true, timing: true })).toThrow(RangeError);
            const ipc = __addDisposableResource(env_7, lib_1.Event.create({ interprocess: true, blockingSync: true }), false);
            expect(ipc.interprocess).toBe(true);
        }
        catch (e_7) {
            env_7.error = e_7;
            env_7.hasError = true;
        }
        finally {
            __disposeResources(env_7);
        }
    });
    test('the promise form does not block the event loop', () => {
        // In a plain Node process: a timer ticking every millisecond keeps ticking
        // while a long queue of GPU work (about 100 GB of fills) is awaited.
        const r = (0, subprocess_1.runScript)(`(async () => {
      const s = cuda.Stream.create();
      const dev = cuda.DeviceBuffer.alloc(1 << 30);
      for (let i = 0; i < 100; i++) cuda.fill(dev, i & 0xff, { stream: s });
      let ticks = 0, last = process.hrtime.bigint(), gap = 0;
      const timer = setInterval(() => { const t = process.hrtime.bigint(); gap = Math.max(gap, Number(t - last) / 1e6); last = t; ticks++; }, 1);
      const t0 = process.hrtime.bigint();
      await s.synchronize();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      clearInterval(timer);
      report({ ms, ticks, gap, first: dev.readSync(Uint8Array, { bytes: 1 })[0] });
    })();`);
        expect(r.stderr).toBe('');
        expect(r.report.ms).toBeGreaterThan(10);
        expect(r.report.ticks).toBeGreaterThan(r.report.ms / 4);
        expect(r.report.gap).toBeLessThan(r.report.ms / 2);
        expect(r.report.first).toBe(99);
    });
    test('host functions and callbacks run on the JavaScript thread, after the work before them', async () => {
        const env_8 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_8, lib_1.Stream.create(), false);
            const dev = __addDisposableResource(env_8, lib_1.DeviceBuffer.alloc(4), false);
            const host = __addDisposableResource(env_8, lib_1.HostBuffer.alloc(4), false);
            (0, lib_1.fill)(dev, 0x5a, { stream: s });
            (0, lib_1.copy)(host, dev, { stream: s });
            const seen = await new Promise((resolve) => s.launchHostFunction(() => resolve(host.view(Uint8Array)[0])));
            expect(seen).toBe(0x5a);
            const status = await new Promise((resolve) => s.addCallback(resolve));
            expect(status).toBeNull();
            expect(() => s.launchHostFunction(5)).toThrow(TypeError);
        }
        catch (e_8) {
            env_8.error = e_8;
            env_8.hasError = true;
        }
        finally {
            __disposeResources(env_8);
        }
    });
    test('stream attributes: get, set, copy', () => {
        const env_9 = { stack: [], error: void 0, hasError: false };
        try {
            const a = __addDisposableResource(env_9, lib_1.Stream.create(), false);
            const b = __addDisposableResource(env_9, lib_1.Stream.create(), false);
            a.setAttribute('synchronizationPolicy', 'blockingSync');
            expect(a.attribute('synchronizationPolicy')).toBe('blockingSync');
            b.copyAttributesFrom(a);
            expect(b.attribute('synchronizationPolicy')).toBe('blockingSync');
            const buf = __addDisposableResource(env_9, lib_1.DeviceBuffer.alloc(1 << 20), false);
            a.setAttribute('accessPolicyWindow', { base: buf.address, bytes: 1 << 20, hitRatio: 0.5, hitProp: 'persisting', missProp: 'streaming' });
            const w = a.attribute('accessPolicyWindow');
            expect(w.bytes).toBe(1 << 20);
            expect(w.hitProp).toBe('persisting');
            expect(w.hitRatio).toBeCloseTo(0.5);
            expect(typeof a.attribute('priority')).toBe('number');
            a.setAttribute('memSyncDomain', 0);
            expect(a.attribute('memSyncDomain')).toBe(0);
            expect(a.attribute('memSyncDomainMap')).toEqual(expect.objectContaining({ default: expect.any(Number) }));
            expect(() => a.setAttribute('accessPolicyWindow', { base: buf.address, bytes: 1, hitRatio: 2, hitProp: 'normal', missProp: 'normal' })).toThrow(RangeError);
        }
        catch (e_9) {
            env_9.error = e_9;
            env_9.hasError = true;
        }
        finally {
            __disposeResources(env_9);
        }
    });
    test('stream memory operations: write and wait on 32/64-bit words, batched', async () => {
        const env_10 = { stack: [], error: void 0, hasError: false };
        try {
            const producer = __addDisposableResource(env_10, lib_1.Stream.create(), false);
            const consumer = __addDisposableResource(env_10, lib_1.Stream.create(), false);
            const flag = __addDisposableResource(env_10, lib_1.DeviceBuffer.alloc(64), false);
            const data = __addDisposableResource(env_10, lib_1.DeviceBuffer.alloc(16), false);
            flag.fill(0);
            // The consumer waits for the flag before copying; the producer sets it after filling.
            consumer.waitValue32(flag, 1, { condition: 'eq' });
            const out = new Uint8Array(16);
            const pinnedOut = __addDisposableResource(env_10, lib_1.HostBuffer.alloc(16), false);
            (0, lib_1.copy)(pinnedOut, data, { stream: consumer });
            (0, lib_1.fill)(data, 0x42, { stream: producer });
            producer.writeValue32(flag, 1);
            await consumer.synchronize();
            out.set(pinnedOut.view(Uint8Array));
            expect(Array.from(out)).toEqual(new Array(16).fill(0x42));
            producer.writeValue64(flag, 0x1122334455667788n, { offset: 8 });
            producer.waitValue64(flag, 0x1122334455667788n, { offset: 8, condition: 'geq' });
            producer.batchMemoryOps([
                { op: 'writeValue32', target: flag, offset: 16, value: 5 },
                { op: 'writeValue64', target: flag, offset: 24, value: 9n },
                { op: 'barrier' },
                { op: 'waitValue32', target: flag, offset: 16, value: 5, condition: 'eq' },
                { op: 'waitValue64', target: flag, offset: 24, value: 9n, condition: 'eq' },
            ]);
            producer.synchronizeSync();
            const words = flag.readSync(Uint32Array);
            expect(words[4]).toBe(5);
            expect(flag.readSync(BigUint64Array)[1]).toBe(0x1122334455667788n);
            expect(flag.readSync(BigUint64Array)[3]).toBe(9n);
            expect(() => producer.writeValue32(flag, 1, { offset: 2 })).toThrow(/aligned/);
            expect(() => producer.writeValue32(flag, 1, { offset: 64 })).toThrow(RangeError);
            expect(() => producer.writeValue32(flag, 1, { offset: 62 })).toThrow(/exceeds its 64 bytes/);
        }
        catch (e_10) {
            env_10.error = e_10;
            env_10.hasError = true;
        }
        finally {
            __disposeResources(env_10);
        }
    });
});
//# sourceMappingURL=stream.test.js.map