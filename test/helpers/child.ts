// Running one of the reliability programs (test/fuzz, test/soak, test/fault,
// test/workers main.ts) in a child process: the driver it gets (stand-in, none or real) is
// its own, a crash kills the child and not the test, and garbage collection can
// be forced there (--expose-gc). The program prints its report as a JSON line after "@@".
import { spawnSync } from 'child_process';
import * as path from 'path';

const root = path.resolve(__dirname, '../..');

export interface ChildResult<R> {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  report: R | undefined;
}

/** Runs test/<program>/main.ts with env added to this process's. */
export function runChild<R>(program: 'fuzz' | 'soak' | 'fault' | 'workers', env: Record<string, string>, timeoutMs = 600000): ChildResult<R> {
  const r = spawnSync(process.execPath, ['--expose-gc', '-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, `test/${program}/main.ts`)],
    { encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 64 << 20 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@'));
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, report: line ? (JSON.parse(line.slice(2)) as R) : undefined };
}
