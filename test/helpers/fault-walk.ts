// The fault-injection walk: the scenario of test/fault once under the
// interposer to count its driver calls, then once per call with that call made
// to fail (two processes at a time). Each step reports what the failure did.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FaultStepReport } from '../fault/main';
import { startChild } from './child';

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

async function runStep(options: WalkOptions, at: number, extra: Record<string, string> = {}): Promise<FaultStep & { log: string[] }> {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-fault-')), 'log');
  const env = {
    CUDA_DRIVER_LIBRARY: options.interposer, FAULT_DRIVER_LIBRARY: options.driver, FAULT_AT: String(at),
    FAULT_CODE: String(options.code ?? 2), FAULT_LOG: log, FAULT_ENV: options.env, ...extra,
  };
  const { status, signal, stderr, report } = await startChild<FaultStepReport>('fault', env, 120000);
  const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
  fs.rmSync(path.dirname(log), { recursive: true, force: true });
  const fault = lines.find((l) => l.startsWith('fault '));
  return { at, injected: fault?.split(' ')[2], status, signal, stderr, report, log: lines };
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
