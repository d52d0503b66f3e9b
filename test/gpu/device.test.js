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
// Devices and contexts against the real driver.
const worker_threads_1 = require("worker_threads");
const path = __importStar(require("path"));
const lib_1 = require("../../lib");
const subprocess_1 = require("../helpers/subprocess");
const tiers_1 = require("../helpers/tiers");
(0, tiers_1.describeGpu)('devices', () => {
    test('the driver is loaded and reports its version', () => {
        const s = (0, lib_1.driverStatus)();
        expect(s).toMatchObject({ available: true, stage: 'ready', initResult: { code: 0, name: 'CUDA_SUCCESS' } });
        expect(s.driverVersion.raw).toBeGreaterThanOrEqual(12000);
        // Every function of the table the installed driver provides resolved.
        const missing = (0, lib_1.driverFunctions)().filter((f) => !f.available && f.requiredVersion.raw <= s.driverVersion.raw);
        expect(missing.map((f) => f.name)).toEqual([]);
    });
    test('enumeration by ordinal, PCI bus id and UUID finds the same device', () => {
        expect(lib_1.Device.count()).toBeGreaterThanOrEqual(1);
        const dev = lib_1.Device.get(0);
        expect(lib_1.Device.get()).toBe(dev);
        expect(lib_1.Device.all()[0]).toBe(dev);
        expect(dev.name).toMatch(/\S/);
        expect(dev.uuid).toMatch(/^GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(dev.pciBusId).toMatch(/^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-9a-fA-F]$/);
        expect(lib_1.Device.byPciBusId(dev.pciBusId)).toBe(dev);
        expect(lib_1.Device.byUuid(dev.uuid)).toBe(dev);
        expect(lib_1.Device.byUuid(dev.uuidBytes)).toBe(dev);
        expect(lib_1.Device.byUuid(dev.uuid.slice(4).toUpperCase())).toBe(dev);
        expect(() => lib_1.Device.get(lib_1.Device.count())).toThrow(RangeError);
        expect(JSON.parse(JSON.stringify(dev))).toEqual({ ordinal: 0, name: dev.name, uuid: dev.uuid, pciBusId: dev.pciBusId });
    });
    test('memory, compute capability and attributes', () => {
        const dev = lib_1.Device.get(0);
        expect(dev.totalMemory).toBeGreaterThan(2 ** 30);
        const cc = dev.computeCapability;
        expect(cc.major).toBeGreaterThanOrEqual(7);
        const all = dev.attributes();
        expect(all.warpSize).toBe(32);
        expect(all.computeCapabilityMajor).toBe(cc.major);
        expect(all.maxThreadsPerBlock).toBe(1024);
        expect(all.multiprocessorCount).toBeGreaterThan(0);
        expect(Object.keys(all).length).toBeGreaterThan(100);
        expect(dev.attribute(lib_1.DeviceAttribute.warpSize)).toBe(32);
    });
    test('capabilities read from attributes', () => {
        const caps = lib_1.Device.get(0).capabilities;
        expect(caps).toBe(lib_1.Device.get(0).capabilities);
        expect(caps.unifiedAddressing).toBe(true);
        expect(caps.memoryPools).toBe(true);
        expect(caps.virtualMemoryManagement).toBe(true);
        expect(caps.posixFileDescriptorHandles).toBe(true);
        expect(caps.memoryPoolHandleTypes).toContain('posixFileDescriptor');
        expect(typeof caps.fabricHandles).toBe('boolean');
        if (lib_1.Device.get(0).computeCapability.major >= 9)
            expect(caps.clusterLaunch).toBe(true);
    });
    test('a driver error carries code, name, call and the argument', () => {
        let error;
        try {
            lib_1.Device.get(0).attribute(100000);
        }
        catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(lib_1.CudaError);
        expect(error).toMatchObject({ code: 1, name: 'CUDA_ERROR_INVALID_VALUE', call: 'cuDeviceGetAttribute', detail: 'attribute=100000' });
        expect(error.message).toBe('cuDeviceGetAttribute (attribute=100000): CUDA_ERROR_INVALID_VALUE: invalid argument');
    });
    test('peer queries between distinct devices, when there are two', () => {
        if (lib_1.Device.count() < 2) {
            const only = lib_1.Device.get(0);
            expect(() => only.p2pAttribute(only, 'accessSupported')).toThrow(lib_1.CudaError);
            // A device is not its own peer: the driver says no, and refuses peer access to itself.
            expect(only.canAccessPeer(only)).toBe(false);
            const ctx = only.primaryContext;
            expect(() => ctx.enablePeerAccess(ctx)).toThrow(expect.objectContaining({ name: 'CUDA_ERROR_INVALID_DEVICE' }));
            expect(() => ctx.disablePeerAccess(ctx)).toThrow(lib_1.CudaError);
            return;
        }
        const [a, b] = lib_1.Device.all();
        expect(typeof a.canAccessPeer(b)).toBe('boolean');
        expect(a.p2pAttribute(b, 'performanceRank')).toBeGreaterThanOrEqual(0);
    });
});
(0, tiers_1.describeGpu)('contexts', () => {
    test('the primary context is retained once and active', () => {
        const dev = lib_1.Device.get(0);
        const ctx = dev.primaryContext;
        expect(dev.primaryContext).toBe(ctx);
        expect(ctx.isPrimary).toBe(true);
        expect(ctx.deviceOrdinal).toBe(0);
        expect(ctx.queryDevice()).toBe(0);
        expect(ctx.apiVersion).toBeGreaterThan(0);
        expect(typeof ctx.id).toBe('bigint');
        expect(dev.primaryContextState().active).toBe(true);
    });
    test('limits, flags and the stream priority range', () => {
        const ctx = lib_1.Device.get(0).primaryContext;
        const before = ctx.limit('printfFifoSize');
        expect(before).toBeGreaterThan(0);
        ctx.setLimit('printfFifoSize', before * 2);
        expect(ctx.limit('printfFifoSize')).toBe(before * 2);
        ctx.setLimit('printfFifoSize', before);
        const range = ctx.streamPriorityRange;
        expect(range.greatest).toBeLessThanOrEqual(range.least);
        expect(Array.isArray(ctx.flags)).toBe(true);
        ctx.resetPersistingL2Cache();
        ctx.synchronize();
        expect(() => ctx.setLimit('stackSize', -1)).toThrow(RangeError);
    });
    test('a created context: current, push/pop, destroyed on dispose', () => {
        const dev = lib_1.Device.get(0);
        const ctx = dev.createContext(['schedBlockingSync']);
        expect(ctx.isPrimary).toBe(false);
        expect(ctx.handle).not.toBe(dev.primaryContext.handle);
        ctx.makeCurrent();
        expect(lib_1.Context.currentHandle()).toBe(ctx.handle);
        expect(ctx.flags).toContain('schedBlockingSync');
        dev.primaryContext.pushCurrent();
        expect(lib_1.Context.currentHandle()).toBe(dev.primaryContext.handle);
        expect(lib_1.Context.popCurrent()).toBe(dev.primaryContext.handle);
        expect(lib_1.Context.currentHandle()).toBe(ctx.handle);
        ctx.dispose();
        expect(() => ctx.apiVersion).toThrow(lib_1.DisposedError);
        dev.primaryContext.makeCurrent();
    });
    test('context flags: set on a created context and read back; primary context flags set before it is active', () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const dev = lib_1.Device.get(0);
            const ctx = __addDisposableResource(env_1, dev.createContext(), false);
            ctx.setFlags('schedYield');
            expect(ctx.flags).toContain('schedYield');
            ctx.setFlags('schedBlockingSync');
            expect(ctx.flags).toContain('schedBlockingSync');
            expect(ctx.flags).not.toContain('schedYield');
            dev.primaryContext.makeCurrent();
            // The primary context is active: the flags apply to it from now on (CUDA 12+ accepts this).
            const before = dev.primaryContextState().flags;
            dev.setPrimaryContextFlags('schedSpin');
            expect(dev.primaryContextState().flags).toContain('schedSpin');
            dev.setPrimaryContextFlags(before);
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('the primary context resets once no handle uses it (a process of its own)', () => {
        const result = (0, subprocess_1.runScript)(`
      const dev = cuda.Device.get(0);
      const buffer = cuda.DeviceBuffer.from(new Uint8Array([1, 2, 3]));
      let refused = '';
      try { dev.resetPrimaryContext(); } catch (e) { refused = e.message; }
      buffer.dispose();
      dev.primaryContext.dispose();
      dev.resetPrimaryContext();
      const inactive = !dev.primaryContextState().active;
      // A new handle retains it again.
      const again = cuda.DeviceBuffer.from(new Uint8Array([4, 5]));
      report({ refused, inactive, active: dev.primaryContextState().active, bytes: [...again.readSync()] });
    `);
        expect(result.stderr).toBe('');
        expect(result.report.refused).toMatch(/still used by live handles/);
        expect(result.report).toMatchObject({ inactive: true, active: true, bytes: [4, 5] });
    });
    test('resetting the primary context is refused while handles live on it', () => {
        const dev = lib_1.Device.get(0);
        void dev.primaryContext;
        expect(() => dev.resetPrimaryContext()).toThrow(/still used by live handles/);
    });
    test('a worker thread uses the same primary context, made current on its own thread', async () => {
        const main = lib_1.Device.get(0).primaryContext.handle;
        const worker = new worker_threads_1.Worker(`const { parentPort } = require('worker_threads');
       const cuda = require(${JSON.stringify(path.resolve(__dirname, '../../dist'))});
       const ctx = cuda.Device.get(0).primaryContext;
       ctx.makeCurrent();
       parentPort.postMessage({ handle: ctx.handle.toString(), current: cuda.Context.currentHandle().toString(), api: ctx.apiVersion });`, { eval: true });
        const result = await new Promise((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
        });
        await worker.terminate();
        expect(BigInt(result.handle)).toBe(main);
        expect(BigInt(result.current)).toBe(main);
        expect(result.api).toBeGreaterThan(0);
    });
});
//# sourceMappingURL=device.test.js.map