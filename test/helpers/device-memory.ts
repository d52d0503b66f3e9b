// Device memory a test process holds. The card's total − free counts every
// process on it (jest runs other test files beside this one, and they move it
// by gigabytes), so this asks nvidia-smi for this process's own figure where it
// lists the process, and falls back to total − free where it does not.
import { spawnSync } from 'child_process';
import type * as Cuda from '../../lib';

/** Bytes of device memory this process holds (MiB granularity through nvidia-smi). */
export function deviceMemoryInUse(cuda: Pick<typeof Cuda, 'memoryInfo'>): number {
  // First, so that this process has its context, and nvidia-smi lists it.
  const { free, total } = cuda.memoryInfo();
  const apps = spawnSync('nvidia-smi', ['--query-compute-apps=pid,used_memory', '--format=csv,noheader,nounits'], { encoding: 'utf8' });
  if (apps.status === 0) {
    const mine = apps.stdout.split('\n').map((l) => l.split(',').map((f) => f.trim())).find(([pid]) => Number(pid) === process.pid);
    if (mine) return Number(mine[1]) * 2 ** 20;
  }
  return total - free;
}
