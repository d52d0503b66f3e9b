#!/usr/bin/env node
// NCCL all-reduce across two devices from JavaScript against the same calls
// from C (bench/c/nccl-allreduce.c, built here, NCCL opened with dlopen) and
// through torch.distributed with the NCCL backend (bench/python/nccl_allreduce.py,
// where python3 has torch), in one run. Every implementation runs as two
// processes, one GPU each: here, this process is rank 0 on device 0 and starts
// rank 1 (this file, on device 1), handing it the unique id on its stdin.
// Each rank all-reduces one float32 buffer in place (sum):
// - bus bandwidth, 4 KiB to 1 GiB: per size a warm-up, then repetitions of a
//   few calls and a stream sync, timed; the median of the repetitions' time
//   per call; busbw = bytes / time * 2(n-1)/n (n = 2 ranks);
// - host time per call, 4 KiB, no sync in the loop (perCall of common.js):
//   allReduce eagerly, and launch() of a graph captured around one allReduce;
//   and allReduce from JavaScript against ncclAllReduce from C in the same
//   process (bench/c/nccl-inprocess.c, a second communicator on the same
//   stream and buffer), batch by batch in turn: the two C processes meet
//   another moment of the host and of the peer.
// Rank 0's figures are reported. NCCL_NVLS_ENABLE=0 is in the environment of
// every process (NVLink SHARP stays off on shared hosts). Skipped, with the
// reason, where fewer than two devices are visible or NCCL cannot be loaded.
// Usage: node bench/nccl.js [repetitions=10] [largest=1073741824] [batch=100] [rounds=30]
'use strict';
process.env.NCCL_NVLS_ENABLE = '0';

const { spawn, spawnSync } = require('child_process');
const net = require('net');
const path = require('path');
const { crossingControl, inProcessC, median, now, pairedPerCall, perCall, python, runAlone, runC, sizesUpTo } = require('./common');

const titles = { bandwidth: 'NCCL all-reduce bus bandwidth, two processes', host: 'NCCL all-reduce host time per call, two processes' };
const smallBytes = 4096;
/** This process's environment with NVLink SHARP off, for every process the bench starts. */
const ncclEnv = () => ({ ...process.env, NCCL_NVLS_ENABLE: '0' });

/** Calls per timed repetition (as nccl-allreduce.c and nccl_allreduce.py count them). */
const iterationsFor = (bytes) => (bytes <= 1 << 20 ? 50 : bytes <= 64 << 20 ? 10 : 2);

const sizeName = (bytes) => (bytes >= 2 ** 30 ? `${bytes / 2 ** 30} GiB` : bytes >= 2 ** 20 ? `${bytes / 2 ** 20} MiB` : `${bytes / 1024} KiB`);

/** The C module that all-reduces in this process (bench/c/nccl-inprocess.c). */
const ncclInProcess = () => inProcessC('nccl-inprocess', { libs: ['-ldl'] });

/**
 * One rank's figures: {busbw: {bytes: GB/s}, eager: ns, captured: ns, paired:
 * {js, c} ns, sameComm: {js, c} ns (C on JavaScript's communicator),
 * perCrossing: {js, c} ns (C's call entered once per call from JavaScript, and C's loop)}. ids:
 * {js, c}, the unique ids of the JavaScript communicator and of the one
 * bench/c/nccl-inprocess.c makes in this process.
 */
async function measureRank(cuda, rank, ids, { repetitions, batch, rounds, sizes }) {
  const comm = await cuda.nccl.Communicator.init({ id: ids.js, rank, size: 2, device: rank, timeoutMs: 120000 });
  const stream = cuda.Stream.create({ device: rank });
  const data = cuda.DeviceBuffer.alloc(Math.max(...sizes), { device: rank });
  cuda.fill(data, 0);
  const busFactor = (2 * (comm.size - 1)) / comm.size;
  const busbw = {};
  for (const bytes of sizes) {
    const options = { stream, type: 'float32', op: 'sum', count: bytes / 4 };
    const iterations = iterationsFor(bytes);
    for (let i = 0; i < 5; i++) comm.allReduce(data, data, options);
    stream.synchronizeSync();
    const gbs = new Array(repetitions);
    for (let r = 0; r < repetitions; r++) {
      const t0 = now();
      for (let i = 0; i < iterations; i++) comm.allReduce(data, data, options);
      stream.synchronizeSync();
      gbs[r] = (bytes / ((now() - t0) / iterations)) * busFactor;
    }
    busbw[bytes] = median(gbs);
  }
  const small = { stream, type: 'float32', op: 'sum', count: smallBytes / 4 };
  const drain = () => stream.synchronizeSync();
  const eager = perCall(() => comm.allReduce(data, data, small), batch, rounds, drain);
  const graph = stream.capture((s) => comm.allReduce(data, data, { ...small, stream: s }), { mode: 'relaxed' });
  const exec = graph.instantiate();
  const captured = perCall(() => exec.launch(stream), batch, rounds, drain);
  exec.dispose();
  graph.dispose();
  // The same all-reduce from C in this process, on this stream and buffer, batch by batch in
  // turn with JavaScript's: both ranks take the same turns, so their calls pair up.
  let paired, sameComm, perCrossing;
  if (ids.c) {
    const inC = ncclInProcess();
    inC.init(ids.c, rank, 2);
    paired = pairedPerCall(() => comm.allReduce(data, data, small),
      (calls) => inC.allReduces(stream.handle, data.address, smallBytes / 4, calls), batch, rounds, drain);
    inC.destroy();
    // And C's calls on JavaScript's own communicator: the same NCCL state on both sides.
    const onSameComm = (calls) => inC.allReduces(stream.handle, data.address, smallBytes / 4, calls, comm.handle);
    sameComm = pairedPerCall(() => comm.allReduce(data, data, small), onSameComm, batch, rounds, drain);
    // The control: C's own call, entered from JavaScript once per call, against C's loop.
    perCrossing = crossingControl(onSameComm, batch, rounds, drain);
  }
  await comm.destroy();
  data.dispose();
  stream.dispose();
  return { busbw, eager, captured, paired, sameComm, perCrossing };
}

