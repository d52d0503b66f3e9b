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
// Sharing GPU memory and events between real processes (child_process): for each
// path — legacy IPC memory, legacy IPC events, virtual memory through POSIX
// descriptors, pool memory through a pool descriptor and exported pointers —
// the parent writes, the child reads and writes back, and the child shares
// memory of its own that the parent opens, so every export and import call
// runs in this process (the call counters show it). Descriptors and their file
// descriptors travel over an FdChannel.
//
// What outlives the exporter: virtual memory does (the driver frees it only when
// every handle and mapping is gone: checked below by killing the exporter). For
// legacy IPC memory and pool memory the driver requires the exporter to keep the
// memory alive while importers use it, so no test relies on more.
const fs = __importStar(require("fs"));
const lib_1 = require("../../lib");
const bytes_1 = require("../helpers/bytes");
const subprocess_1 = require("../helpers/subprocess");
const tiers_1 = require("../helpers/tiers");
const patternSource = `(n, seed) => {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 131 + seed * 7 + (i >> 12)) & 0xff;
  return bytes;
}`;
// eslint-disable-next-line no-eval
const pattern = eval(patternSource);
const read = (memory, offset = 0, bytes = memory.size - offset) => {
    const out = new Uint8Array(bytes);
    (0, lib_1.copy)(out, memory, { srcOffset: offset, bytes });
    return out;
};
const openFds = () => fs.readdirSync('/proc/self/fd').length;
// The child's side: `ch` (an FdChannel to the parent), `next()` (the next message),
// `pattern`, `readBytes` and `equal`, then body.
const prelude = `const M = 1 << 20;
const pattern = ${patternSource};
const equal = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
const readBytes = (m, offset = 0, bytes = m.size - offset) => { const out = new Uint8Array(bytes); cuda.copy(out, m, { srcOffset: offset, bytes }); return out; };
(async () => {
  const ch = await cuda.FdChannel.connect({ abstract: process.env.IPC_ADDRESS }, { timeoutMs: 30000 });
  const next = () => ch.receive({ timeoutMs: 60000 });
`;
const epilogue = `
  ch.dispose();
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });`;
const children = [];
afterEach(() => {
    for (const c of children.splice(0))
        if (c.child.exitCode === null && c.child.signalCode === null)
            c.child.kill('SIGKILL');
});
// Starts a child running body, hands the parent's end of the channel to talk,
// then waits for the child to exit and returns how it ended.
async function withChild(body, talk) {
    const server = lib_1.FdChannelServer.listen();
    const started = (0, subprocess_1.startScript)(prelude + body + epilogue, { IPC_ADDRESS: server.address.abstract });
    children.push(started);
    try {
        const ch = await Promise.race([
            server.accept({ timeoutMs: 30000 }),
            started.result.then((r) => {
                throw new Error(`the child exited (${r.status ?? r.signal}) before connecting: ${r.stderr}`);
            }),
        ]);
        try {
            await talk(ch, started);
        }
        finally {
            ch.dispose();
        }
    }
    finally {
        server.dispose();
    }
    return started.result;
}
// The next message's payload, which must be the given step (the child's error otherwise).
async function step(ch, name, started) {
    let message;
    try {
        message = await ch.receive({ timeoutMs: 60000 });
    }
    catch (error) {
        const r = await Promise.race([started.result, new Promise((resolve) => setTimeout(resolve, 2000, undefined))]);
        throw new Error(`waiting for '${name}': ${error.message}${r ? `; the child exited (${r.status ?? r.signal}): ${r.stderr}` : ''}`);
    }
    message.dispose();
    expect(message.payload.step).toBe(name);
    return message.payload;
}
function succeeded(r) {
    if (r.status !== 0)
        throw new Error(`the child failed (${r.status ?? r.signal}): ${r.stderr}`);
}
(0, tiers_1.describeGpu)('sharing memory between processes', () => {
    test('legacy IPC: an interior range of cuMemAlloc memory, read and written by a child; the child\'s memory opened here', async () => {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const buffer = __addDisposableResource(env_1, lib_1.DeviceBuffer.alloc(1 << 20), false);
            const data = pattern(1 << 20, 1);
            (0, lib_1.copy)(buffer, data);
            const exported = __addDisposableResource(env_1, (0, lib_1.shareMemory)(buffer, { offset: 4096, bytes: 65536 }), false);
            expect(exported.descriptor).toMatchObject({ kind: 'legacy', offset: 4096, size: 65536, version: 1 });
            expect(exported.fds).toHaveLength(0);
            // In the exporting process the descriptor opens as an alias, not as CUDA_ERROR_INVALID_CONTEXT.
            const alias = __addDisposableResource(env_1, await (0, lib_1.openSharedMemory)(exported.descriptor), false);
            expect(alias.path).toBe('alias');
            expect(alias.address).toBe(buffer.address + 4096n);
            (0, bytes_1.expectBytes)(read(alias), data.subarray(4096, 4096 + 65536));
            const r = await withChild(`
      const { descriptor } = (await next()).payload;
      const a = await cuda.openSharedMemory(descriptor);
      const b = await cuda.openSharedMemory(JSON.parse(JSON.stringify(descriptor)));
      const ok = equal(readBytes(a), pattern(1 << 20, 1).subarray(4096, 4096 + 65536));
      cuda.copy(a, pattern(65536, 2));
      const own = cuda.DeviceBuffer.alloc(8192);
      cuda.copy(own, pattern(8192, 3));
      const mine = cuda.shareMemory(own, { offset: 1024, bytes: 4096 });
      await ch.send({ step: 'read', ok, path: a.path, size: a.size, deduplicated: a.address === b.address, descriptor: mine.descriptor });
      await next();  // done: the parent has closed its view of our memory
      a.dispose(); b.dispose(); mine.dispose(); own.dispose();`, async (ch, started) => {
                await ch.send({ descriptor: exported.descriptor });
                const reply = await step(ch, 'read', started);
                expect(reply).toMatchObject({ ok: true, path: 'legacy', size: 65536, deduplicated: true });
                // The child's write landed in our buffer, at the interior offset.
                (0, bytes_1.expectBytes)(read(buffer, 4096, 65536), pattern(65536, 2));
                (0, bytes_1.expectBytes)(read(buffer, 0, 4096), data.subarray(0, 4096));
                // The child's memory, opened here.
                const theirs = await (0, lib_1.openSharedMemory)(reply.descriptor);
                expect(theirs.path).toBe('legacy');
                expect(theirs.size).toBe(4096);
                (0, bytes_1.expectBytes)(read(theirs), pattern(8192, 3).subarray(1024, 5120));
                theirs.dispose();
                await ch.send({ step: 'done' });
            });
            succeeded(r);
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    });
    test('legacy IPC events order GPU work across the two processes, both ways', async () => {
        const env_2 = { stack: [], error: void 0, hasError: false };
        try {
            const data = __addDisposableResource(env_2, lib_1.DeviceBuffer.alloc(4096), false);
            (0, lib_1.fill)(data, 0);
            const flag = __addDisposableResource(env_2, lib_1.DeviceBuffer.alloc(64), false);
            (0, lib_1.fill)(flag, 0);
            const event = __addDisposableResource(env_2, lib_1.Event.create({ interprocess: true }), false);
            const exported = __addDisposableResource(env_2, (0, lib_1.shareMemory)(data), false);
            const eventDescriptor = (0, lib_1.shareEvent)(event);
            expect(eventDescriptor).toMatchObject({ format: 'cuda-driver/shared-event', version: 1 });
            // In this process the descriptor opens as a second handle on the same event.
            const again = __addDisposableResource(env_2, (0, lib_1.openSharedEvent)(eventDescriptor), false);
            expect(again.interprocess).toBe(true);
            const s = __addDisposableResource(env_2, lib_1.Stream.create(), false);
            const signal = __addDisposableResource(env_2, lib_1.Stream.create(), false);
            const pinned = __addDisposableResource(env_2, lib_1.HostBuffer.alloc(4096), false);
            const r = await withChild(`
      const setup = (await next()).payload;
      const memory = await cuda.openSharedMemory(setup.memory);
      const theirs = cuda.openSharedEvent(setup.event);
      const mine = cuda.Event.create({ interprocess: true });
      await ch.send({ step: 'ready', event: cuda.shareEvent(mine) });
      await next();  // recorded
      const s = cuda.Stream.create();
      const pinned = cuda.HostBuffer.alloc(4096);
      s.waitEvent(theirs);
      cuda.copy(pinned, memory, { stream: s });
      const pending = !theirs.query();
      await ch.send({ step: 'waiting', pending });
      await s.synchronize();
      const filled = pinned.view(Uint8Array).every((b) => b === 0xab);
      cuda.fill(memory, 0xcd, { stream: s });
      mine.record(s);
      await ch.send({ step: 'recorded', filled });
      await next();  // done: the parent no longer uses our event
      await s.synchronize();
      [memory, theirs, mine, s, pinned].forEach((x) => x.dispose());`, async (ch, started) => {
                const env_3 = { stack: [], error: void 0, hasError: false };
                try {
                    await ch.send({ memory: exported.descriptor, event: eventDescriptor });
                    const ready = await step(ch, 'ready', started);
                    const theirs = __addDisposableResource(env_3, (0, lib_1.openSharedEvent)(ready.event), false);
                    // Our stream is held until the flag is set; the fill and the event come after.
                    s.waitValue32(flag, 1, { condition: 'eq' });
                    (0, lib_1.fill)(data, 0xab, { stream: s });
                    event.record(s);
                    await ch.send({ step: 'recorded' });
                    const waiting = await step(ch, 'waiting', started);
                    expect(waiting.pending).toBe(true); // the child saw our event still pending
                    expect(event.query()).toBe(false);
                    signal.writeValue32(flag, 1);
                    const seen = await step(ch, 'recorded', started);
                    expect(seen.filled).toBe(true); // the child's copy ran after our fill
                    // The other way: our stream waits for the child's event, then reads its fill.
                    s.waitEvent(theirs);
                    (0, lib_1.copy)(pinned, data, { stream: s });
                    await s.synchronize();
                    expect(pinned.view(Uint8Array).every((b) => b === 0xcd)).toBe(true);
                    theirs.dispose();
                    await ch.send({ step: 'done' });
                }
                catch (e_3) {
                    env_3.error = e_3;
                    env_3.hasError = true;
                }
                finally {
                    __disposeResources(env_3);
                }
            });
            succeeded(r);
        }
        catch (e_2) {
            env_2.error = e_2;
            env_2.hasError = true;
        }
        finally {
            __disposeResources(env_2);
        }
    });
    // Each round shares fresh memory both ways and disposes everything; the
    // descriptor count after each round must not grow (the first round may open
    // descriptors the driver keeps for the process).
    const rounds = 3;
    test('virtual memory through POSIX descriptors, both ways, with a growable buffer of two pieces; no descriptor leaks', async () => {
        const g = (0, lib_1.allocationGranularity)();
        const counts = [];
        const r = await withChild(`
      for (let round = 0; round < ${rounds}; round++) {
        const shared = await cuda.receiveSharedMemory(ch);
        const ok = equal(readBytes(shared), pattern(shared.size, 4 + round));
        cuda.copy(shared, pattern(shared.size / 2, 5 + round), { dstOffset: shared.size / 2 });
        await ch.send({ step: 'read', ok, path: shared.path, size: shared.size });
        const g = cuda.allocationGranularity();
        const buffer = cuda.GrowableBuffer.create({ maxSize: 8 * g, size: g, handleTypes: ['posixFileDescriptor'] });
        buffer.resize(2 * g);  // a second piece of physical memory
        cuda.copy(buffer, pattern(2 * g, 6 + round));
        const mine = cuda.shareMemory(buffer);
        await mine.send(ch);
        await next();  // next: the parent is done with our memory
        [shared, mine, buffer].forEach((x) => x.dispose());
        await ch.send({ step: 'round-done' });
      }`, async (ch, started) => {
            const round = async (n) => {
                const env_4 = { stack: [], error: void 0, hasError: false };
                try {
                    const mapping = __addDisposableResource(env_4, lib_1.Mapping.alloc(2 * g, { handleTypes: ['posixFileDescriptor'] }), false);
                    const data = pattern(mapping.size, 4 + n);
                    (0, lib_1.copy)(mapping, data);
                    let importedAddress;
                    {
                        const env_5 = { stack: [], error: void 0, hasError: false };
                        try {
                            const exported = __addDisposableResource(env_5, (0, lib_1.shareMemory)(mapping), false);
                            expect(exported.descriptor).toMatchObject({ kind: 'vmm', handleType: 'posixFileDescriptor', offset: 0, size: 2 * g });
                            expect(exported.fds).toHaveLength(1);
                            await exported.send(ch);
                            const reply = await step(ch, 'read', started);
                            expect(reply).toMatchObject({ ok: true, path: 'vmm', size: 2 * g });
                            (0, bytes_1.expectBytes)(read(mapping, g), pattern(g, 5 + n));
                            (0, bytes_1.expectBytes)(read(mapping, 0, g), data.subarray(0, g));
                            const theirs = await (0, lib_1.receiveSharedMemory)(ch);
                            expect(theirs.path).toBe('vmm');
                            expect(theirs.descriptor?.kind === 'vmm' && theirs.descriptor.segments.length).toBe(2);
                            (0, bytes_1.expectBytes)(read(theirs), pattern(2 * g, 6 + n));
                            importedAddress = theirs.address;
                            theirs.dispose();
                        }
                        catch (e_4) {
                            env_5.error = e_4;
                            env_5.hasError = true;
                        }
                        finally {
                            __disposeResources(env_5);
                        }
                    }
                    // Our mapping of the child's memory is gone.
                    expect(() => lib_1.PhysicalAllocation.retain(importedAddress)).toThrow(lib_1.CudaError);
                    await ch.send({ step: 'next' });
                    await step(ch, 'round-done', started);
                }
                catch (e_5) {
                    env_4.error = e_5;
                    env_4.hasError = true;
                }
                finally {
                    __disposeResources(env_4);
                }
            };
            for (let n = 0; n < rounds; n++) {
                await round(n);
                counts.push(openFds());
            }
        });
        succeeded(r);
        expect(counts.slice(1)).toEqual(counts.slice(1).map(() => counts[0]));
    });
    test('pool memory through the pool\'s descriptor and exported pointers, both ways; the same pointer imported twice is one mapping; no descriptor leaks', async () => {
        const env_6 = { stack: [], error: void 0, hasError: false };
        try {
            const pool = __addDisposableResource(env_6, lib_1.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] }), false);
            const s = __addDisposableResource(env_6, lib_1.Stream.create(), false);
            const counts = [];
            const r = await withChild(`
      const pool = cuda.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] });
      const s = cuda.Stream.create();
      for (let round = 0; round < ${rounds}; round++) {
        const a = await cuda.receiveSharedMemory(ch);
        const b = await cuda.receiveSharedMemory(ch);
        const c = await cuda.receiveSharedMemory(ch);
        const ok = equal(readBytes(a), pattern(1 << 20, 7 + round).subarray(4096, 4096 + 65536));
        const secondOk = readBytes(c).every((x) => x === 0x77);
        cuda.copy(a, pattern(65536, 8 + round));
        await ch.send({ step: 'read', ok, secondOk, path: a.path, deduplicated: a.address === b.address });
        const own = cuda.DeviceBuffer.allocAsync(1 << 16, s, { pool });
        cuda.copy(own, pattern(1 << 16, 9 + round), { stream: s });
        await s.synchronize();
        const mine = cuda.shareMemory(own);
        await mine.send(ch);
        await next();  // next: the parent freed its import of our memory
        // Imports are freed before their exporter frees the memory (the driver's rule).
        [a, b, c, mine, own].forEach((x) => x.dispose());
        await s.synchronize();
        await ch.send({ step: 'round-done' });
      }
      s.dispose(); pool.dispose();`, async (ch, started) => {
                const round = async (n) => {
                    const env_7 = { stack: [], error: void 0, hasError: false };
                    try {
                        const buffer = __addDisposableResource(env_7, lib_1.DeviceBuffer.allocAsync(1 << 20, s, { pool }), false);
                        const second = __addDisposableResource(env_7, lib_1.DeviceBuffer.allocAsync(1 << 16, s, { pool }), false);
                        (0, lib_1.copy)(buffer, pattern(1 << 20, 7 + n), { stream: s });
                        (0, lib_1.fill)(second, 0x77, { stream: s });
                        await s.synchronize();
                        {
                            const env_8 = { stack: [], error: void 0, hasError: false };
                            try {
                                const exported = __addDisposableResource(env_8, (0, lib_1.shareMemory)(buffer, { offset: 4096, bytes: 65536 }), false);
                                expect(exported.descriptor).toMatchObject({ kind: 'pool', handleType: 'posixFileDescriptor', offset: 4096, size: 65536 });
                                expect(exported.fds).toHaveLength(1);
                                const exportedSecond = __addDisposableResource(env_8, (0, lib_1.shareMemory)(second), false);
                                await exported.send(ch);
                                await exported.send(ch);
                                await exportedSecond.send(ch);
                                const reply = await step(ch, 'read', started);
                                expect(reply).toMatchObject({ ok: true, secondOk: true, path: 'pool', deduplicated: true });
                                (0, bytes_1.expectBytes)(read(buffer, 4096, 65536), pattern(65536, 8 + n));
                                const theirs = await (0, lib_1.receiveSharedMemory)(ch);
                                expect(theirs.path).toBe('pool');
                                (0, bytes_1.expectBytes)(read(theirs), pattern(1 << 16, 9 + n));
                                theirs.dispose();
                            }
                            catch (e_7) {
                                env_8.error = e_7;
                                env_8.hasError = true;
                            }
                            finally {
                                __disposeResources(env_8);
                            }
                        }
                        await ch.send({ step: 'next' });
                        await step(ch, 'round-done', started); // the child's imports of our memory are freed: ours may go
                    }
                    catch (e_8) {
                        env_7.error = e_8;
                        env_7.hasError = true;
                    }
                    finally {
                        __disposeResources(env_7);
                    }
                };
                for (let n = 0; n < rounds; n++) {
                    await round(n);
                    await s.synchronize();
                    counts.push(openFds());
                }
            });
            succeeded(r);
            expect(counts.slice(1)).toEqual(counts.slice(1).map(() => counts[0]));
        }
        catch (e_6) {
            env_6.error = e_6;
            env_6.hasError = true;
        }
        finally {
            __disposeResources(env_6);
        }
    });
    test('virtual memory outlives its exporter: the importer reads it after the exporter is killed', async () => {
        const g = (0, lib_1.allocationGranularity)();
        let theirs;
        const r = await withChild(`
      const m = cuda.Mapping.alloc(2 * cuda.allocationGranularity(), { handleTypes: ['posixFileDescriptor'] });
      cuda.copy(m, pattern(m.size, 12));
      const exported = cuda.shareMemory(m);
      await exported.send(ch);
      await next();  // never comes: the parent kills us`, async (ch, started) => {
            theirs = await (0, lib_1.receiveSharedMemory)(ch);
            (0, bytes_1.expectBytes)(read(theirs), pattern(2 * g, 12));
            started.child.kill('SIGKILL');
            await started.result;
        });
        expect(r.signal).toBe('SIGKILL');
        try {
            (0, bytes_1.expectBytes)(read(theirs), pattern(2 * g, 12));
            (0, lib_1.copy)(theirs, pattern(2 * g, 13));
            (0, bytes_1.expectBytes)(read(theirs), pattern(2 * g, 13));
        }
        finally {
            theirs.dispose();
        }
    });
});
(0, tiers_1.describeGpu)('what cannot be shared', () => {
    test('each refusal says why and what to do instead', () => {
        const env_9 = { stack: [], error: void 0, hasError: false };
        try {
            const s = __addDisposableResource(env_9, lib_1.Stream.create(), false);
            const managed = __addDisposableResource(env_9, lib_1.DeviceBuffer.allocManaged(4096), false);
            const fromDefaultPool = __addDisposableResource(env_9, lib_1.DeviceBuffer.allocAsync(4096, s), false);
            const host = __addDisposableResource(env_9, lib_1.HostBuffer.alloc(4096), false);
            const plainMapping = __addDisposableResource(env_9, lib_1.Mapping.alloc(4096), false);
            const timed = __addDisposableResource(env_9, lib_1.Event.create({ timing: true }), false);
            const plainEvent = __addDisposableResource(env_9, lib_1.Event.create(), false);
            const reasons = [
                [managed, 'managed-memory'],
                [fromDefaultPool, 'pool-not-exportable'],
                [host, 'host-memory'],
                [plainMapping, 'handle-type-not-requested'],
            ].map(([memory, reason]) => {
                try {
                    (0, lib_1.shareMemory)(memory);
                    return 'shared';
                }
                catch (error) {
                    expect(error).toBeInstanceOf(lib_1.SharingUnsupportedError);
                    expect(error.remedy.length).toBeGreaterThan(10);
                    return error.reason === reason ? reason : `${reason}? got ${error.reason}`;
                }
            });
            expect(reasons).toEqual(['managed-memory', 'pool-not-exportable', 'host-memory', 'handle-type-not-requested']);
            expect(() => (0, lib_1.shareEvent)(timed)).toThrow(lib_1.SharingUnsupportedError);
            expect(() => (0, lib_1.shareEvent)(plainEvent)).toThrow(/interprocess/);
        }
        catch (e_9) {
            env_9.error = e_9;
            env_9.hasError = true;
        }
        finally {
            __disposeResources(env_9);
        }
    });
    test('fabric handles: used where the device and an IMEX channel allow, refused with the reason elsewhere', async () => {
        const env_10 = { stack: [], error: void 0, hasError: false };
        try {
            const support = (0, lib_1.fabricSupport)();
            if (!support.supported) {
                const env_11 = { stack: [], error: void 0, hasError: false };
                try {
                    expect(support.reason).toMatch(/fabric|IMEX/);
                    const pool = __addDisposableResource(env_11, lib_1.MemoryPool.create({ handleTypes: ['posixFileDescriptor'] }), false);
                    expect(() => (0, lib_1.exportPool)(pool, { handleType: 'fabric' })).toThrow(lib_1.SharingUnsupportedError);
                    const m = __addDisposableResource(env_11, lib_1.Mapping.alloc(4096, { handleTypes: ['posixFileDescriptor'] }), false);
                    expect(() => (0, lib_1.shareMemory)(m, { handleType: 'fabric' })).toThrow(lib_1.SharingUnsupportedError);
                    return;
                }
                catch (e_10) {
                    env_11.error = e_10;
                    env_11.hasError = true;
                }
                finally {
                    __disposeResources(env_11);
                }
            }
            const g = (0, lib_1.allocationGranularity)({ handleTypes: ['fabric'] });
            const m = __addDisposableResource(env_10, lib_1.Mapping.alloc(g, { handleTypes: ['fabric'] }), false);
            (0, lib_1.copy)(m, pattern(g, 14));
            const exported = __addDisposableResource(env_10, (0, lib_1.shareMemory)(m, { handleType: 'fabric' }), false);
            expect(exported.fds).toHaveLength(0);
            const r = await withChild(`
      const shared = await cuda.openSharedMemory((await next()).payload);
      await ch.send({ step: 'read', ok: equal(readBytes(shared), pattern(shared.size, 14)) });
      shared.dispose();`, async (ch, started) => {
                await ch.send(exported.descriptor);
                expect(await step(ch, 'read', started)).toMatchObject({ ok: true });
            });
            succeeded(r);
        }
        catch (e_11) {
            env_10.error = e_11;
            env_10.hasError = true;
        }
        finally {
            __disposeResources(env_10);
        }
    });
});
//# sourceMappingURL=ipc.test.js.map