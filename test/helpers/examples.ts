// Running an example (examples/<name>.js) as a user would: `node examples/<name>.js`
// from the package root, in its own process.
import { spawn } from 'child_process';
import * as path from 'path';

export const root = path.resolve(__dirname, '../..');

export interface ExampleRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr as they came. */
  output: string;
}

export function runExample(file: string, env: Record<string, string | undefined> = {}, timeoutMs = 120000): Promise<ExampleRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join('examples', file)], { cwd: root, env: { ...process.env, ...env }, timeout: timeoutMs });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, output }));
  });
}