/** The unique ids ({js, c}) rank 0 writes on this process's stdin, as hex, one line each. */
function readIds() {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8').on('data', (d) => {
      text += d;
    }).on('end', () => {
      const [js, c] = text.split('\n').map((line) => new Uint8Array(Buffer.from(line.trim(), 'hex')));
      if (js?.length === 128) resolve({ js, c: c?.length === 128 ? c : undefined });
      else reject(new Error('rank 0 sent no ids'));
    });
  });
}

/** JavaScript: this process as rank 0, and a child as rank 1. */
async function measureJs(cuda, options) {
  let c;
  try {
    c = ncclInProcess().uniqueId();
  } catch (error) {
    console.error(`[nccl] no C in this process: ${error.message}`);
  }
  const ids = { js: cuda.nccl.uniqueId(), c };
  const child = spawn(process.execPath, [__filename, '--rank=1', JSON.stringify(options)],
    { stdio: ['pipe', 'ignore', 'inherit'], env: ncclEnv() });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  child.stdin.end(`${Buffer.from(ids.js).toString('hex')}\n${ids.c ? Buffer.from(ids.c).toString('hex') : ''}\n`);
  const figures = await measureRank(cuda, 0, ids, options);
  const code = await exited;
  if (code !== 0) throw new Error(`bench/nccl.js rank 1 exited with ${code}`);
  return figures;
}

/** Whether torch.distributed with NCCL can run here: {available, reason?, version?}. */
function torchState() {
  if (process.env.BENCH_PYTHON === '0') return { available: false, reason: 'BENCH_PYTHON=0' };
  const probe = spawnSync(python, ['-c', 'import torch, torch.distributed as d; ' +
    'assert torch.cuda.device_count() >= 2, "torch sees fewer than two CUDA devices"; ' +
    'assert d.is_nccl_available(), "torch.distributed has no NCCL backend"; print(torch.__version__)'],
  { encoding: 'utf8', env: ncclEnv() });
  if (probe.error || probe.status !== 0) {
    const why = probe.error ? probe.error.message : (probe.stderr || '').trim().split('\n').pop();
    return { available: false, reason: `${python} cannot run torch.distributed with NCCL: ${why}` };
  }
  return { available: true, version: probe.stdout.trim() };
}

/** How long the torch.distributed ranks may run before they are killed and their column left empty. */
const torchTimeoutMs = Number(process.env.BENCH_TORCH_TIMEOUT_MS ?? 300000);

/** A TCP port free on the loopback interface now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** torch.distributed: two Python processes joined over tcp://127.0.0.1; rank 0's JSON, or undefined (the reason printed). */
async function measureTorch({ repetitions, batch, rounds, sizes }) {
  const port = await freePort();
  const script = path.join(__dirname, 'python', 'nccl_allreduce.py');
  const ranks = [0, 1].map((rank) => {
    const child = spawn(python, [script, rank, port, repetitions, batch, rounds, ...sizes].map(String),
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...ncclEnv(), PYTHONDONTWRITEBYTECODE: '1' }, timeout: torchTimeoutMs, killSignal: 'SIGKILL' });
    let stdout = '', stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? signal, stdout, stderr })));
  });
  const done = await Promise.all(ranks);
  if (done.some((r) => r.code !== 0)) {
    // Both ranks' last lines: a rank killed at the time limit shows the stage it was stuck in.
    done.forEach((r, rank) => console.error(`bench/python/nccl_allreduce.py rank ${rank} ended with ${r.code}:\n` +
      r.stderr.trim().split('\n').slice(-8).join('\n')));
    return undefined;
  }
  const result = JSON.parse(done[0].stdout.trim().split('\n').pop());
  for (const [what, error] of Object.entries(result.errors ?? {})) console.error(`bench/python/nccl_allreduce.py: ${what} failed: ${error}`);
  return result;
}

