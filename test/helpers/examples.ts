// Running an example (examples/<name>.js) as a user would: `node examples/<name>.js`
// from the package root, in its own process.
import { spawn } from 'child_process';
import * as fs from 'fs';
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

/** The README's graph example ("A graph in twenty lines"), as the ES module it is. */
export function readmeExample(): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.split('\n## A graph in twenty lines\n')[1];
  const block = section && /```js\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no js block under "A graph in twenty lines"');
  return block[1];
}

/**
 * Writes source as a module of a throwaway project that has this package
 * installed (a link in node_modules), as a user's project would; returns its path.
 */
export function userModule(dir: string, name: string, source: string): string {
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const link = path.join(dir, 'node_modules', 'cuda-driver');
  if (!fs.existsSync(link)) fs.symlinkSync(root, link, 'dir');
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  return file;
}
