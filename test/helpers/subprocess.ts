// Running package code in a fresh Node process: the driver loads once per
// process, so each loader scenario (no library, old driver, no device) needs its own.
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const distPath = path.resolve(__dirname, '../../dist');

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
  const script = `const cuda = require(${JSON.stringify(distPath)});
const report = (v) => process.stdout.write('\\n@@' + JSON.stringify(v, (k, x) => typeof x === 'bigint' ? x.toString() : x) + '\\n');
${body}`;
  const r = spawnSync(process.execPath, [...args, '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60000,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@'));
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, report: line ? JSON.parse(line.slice(2)) : undefined };
}

/** Builds test/fixtures/fake-libcuda.c (once per source version) and returns its path. */
export function fakeDriver(variant: 'normal' | 'no-proc-address' = 'normal'): string {
  return buildFixture('fake-libcuda.c', variant, variant === 'no-proc-address' ? ['-DFAKE_NO_PROC_ADDRESS'] : []);
}

/** Builds test/fixtures/fake-libnvrtc.c (once per source version) and returns its path. */
export function fakeNvrtc(variant: 'normal' | 'incomplete' = 'normal'): string {
  return buildFixture('fake-libnvrtc.c', variant, variant === 'incomplete' ? ['-DFAKE_NVRTC_INCOMPLETE'] : []);
}

function buildFixture(file: string, variant: string, defines: string[]): string {
  const source = path.resolve(__dirname, '../fixtures', file);
  const stamp = fs.statSync(source).mtimeMs.toString(36);
  const out = path.join(os.tmpdir(), `cuda-driver-${path.basename(file, '.c')}-${variant}-${stamp}.so`);
  if (!fs.existsSync(out)) {
    const tmp = `${out}.${process.pid}`;
    execFileSync('cc', ['-shared', '-fPIC', '-O1', ...defines, '-o', tmp, source]);
    fs.renameSync(tmp, out);
  }
  return out;
}
