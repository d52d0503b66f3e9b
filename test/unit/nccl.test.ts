// NCCL through a stand-in library (test/fixtures/fake-libnccl.c): loading and
// its failures, the version gate, bootstrap, argument checks, what reaches the
// library, and NCCL's results as NcclErrors. NCCL loads once per process, so
// each scenario runs in its own.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, fakeNccl, runScript } from '../helpers/subprocess';

const describeError = `const d = (e) => ({ type: e.constructor.name, message: e.message, code: e.code, result: e.result,
  ncclMessage: e.ncclMessage, call: e.call, libraryPath: e.libraryPath, detail: e.detail });
const t = (f) => { try { f(); return 'no error'; } catch (e) { return e.constructor.name + ': ' + e.message; } };`;

function logOf(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
}

describe('loading NCCL', () => {
  test('importing works without NCCL; status says why; the first use throws NcclUnavailableError', () => {
    const r = runScript(`${describeError}
      const status = cuda.nccl.ncclStatus();
      let unique, init;
      try { cuda.nccl.uniqueId(); } catch (e) { unique = { ...d(e), unavailable: e instanceof cuda.CudaUnavailableError, reason: e.reason }; }
      try { cuda.nccl.Communicator.init({ id: new Uint8Array(128), rank: 0, size: 1 }); } catch (e) { init = d(e); }
      report({ status, unique, init });`, { NCCL_LIBRARY: '/nonexistent/libnccl.so.2', CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' });
    expect(r.stderr).toBe('');
    expect(r.report.status).toMatchObject({ available: false, libraryPath: '/nonexistent/libnccl.so.2', version: null });
    expect(r.report.status.detail).toContain('/nonexistent/libnccl.so.2');
    for (const e of [r.report.unique, r.report.init]) {
      expect(e).toMatchObject({ type: 'NcclUnavailableError', code: 'ERR_NCCL_UNAVAILABLE', libraryPath: '/nonexistent/libnccl.so.2' });
      expect(e.message).toMatch(/NCCL could not be loaded \(tried \/nonexistent\/libnccl.so.2: .*set NCCL_LIBRARY/);
    }
    expect(r.report.unique).toMatchObject({ unavailable: true, reason: 'nccl-unavailable' });
  });

  test('without NCCL_LIBRARY the search covers a virtual environment\'s wheel', () => {
    const venv = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-venv-'));
    const lib = path.join(venv, 'lib/python3.99/site-packages/nvidia/nccl/lib');
    fs.mkdirSync(lib, { recursive: true });
    fs.copyFileSync(fakeNccl(), path.join(lib, 'libnccl.so.2'));
    try {
      const r = runScript(`report(cuda.nccl.ncclStatus());`, { NCCL_LIBRARY: undefined, VIRTUAL_ENV: venv, CONDA_PREFIX: undefined });
      expect(r.report.searched[0]).toBe('libnccl.so.2');
      expect(r.report.searched).toContain(path.join(lib, 'libnccl.so.2'));
      expect(r.report.available).toBe(true);
      // A system-wide NCCL comes first where there is one.
      if (r.report.libraryPath !== 'libnccl.so.2') expect(r.report.libraryPath).toBe(path.join(lib, 'libnccl.so.2'));
    } finally {
      fs.rmSync(venv, { recursive: true, force: true });
    }
  });

  test('a library older than 2.18 is refused by its version', () => {
    const r = runScript(`report(cuda.nccl.ncclStatus());`, { NCCL_LIBRARY: fakeNccl(), FAKE_NCCL_VERSION: '21703' });
    expect(r.report).toMatchObject({ available: false, version: { major: 2, minor: 17, patch: 3, code: 21703 } });
    expect(r.report.detail).toMatch(/is NCCL 2\.17\.3; NCCL 2\.18\.0 or newer is needed/);
  });

  test('a library that lacks an entry point is refused, naming it', () => {
    const r = runScript(`report(cuda.nccl.ncclStatus());`, { NCCL_LIBRARY: fakeNccl('incomplete') });
    expect(r.report.available).toBe(false);
    expect(r.report.detail).toMatch(/lacks ncclCommSplit/);
  });
});

// What the stand-in logs of a configuration that leaves every field to NCCL.
const defaultConfig = ' config: blocking=- cga=- minCTAs=- maxCTAs=- splitShare=- trafficClass=- collnet=- ctaPolicy=- ' +
  'shrinkShare=- nvlsCTAs=- net=- name=-';

describe('with a stand-in NCCL', () => {
  let env: Record<string, string>;
  let log: string;
  beforeEach(() => {
    log = path.join(os.tmpdir(), `cuda-driver-nccl-log-${process.pid}-${Math.random().toString(36).slice(2)}`);
    env = { NCCL_LIBRARY: fakeNccl(), CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_NCCL_LOG: log, NCCL_NVLS_ENABLE: '0' };
  });
  afterEach(() => fs.rmSync(log, { force: true }));

  const setup = `${describeError}
    const { nccl } = cuda;
    const init = (rank = 0, size = 2) => nccl.Communicator.init({ id: nccl.uniqueId(), rank, size, device: 0 });`;

  test('uniqueId, init, what the communicator says of itself, and destroy', async () => {
    const r = runScript(`${setup}
      (async () => {
        const id = nccl.uniqueId();
        const comm = await nccl.Communicator.init({ id, rank: 1, size: 3 });
        const util = require('util');
        const seen = { idLength: id.length, idText: Buffer.from(id.subarray(0, 7)).toString(), rank: comm.rank, size: comm.size,
          device: comm.device.ordinal, inspect: util.inspect(comm), aborted: comm.aborted };
        seen.handleIsComm = typeof comm.handle === 'bigint' && comm.handle !== 0n;
        await comm.destroy();
        seen.handleAfter = t(() => comm.handle);
        seen.after = util.inspect(comm);
        seen.disposed = comm.disposed;
        report(seen);
      })();`, env);
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({ idLength: 128, idText: 'FAKEID1', rank: 1, size: 3, device: 0,
      inspect: 'Communicator { rank: 1, size: 3, device: 0 }', aborted: false, handleIsComm: true,
      handleAfter: 'DisposedError: Communicator has been disposed', after: 'Communicator { disposed: true }', disposed: true });
    const lines = logOf(log);
    expect(lines[1]).toBe(`ncclCommInitRankConfig size=3 id=FAKEID1 last=127 rank=1${defaultConfig}`);
    expect(lines.slice(2).map((l) => l.split(' ')[0])).toEqual(['ncclCommFinalize', 'ncclCommDestroy']);
  });

  test('a failed init is an NcclError with NCCL\'s message; bad options are refused before NCCL sees them', async () => {
    const r = runScript(`${setup}
      (async () => {
        const id = new Uint8Array(128); id.set(Buffer.from('FAIL'));
        let failed;
        try { await nccl.Communicator.init({ id, rank: 0, size: 2 }); } catch (e) { failed = d(e); }
        report({ failed,
          rank: t(() => nccl.Communicator.init({ id, rank: 2, size: 2 })),
          shortId: t(() => nccl.Communicator.init({ id: new Uint8Array(16), rank: 0, size: 2 })),
          unknown: t(() => nccl.Communicator.init({ id, rank: 0, size: 2, blocking: false })) });
      })();`, env);
    expect(r.report.failed).toEqual(expect.objectContaining({ type: 'NcclError', code: 'ncclSystemError', result: 2,
      call: 'ncclCommInitRankConfig', ncclMessage: 'fake: bootstrap could not reach the root' }));
    expect(r.report.failed.message).toBe('ncclCommInitRankConfig: ncclSystemError: fake: bootstrap could not reach the root');
    expect(r.report.rank).toMatch(/^RangeError: options.rank/);
    expect(r.report.shortId).toMatch(/^TypeError: options.id must be a Uint8Array of 128 bytes/);
    expect(r.report.unknown).toMatch(/^TypeError: .*blocking/);
    expect(logOf(log).filter((l) => l.startsWith('ncclCommInitRank'))).toHaveLength(1);
  });

  test('collectives reach NCCL with the buffers\' addresses, the count, type, operation and root', async () => {
    const r = runScript(`${setup}
      (async () => {
        const comm = await init(0, 2);
        const stream = cuda.Stream.create();
        const a = cuda.DeviceBuffer.alloc(64), b = cuda.DeviceBuffer.alloc(128);
        comm.allReduce(a, b, { stream, type: 'float32', op: 'max' });
        comm.allReduce(a, a, { stream, type: 'int64', count: 2, sendOffset: 16, recvOffset: 16, op: 'avg' });
        comm.broadcast(a, b, { stream, root: 0, type: 'uint8' });
        comm.reduce(a, null, { stream, root: 1, type: 'float16', op: 'prod' });
        comm.allGather(a, b, { stream, type: 'int32' });
        comm.reduceScatter(b, a, { stream, type: 'bfloat16', op: 'min' });
        nccl.group(() => { comm.send(a, { stream, peer: 1 }); comm.recv(b, { stream, peer: 1, count: 16 }); });
        await comm.synchronize(stream);
        report({ a: a.address.toString(16), b: b.address.toString(16), comm: comm.handle.toString(16), stream: stream.handle.toString(16) });
      })().catch((e) => report({ error: e.message }));`, env);
    expect(r.stderr).toBe('');
    const { a, b } = r.report;
    // Communicator.handle is the ncclComm_t every call is made on.
    const made = logOf(log).filter((l) => l.startsWith('ncclAllReduce'));
    expect(made).toHaveLength(2);
    for (const line of made) expect(line).toContain(` comm=0x${r.report.comm} stream=0x${r.report.stream}`);
    const a16 = (BigInt(`0x${a}`) + 16n).toString(16);
    const calls = logOf(log).filter((l) => !/^ncclCommInitRank|^ncclGetUniqueId/.test(l)).map((l) => l.replace(/ comm=0x[0-9a-f]+ stream=0x[0-9a-f]+/, ''));
    expect(calls).toEqual([
      `ncclAllReduce send=0x${a} recv=0x${b} count=16 type=7 op=2`,
      `ncclAllReduce send=0x${a16} recv=0x${a16} count=2 type=4 op=4`,
      `ncclBroadcast send=0x${a} recv=0x${b} count=64 type=1 root=0`,
      `ncclReduce send=0x${a} recv=(nil) count=32 type=6 op=1 root=1`,
      `ncclAllGather send=0x${a} recv=0x${b} count=16 type=2`,
      `ncclReduceScatter send=0x${b} recv=0x${a} count=32 type=9 op=3`,
      'ncclGroupStart',
      `ncclSend send=0x${a} count=16 type=7 peer=1`,
      `ncclRecv recv=0x${b} count=16 type=7 peer=1`,
      'ncclGroupEnd',
    ]);
  });

  test('sizes, types, offsets, ranks and kinds of memory are checked before NCCL sees them', async () => {
    const r = runScript(`${setup}
      (async () => {
        const comm = await init(0, 2);
        const stream = cuda.Stream.create();
        const a = cuda.DeviceBuffer.alloc(64), b = cuda.DeviceBuffer.alloc(64), odd = cuda.DeviceBuffer.alloc(6);
        const host = cuda.HostBuffer.alloc(64);
        const gone = cuda.DeviceBuffer.alloc(64); gone.dispose();
        report({
          type: t(() => comm.allReduce(a, b, { stream, type: 'float128' })),
          op: t(() => comm.allReduce(a, b, { stream, op: 'xor' })),
          numericType: t(() => comm.allReduce(a, b, { stream, type: 7 })),
          count: t(() => comm.allReduce(a, b, { stream, count: 17 })),
          offset: t(() => comm.allReduce(a, b, { stream, recvOffset: 8 })),
          whole: t(() => comm.allReduce(odd, odd, { stream })),
          gather: t(() => comm.allGather(a, b, { stream })),
          root: t(() => comm.broadcast(a, b, { stream, root: 2 })),
          peer: t(() => comm.send(a, { stream, peer: -1 })),
          host: t(() => comm.allReduce(host, b, { stream })),
          array: t(() => comm.allReduce(new Float32Array(16), b, { stream })),
          disposed: t(() => comm.allReduce(gone, b, { stream })),
          noStream: t(() => comm.allReduce(a, b, {})),
          unknown: t(() => comm.allReduce(a, b, { stream, root: 0 })),
          nonRootRecv: t(() => comm.reduce(a, null, { stream, root: 0 })),
        });
      })().catch((e) => report({ error: e.message }));`, env);
    expect(r.report).toEqual({
      type: expect.stringMatching(/^TypeError: options.type must be one of 'int8', .*'float32'.*; got 'float128'/),
      op: expect.stringMatching(/^TypeError: options.op must be one of 'sum', 'prod', 'max', 'min', 'avg'/),
      numericType: expect.stringMatching(/^TypeError: options.type must be one of/),
      count: 'RangeError: send needs 68 bytes from offset 0; it holds 64',
      offset: 'RangeError: recv needs 64 bytes from offset 8; it holds 64',
      whole: expect.stringMatching(/^RangeError: send holds 6 bytes past its offset, not a whole number of float32 elements/),
      gather: 'RangeError: recv needs 128 bytes from offset 0; it holds 64',
      root: expect.stringMatching(/^RangeError: options.root/),
      peer: expect.stringMatching(/^RangeError: options.peer/),
      host: expect.stringMatching(/^TypeError: send must be device memory of this package/),
      array: expect.stringMatching(/^TypeError: send must be device memory of this package/),
      disposed: 'DisposedError: DeviceBuffer has been disposed',
      noStream: expect.stringMatching(/^TypeError: options.stream/),
      unknown: expect.stringMatching(/^TypeError: .*root/),
      nonRootRecv: 'RangeError: recv must be device memory of this package (a DeviceBuffer, a pool or graph allocation, a VMM mapping, shared memory); got null'
        .replace(/^RangeError/, 'TypeError'),
    });
    expect(logOf(log).filter((l) => l.startsWith('ncclAllReduce') || l.startsWith('ncclBroadcast') || l.startsWith('ncclSend'))).toEqual([]);
  });

  test('NCCL\'s failures become NcclErrors with its own message; a failed group still ends', async () => {
    const r = runScript(`${setup}
      (async () => {
        const comm = await init(0, 2);
        const stream = cuda.Stream.create();
        const a = cuda.DeviceBuffer.alloc(64);
        let call, group;
        try { comm.allReduce(a, a, { stream }); } catch (e) { call = d(e); }
        try { nccl.group(() => { throw new Error('inside'); }); } catch (e) { group = e.message; }
        report({ call, group, name: nccl.ncclResultName(6), unknown: nccl.ncclResultName(42) });
      })().catch((e) => report({ error: e.message }));`, { ...env, FAKE_NCCL_FAIL: 'ncclAllReduce' });
    expect(r.report).toEqual({
      call: { type: 'NcclError', code: 'ncclInvalidUsage', result: 5, call: 'ncclAllReduce', ncclMessage: 'fake: ncclAllReduce refused',
        message: 'ncclAllReduce: ncclInvalidUsage: fake: ncclAllReduce refused' },
      group: 'inside', name: 'ncclRemoteError', unknown: 'ncclResult 42',
    });
    expect(logOf(log).slice(-2)).toEqual(['ncclGroupStart', 'ncclGroupEnd']);
  });

  test('an asynchronous error rejects a pending wait; abort() ends the communicator', async () => {
    const r = runScript(`${setup}
      (async () => {
        const comm = await init(0, 2);
        const stream = cuda.Stream.create();
        let waited;
        try { await comm.synchronize(stream); } catch (e) { waited = d(e); }
        const asyncError = comm.asyncError()?.code;
        comm.abort();
        comm.abort();
        const a = cuda.DeviceBuffer.alloc(64);
        let afterWait;
        try { await comm.synchronize(stream); } catch (e) { afterWait = e.message; }
        report({ waited, asyncError, aborted: comm.aborted, call: t(() => comm.allReduce(a, a, { stream })), afterWait,
          inspect: require('util').inspect(comm), handle: comm.handle });
      })().catch((e) => report({ error: e.message }));`, { ...env, FAKE_NCCL_ASYNC: '6' });
    expect(r.report).toEqual({
      waited: expect.objectContaining({ type: 'NcclError', code: 'ncclRemoteError', result: 6, call: 'ncclCommGetAsyncError',
        ncclMessage: 'fake: peer rank 1 is gone' }),
      asyncError: 'ncclRemoteError', aborted: true, call: 'TypeError: the communicator was aborted',
      afterWait: 'the communicator was aborted', inspect: 'Communicator { rank: 0, size: 2, device: 0, aborted: true }', handle: '0',
    });
    expect(logOf(log).filter((l) => l.startsWith('ncclCommAbort'))).toHaveLength(1);
  });

  test('dispose() without finalize aborts once nothing uses the communicator; split', async () => {
    const r = runScript(`${setup}
      (async () => {
        const comm = await init(0, 2);
        const part = await comm.split({ color: 3 });
        const none = await comm.split({ color: null, key: 5 });
        const seen = { part: part && [part.rank, part.size], none };
        part.dispose();
        comm.dispose();
        comm.dispose();
        seen.use = t(() => comm.rank);
        report(seen);
      })().catch((e) => report({ error: e.message }));`, env);
    expect(r.report).toEqual({ part: [0, 1], none: null, use: 'DisposedError: Communicator has been disposed' });
    const lines = logOf(log).map((l) => l.replace(/ comm=0x[0-9a-f]+/, ''));
    expect(lines.filter((l) => l.startsWith('ncclCommSplit'))).toEqual([`ncclCommSplit color=3 key=0${defaultConfig}`,
      `ncclCommSplit color=-1 key=5${defaultConfig}`]);
    expect(lines.filter((l) => l.startsWith('ncclCommAbort'))).toHaveLength(2);
  });
  test('a configuration reaches NCCL field by field; shrink makes the smaller communicator', async () => {
    const r = runScript(`${setup}
      (async () => {
        const config = { cgaClusterSize: 2, minCTAs: 4, maxCTAs: 16, netName: 'Socket', splitShare: true,
          trafficClass: 3, commName: 'training', collnetEnable: false, ctaPolicy: 'efficiency', shrinkShare: true };
        const comm = await nccl.Communicator.init({ id: nccl.uniqueId(), rank: 2, size: 4, config });
        const part = await comm.split({ color: 1, config: { commName: 'half' } });
        const small = await comm.shrink([0, 3]);
        const aborting = await comm.shrink([1], { abort: true, config: { maxCTAs: 2 } });
        const seen = { small: [small.rank, small.size], aborting: [aborting.rank, aborting.size],
          badPolicy: t(() => comm.split({ color: 1, config: { ctaPolicy: 'fast' } })),
          unknownField: t(() => comm.split({ color: 1, config: { nvlsCTAs: 4 } })),
          minAboveMax: t(() => nccl.Communicator.init({ id: nccl.uniqueId(), rank: 0, size: 2, config: { minCTAs: 8, maxCTAs: 2 } })),
          emptyName: t(() => nccl.Communicator.init({ id: nccl.uniqueId(), rank: 0, size: 2, config: { netName: '' } })),
          self: t(() => comm.shrink([2])),
          twice: t(() => comm.shrink([1, 1])),
          outOfRange: t(() => comm.shrink([4])),
          notArray: t(() => comm.shrink(1)) };
        for (const c of [part, small, aborting, comm]) c.dispose();
        report(seen);
      })().catch((e) => report({ error: String(e) }));`, env);
    expect(r.report).toEqual({ small: [1, 2], aborting: [1, 3],
      badPolicy: expect.stringMatching(/^TypeError: options.config.ctaPolicy must be one of 'default', 'efficiency', 'zero'/),
      unknownField: expect.stringMatching(/^TypeError: .*nvlsCTAs/),
      minAboveMax: expect.stringMatching(/^RangeError: options.config.minCTAs \(8\) is more than options.config.maxCTAs \(2\)/),
      emptyName: expect.stringMatching(/^TypeError: options.config.netName must be a non-empty string/),
      self: expect.stringMatching(/^RangeError: excludeRanks holds this rank \(2\)/),
      twice: 'RangeError: excludeRanks names a rank twice',
      outOfRange: expect.stringMatching(/^RangeError: excludeRanks\[0\]/),
      notArray: expect.stringMatching(/^TypeError: excludeRanks must be an array/) });
    const lines = logOf(log).map((l) => l.replace(/ comm=0x[0-9a-f]+/, ''));
    expect(lines.find((l) => l.startsWith('ncclCommInitRankConfig'))).toBe('ncclCommInitRankConfig size=4 id=FAKEID1 last=127 rank=2' +
      ' config: blocking=- cga=2 minCTAs=4 maxCTAs=16 splitShare=1 trafficClass=3 collnet=0 ctaPolicy=1 shrinkShare=1 nvlsCTAs=-' +
      ' net=Socket name=training');
    expect(lines.find((l) => l.startsWith('ncclCommSplit'))).toBe(`ncclCommSplit color=1 key=2${defaultConfig.replace('name=-', 'name=half')}`);
    expect(lines.filter((l) => l.startsWith('ncclCommShrink'))).toEqual([`ncclCommShrink exclude=[0,3] flags=0${defaultConfig}`,
      `ncclCommShrink exclude=[1] flags=1${defaultConfig.replace('maxCTAs=-', 'maxCTAs=2')}`]);
  });

  test('a field newer than the loaded NCCL is refused, naming the release; shrink needs NCCL 2.27', async () => {
    const old = runScript(`${setup}
      (async () => {
        const id = nccl.uniqueId();
        report({ policy: t(() => nccl.Communicator.init({ id, rank: 0, size: 2, config: { ctaPolicy: 'zero' } })),
          traffic: t(() => nccl.Communicator.init({ id, rank: 0, size: 2, config: { trafficClass: 1 } })) });
      })();`, { ...env, FAKE_NCCL_VERSION: '22403' });
    expect(old.report).toEqual({ policy: 'RangeError: options.config.ctaPolicy needs NCCL 2.27 or newer; this NCCL is 2.24',
      traffic: 'RangeError: options.config.trafficClass needs NCCL 2.25 or newer; this NCCL is 2.24' });
    const before = runScript(`${setup}
      (async () => {
        const comm = await nccl.Communicator.init({ id: nccl.uniqueId(), rank: 0, size: 2 });
        report({ shrink: t(() => comm.shrink([1])) });
        comm.dispose();
      })();`, { ...env, NCCL_LIBRARY: fakeNccl('before-2.27'), FAKE_NCCL_VERSION: '22602' });
    expect(before.report).toEqual({ shrink: 'TypeError: this NCCL has no ncclCommShrink (NCCL 2.27 or newer has it)' });
  });
});
