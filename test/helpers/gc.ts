// gc() inside jest, which does not run node with --expose-gc; and the drain the
// reliability programs (test/fuzz, test/soak, test/fault, test/workers) run in
// their own processes, which do.
import * as v8 from 'v8';
import * as vm from 'vm';

export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/**
 * Gives work the library releases later (after a stream is seen idle, after a
 * capture, by a finalizer) its turn: `rounds` times a collection (where node
 * runs with --expose-gc) and a pause of `ms`.
 */
export async function drain(rounds = 10, ms = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}
