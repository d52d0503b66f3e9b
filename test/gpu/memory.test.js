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
// Memory against the real driver: allocations of every kind, copies in every
// direction (values copied back and compared), fills, pools, managed memory
// and pointer attributes.
const lib_1 = require("../../lib");
const bytes_1 = require("../helpers/bytes");
const tiers_1 = require("../helpers/tiers");
const pattern = (n, seed = 1) => {
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++)
        bytes[i] = (i * 31 + seed) & 0xff;
    return bytes;
};
(0, tiers_1.describeGpu)('device memory', () => {
    test('allocate, write, read back; info and address range', () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const before = (0, lib_1.memoryInfo)();
            expect(before.total).toBe(lib_1.Device.get(0).totalMemory);
            const buf = __addDisposableResource(env_1, lib_1.DeviceBuffer.alloc(1 << 24), false);
            expect(buf.size).toBe(1 << 24);
            expect(buf.allocation).toBe('plain');
            expect((0, lib_1.memoryInfo)().free).toBeLessThanOrEqual(before.free);
            const data = pattern(1 << 24);
            buf.write(data);
            (0, bytes_1.expectBytes)(buf.readSync(), data);
            (0, bytes_1.expectBytes)(buf.readSync(Uint8Array, { offset: 100, bytes: 10 }), data.subarray(100, 110));
            const range = (0, lib_1.addressRange)(buf, 1000);
            expect(range.base).toBe(buf.address);
            expect(range.size).toBe(1 << 24);
            expect((0, lib_1.addressRange)(buf.address + 5n).base).toBe(buf.address);
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('DeviceBuffer.from and typed reads', () => {
        const env_2 = { stack: [], error: void 0, hasError: false };
        try {
            const floats = Float32Array.from({ length: 1000 }, (_, i) => i / 3);
            const buf = __addDisposableResource(env_2, lib_1.DeviceBuffer.from(floats), false);
            (0, bytes_1.expectBytes)(buf.readSync(Float32Array), floats);
            expect(() => buf.readSync(Float64Array, { bytes: 12 })).toThrow(RangeError);
        }
        catch (e_2) {
            env_2.error = e_2;
            env_2.hasError = true;
        }
        finally {
            __disposeResources(env_2);
        }
    });
    test('every copy direction, sync and async, with offsets', async () => {
        const env_3 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_3, lib_1.Stream.create(), false);
            const n = 4096;
            const data = pattern(n);
            const a = __addDisposableResource(env_3, lib_1.DeviceBuffer.alloc(n), false);
            const b = __addDisposableResource(env_3, lib_1.DeviceBuffer.alloc(n), false);
            const pinned = __addDisposableResource(env_3, lib_1.HostBuffer.alloc(n), false);
            (0, lib_1.copy)(a, data); // H->D (pageable)
            (0, lib_1.copy)(b, a); // D->D
            const out = new Uint8Array(n);
            (0, lib_1.copy)(out, b); // D->H (pageable)
            (0, bytes_1.expectBytes)(out, data);
            (0, lib_1.copy)(pinned, a, { stream: s }); // D->H async (pinned)
            await s.synchronize();
            (0, bytes_1.expectBytes)(pinned.view(Uint8Array), data);
            const h2 = new Uint8Array(n);
            (0, lib_1.copy)(h2, pinned); // H->H (cuMemcpy)
            (0, bytes_1.expectBytes)(h2, data);
            (0, lib_1.copy)(h2, pinned, { stream: s }); // H->H async (cuMemcpyAsync)
            (0, lib_1.copy)(b, pinned, { stream: s, dstOffset: 100, srcOffset: 200, bytes: 50 }); // H->D async
            (0, lib_1.copy)(a, b, { stream: s, dstOffset: 0, srcOffset: 100, bytes: 50 }); // D->D async
            await s.synchronize();
            const check = a.readSync(Uint8Array, { bytes: 50 });
            (0, bytes_1.expectBytes)(check, data.subarray(200, 250));
        }
        catch (e_3) {
            env_3.error = e_3;
            env_3.hasError = true;
        }
        finally {
            __disposeResources(env_3);
        }
    });
    test('copies between contexts go peer to peer (cuMemcpyPeer, cuMemcpy3DPeer), sync and async', async () => {
        const env_4 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_4, lib_1.Stream.create(), false);
            const own = __addDisposableResource(env_4, lib_1.Device.get(0).createContext(), false);
            const theirs = __addDisposableResource(env_4, lib_1.DeviceBuffer.alloc(256, { context: own }), false);
            const ours = __addDisposableResource(env_4, lib_1.DeviceBuffer.from(pattern(256, 9)), false);
            (0, lib_1.copy)(theirs, ours);
            (0, bytes_1.expectBytes)(theirs.readSync(), pattern(256, 9));
            const back = __addDisposableResource(env_4, lib_1.DeviceBuffer.alloc(256), false);
            (0, lib_1.copy)(back, theirs, { stream: s });
            await s.synchronize();
            (0, bytes_1.expectBytes)(back.readSync(), pattern(256, 9));
            back.fill(0);
            (0, lib_1.copy3D)({ memory: back, pitch: 16 }, { memory: theirs, pitch: 16 }, { width: 16, height: 4, depth: 2 });
            (0, bytes_1.expectBytes)(back.readSync(Uint8Array, { bytes: 128 }), pattern(256, 9).subarray(0, 128));
            (0, lib_1.copy3D)({ memory: theirs, pitch: 16 }, { memory: ours, pitch: 16 }, { width: 16, height: 16, depth: 1 }, { stream: s });
            await s.synchronize();
            (0, bytes_1.expectBytes)(theirs.readSync(), pattern(256, 9));
            lib_1.Device.get(0).primaryContext.makeCurrent();
        }
        catch (e_4) {
            env_4.error = e_4;
            env_4.hasError = true;
        }
        finally {
            __disposeResources(env_4);
        }
    });
    test('out-of-range copies are RangeErrors and touch nothing', () => {
        const env_5 = { stack: [], error: void 0, hasError: false };
        try {
            const buf = __addDisposableResource(env_5, lib_1.DeviceBuffer.alloc(100), false);
            buf.fill(9);
            expect(() => (0, lib_1.copy)(buf, new Uint8Array(101))).toThrow(RangeError);
            expect(() => (0, lib_1.copy)(buf, new Uint8Array(10), { dstOffset: 95 })).toThrow(/exceeds its 100 bytes/);
            expect(() => (0, lib_1.copy)(new Uint8Array(10), buf, { srcOffset: 100, bytes: 1 })).toThrow(RangeError);
            expect(() => (0, lib_1.copy)(buf, buf, { srcOffset: 0, dstOffset: 10, bytes: 20 })).toThrow(/overlap/);
            expect(() => (0, lib_1.copy)(buf, new Uint8Array(4), { bytes: -1 })).toThrow(RangeError);
            expect(() => (0, lib_1.copy)(buf, new Uint8Array(4), { bytes: 1.5 })).toThrow(TypeError);
            expect(() => (0, lib_1.copy)(buf, 'text')).toThrow(TypeError);
            expect(() => (0, lib_1.fill)(buf, 1, { offset: 96, count: 2, elementBytes: 4 })).toThrow(RangeError);
            expect(() => (0, lib_1.fill)(buf, 1, { offset: 2, count: 1, elementBytes: 4 })).toThrow(/aligned/);
            expect(() => (0, lib_1.fill)(buf, 256)).toThrow(RangeError);
            expect(Array.from(buf.readSync())).toEqual(new Array(100).fill(9));
        }
        catch (e_5) {
            env_5.error = e_5;
            env_5.hasError = true;
        }
        finally {
            __disposeResources(env_5);
        }
    });
    test('fills of 8, 16 and 32 bits, sync and async, 1D and 2D', async () => {
        const env_6 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_6, lib_1.Stream.create(), false);
            const buf = __addDisposableResource(env_6, lib_1.DeviceBuffer.alloc(64), false);
            (0, lib_1.fill)(buf, 0x11);
            (0, lib_1.fill)(buf, 0x2233, { elementBytes: 2, offset: 8, count: 2 });
            (0, lib_1.fill)(buf, 0x44556677, { elementBytes: 4, offset: 16, count: 1 });
            (0, lib_1.fill)(buf, 0x88, { offset: 20, count: 4, stream: s });
            (0, lib_1.fill)(buf, 0x99aa, { elementBytes: 2, offset: 24, count: 2, stream: s });
            (0, lib_1.fill)(buf, 0xbbccddee, { elementBytes: 4, offset: 28, count: 1, stream: s });
            await s.synchronize();
            const b = buf.readSync();
            expect(Array.from(b.subarray(0, 8))).toEqual(new Array(8).fill(0x11));
            expect(Array.from(b.subarray(8, 12))).toEqual([0x33, 0x22, 0x33, 0x22]);
            expect(Array.from(b.subarray(16, 20))).toEqual([0x77, 0x66, 0x55, 0x44]);
            expect(Array.from(b.subarray(20, 24))).toEqual([0x88, 0x88, 0x88, 0x88]);
            expect(Array.from(b.subarray(24, 28))).toEqual([0xaa, 0x99, 0xaa, 0x99]);
            expect(Array.from(b.subarray(28, 32))).toEqual([0xee, 0xdd, 0xcc, 0xbb]);
            const grid = __addDisposableResource(env_6, lib_1.DeviceBuffer.alloc(16 * 8), false);
            grid.fill(0);
            (0, lib_1.fill2D)(grid, 1, { pitch: 16, width: 4, height: 3 });
            (0, lib_1.fill2D)(grid, 0x0202, { pitch: 16, width: 2, height: 2, offset: 8 }, { elementBytes: 2 });
            (0, lib_1.fill2D)(grid, 0x03030303, { pitch: 16, width: 1, height: 2, offset: 16 * 4 }, { elementBytes: 4 });
            (0, lib_1.fill2D)(grid, 4, { pitch: 16, width: 2, height: 1, offset: 16 * 6 }, { stream: s });
            (0, lib_1.fill2D)(grid, 0x0505, { pitch: 16, width: 1, height: 1, offset: 16 * 6 + 4 }, { elementBytes: 2, stream: s });
            (0, lib_1.fill2D)(grid, 0x06060606, { pitch: 16, width: 1, height: 1, offset: 16 * 6 + 8 }, { elementBytes: 4, stream: s });
            await s.synchronize();
            const g = grid.readSync();
            const row = (r) => Array.from(g.subarray(r * 16, r * 16 + 16));
            expect(row(0)).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0]);
            expect(row(2)).toEqual([1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            expect(row(4).slice(0, 4)).toEqual([3, 3, 3, 3]);
            expect(row(6).slice(0, 12)).toEqual([4, 4, 0, 0, 5, 5, 0, 0, 6, 6, 6, 6]);
            expect(() => (0, lib_1.fill2D)(grid, 1, { pitch: 16, width: 17, height: 1 })).toThrow(RangeError);
            expect(() => (0, lib_1.fill2D)(grid, 1, { pitch: 16, width: 16, height: 9 })).toThrow(RangeError);
        }
        catch (e_6) {
            env_6.error = e_6;
            env_6.hasError = true;
        }
        finally {
            __disposeResources(env_6);
        }
    });
    test('pitched allocation and 2D copies (sync, unaligned, async)', async () => {
        const env_7 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_7, lib_1.Stream.create(), false);
            const width = 100, height = 7;
            const pitched = __addDisposableResource(env_7, lib_1.DeviceBuffer.allocPitched(width, height), false);
            expect(pitched.allocation).toBe('pitched');
            expect(pitched.pitch).toBeGreaterThanOrEqual(width);
            expect(pitched.size).toBe(pitched.pitch * height);
            const host = pattern(width * height);
            (0, lib_1.copy2D)({ memory: pitched, pitch: pitched.pitch }, { memory: host, pitch: width }, width, height);
            const back = new Uint8Array(width * height);
            (0, lib_1.copy2D)({ memory: back, pitch: width }, { memory: pitched, pitch: pitched.pitch }, width, height, { unaligned: true });
            (0, bytes_1.expectBytes)(back, host);
            const pinned = __addDisposableResource(env_7, lib_1.HostBuffer.alloc(width * height), false);
            (0, lib_1.copy2D)({ memory: pinned, pitch: width }, { memory: pitched, pitch: pitched.pitch }, width, height, { stream: s });
            await s.synchronize();
            (0, bytes_1.expectBytes)(pinned.view(Uint8Array), host);
            expect(() => (0, lib_1.copy2D)({ memory: pitched, pitch: pitched.pitch }, { memory: host, pitch: width }, width, height + 1)).toThrow(RangeError);
            expect(() => (0, lib_1.copy2D)({ memory: pitched, pitch: 10 }, { memory: host, pitch: width }, width, 1)).toThrow(/Pitch/);
        }
        catch (e_7) {
            env_7.error = e_7;
            env_7.hasError = true;
        }
        finally {
            __disposeResources(env_7);
        }
    });
    test('3D copies, and batched 1D and 3D copies', async () => {
        const env_8 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_8, lib_1.Stream.create(), false);
            const w = 8, h = 4, d = 3;
            const host = pattern(w * h * d, 5);
            const dev = __addDisposableResource(env_8, lib_1.DeviceBuffer.alloc(16 * 5 * d), false);
            (0, lib_1.copy3D)({ memory: dev, pitch: 16, rowsPerSlice: 5 }, { memory: host, pitch: w }, { width: w, height: h, depth: d });
            const back = new Uint8Array(w * h * d);
            (0, lib_1.copy3D)({ memory: back, pitch: w }, { memory: dev, pitch: 16, rowsPerSlice: 5 }, { width: w, height: h, depth: d }, { stream: s });
            await s.synchronize();
            (0, bytes_1.expectBytes)(back, host);
            const a = __addDisposableResource(env_8, lib_1.DeviceBuffer.from(pattern(256, 7)), false);
            const b = __addDisposableResource(env_8, lib_1.DeviceBuffer.alloc(256), false);
            const c = __addDisposableResource(env_8, lib_1.DeviceBuffer.alloc(256), false);
            (0, lib_1.copyBatch)([
                { dst: b, src: a, bytes: 128 },
                { dst: b, dstOffset: 128, src: a, srcOffset: 128, bytes: 128 },
                { dst: c, src: a, bytes: 256 },
            ], s);
            await s.synchronize();
            (0, bytes_1.expectBytes)(b.readSync(), pattern(256, 7));
            (0, bytes_1.expectBytes)(c.readSync(), pattern(256, 7));
            const dst3 = __addDisposableResource(env_8, lib_1.DeviceBuffer.alloc(w * h * d), false);
            (0, lib_1.copy3DBatch)([{ dst: { memory: dst3, pitch: w }, src: { memory: dev, pitch: 16, rowsPerSlice: 5 }, extent: { width: w, height: h, depth: d } }], s);
            await s.synchronize();
            (0, bytes_1.expectBytes)(dst3.readSync(), host);
            expect(() => (0, lib_1.copyBatch)([{ dst: b, src: a, bytes: 257 }], s)).toThrow(RangeError);
        }
        catch (e_8) {
            env_8.error = e_8;
            env_8.hasError = true;
        }
        finally {
            __disposeResources(env_8);
        }
    });
    test('an impossible allocation is CudaOutOfMemoryError', () => {
        expect(() => lib_1.DeviceBuffer.alloc(2 ** 52)).toThrow(lib_1.CudaOutOfMemoryError);
    });
    test('pointer attributes by name', () => {
        const env_9 = { stack: [], error: void 0, hasError: false };
        try {
            const buf = __addDisposableResource(env_9, lib_1.DeviceBuffer.alloc(4096), false);
            const attrs = (0, lib_1.pointerAttributes)(buf);
            expect(attrs.memoryType).toBe('device');
            expect(attrs.devicePointer).toBe(buf.address);
            expect(attrs.deviceOrdinal).toBe(0);
            expect(attrs.isManaged).toBe(false);
            expect(attrs.isLegacyCudaIpcCapable).toBe(true);
            expect(attrs.rangeStartAddr).toBe(buf.address);
            expect(attrs.rangeSize).toBe(4096);
            expect(attrs.mapped).toBe(true);
            expect(attrs.context).toBe(lib_1.Device.get(0).primaryContext.handle);
            expect((0, lib_1.pointerAttribute)(buf, 'memoryType')).toBe('device');
            expect((0, lib_1.pointerAttribute)(buf, 'rangeStartAddr', 100)).toBe(buf.address);
            expect(typeof (0, lib_1.pointerAttribute)(buf, 'bufferId')).toBe('bigint');
            expect((0, lib_1.pointerAttribute)(buf, 'p2pTokens')).toEqual(expect.objectContaining({ vaSpaceToken: expect.any(Number) }));
            (0, lib_1.setSyncMemops)(buf, true);
            expect((0, lib_1.pointerAttribute)(buf, 'syncMemops')).toBe(true);
            expect(() => (0, lib_1.pointerAttribute)(12345n, 'memoryType')).toThrow(lib_1.CudaError);
        }
        catch (e_9) {
            env_9.error = e_9;
            env_9.hasError = true;
        }
        finally {
            __disposeResources(env_9);
        }
    });
});
(0, tiers_1.describeGpu)('pinned host memory', () => {
    test('allocated with flags; zero-copy views detached on dispose', () => {
        const host = lib_1.HostBuffer.alloc(1024, { mapped: true, portable: true });
        expect(host.registered).toBe(false);
        const view = host.view(Float32Array);
        expect(view.length).toBe(256);
        view[3] = 1.5;
        expect(new Float32Array(host.arrayBuffer)[3]).toBe(1.5);
        expect(host.devicePointer).not.toBe(0n);
        expect((0, lib_1.pointerAttribute)(host, 'memoryType')).toBe('host');
        const wc = lib_1.HostBuffer.alloc(64, { writeCombined: true });
        wc.dispose();
        const buffer = host.arrayBuffer;
        host.dispose();
        expect(buffer.byteLength).toBe(0);
        expect(() => host.arrayBuffer).toThrow(lib_1.DisposedError);
    });
    test('registering an existing buffer; device-visible through its pointer', async () => {
        const env_10 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_10, lib_1.Stream.create(), false);
            const bytes = new Uint8Array(1 << 16);
            const reg = __addDisposableResource(env_10, lib_1.HostBuffer.register(bytes, { mapped: true }), false);
            expect(reg.registered).toBe(true);
            expect(reg.arrayBuffer).toBe(bytes.buffer);
            const dev = __addDisposableResource(env_10, lib_1.DeviceBuffer.alloc(1 << 16), false);
            dev.fill(0x3c);
            (0, lib_1.copy)(reg, dev, { stream: s });
            await s.synchronize();
            expect(bytes[0]).toBe(0x3c);
            expect(bytes[(1 << 16) - 1]).toBe(0x3c);
            expect(reg.devicePointer).not.toBe(0n);
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
(0, tiers_1.describeGpu)('stream-ordered memory and pools', () => {
    test('allocAsync from the current pool and from a created pool; attributes; trim', async () => {
        const env_11 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_11, lib_1.Stream.create(), false);
            const a = lib_1.DeviceBuffer.allocAsync(1 << 20, s);
            expect(a.allocation).toBe('stream-ordered');
            a.fill(0x17, { stream: s });
            const out = new Uint8Array(16);
            (0, lib_1.copy)(out, a, { stream: s, bytes: 16 });
            expect(Array.from(out)).toEqual(new Array(16).fill(0x17));
            a.dispose();
            const pool = __addDisposableResource(env_11, lib_1.MemoryPool.create({ location: 0 }), false);
            expect(pool.owned).toBe(true);
            pool.releaseThreshold = 64 << 20;
            expect(pool.releaseThreshold).toBe(64 << 20);
            pool.setAttribute('reuseAllowOpportunistic', false);
            expect(pool.attribute('reuseAllowOpportunistic')).toBe(false);
            const b = lib_1.DeviceBuffer.allocAsync(8 << 20, s, { pool });
            b.fill(1, { stream: s });
            await s.synchronize();
            expect(pool.attribute('usedMemCurrent')).toBeGreaterThanOrEqual(8 << 20);
            expect(pool.attribute('reservedMemHigh')).toBeGreaterThanOrEqual(8 << 20);
            b.dispose();
            await s.synchronize();
            expect(pool.attribute('usedMemCurrent')).toBe(0);
            pool.trimTo(0);
            pool.setAttribute('usedMemHigh', 0);
            expect(pool.access(0)).toBe('readwrite');
            pool.setAccess([{ device: 0, access: 'readwrite' }]);
        }
        catch (e_11) {
            env_11.error = e_11;
            env_11.hasError = true;
        }
        finally {
            __disposeResources(env_11);
        }
    });
    test('a host-located pool: device access granted with cuMemPoolSetAccess, where the device supports it', async () => {
        const env_12 = { stack: [], error: void 0, hasError: false };
        try {
            if (!lib_1.Device.get(0).attribute('hostMemoryPoolsSupported'))
                return;
            const pool = __addDisposableResource(env_12, lib_1.MemoryPool.create({ location: 'host' }), false);
            expect(pool.location).toBe('host');
            expect(pool.access(0)).toBe('none');
            pool.setAccess([{ device: 0, access: 'readwrite' }]);
            expect(pool.access(0)).toBe('readwrite');
            const s = __addDisposableResource(env_12, lib_1.Stream.create(), false);
            const buffer = lib_1.DeviceBuffer.allocAsync(4096, s, { pool });
            buffer.fill(0x5c, { stream: s });
            const out = new Uint8Array(4);
            (0, lib_1.copy)(out, buffer, { stream: s, bytes: 4 });
            buffer.dispose();
            await s.synchronize();
            expect(Array.from(out)).toEqual([0x5c, 0x5c, 0x5c, 0x5c]);
        }
        catch (e_12) {
            env_12.error = e_12;
            env_12.hasError = true;
        }
        finally {
            __disposeResources(env_12);
        }
    });
    test('default and current pools of a device and of a location', () => {
        const env_13 = { stack: [], error: void 0, hasError: false };
        try {
            const def = __addDisposableResource(env_13, lib_1.MemoryPool.defaultFor(0), false);
            const cur = __addDisposableResource(env_13, lib_1.MemoryPool.currentFor(0), false);
            expect(def.owned).toBe(false);
            expect(def.location).toBe(lib_1.Device.get(0));
            expect(cur.handle).toBe(def.handle);
            const mine = __addDisposableResource(env_13, lib_1.MemoryPool.create(), false);
            lib_1.MemoryPool.setCurrentFor(0, mine);
            const now = __addDisposableResource(env_13, lib_1.MemoryPool.currentFor(0), false);
            expect(now.handle).toBe(mine.handle);
            lib_1.MemoryPool.setCurrentFor(0, def);
            const loc = __addDisposableResource(env_13, lib_1.MemoryPool.forLocation(lib_1.Device.get(0)), false);
            expect(loc.handle).toBe(def.handle);
            const locCurrent = __addDisposableResource(env_13, lib_1.MemoryPool.forLocation(0, { current: true }), false);
            expect(locCurrent.handle).toBe(def.handle);
            lib_1.MemoryPool.setCurrentForLocation(0, mine);
            expect(lib_1.MemoryPool.currentFor(0).handle).toBe(mine.handle);
            lib_1.MemoryPool.setCurrentForLocation(0, def);
        }
        catch (e_13) {
            env_13.error = e_13;
            env_13.hasError = true;
        }
        finally {
            __disposeResources(env_13);
        }
    });
});
(0, tiers_1.describeGpu)('managed memory', () => {
    test('allocate small, touch from host and device, prefetch, advise, attributes, attach', async () => {
        const env_14 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_14, lib_1.Stream.create(), false);
            const m = __addDisposableResource(env_14, lib_1.DeviceBuffer.allocManaged(1 << 16), false);
            expect(m.allocation).toBe('managed');
            expect((0, lib_1.pointerAttribute)(m, 'isManaged')).toBe(true);
            m.fill(0x21);
            const caps = lib_1.Device.get(0).capabilities;
            if (caps.concurrentManagedAccess) {
                m.advise('setReadMostly', 0);
                m.advise('setPreferredLocation', lib_1.Device.get(0));
                m.advise('setAccessedBy', 0);
                m.prefetch(0, s);
                await s.synchronize();
                const attrs = m.rangeAttributes();
                expect(attrs.readMostly).toBe(true);
                expect(attrs.preferredLocation).toBe('device 0');
                expect(attrs.lastPrefetchLocation).toBe('device 0');
                expect(attrs.accessedBy).toContain(0);
                m.advise('unsetReadMostly', 0);
                m.prefetch('host', s);
                await s.synchronize();
                expect(m.rangeAttributes().lastPrefetchLocation).toBe('host');
            }
            s.attachMemory(m, 'single');
            await s.synchronize();
            const out = m.readSync(Uint8Array, { bytes: 4 });
            expect(Array.from(out)).toEqual([0x21, 0x21, 0x21, 0x21]);
            const host = __addDisposableResource(env_14, lib_1.HostBuffer.alloc(16), false);
            (0, lib_1.copy)(host, m, { bytes: 16 });
            expect(host.view(Uint8Array)[15]).toBe(0x21);
        }
        catch (e_14) {
            env_14.error = e_14;
            env_14.hasError = true;
        }
        finally {
            __disposeResources(env_14);
        }
    });
    test('batched prefetch and discard (the driver may answer not supported)', async () => {
        const env_15 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_15, lib_1.Stream.create(), false);
            const a = __addDisposableResource(env_15, lib_1.DeviceBuffer.allocManaged(1 << 16), false);
            const b = __addDisposableResource(env_15, lib_1.DeviceBuffer.allocManaged(1 << 16), false);
            a.fill(1);
            b.fill(2);
            const attempt = (f) => {
                try {
                    f();
                    return 'ok';
                }
                catch (e) {
                    return e.name;
                }
            };
            const results = [
                attempt(() => (0, lib_1.prefetchBatch)([{ buffer: a }, { buffer: b, offset: 4096, bytes: 4096 }], 0, s)),
                attempt(() => (0, lib_1.discardBatch)([{ buffer: a, bytes: 1 << 16 }], s)),
                attempt(() => (0, lib_1.prefetchBatch)([{ buffer: b }], 'host', s, { discardFirst: true })),
            ];
            await s.synchronize();
            for (const r of results)
                expect(['ok', 'CUDA_ERROR_NOT_SUPPORTED', 'CUDA_ERROR_INVALID_VALUE']).toContain(r);
            expect(results[0]).toBe('ok');
        }
        catch (e_15) {
            env_15.error = e_15;
            env_15.hasError = true;
        }
        finally {
            __disposeResources(env_15);
        }
    });
});
//# sourceMappingURL=memory.test.js.map