/** Runs the NCCL benchmark; returns its sections (no rows, and why, without two devices or NCCL). */
async function measure({ repetitions = 10, largest = 1 << 30, batch = 100, rounds = 30 } = {}) {
  const cuda = require('..');
  const count = cuda.Device.count();
  const status = count < 2 ? undefined : cuda.nccl.ncclStatus();
  const why = count < 2 ? `skipped: two devices needed, ${count} visible`
    : !status.available ? `skipped: NCCL cannot be loaded (${status.detail})` : undefined;
  if (why) {
    console.log(`[nccl] ${why}`);
    return [{ title: titles.bandwidth, rows: [], notes: [why] }];
  }
  const options = { repetitions, batch, rounds, sizes: sizesUpTo(largest) };
  // Each implementation says when it starts, so that a rank stuck in NCCL shows where.
  const started = now();
  const stage = (what) => console.error(`[nccl] ${what} (at ${((now() - started) / 1e9).toFixed(1)} s)`);
  stage('JavaScript, two processes');
  const js = await measureJs(cuda, options);
  stage('C, two processes');
  const c = runC('nccl-allreduce', [repetitions, batch, rounds, ...options.sizes],
    { libs: ['-ldl'], env: ncclEnv(), timeoutMs: 600000 });
  const torch = torchState();
  stage(torch.available ? 'torch.distributed, two processes' : 'torch.distributed: not run');
  const py = torch.available ? await measureTorch(options) : undefined;
  stage('done');

  const bandwidth = options.sizes.map((bytes) => ({
    label: `all-reduce bus bandwidth, ${sizeName(bytes)}`, unit: 'GB/s', better: 'higher', bytes, direction: 'allreduce',
    js: js.busbw[bytes], c: c.busbw[bytes], torch: py?.busbw[bytes],
    target: bytes >= 64 << 20 ? { minRatio: 0.97 } : undefined,
  }));
  const host = [['eager', 'allReduce'], ['captured', 'launch of a graph holding one allReduce']].map(([key, what]) => ({
    label: `${what}, ${sizeName(smallBytes)}, host time per call`, unit: 'ns', better: 'lower',
    js: js[key], c: c[key], torch: py?.[key],
    target: c[key] === undefined ? undefined : { maxAbove: 300, reference: c[key], of: 'C' },
  }));
  if (js.paired) {
    host.push({
      label: `allReduce, ${sizeName(smallBytes)}, host time per call, C in this process`, unit: 'ns', better: 'lower',
      js: js.paired.js, c: js.paired.c, target: { maxAbove: 300, reference: js.paired.c, of: 'C' },
    });
  }
  if (js.sameComm) {
    host.push({
      label: `allReduce, ${sizeName(smallBytes)}, host time per call, C in this process on the same communicator`, unit: 'ns',
      better: 'lower', js: js.sameComm.js, c: js.sameComm.c, target: { maxAbove: 300, reference: js.sameComm.c, of: 'C' },
    });
    host.push({
      label: `ncclAllReduce from C entered once per call from JavaScript (the JS column), ${sizeName(smallBytes)}, same communicator`,
      unit: 'ns', better: 'lower', js: js.perCrossing.js, c: js.perCrossing.c,
    });
  }
  const v = status.version;
  const common = [
    `${cuda.Device.get(0).name} and ${cuda.Device.get(1).name}; NCCL ${v.major}.${v.minor}.${v.patch} from ${status.libraryPath}; NCCL_NVLS_ENABLE=0 in every process`,
    'two processes, one GPU each, for every implementation; float32, sum, in place; rank 0\'s figures',
    torch.available
      ? `torch.distributed: torch ${py?.versions?.torch ?? torch.version}${py ? `, its NCCL ${py.versions.nccl}` : ' (the script failed; see above)'}, init_method tcp://127.0.0.1`
      : `torch.distributed: not run (${torch.reason})`,
  ];
  return [
    { title: titles.bandwidth, rows: bandwidth, notes: [
      `busbw = bytes / time per call * 2(n-1)/n, n = 2; per size a warm-up, then the median over ${repetitions} repetitions of a few calls and a stream sync`,
      ...common] },
    { title: titles.host, rows: host, notes: [
      `time the host spends issuing one call (${sizeName(smallBytes)}), no sync in the loop: median over ${rounds} rounds of ${batch} calls; target: at most 0.3 us above C`,
      '"C in this process": bench/c/nccl-inprocess.c calls ncclAllReduce on the stream and buffer JavaScript uses, batch by batch in ' +
        'turn with it: on a second communicator it made, and on JavaScript\'s own (Communicator.handle); the last row times ' +
        'C\'s own call entered from a JavaScript loop one call at a time against C\'s loop: what calling per call costs a call this ' +
        'long, whatever the binding',
      ...common] },
  ];
}

module.exports = { measure };

if (require.main === module) {
  const rankArg = process.argv[2];
  if (rankArg === '--rank=1') {
    const options = JSON.parse(process.argv[3]);
    readIds()
      .then((ids) => measureRank(require('..'), 1, ids, options))
      .then(() => process.exit(0), (error) => {
        console.error(error);
        process.exit(1);
      });
  } else {
    const [repetitions, largest, batch, rounds] = process.argv.slice(2).map(Number);
    runAlone(measure, { repetitions: repetitions || undefined, largest: largest || undefined, batch: batch || undefined, rounds: rounds || undefined });
  }
}
