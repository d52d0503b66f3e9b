"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.callCounters = exports.headerVersion = void 0;
exports.cudaVersion = cudaVersion;
exports.driverStatus = driverStatus;
exports.driverFunctions = driverFunctions;
// The driver itself: whether it could be loaded, its version, the functions it
// provides, and the opt-in call counters.
const native_1 = require("./native");
function cudaVersion(raw) {
    const major = Math.floor(raw / 1000);
    const minor = Math.floor((raw % 1000) / 10);
    return Object.freeze({ raw, major, minor, toString: () => `${major}.${minor}` });
}
/**
 * Loads the driver if that has not been tried yet and says what is there. Never
 * throws: a machine without a driver or a device gets an answer, not an error.
 */
function driverStatus() {
    const s = native_1.native.driverStatus();
    const tried = s.stage === 'init-failed' || s.stage === 'ready';
    return Object.freeze({
        available: s.stage === 'ready',
        stage: s.stage === 'not-loaded' ? 'library-missing' : s.stage,
        libraryPath: s.libraryPath,
        detail: s.detail,
        initResult: tried ? { code: s.initResult, name: s.initResultName } : null,
        driverVersion: s.driverVersion ? cudaVersion(s.driverVersion) : null,
        headerVersion: cudaVersion(s.headerVersion),
    });
}
/** The CUDA version of the headers the addon was built against. */
exports.headerVersion = cudaVersion(native_1.native.headerVersion);
/** Every driver function the package binds, and whether this driver has it. */
function driverFunctions() {
    return native_1.native.driverFunctions().map(([name, version, available]) => ({
        name,
        requiredVersion: cudaVersion(version),
        available,
    }));
}
/**
 * Counts of driver calls and failed calls per function, for the whole process.
 * Off by default (costing one relaxed load per call); on from the start when the
 * environment variable CUDA_DRIVER_COUNTERS=1 is set, or from enable().
 */
exports.callCounters = {
    enable() {
        native_1.native.setCounting(true);
    },
    disable() {
        native_1.native.setCounting(false);
    },
    get enabled() {
        return native_1.native.isCounting();
    },
    /** Functions called at least once, most-called first. */
    read() {
        return native_1.native
            .readCounters()
            .map(([name, calls, errors]) => ({ name, calls, errors }))
            .sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
    },
    reset() {
        native_1.native.resetCounters();
    },
    /** A text table of read(). */
    summary() {
        const rows = exports.callCounters.read();
        const width = Math.max(8, ...rows.map((r) => r.name.length));
        const total = rows.reduce((n, r) => n + r.calls, 0);
        const lines = rows.map((r) => `${r.name.padEnd(width)} ${String(r.calls).padStart(10)} ${String(r.errors).padStart(8)}`);
        return [`${'function'.padEnd(width)} ${'calls'.padStart(10)} ${'errors'.padStart(8)}`, ...lines,
            `${rows.length} functions, ${total} calls`].join('\n');
    },
};
//# sourceMappingURL=driver.js.map