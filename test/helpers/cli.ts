// Running the cuda-driver command (bin/cuda-driver.js) as a user would, in its own process.
import { spawnSync } from 'child_process';
import * as path from 'path';
import { root } from './examples';

export const cliBin = path.join(root, 'bin', 'cuda-driver.js');

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `cuda-driver ...args` with env added to this process's, from cwd (the package root by default). */
export function runCli(args: string[], env: Record<string, string | undefined> = {},
  { cwd = root, timeoutMs = 60000 }: { cwd?: string; timeoutMs?: number } = {}): CliRun {
  const r = spawnSync(process.execPath, [cliBin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutMs });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
