"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
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
// Virtual memory management against the real driver: physical allocations,
// reservations, mappings with access per device, granularity and rounding, the
// growable buffer, release after the GPU is done, dma_buf export. Values are
// copied back and compared; sizes are small (the granularity is typically 2 MiB).
const fs = __importStar(require("fs"));
const lib_1 = require("../../lib");
const bytes_1 = require("../helpers/bytes");
const tiers_1 = require("../helpers/tiers");
const pattern = (n, seed = 1) => {
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i++)
        bytes[i] = (i * 131 + seed * 7 + (i >> 12)) & 0xff;
    return bytes;
};
const read = (memory, offset = 0, bytes = memory.size - offset) => {
    const out = new Uint8Array(bytes);
    (0, lib_1.copy)(out, memory, { srcOffset: offset, bytes });
    return out;
};
(0, tiers_1.describeGpu)('virtual memory', () => {
    let g;
    beforeAll(() => {
        g = (0, lib_1.allocationGranularity)();
    });
    test('granularity: minimum and recommended; sizes are rounded up and reported', () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const recommended = (0, lib_1.allocationGranularity)({}, 'recommended');
            expect(g).toBeGreaterThanOrEqual(4096);
            expect(recommended % g).toBe(0);
            expect((0, lib_1.allocationGranularity)({ location: 0, handleTypes: ['posixFileDescriptor'] })).toBe(g);
            const a = __addDisposableResource(env_1, lib_1.PhysicalAllocation.create(1), false);
            expect(a.size).toBe(g);
            const b = __addDisposableResource(env_1, lib_1.PhysicalAllocation.create(g + 1, { granularity: 'recommended' }), false);
            expect(b.size).toBe(Math.ceil((g + 1) / recommended) * recommended);
            const r = __addDisposableResource(env_1, lib_1.AddressReservation.reserve(g + 1), false);
            expect(r.size).toBe(2 * g);
            expect(r.device.ordinal).toBe(0);
            expect(() => lib_1.PhysicalAllocation.create(0)).toThrow(RangeError);
            expect(() => lib_1.AddressReservation.reserve(g, { alignment: 3 })).toThrow(/power of two/);
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('properties from a handle', () => {
        const env_2 = { stack: [], error: void 0, hasError: false };
        try {
            const a = __addDisposableResource(env_2, lib_1.PhysicalAllocation.create(g, { handleTypes: ['posixFileDescriptor'] }), false);
            expect(a.properties()).toEqual({
                locationType: 'device', locationId: 0, handleTypes: ['posixFileDescriptor'],
                compression: false, gpuDirectRdma: false, hardwareDecompress: false,
            });
            expect(a.handle).not.toBe(0n);
            expect(a.device.ordinal).toBe(0);
            const caps = lib_1.Device.get(0).capabilities;
            if (caps.gpuDirectRdma) {
                const env_3 = { stack: [], error: void 0, hasError: false };
                try {
                    const rdma = __addDisposableResource(env_3, lib_1.PhysicalAllocation.create(g, { gpuDirectRdma: true }), false);
                    expect(rdma.properties().gpuDirectRdma).toBe(true);
                }
                catch (e_2) {
                    env_3.error = e_2;
                    env_3.hasError = true;
                }
                finally {
                    __disposeResources(env_3);
                }
            }
            if (caps.genericCompression) {
                const env_4 = { stack: [], error: void 0, hasError: false };
                try {
                    // A hint: the driver may or may not give compressible memory; it says which.
                    const compressed = __addDisposableResource(env_4, lib_1.PhysicalAllocation.create(g, { compression: true }), false);
                    expect(typeof compressed.properties().compression).toBe('boolean');
                }
                catch (e_3) {
                    env_4.error = e_3;
                    env_4.hasError = true;
                }
                finally {
                    __disposeResources(env_4);
                }
            }
        }
        catch (e_4) {
            env_2.error = e_4;
            env_2.hasError = true;
        }
        finally {
            __disposeResources(env_2);
        }
    });
    test('a mapping is device memory: copies, fills, stream operations, pointer attributes', async () => {
        const env_5 = { stack: [], error: void 0, hasError: false };
        try {
            const m = __addDisposableResource(env_5, lib_1.Mapping.alloc(3 * (1 << 20)), false);
            expect(m.size % g).toBe(0);
            expect(m.size).toBeGreaterThanOrEqual(3 << 20);
            const data = pattern(m.size);
            (0, lib_1.copy)(m, data);
            (0, bytes_1.expectBytes)(read(m), data);
            // device to device, both ways, and through a stream
            const d = __addDisposableResource(env_5, lib_1.DeviceBuffer.alloc(m.size), false);
            (0, lib_1.copy)(d, m);
            (0, bytes_1.expectBytes)(d.readSync(), data);
            (0, lib_1.fill)(m, 0x5a, { offset: 4096, count: 100 });
            expect(Array.from(read(m, 4096, 100))).toEqual(new Array(100).fill(0x5a));
            const s = __addDisposableResource(env_5, lib_1.Stream.create(), false);
            const pinned = __addDisposableResource(env_5, lib_1.HostBuffer.alloc(m.size), false);
            (0, lib_1.copy)(m, d, { stream: s });
            (0, lib_1.copy)(pinned, m, { stream: s });
            s.writeValue32(m, 0xdeadbeef, { offset: 8 });
            await s.synchronize();
            (0, bytes_1.expectBytes)(pinned.view(Uint8Array), data);
            expect(new Uint32Array(read(m, 8, 4).buffer)[0]).toBe(0xdeadbeef);
            const attributes = (0, lib_1.pointerAttributes)(m, ['mapped', 'mappingSize', 'mappingBaseAddr', 'deviceOrdinal', 'isLegacyCudaIpcCapable', 'mempoolHandle'], 4096);
            expect(attributes).toMatchObject({ mapped: true, mappingSize: m.size, mappingBaseAddr: m.address, deviceOrdinal: 0, isLegacyCudaIpcCapable: false, mempoolHandle: 0n });
            expect(m.toString()).toMatch(/^Mapping\(/);
        }
        catch (e_5) {
            env_5.error = e_5;
            env_5.hasError = true;
        }
        finally {
            __disposeResources(env_5);
        }
    });
    test('one reservation, several allocations mapped side by side; part of an allocation', () => {
        const env_6 = { stack: [], error: void 0, hasError: false };
        try {
            const r = __addDisposableResource(env_6, lib_1.AddressReservation.reserve(3 * g), false);
            const a = __addDisposableResource(env_6, lib_1.PhysicalAllocation.create(g), false);
            const b = __addDisposableResource(env_6, lib_1.PhysicalAllocation.create(2 * g), false);
            const first = __addDisposableResource(env_6, r.map(a), false);
            // cuMemMap maps an allocation from its start ("offset: currently must be zero").
            expect(() => lib_1.Mapping.map(r, b, { offset: g, allocationOffset: g, bytes: g })).toThrow(lib_1.CudaNotSupportedError);
            const second = __addDisposableResource(env_6, lib_1.Mapping.map(r, b, { offset: g }), false);
            expect(first.address).toBe(r.address);
            expect(second.address).toBe(r.address + BigInt(g));
            expect(second.size).toBe(2 * g);
            const one = pattern(g, 3);
            const two = pattern(g, 4);
            (0, lib_1.copy)(first, one);
            (0, lib_1.copy)(second, two);
            (0, bytes_1.expectBytes)(read(first), one);
            (0, bytes_1.expectBytes)(read(second).subarray(0, g), two);
            // Mapping an occupied range, or out of bounds, is refused.
            expect(() => r.map(a, { offset: 0 })).toThrow(lib_1.CudaError);
            expect(() => r.map(a, { offset: 3 * g })).toThrow(RangeError);
            expect(() => r.map(b, { offset: 1 })).toThrow(/multiple of the allocation granularity/);
            expect(() => r.map(a, { allocationOffset: g })).toThrow(RangeError);
        }
        catch (e_6) {
            env_6.error = e_6;
            env_6.hasError = true;
        }
        finally {
            __disposeResources(env_6);
        }
    });
    test('access per device: read-write, read-only; cuMemGetAccess of an address', () => {
        const env_7 = { stack: [], error: void 0, hasError: false };
        try {
            const m = __addDisposableResource(env_7, lib_1.Mapping.alloc(g), false);
            expect(m.access(0)).toBe('readwrite');
            expect((0, lib_1.memoryAccess)(m, 0)).toBe('readwrite');
            expect((0, lib_1.memoryAccess)(m.address + 100n, lib_1.Device.get(0))).toBe('readwrite');
            m.setAccess([{ location: 0, access: 'read' }]);
            expect(m.access(0, g - 1)).toBe('read');
            m.setAccess([{ location: 0, access: 'readwrite' }]);
            const data = pattern(g);
            (0, lib_1.copy)(m, data);
            (0, bytes_1.expectBytes)(read(m), data);
            const peers = lib_1.Device.all().filter((p) => p.ordinal !== 0 && p.canAccessPeer(lib_1.Device.get(0)));
            if (peers.length > 0) {
                const env_8 = { stack: [], error: void 0, hasError: false };
                try {
                    const peer = peers[0];
                    expect(m.access(peer)).toBe('none');
                    m.setAccess([{ location: 0, access: 'readwrite' }, { location: peer, access: 'read' }]);
                    expect(m.access(peer)).toBe('read');
                    const onPeer = __addDisposableResource(env_8, lib_1.DeviceBuffer.alloc(g, { device: peer }), false);
                    (0, lib_1.copy)(onPeer, m);
                    (0, bytes_1.expectBytes)(onPeer.readSync(), data);
                }
                catch (e_7) {
                    env_8.error = e_7;
                    env_8.hasError = true;
                }
                finally {
                    __disposeResources(env_8);
                }
            }
        }
        catch (e_8) {
            env_7.error = e_8;
            env_7.hasError = true;
        }
        finally {
            __disposeResources(env_7);
        }
    });
    test('map and grant is all or nothing: a refused grant leaves the range unmapped', () => {
        const env_9 = { stack: [], error: void 0, hasError: false };
        try {
            const r = __addDisposableResource(env_9, lib_1.AddressReservation.reserve(g), false);
            const a = __addDisposableResource(env_9, lib_1.PhysicalAllocation.create(g), false);
            // cuMemSetAccess refuses host NUMA access to device memory (see its documentation).
            expect(() => r.map(a, { access: [{ location: 0, access: 'readwrite' }, { location: { hostNuma: 0 }, access: 'readwrite' }] }))
                .toThrow(lib_1.CudaError);
            // Had the failed attempt left its mapping, this map would be refused.
            const m = __addDisposableResource(env_9, r.map(a), false);
            const data = pattern(g, 9);
            (0, lib_1.copy)(m, data);
            (0, bytes_1.expectBytes)(read(m), data);
        }
        catch (e_9) {
            env_9.error = e_9;
            env_9.hasError = true;
        }
        finally {
            __disposeResources(env_9);
        }
    });
    test('retain the allocation behind an address; map it a second time', () => {
        const env_10 = { stack: [], error: void 0, hasError: false };
        try {
            const m = __addDisposableResource(env_10, lib_1.Mapping.alloc(2 * g), false);
            const data = pattern(2 * g, 5);
            (0, lib_1.copy)(m, data);
            const retained = __addDisposableResource(env_10, lib_1.PhysicalAllocation.retain(m, g + 10), false);
            const [segment] = m.segments();
            const original = __addDisposableResource(env_10, segment.allocation, false);
            expect(retained.handle).toBe(original.handle);
            expect(retained.size).toBe(2 * g);
            expect(retained.properties()).toEqual(original.properties());
            const byAddress = __addDisposableResource(env_10, lib_1.PhysicalAllocation.retain(m.address), false);
            expect(byAddress.handle).toBe(original.handle);
            // A second mapping of the same physical memory sees the same bytes.
            const r = __addDisposableResource(env_10, lib_1.AddressReservation.reserve(2 * g), false);
            const alias = __addDisposableResource(env_10, r.map(retained), false);
            (0, bytes_1.expectBytes)(read(alias), data);
            (0, lib_1.fill)(alias, 7, { count: 16 });
            expect(Array.from(read(m, 0, 16))).toEqual(new Array(16).fill(7));
        }
        catch (e_10) {
            env_10.error = e_10;
            env_10.hasError = true;
        }
        finally {
            __disposeResources(env_10);
        }
    });
    test('unmap happens only after the GPU is done with the range', async () => {
        const env_11 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_11, lib_1.Stream.create(), false);
            const m = lib_1.Mapping.alloc(4 * g);
            const data = pattern(4 * g, 11);
            (0, lib_1.copy)(m, data);
            const pinned = __addDisposableResource(env_11, lib_1.HostBuffer.alloc(4 * g), false);
            for (let i = 0; i < 8; i++)
                (0, lib_1.copy)(pinned, m, { stream: s });
            m.dispose(); // the stream still holds it
            expect(() => m.size).toThrow(lib_1.DisposedError);
            expect(s.pendingResources).toBeGreaterThan(0);
            await s.synchronize();
            expect(s.pendingResources).toBe(0);
            (0, bytes_1.expectBytes)(pinned.view(Uint8Array), data);
        }
        catch (e_11) {
            env_11.error = e_11;
            env_11.hasError = true;
        }
        finally {
            __disposeResources(env_11);
        }
    });
    test('disposed mappings are unmapped and released: nothing leaks', () => {
        // 16 GiB go through; other test files share the card, so the check allows them
        // a few GiB of their own while a leak would show as the full 16.
        const size = 512 * g;
        const addresses = [];
        const before = (0, lib_1.memoryInfo)().free;
        for (let i = 0; i < 16; i++) {
            const m = lib_1.Mapping.alloc(size);
            (0, lib_1.fill)(m, i);
            addresses.push(m.address);
            m.dispose();
        }
        expect((0, lib_1.memoryInfo)().free).toBeGreaterThan(before - 4 * 2 ** 30);
        // Nothing is mapped there any more.
        expect(() => lib_1.PhysicalAllocation.retain(addresses[0])).toThrow(lib_1.CudaError);
        expect(() => lib_1.PhysicalAllocation.retain(addresses[15] + 1n)).toThrow(lib_1.CudaError);
    });
});
(0, tiers_1.describeGpu)('growable buffer', () => {
    test('grows in place: same address, contents kept across growth, copies across pieces', async () => {
        const env_12 = { stack: [], error: void 0, hasError: false };
        try {
            const g = (0, lib_1.allocationGranularity)();
            const buffer = __addDisposableResource(env_12, lib_1.GrowableBuffer.create({ maxSize: 64 * g, size: g / 2 }), false);
            expect(buffer.size).toBe(g / 2);
            expect(buffer.capacity).toBe(g);
            expect(buffer.maxSize).toBe(64 * g);
            const address = buffer.address;
            const first = pattern(g / 2, 21);
            (0, lib_1.copy)(buffer, first);
            const free = (0, lib_1.memoryInfo)().free;
            buffer.resize(3 * g);
            expect(buffer.address).toBe(address);
            expect(buffer.capacity).toBeGreaterThanOrEqual(3 * g);
            expect((0, lib_1.memoryInfo)().free).toBeLessThan(free);
            (0, bytes_1.expectBytes)(read(buffer, 0, g / 2), first);
            // Bytes that straddle the boundary between two pieces of physical memory.
            const across = pattern(2 * g, 22);
            (0, lib_1.copy)(buffer, across, { dstOffset: g / 2 });
            buffer.resize(20 * g);
            expect(buffer.address).toBe(address);
            expect(buffer.segments().map((s) => { s.allocation.dispose(); return s.bytes; }).reduce((a, b) => a + b)).toBe(buffer.capacity);
            (0, bytes_1.expectBytes)(read(buffer, 0, g / 2), first);
            (0, bytes_1.expectBytes)(read(buffer, g / 2, 2 * g), across);
            // The far end is usable, through a stream too.
            const s = __addDisposableResource(env_12, lib_1.Stream.create(), false);
            const pinned = __addDisposableResource(env_12, lib_1.HostBuffer.alloc(4096), false);
            (0, lib_1.fill)(buffer, 0xee, { offset: 20 * g - 4096, stream: s });
            (0, lib_1.copy)(pinned, buffer, { srcOffset: 20 * g - 4096, stream: s });
            await s.synchronize();
            expect(pinned.view(Uint8Array).every((b) => b === 0xee)).toBe(true);
            // Beyond size is out of bounds even where memory is mapped; beyond maxSize cannot grow.
            buffer.resize(g);
            expect(() => read(buffer, g - 1, 2)).toThrow(RangeError);
            expect(buffer.capacity).toBeGreaterThanOrEqual(20 * g);
            expect(() => buffer.resize(64 * g + 1)).toThrow(RangeError);
            expect(buffer.access(0)).toBe('readwrite');
        }
        catch (e_12) {
            env_12.error = e_12;
            env_12.hasError = true;
        }
        finally {
            __disposeResources(env_12);
        }
    });
    test('a buffer disposed with copies in flight is unmapped after them', async () => {
        const env_13 = { stack: [], error: void 0, hasError: false };
        try {
            const g = (0, lib_1.allocationGranularity)();
            const s = __addDisposableResource(env_13, lib_1.Stream.create(), false);
            const buffer = lib_1.GrowableBuffer.create({ maxSize: 8 * g, size: 4 * g });
            const data = pattern(4 * g, 31);
            (0, lib_1.copy)(buffer, data);
            const pinned = __addDisposableResource(env_13, lib_1.HostBuffer.alloc(4 * g), false);
            (0, lib_1.copy)(pinned, buffer, { stream: s });
            buffer.dispose();
            expect(() => buffer.size).toThrow(lib_1.DisposedError);
            await s.synchronize();
            (0, bytes_1.expectBytes)(pinned.view(Uint8Array), data);
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
(0, tiers_1.describeGpu)('dma_buf export', () => {
    test('a dma_buf descriptor for a mapping and for cuMemAlloc memory, closed on dispose (or the driver says it cannot)', () => {
        const env_14 = { stack: [], error: void 0, hasError: false };
        try {
            const g = (0, lib_1.allocationGranularity)();
            const m = __addDisposableResource(env_14, lib_1.Mapping.alloc(g), false);
            const d = __addDisposableResource(env_14, lib_1.DeviceBuffer.alloc(g), false);
            if (!lib_1.Device.get(0).capabilities.dmaBuf) {
                expect(() => (0, lib_1.exportDmaBuf)(m)).toThrow(lib_1.CudaError);
                return;
            }
            for (const memory of [m, d]) {
                let fd;
                try {
                    fd = (0, lib_1.exportDmaBuf)(memory, { bytes: g });
                }
                catch (error) {
                    // Some systems report the capability but refuse the export (no dma_buf in the kernel driver).
                    expect(error).toBeInstanceOf(lib_1.CudaError);
                    expect([lib_1.CudaNotSupportedError, lib_1.CudaError]).toContain(error.constructor);
                    return;
                }
                const number = fd.fd;
                expect(fs.fstatSync(number).size).toBeGreaterThanOrEqual(0);
                fd.dispose();
                expect(() => fs.fstatSync(number)).toThrow(/EBADF/);
            }
        }
        catch (e_14) {
            env_14.error = e_14;
            env_14.hasError = true;
        }
        finally {
            __disposeResources(env_14);
        }
    });
});
//# sourceMappingURL=vmm.test.js.map