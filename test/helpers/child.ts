// Running one of the reliability programs (test/fuzz, test/soak, test/fault,
// test/workers main.ts) in a child process: the driver it gets (stand-in, none or real) is
// its own, a crash kills the child and not the test, and garbage collection can
// be forced there (--expose-gc). The program prints its report as a JSON line after "@@".
import { spawn, spawnSync } from 'child_process';
import * as path from 'path';
import { root } from './examples';
import { parseReport } from './subprocess';

export interface ChildResult<R> {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  report: R | undefined;
}

type Program = 'fuzz' | 'soak' | 'fault' | 'workers';

const programArgs = (program: Program) => ['--expose-gc', '-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, `test/${program}/main.ts`)];

function result<R>(status: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string): ChildResult<R> {
  return { status, signal, stdout, stderr, report: parseReport(stdout) as R | undefined };
}

/** Runs test/<program>/main.ts with env added to this process's. */
export function runChild<R>(program: Program, env: Record<string, string>, timeoutMs = 600000): ChildResult<R> {
  const r = spawnSync(process.execPath, programArgs(program), { encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 });
  return result<R>(r.status, r.signal, r.stdout, r.stderr);
}

/** runChild without blocking: several children run side by side. */
export function startChild<R>(program: Program, env: Record<string, string>, timeoutMs = 600000): Promise<ChildResult<R>> {
  const child = spawn(process.execPath, programArgs(program), { env: { ...process.env, ...env }, timeout: timeoutMs });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve(result<R>(status, signal, stdout, stderr)));
  });
}
