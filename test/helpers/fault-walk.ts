// The fault-injection walk: the scenario of test/fault once under the
// interposer to count its driver calls, then once per call with that call made
// to fail (two processes at a time). Each step reports what the failure did.
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FaultStepReport } from '../fault/main';

const root = path.resolve(__dirname, '../..');

export interface FaultStep {
  /** Which call failed (1-based among the counted ones) and which entry point it was. */
  at: number;
  injected: string | undefined;
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  report: FaultStepReport | undefined;
}

export interface WalkOptions {
  /** The interposer (CUDA_DRIVER_LIBRARY) and the driver behind it (FAULT_DRIVER_LIBRARY; '' for libcuda.so.1). */
  interposer: string;
  driver: string;
  env: 'stand-in' | 'gpu';
  code?: number;
  /** Walk only these steps (default: every call of the counting run). */
  steps?: number[];
  concurrency?: number;
}

function runStep(options: WalkOptions, at: number, extra: Record<string, string> = {}): Promise<FaultStep & { log: string[] }> {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-fault-')), 'log');
  const env = {
    ...process.env, CUDA_DRIVER_LIBRARY: options.interposer, FAULT_DRIVER_LIBRARY: options.driver, FAULT_AT: String(at),
    FAULT_CODE: String(options.code ?? 2), FAULT_LOG: log, FAULT_ENV: options.env, ...extra,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, 'test/fault/main.ts')],
      { env, timeout: 120000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status, signal) => {
      const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
      fs.rmSync(path.dirname(log), { recursive: true, force: true });
      const fault = lines.find((l) => l.startsWith('fault '));
      const line = stdout.split('\n').find((l) => l.startsWith('@@'));
      resolve({ at, injected: fault?.split(' ')[2], status, signal, stderr, report: line ? JSON.parse(line.slice(2)) : undefined, log: lines });
    });
  });
}

/** The counted calls of one clean pass, in order. */
export async function countCalls(options: WalkOptions): Promise<string[]> {
  const step = await runStep(options, 0, { FAULT_TRACE: '1', FAULT_PASSES: '1' });
  if (step.status !== 0 || !step.report?.first.ok) throw new Error(`the clean run failed: ${JSON.stringify(step.report)} ${step.stderr}`);
  return step.log.filter((l) => l.startsWith('call ')).map((l) => l.split(' ')[2]);
}

export async function walkFaults(options: WalkOptions): Promise<{ calls: string[]; steps: FaultStep[] }> {
  const calls = await countCalls(options);
  const todo = options.steps ?? calls.map((_, i) => i + 1);
  const steps: FaultStep[] = [];
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const at = todo[next++];
      const { log: _log, ...step } = await runStep(options, at);
      steps.push(step);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 2 }, worker));
  steps.sort((a, b) => a.at - b.at);
  return { calls, steps };
}
