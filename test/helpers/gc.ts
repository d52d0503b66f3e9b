// gc() inside jest, which does not run node with --expose-gc.
import * as v8 from 'v8';
import * as vm from 'vm';

export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
