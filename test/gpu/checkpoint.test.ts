// Process checkpoint on the GPU: a child process holds device memory with known
// contents; this process locks it, checkpoints it (its device memory moves to
// host memory and it lets the GPU go), restores and unlocks it, checking the
// driver's state at each step; the child then reads its memory back and finds
// it intact. And what the driver answers for a process without CUDA, and (where
// the test runs as root) for a caller of another user.
import { spawn, spawnSync } from 'child_process';
import { checkpoint, CudaError, memoryInfo } from '../../lib';
import { killChildren, step, succeeded, withChild } from '../helpers/ipc-child';
import { distPath } from '../helpers/subprocess';
import { describeGpu } from '../helpers/tiers';

afterEach(killChildren);

const bytes = 256 << 20;

/** The child's device memory as nvidia-smi lists it (MiB), or undefined where nvidia-smi does not list it. */
function listedMemory(pid: number): number | undefined {
  const apps = spawnSync('nvidia-smi', ['--query-compute-apps=pid,used_memory', '--format=csv,noheader,nounits'], { encoding: 'utf8' });
  if (apps.status !== 0) return undefined;
  const row = apps.stdout.split('\n').map((l) => l.split(',').map((f) => f.trim())).find(([p]) => Number(p) === pid);
  return row ? Number(row[1]) : undefined;
}

/** How a promise settled: its value, or the error's class, code and call. */
async function outcome<T>(p: Promise<T>): Promise<{ value?: T; type?: string; code?: string; call?: string | null }> {
  try {
    return { value: await p };
  } catch (e) {
    const error = e as CudaError;
    return { type: error.constructor.name, code: error.code, call: error.call };
  }
}

/**
 * checkpoint.state(pid) from a process that initializes CUDA as root, then
 * runs as nobody: what a caller without rights over the process sees.
 */
function stateAsNobody(pid: number): { answered?: string; message?: string; status: number | null } {
  const source = `const cuda = require(${JSON.stringify(distPath)});
    cuda.memoryInfo();
    process.setgid(65534);
    process.setuid(65534);
    cuda.checkpoint.state(${pid}).then((state) => ({ answered: state }), (e) => ({ answered: e.code, message: e.message }))
      .then((r) => process.stdout.write(JSON.stringify(r)));`;
  const r = spawnSync(process.execPath, ['-e', source], { encoding: 'utf8', timeout: 15000 });
  try {
    return { ...JSON.parse(r.stdout), status: r.status };
  } catch {
    return { message: r.stderr.slice(0, 300), status: r.status };
  }
}

describeGpu('process checkpoint', () => {
  test('a child\'s device memory survives lock, checkpoint, restore and unlock', async () => {
    memoryInfo(); // this process's context first, so that the restore finds CUDA initialized here
    const body = `
      const buffer = cuda.DeviceBuffer.alloc(${bytes});
      const data = pattern(${bytes}, 5);
      cuda.copy(buffer, data);
      await ch.send({ step: 'ready', pid: process.pid });
      (await next()).dispose();
      await ch.send({ step: 'verified', intact: equal(readBytes(buffer), data) });`;
    const r = await withChild(body, async (ch, started) => {
      const { pid } = await step<{ pid: number }>(ch, 'ready', started);
      const states: string[] = [await checkpoint.state(pid)];
      const tid = await checkpoint.restoreThreadId(pid);
      const running = listedMemory(pid);

      const unprivileged = process.getuid?.() === 0 ? stateAsNobody(pid) : undefined;

      await checkpoint.lock(pid, { timeoutMs: 30000 });
      states.push(await checkpoint.state(pid));
      await checkpoint.checkpoint(pid);
      states.push(await checkpoint.state(pid));
      const checkpointed = listedMemory(pid);
      await checkpoint.restore(pid);
      states.push(await checkpoint.state(pid));
      await checkpoint.unlock(pid);
      states.push(await checkpoint.state(pid));
      expect(states).toEqual(['running', 'locked', 'checkpointed', 'locked', 'running']);
      expect(Number.isInteger(tid) && tid > 0).toBe(true);
      // Where nvidia-smi sees this PID namespace's processes, the checkpointed child holds no device memory.
      if (running !== undefined) {
        expect(running).toBeGreaterThanOrEqual(bytes / 2 ** 20);
        expect(checkpointed ?? 0).toBe(0);
      }
      // The operating system refuses a caller without rights over the process.
      if (unprivileged !== undefined) expect(unprivileged).toMatchObject({ answered: 'CUDA_ERROR_OPERATING_SYSTEM', status: 0 });

      await ch.send({ step: 'verify' });
      expect(await step<{ intact: boolean }>(ch, 'verified', started)).toEqual({ step: 'verified', intact: true });
    });
    succeeded(r);
  }, 120000);

  test('a process that has not initialized CUDA: the driver answers CUDA_ERROR_NOT_INITIALIZED', async () => {
    const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(distPath)}); setTimeout(() => {}, 60000)`], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const pid = child.pid!;
      expect(await outcome(checkpoint.state(pid))).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_NOT_INITIALIZED', call: 'cuCheckpointProcessGetState' });
      expect(await outcome(checkpoint.restoreThreadId(pid)))
        .toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_NOT_INITIALIZED', call: 'cuCheckpointProcessGetRestoreThreadId' });
    } finally {
      child.kill('SIGKILL');
    }
  });
});
