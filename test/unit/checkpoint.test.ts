// Process checkpoint: argument checks (before anything reaches the driver), and
// the calls against the stand-in driver, which keeps each process's state and
// refuses steps out of order as the driver does. The process checkpointed is
// the script's parent (the test runner): the stand-in only records states.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkpoint } from '../../lib';
import { fakeDriver, runScript } from '../helpers/subprocess';

const prelude = `const d = (e) => ({ type: e.constructor.name, code: e.code, result: e.result, call: e.call, detail: e.detail,
  hint: e.hint, message: e.message, driverLog: e.driverLog, isCuda: e instanceof cuda.CudaError });
const outcome = (p) => p.then((v) => ({ value: v === undefined ? 'resolved' : v }), (e) => d(e));
const c = cuda.checkpoint;
const pid = process.ppid;`;

function run(body: string, env: Record<string, string> = {}) {
  const r = runScript(`${prelude}
    (async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
  { CUDA_DRIVER_LIBRARY: fakeDriver(), ...env });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
}

describe('checkpoint arguments', () => {
  const calls = ['lock', 'checkpoint', 'restore', 'unlock', 'suspend', 'resume'] as const;

  test('pid is a positive 32-bit integer', () => {
    for (const call of [...calls, 'state', 'restoreThreadId'] as const) {
      const f = checkpoint[call] as (pid: unknown) => Promise<unknown>;
      expect(() => f('12')).toThrow(new TypeError("pid must be an integer, got '12'"));
      expect(() => f(1.5)).toThrow(TypeError);
      expect(() => f(undefined)).toThrow(TypeError);
      expect(() => f(0)).toThrow(new RangeError('pid must be between 1 and 2147483647, got 0'));
      expect(() => f(-4)).toThrow(RangeError);
      expect(() => f(2 ** 31)).toThrow(RangeError);
    }
  });

  test('the calls that change a state name another process', () => {
    for (const call of calls) {
      expect(() => checkpoint[call](process.pid)).toThrow(RangeError);
      expect(() => checkpoint[call](process.pid)).toThrow(`checkpoint.${call} must name another process (pid ${process.pid} is this one)`);
    }
  });

  test('lock timeouts: 1 ms or more, or Infinity', () => {
    for (const call of ['lock', 'suspend'] as const) {
      const f = (options: unknown) => checkpoint[call](1, options as object);
      expect(() => f({ timeoutMs: 0 })).toThrow(/options\.timeoutMs must be between 1 and 4294967295 ms or Infinity .*got 0/);
      expect(() => f({ timeoutMs: -1 })).toThrow(RangeError);
      expect(() => f({ timeoutMs: 2 ** 32 })).toThrow(RangeError);
      expect(() => f({ timeoutMs: NaN })).toThrow(TypeError);
      expect(() => f({ timeoutMs: '5' })).toThrow(new TypeError("options.timeoutMs must be a number of milliseconds or Infinity, got '5'"));
      expect(() => f({ timeout: 5 })).toThrow(new TypeError(`options.timeout is not an option of checkpoint.${call}; its options are timeoutMs`));
      expect(() => f(null)).toThrow(TypeError);
    }
  });

  test('restore remapping: a list of { from, to } GPUs', () => {
    for (const call of ['restore', 'resume'] as const) {
      const f = (options: unknown) => checkpoint[call](1, options as object);
      expect(() => f({ remap: {} })).toThrow(new TypeError('options.remap must be an array, got Object'));
      expect(() => f({ remap: [null] })).toThrow(new TypeError('options.remap[0] must be an object, got null'));
      expect(() => f({ remap: [{ from: 'GPU-1', to: 'GPU-2' }] })).toThrow(/options\.remap\[0\]\.from must be 32 hex digits/);
      const uuid = 'GPU-00112233-4455-6677-8899-aabbccddeeff';
      expect(() => f({ remap: [{ from: uuid, to: new Uint8Array(15) }] }))
        .toThrow(new TypeError('options.remap[0].to must be a Device, a UUID string or 16 bytes, got Uint8Array'));
      expect(() => f({ remap: [{ from: uuid, to: uuid, onto: 1 }] }))
        .toThrow(new TypeError(`options.remap[0].onto is not an option of checkpoint.${call}; its options are from, to`));
      expect(() => f({ gpus: [] })).toThrow(new TypeError(`options.gpus is not an option of checkpoint.${call}; its options are remap`));
    }
  });
});

describe('checkpoint against the stand-in driver', () => {
  test('running -> locked -> checkpointed -> locked -> running, with the state named at each step', () => {
    const report = run(`
      const states = [await c.state(pid)];
      await c.lock(pid);
      states.push(await c.state(pid));
      await c.checkpoint(pid);
      states.push(await c.state(pid));
      await c.restore(pid);
      states.push(await c.state(pid));
      await c.unlock(pid);
      states.push(await c.state(pid));
      report({ states, tid: await c.restoreThreadId(pid), own: await c.state(process.pid) });`);
    expect(report.states).toEqual(['running', 'locked', 'checkpointed', 'locked', 'running']);
    // The stand-in names the process's main thread as its restore thread.
    expect(report.tid).toBe(process.pid);
    expect(report.own).toBe('running');
  });

  test('a step out of order rejects with CUDA_ERROR_ILLEGAL_STATE and its hint, and changes nothing', () => {
    const report = run(`
      const out = {};
      out.checkpointRunning = await outcome(c.checkpoint(pid));
      out.restoreRunning = await outcome(c.restore(pid));
      out.unlockRunning = await outcome(c.unlock(pid));
      await c.lock(pid);
      out.lockLocked = await outcome(c.lock(pid));
      await c.checkpoint(pid);
      out.unlockCheckpointed = await outcome(c.unlock(pid));
      out.state = await c.state(pid);
      await c.resume(pid);
      out.after = await c.state(pid);
      report(out);`);
    for (const [key, call] of [['checkpointRunning', 'cuCheckpointProcessCheckpoint'], ['restoreRunning', 'cuCheckpointProcessRestore'],
      ['unlockRunning', 'cuCheckpointProcessUnlock'], ['lockLocked', 'cuCheckpointProcessLock'],
      ['unlockCheckpointed', 'cuCheckpointProcessUnlock']]) {
      expect(report[key]).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_ILLEGAL_STATE', result: 401, call, detail: `pid ${process.pid}`, isCuda: true });
      expect(report[key].hint).toMatch(/lock a running process, checkpoint a locked one/);
      expect(report[key].message).toContain(`${call} (pid ${process.pid}): CUDA_ERROR_ILLEGAL_STATE`);
    }
    expect(report.state).toBe('checkpointed');
    expect(report.after).toBe('running');
  });

  test('suspend and resume take two steps each', () => {
    const report = run(`
      await c.suspend(pid, { timeoutMs: 5000 });
      const suspended = await c.state(pid);
      await c.resume(pid);
      report({ suspended, resumed: await c.state(pid) });`);
    expect(report).toEqual({ suspended: 'checkpointed', resumed: 'running' });
  });

  test('a suspend whose checkpoint fails unlocks the process again and rejects with the checkpoint\'s error', () => {
    const report = run(`
      const failed = await outcome(c.suspend(pid));
      report({ failed, state: await c.state(pid) });`, { FAKE_CUDA_FAIL: 'cuCheckpointProcessCheckpoint=801' });
    expect(report.failed).toMatchObject({ type: 'CudaNotSupportedError', code: 'CUDA_ERROR_NOT_SUPPORTED', call: 'cuCheckpointProcessCheckpoint' });
    expect(report.state).toBe('running');
  });

  test('a lock waits off the JavaScript thread; one past its timeout rejects with CUDA_ERROR_NOT_READY, the process still running', () => {
    const report = run(`
      const order = [];
      const locked = c.lock(pid).then(() => order.push('locked'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('timer');
      await locked;
      await c.unlock(pid);
      const late = await outcome(c.lock(pid, { timeoutMs: 30 }));
      report({ order, late, state: await c.state(pid) });`, { FAKE_CHECKPOINT_LOCK_MS: '1000' });
    expect(report.order).toEqual(['timer', 'locked']);
    expect(report.late).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_NOT_READY', call: 'cuCheckpointProcessLock' });
    expect(report.late.hint).toMatch(/did not finish within options\.timeoutMs; it was left running/);
    expect(report.state).toBe('running');
  });

  test('a pid that names no CUDA process rejects with CUDA_ERROR_NOT_INITIALIZED and a hint', () => {
    const report = run(`report({ state: await outcome(c.state(2147483646)), tid: await outcome(c.restoreThreadId(2147483646)),
      lock: await outcome(c.lock(2147483646)) });`);
    for (const key of ['state', 'tid', 'lock']) {
      expect(report[key]).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_NOT_INITIALIZED', result: 3, detail: 'pid 2147483646' });
      expect(report[key].hint).toMatch(/pid must name a process of this machine .* that has initialized CUDA/);
    }
  });

  test('restore passes the remapped GPUs to the driver, by UUID', () => {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-checkpoint-')), 'log');
    try {
      run(`
        await c.suspend(pid);
        await c.resume(pid, { remap: [
          { from: 'GPU-00112233-4455-6677-8899-aabbccddeeff', to: cuda.Device.get(0) },
          { from: new Uint8Array(16).fill(7), to: 'a0a1a2a3a4a5a6a7a8a9aaabacadaeaf' },
        ] });
        report({ state: await c.state(pid) });`, { FAKE_CUDA_LOG: log });
      const lines = fs.readFileSync(log, 'utf8').split('\n').filter((l) => l.startsWith('checkpoint restore'));
      expect(lines).toEqual([
        `checkpoint restore ${process.pid} gpu 00112233445566778899aabbccddeeff -> a0a1a2a3a4a5a6a7a8a9aaabacadaeaf`,
        `checkpoint restore ${process.pid} gpu 07070707070707070707070707070707 -> a0a1a2a3a4a5a6a7a8a9aaabacadaeaf`,
      ]);
    } finally {
      fs.rmSync(path.dirname(log), { recursive: true, force: true });
    }
  });

  test('the driver\'s own log of a failure, taken on the wait thread, reaches the error', () => {
    const report = run(`report(await outcome(c.lock(pid)));`, { FAKE_CUDA_VERSION: '12090', FAKE_CUDA_FAIL: 'cuCheckpointProcessLock=801' });
    expect(report).toMatchObject({ type: 'CudaNotSupportedError', code: 'CUDA_ERROR_NOT_SUPPORTED' });
    expect(report.driverLog[0]).toBe('cuCheckpointProcessLock failed as FAKE_CUDA_FAIL asks');
  });

  test('a driver older than CUDA 12.8 lacks the calls: FunctionUnavailableError', () => {
    const report = run(`report(await outcome(c.state(pid)));`, { FAKE_CUDA_VERSION: '12060' });
    const error = report;
    expect(error).toMatchObject({ type: 'FunctionUnavailableError', code: 'CUDA_ERROR_NOT_FOUND', call: 'cuCheckpointProcessGetState' });
    expect(error.message).toMatch(/cuCheckpointProcessGetState is not provided by the installed driver \(CUDA 12\.6\); it needs a driver for CUDA 12\.8 or newer/);
  });

  test('the raw entries check what protects memory', () => {
    const report = run(`const { native } = require(${JSON.stringify(path.resolve(__dirname, '../../dist/native.js'))});
      const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };
      report([
        t(() => native.checkpointRestore(pid, new Uint8Array(16), new Uint8Array(32))),
        t(() => native.checkpointRestore(pid, new Uint8Array(15), new Uint8Array(15))),
        t(() => native.checkpointRestore(pid, [], new Uint8Array(0))),
      ]);`);
    expect(report).toEqual([
      'RangeError: from and to must hold as many UUIDs of 16 bytes, got 16 and 32 bytes',
      'RangeError: from and to must hold as many UUIDs of 16 bytes, got 15 and 15 bytes',
      'TypeError: from must be a Uint8Array',
    ]);
  });
});
