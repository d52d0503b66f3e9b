// Running the fuzzer (test/fuzz) in a child process: the driver it gets (stand-in,
// none or real) is that process's alone, and a crash kills the child, not the
// test. After a crash the run is repeated with a trace, to name the call.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FuzzProcessReport } from '../fuzz/main';

const root = path.resolve(__dirname, '../..');

export interface FuzzProcess {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  report: FuzzProcessReport | undefined;
  /** The call the child was making when it died (from the traced repeat). */
  crashedIn?: string;
}

/** Runs test/fuzz/main.ts with these FUZZ_* and driver settings. */
export function runFuzzProcess(env: Record<string, string>, timeoutMs = 600000): FuzzProcess {
  const run = (extra: Record<string, string>) => spawnSync(process.execPath, ['--expose-gc', '-r', path.join(root, 'test/helpers/ts-require.js'),
    path.join(root, 'test/fuzz/main.ts')], { encoding: 'utf8', env: { ...process.env, ...env, ...extra }, timeout: timeoutMs, maxBuffer: 64 << 20 });
  const r = run({});
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@'));
  const result: FuzzProcess = { status: r.status, signal: r.signal, stderr: r.stderr, report: line ? JSON.parse(line.slice(2)) : undefined };
  if (r.status !== 0 || r.signal) {
    const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-fuzz-')), 'trace');
    run({ FUZZ_TRACE: trace });
    const calls = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').trim().split('\n') : [];
    result.crashedIn = calls[calls.length - 1];
  }
  return result;
}

/** A readable account of a run that went wrong. */
export function describeFuzzFailure(p: FuzzProcess): string {
  const lines = [`status ${p.status}, signal ${p.signal}`];
  if (p.crashedIn) lines.push(`crashed in: ${p.crashedIn}`);
  if (p.report) for (const v of p.report.violations) lines.push(`${v.kind} in ${v.target}: ${v.detail}`);
  lines.push(p.stderr.slice(-3000));
  return lines.join('\n');
}
