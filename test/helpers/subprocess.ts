// Running package code in a fresh Node process: the driver loads once per
// process, so each loader scenario (no library, old driver, no device) needs its own.
import { ChildProcess, execFileSync, spawn, spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const distPath = path.resolve(__dirname, '../../dist');
/** The addon binary the package loads here (node-gyp-build's choice, which CUDA_DRIVER_PREBUILD can move). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const addonPath: string = require('node-gyp-build').path(path.resolve(__dirname, '../..'));

export interface ScriptResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The JSON the script printed with `report(...)`. */
  report: any;
}

/**
 * Runs `body` in a new node process with `cuda` bound to the package and a
 * `report(value)` function that sends a JSON value back.
 */
export function runScript(body: string, env: Record<string, string | undefined> = {}, args: string[] = []): ScriptResult {
  const r = spawnSync(process.execPath, [...args, '-e', scriptSource(body)], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60000,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, report: parseReport(r.stdout) };
}

/** A script started with startScript: the process, and its result once it has exited. */
export interface StartedScript {
  child: ChildProcess;
  result: Promise<ScriptResult>;
}

/** runScript without waiting: the test talks to the running process meanwhile. */
export function startScript(body: string, env: Record<string, string | undefined> = {}, args: string[] = []): StartedScript {
  const child = spawn(process.execPath, [...args, '-e', scriptSource(body)], { env: { ...process.env, ...env }, timeout: 60000 });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const result = new Promise<ScriptResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr, report: parseReport(stdout) }));
  });
  return { child, result };
}

/** How a script ended, and how long after it printed its marker. */
export interface TimedExit {
  status: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the marker reaching this process to the process closing; -1 when the marker never came. */
  exitMs: number;
  stderr: string;
  report: any;
}

/**
 * Runs body (with --expose-gc) like startScript, and times its exit from the
 * moment `marker` shows up in its stdout. The stdout is searched as a whole, so
 * a marker split across chunks is still seen.
 */
export async function timeExit(body: string, env: Record<string, string | undefined>, marker: string): Promise<TimedExit> {
  const started = startScript(body, env, ['--expose-gc']);
  let stdout = '';
  let marked = 0;
  started.child.stdout!.on('data', (d: string | Buffer) => {
    if (marked) return;
    stdout += d.toString();
    if (stdout.includes(marker)) marked = Date.now();
  });
  const r = await started.result;
  return { status: r.status, signal: r.signal, exitMs: marked ? Date.now() - marked : -1, stderr: r.stderr, report: r.report };
}

/** The process said it was exiting (the marker came) and then exited within boundMs. */
export function expectPromptExit(r: TimedExit, boundMs: number): void {
  expect(r.exitMs).toBeGreaterThanOrEqual(0);
  expect(r.exitMs).toBeLessThan(boundMs);
}

function scriptSource(body: string): string {
  return `const cuda = require(${JSON.stringify(distPath)});
const report = (v) => process.stdout.write('\\n@@' + JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() : x) + '\\n');
${body}`;
}

/** The JSON of the first line after "@@" in a child's stdout (what report(...) and the reliability programs print). */
export function parseReport(stdout: string): any {
  const line = stdout.split('\n').find((l) => l.startsWith('@@'));
  return line ? JSON.parse(line.slice(2)) : undefined;
}

/** Builds test/fixtures/fake-libcuda.c (once per source version) and returns its path. */
export function fakeDriver(variant: 'normal' | 'no-proc-address' = 'normal'): string {
  const defines = variant === 'no-proc-address' ? ['-DFAKE_NO_PROC_ADDRESS'] : [];
  return buildFixture('fake-libcuda.c', `fake-${variant}`, '.so', ['-shared', '-fPIC', ...defines]);
}

/** Builds test/fixtures/fake-libnvrtc.c (once per source version) and returns its path. */
export function fakeNvrtc(variant: 'normal' | 'incomplete' = 'normal'): string {
  const defines = variant === 'incomplete' ? ['-DFAKE_NVRTC_INCOMPLETE'] : [];
  return buildFixture('fake-libnvrtc.c', `fake-nvrtc-${variant}`, '.so', ['-shared', '-fPIC', ...defines]);
}

/**
 * Builds test/fixtures/fake-libnccl.c (once per source version) and returns its
 * path: 'incomplete' lacks a required entry point, 'before-2.27' only ncclCommShrink.
 */
export function fakeNccl(variant: 'normal' | 'incomplete' | 'before-2.27' = 'normal'): string {
  const defines = { normal: [], incomplete: ['-DFAKE_NCCL_INCOMPLETE'], 'before-2.27': ['-DFAKE_NCCL_NO_SHRINK'] }[variant];
  return buildFixture('fake-libnccl.c', `fake-nccl-${variant}`, '.so', ['-shared', '-fPIC', ...defines]);
}

/**
 * Builds test/fixtures/fault-libcuda.cc, the fault-injecting interposer, against
 * the CUDA headers (CUDA_PATH, else /usr/local/cuda) and the binding's function list.
 */
export function faultDriver(): string {
  const cuda = process.env.CUDA_PATH || '/usr/local/cuda';
  const native = path.resolve(__dirname, '../../native');
  return buildFixture('fault-libcuda.cc', 'fault-libcuda', '.so',
    ['-std=c++17', '-shared', '-fPIC', `-I${cuda}/include`, `-I${native}`], 'c++', [path.join(native, 'driver/functions.h')], ['-ldl']);
}

/** Builds test/fixtures/fd-flood.c, a program that breaks the descriptor channel's rules. */
export function fdFlood(): string {
  return buildFixture('fd-flood.c', 'fd-flood', '', []);
}

// Compiles a C (or C++) fixture once per content of its sources and flags, into
// the temporary directory: every checkout of the same sources (clones, CI runs)
// shares the one build.
function buildFixture(file: string, name: string, suffix: string, flags: string[], compiler = 'cc', inputs: string[] = [],
  libraries: string[] = []): string {
  const source = path.resolve(__dirname, '../fixtures', file);
  const hash = createHash('sha256').update(JSON.stringify([compiler, flags, libraries]));
  for (const f of [source, ...inputs]) hash.update(fs.readFileSync(f));
  const stamp = hash.digest('hex').slice(0, 16);
  const out = path.join(os.tmpdir(), `cuda-driver-${name}-${stamp}${suffix}`);
  if (!fs.existsSync(out)) {
    const tmp = `${out}.${process.pid}`;
    execFileSync(compiler, [...flags, '-O1', '-o', tmp, source, ...libraries]);
    fs.renameSync(tmp, out);
  }
  return out;
}
