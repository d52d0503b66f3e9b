// One step of the fault-injection walk, as a process run under the interposer
// (test/fixtures/fault-libcuda.cc through CUDA_DRIVER_LIBRARY): the scenario
// once with the fault somewhere in it, then again with none, then what is left
// unreleased (from the driver call counters). Prints a JSON line after "@@".
//   FAULT_ENV      stand-in | gpu (the kernel code to load)
//   FAULT_PASSES   1: the first pass only (the walk's counting run); default 2
import * as path from 'path';
import type * as Cuda from '../../lib';
import { drain } from '../helpers/gc';
import { resourceBalance } from '../helpers/resource-balance';
import { kernelSource, standInImage } from '../fuzz/world';
import { expectedResult, scenario } from './scenario';

export interface PassOutcome {
  ok: boolean;
  result?: number[];
  error?: { class: string; name: string; code?: number; call?: string | null; cudaError: boolean; message: string };
}

export interface FaultStepReport {
  first: PassOutcome;
  second?: PassOutcome;
  expected: number[];
  unreleased: Record<string, number>;
}

async function pass(cuda: typeof Cuda, code: string | Uint8Array): Promise<PassOutcome> {
  try {
    return { ok: true, result: await scenario(cuda, code) };
  } catch (e) {
    const error = e as Error & { result?: number; call?: string | null };
    return {
      ok: false,
      error: { class: error?.constructor?.name, name: error?.name, code: typeof error?.result === 'number' ? error.result : undefined,
        call: error?.call, cudaError: error instanceof cuda.CudaError, message: String(error?.message ?? error) },
    };
  }
}

async function main(): Promise<void> {
  const cuda: typeof Cuda = require(path.resolve(__dirname, '../../dist'));
  cuda.callCounters.enable();
  const code = process.env.FAULT_ENV === 'gpu' ? cuda.compile(kernelSource, { name: 'fault.cu' }).code : standInImage;
  const report: FaultStepReport = { first: await pass(cuda, code), expected: expectedResult(), unreleased: {} };
  await drain(4, 5); // releases that wait for a stream (a wait thread's answer) or a collection get their turn
  if (process.env.FAULT_PASSES !== '1') {
    report.second = await pass(cuda, code);
    await drain(4, 5);
  }
  report.unreleased = resourceBalance(cuda.callCounters.read());
  process.stdout.write('\n@@' + JSON.stringify(report) + '\n');
}

main().catch((error) => {
  process.stderr.write(String(error?.stack ?? error) + '\n');
  process.exitCode = 1;
});
