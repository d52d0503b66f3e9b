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
// The disposable base, with a stand-in native handle: dispose() is idempotent,
// `using` releases at the end of the block (also on a throw), and the
// FinalizationRegistry backstop releases a handle that was never disposed.
const disposable_1 = require("../../lib/disposable");
class FakeNative {
    alive = true;
    slot = -1;
    releases = 0;
    dispose() {
        if (this.alive)
            this.releases++;
        this.alive = false;
    }
}
class Thing extends disposable_1.Disposable {
    constructor(handle) {
        super(handle);
    }
}
test('dispose is idempotent and reflected by disposed', () => {
    const handle = new FakeNative();
    const thing = new Thing(handle);
    expect(thing.disposed).toBe(false);
    thing.dispose();
    thing.dispose();
    expect(thing.disposed).toBe(true);
    expect(handle.releases).toBe(1);
});
test('using releases at the end of the block, also when it throws', () => {
    const a = new FakeNative();
    {
        const env_1 = { stack: [], error: void 0, hasError: false };
        try {
            const thing = __addDisposableResource(env_1, new Thing(a), false);
            expect(thing.disposed).toBe(false);
        }
        catch (e_1) {
            env_1.error = e_1;
            env_1.hasError = true;
        }
        finally {
            __disposeResources(env_1);
        }
    }
    expect(a.releases).toBe(1);
    const b = new FakeNative();
    expect(() => {
        const env_2 = { stack: [], error: void 0, hasError: false };
        try {
            const thing = __addDisposableResource(env_2, new Thing(b), false);
            void thing;
            throw new Error('inside');
        }
        catch (e_2) {
            env_2.error = e_2;
            env_2.hasError = true;
        }
        finally {
            __disposeResources(env_2);
        }
    }).toThrow('inside');
    expect(b.releases).toBe(1);
});
test('a handle never disposed is released after garbage collection', async () => {
    // jest runs without --expose-gc; take gc() from V8 for this test.
    const v8 = await Promise.resolve().then(() => __importStar(require('v8')));
    const vm = await Promise.resolve().then(() => __importStar(require('vm')));
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc');
    const handle = new FakeNative();
    (() => {
        new Thing(handle);
    })();
    for (let i = 0; i < 50 && handle.alive; i++) {
        gc();
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(handle.releases).toBe(1);
});
//# sourceMappingURL=disposable.test.js.map