// Running the fuzzer (test/fuzz) in a child process. After a crash the run is
// repeated with a trace, to name the call it died in.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FuzzProcessReport } from '../fuzz/main';
import { ChildResult, runChild } from './child';

export interface FuzzProcess extends ChildResult<FuzzProcessReport> {
  /** The call the child was making when it died (from the traced repeat). */
  crashedIn?: string;
}

/** Runs test/fuzz/main.ts with these FUZZ_* and driver settings. */
export function runFuzzProcess(env: Record<string, string>, timeoutMs = 600000): FuzzProcess {
  const result: FuzzProcess = runChild<FuzzProcessReport>('fuzz', env, timeoutMs);
  if (result.status !== 0 || result.signal) {
    const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-fuzz-')), 'trace');
    runChild('fuzz', { ...env, FUZZ_TRACE: trace }, timeoutMs);
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
