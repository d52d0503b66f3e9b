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
Object.defineProperty(exports, "__esModule", { value: true });
exports.distPath = void 0;
exports.runScript = runScript;
exports.startScript = startScript;
exports.fakeDriver = fakeDriver;
exports.fakeNvrtc = fakeNvrtc;
exports.fdFlood = fdFlood;
// Running package code in a fresh Node process: the driver loads once per
// process, so each loader scenario (no library, old driver, no device) needs its own.
const child_process_1 = require("child_process");
const fs = __importStar(require("fs"));
const os = __importStar(require("os"));
const path = __importStar(require("path"));
exports.distPath = path.resolve(__dirname, '../../dist');
/**
 * Runs `body` in a new node process with `cuda` bound to the package and a
 * `report(value)` function that sends a JSON value back.
 */
function runScript(body, env = {}, args = []) {
    const r = (0, child_process_1.spawnSync)(process.execPath, [...args, '-e', scriptSource(body)], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
        timeout: 60000,
    });
    return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, report: parseReport(r.stdout) };
}
/** runScript without waiting: the test talks to the running process meanwhile. */
function startScript(body, env = {}, args = []) {
    const child = (0, child_process_1.spawn)(process.execPath, [...args, '-e', scriptSource(body)], { env: { ...process.env, ...env }, timeout: 60000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const result = new Promise((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr, report: parseReport(stdout) }));
    });
    return { child, result };
}
function scriptSource(body) {
    return `const cuda = require(${JSON.stringify(exports.distPath)});
const report = (v) => process.stdout.write('\\n@@' + JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() : x) + '\\n');
${body}`;
}
function parseReport(stdout) {
    const line = stdout.split('\n').find((l) => l.startsWith('@@'));
    return line ? JSON.parse(line.slice(2)) : undefined;
}
/** Builds test/fixtures/fake-libcuda.c (once per source version) and returns its path. */
function fakeDriver(variant = 'normal') {
    const defines = variant === 'no-proc-address' ? ['-DFAKE_NO_PROC_ADDRESS'] : [];
    return buildFixture('fake-libcuda.c', `fake-${variant}`, '.so', ['-shared', '-fPIC', ...defines]);
}
/** Builds test/fixtures/fake-libnvrtc.c (once per source version) and returns its path. */
function fakeNvrtc(variant = 'normal') {
    const defines = variant === 'incomplete' ? ['-DFAKE_NVRTC_INCOMPLETE'] : [];
    return buildFixture('fake-libnvrtc.c', `fake-nvrtc-${variant}`, '.so', ['-shared', '-fPIC', ...defines]);
}
/** Builds test/fixtures/fd-flood.c, a program that breaks the descriptor channel's rules. */
function fdFlood() {
    return buildFixture('fd-flood.c', 'fd-flood', '', []);
}
// Compiles a C fixture once per source version, into the temporary directory.
function buildFixture(file, name, suffix, flags) {
    const source = path.resolve(__dirname, '../fixtures', file);
    const stamp = fs.statSync(source).mtimeMs.toString(36);
    const out = path.join(os.tmpdir(), `cuda-driver-${name}-${stamp}${suffix}`);
    if (!fs.existsSync(out)) {
        const tmp = `${out}.${process.pid}`;
        (0, child_process_1.execFileSync)('cc', [...flags, '-O1', '-o', tmp, source]);
        fs.renameSync(tmp, out);
    }
    return out;
}
//# sourceMappingURL=subprocess.js.map