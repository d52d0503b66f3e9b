// NCCL across two GPUs: two processes, one GPU each, bootstrapped by handing
// the unique id to the second on its stdin. Collectives' results are checked
// element by element, eagerly and captured into a graph, and a rank whose peer
// never joins the call is ended by abort() instead of hanging. Skipped, with the
// reason, where NCCL cannot be loaded. NVLink SHARP stays off (NCCL_NVLS_ENABLE=0)
// in every process started here.
import { spawnSync } from 'child_process';
import { describeMultiGpu } from '../helpers/tiers';
import { distPath, startScript, StartedScript } from '../helpers/subprocess';

const ncclEnv = { NCCL_NVLS_ENABLE: '0' };

// Decided in a child so that this process never loads NCCL.
const status = (() => {
  const r = spawnSync(process.execPath, ['-e', `process.stdout.write(JSON.stringify(require(${JSON.stringify(distPath)}).nccl.ncclStatus()))`],
    { encoding: 'utf8', env: { ...process.env, ...ncclEnv } });
  return r.status === 0 ? JSON.parse(r.stdout) : { available: false, detail: r.stderr.trim().split('\n').pop() };
})();
const describeNccl = status.available ? describeMultiGpu : describe.skip;
if (!status.available) describe(`NCCL (skipped: ${status.detail})`, () => test.todo('needs NCCL'));

// A rank: rank 0 makes the id and prints it (or the port it serves it on);
// rank 1 reads that from stdin.
const bootstrap = `
const { nccl } = cuda;
const rank = Number(process.env.RANK);
const device = rank;
const readLine = () => new Promise((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8').on('data', (d) => { text += d; if (text.includes('\\n')) { process.stdin.pause(); resolve(text.trim()); } });
});
const join = async (config) => {
  let id;
  if (rank === 0) { id = nccl.uniqueId(); process.stdout.write('ID ' + Buffer.from(id).toString('hex') + '\\n'); }
  else id = new Uint8Array(Buffer.from(await readLine(), 'hex'));
  return nccl.Communicator.init({ id, rank, size: 2, device, config, timeoutMs: 60000 });
};
// As two machines would: rank 0 serves the id on a TCP socket, rank 1 is told
// only the port (on loopback here) and fetches it.
const joinTcp = async () => {
  const net = require('net');
  let id;
  if (rank === 0) {
    id = nccl.uniqueId();
    const server = net.createServer((socket) => { socket.end(Buffer.from(id)); server.close(); });
    await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
    process.stdout.write('ID ' + server.address().port + '\\n');
  } else {
    const port = Number(await readLine());
    id = await new Promise((resolve, reject) => {
      const chunks = [];
      net.connect(port, '127.0.0.1').on('data', (d) => chunks.push(d)).on('error', reject)
        .on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    });
  }
  return nccl.Communicator.init({ id, rank, size: 2, device, timeoutMs: 60000 });
};
const n = 4096;
const f = (g, length = n) => Float32Array.from({ length }, (_, i) => g(i));
// How many elements differ from what g says, and the first of them.
const check = (got, g) => { let wrong = 0, first = null; got.forEach((v, i) => { if (v !== g(i)) { wrong++; if (first === null) first = [i, v, g(i)]; } }); return { wrong, first }; };
`;

function startPair(body: string): Promise<[any, any]> {
  const ranks: StartedScript[] = [0, 1].map((rank) => startScript(`${bootstrap}\n${body}`, { ...ncclEnv, RANK: String(rank) }));
  let seen = '';
  ranks[0].child.stdout!.on('data', (d: Buffer | string) => {
    seen += d.toString();
    const line = /^ID ([0-9a-f]+)$/m.exec(seen);
    if (line && ranks[1].child.stdin!.writable) ranks[1].child.stdin!.end(`${line[1]}\n`);
  });
  return Promise.all(ranks.map(async (r, rank) => {
    const out = await r.result;
    if (out.status !== 0 || !out.report) throw new Error(`rank ${rank} exited with ${out.status} ${out.signal ?? ''}: ${out.stderr}`);
    return out.report;
  })) as Promise<[any, any]>;
}

describeNccl('NCCL across two GPUs in two processes', () => {
  test('allReduce, broadcast, allGather, reduceScatter, send/recv, pool memory, and a captured allReduce', async () => {
    const reports = await startPair(`
(async () => {
  const comm = await join();
  const stream = cuda.Stream.create({ device });
  const out = { rank: comm.rank, size: comm.size, device: comm.device.ordinal };

  const a = cuda.DeviceBuffer.from(f((i) => rank + 1 + i), { device });
  comm.allReduce(a, a, { stream, type: 'float32', op: 'sum' });
  await comm.synchronize(stream);
  out.allReduce = check(a.readSync(Float32Array), (i) => 3 + 2 * i);

  const m = cuda.DeviceBuffer.from(f((i) => rank === 0 ? i : n - i), { device });
  const mx = cuda.DeviceBuffer.alloc(n * 4, { device });
  comm.allReduce(m, mx, { stream, op: 'max' });
  await comm.synchronize(stream);
  out.max = check(mx.readSync(Float32Array), (i) => Math.max(i, n - i));

  const b = cuda.DeviceBuffer.from(rank === 1 ? f((i) => 7 * i) : new Float32Array(n), { device });
  comm.broadcast(b, b, { stream, root: 1 });
  await comm.synchronize(stream);
  out.broadcast = check(b.readSync(Float32Array), (i) => 7 * i);

  const s = cuda.DeviceBuffer.from(f((i) => rank * 1000 + i), { device });
  const g = cuda.DeviceBuffer.alloc(2 * n * 4, { device });
  comm.allGather(s, g, { stream });
  await comm.synchronize(stream);
  out.allGather = check(g.readSync(Float32Array), (j) => j < n ? j : 1000 + j - n);

  const rs = cuda.DeviceBuffer.from(f((j) => (rank + 1) * j, 2 * n), { device });
  const part = cuda.DeviceBuffer.alloc(n * 4, { device });
  comm.reduceScatter(rs, part, { stream });
  await comm.synchronize(stream);
  out.reduceScatter = check(part.readSync(Float32Array), (i) => 3 * (rank * n + i));

  const peer = 1 - rank;
  const x = cuda.DeviceBuffer.from(f((i) => rank * 10 + i), { device });
  const y = cuda.DeviceBuffer.alloc(n * 4, { device });
  nccl.group(() => { comm.send(x, { stream, peer }); comm.recv(y, { stream, peer }); });
  await comm.synchronize(stream);
  out.sendRecv = check(y.readSync(Float32Array), (i) => peer * 10 + i);

  const pooled = cuda.DeviceBuffer.allocAsync(n * 4, stream);
  pooled.write(f((i) => (rank + 1) * i), { stream });
  comm.allReduce(pooled, pooled, { stream });
  await comm.synchronize(stream);
  out.pool = check(pooled.readSync(Float32Array), (i) => 3 * i);

  // Captured: the graph's executable keeps the communicator after its dispose().
  const c = cuda.DeviceBuffer.from(f(() => rank + 1), { device });
  const graph = stream.capture((st) => comm.allReduce(c, c, { stream: st }), { mode: 'relaxed' });
  const exec = graph.instantiate();
  graph.dispose();
  comm.dispose();
  exec.launch(stream);
  exec.launch(stream);
  await stream.synchronize();
  out.captured = check(c.readSync(Float32Array), () => 6);
  exec.dispose();
  report(out);
})().catch((e) => { console.error(e); process.exit(1); });`);
    reports.forEach((r, rank) => {
      const ok = { wrong: 0, first: null };
      expect(r).toEqual({ rank, size: 2, device: rank, allReduce: ok, max: ok, broadcast: ok, allGather: ok, reduceScatter: ok,
        sendRecv: ok, pool: ok, captured: ok });
    });
  }, 120000);

  test('a rank whose peer never joins the call is ended by abort(), and its stream drains', async () => {
    const reports = await startPair(`
(async () => {
  const comm = await join();
  const stream = cuda.Stream.create({ device });
  // One call together first, so that NCCL has connected the ranks: then the
  // second call only queues work, which waits on the GPU for a peer that left.
  const a = cuda.DeviceBuffer.from(f((i) => i), { device });
  comm.allReduce(a, a, { stream });
  await comm.synchronize(stream);
  if (rank === 1) { report({ left: true }); process.exit(0); }
  comm.allReduce(a, a, { stream });
  let first;
  try { await comm.synchronize(stream, { timeoutMs: 3000 }); first = 'completed'; } catch (e) { first = e.constructor.name; }
  const pending = comm.synchronize(stream).then(() => 'resolved', (e) => e.constructor.name);
  comm.abort();
  const afterAbort = await pending;
  await stream.synchronize({ timeoutMs: 30000 });
  report({ first, afterAbort, aborted: comm.aborted, drained: true });
})().catch((e) => { console.error(e); process.exit(1); });`);
    expect(reports[1]).toEqual({ left: true });
    expect(['NcclError', 'TimeoutError']).toContain(reports[0].first);
    expect(reports[0]).toMatchObject({ afterAbort: 'DisposedError', aborted: true, drained: true });
  }, 120000);


  test('a configured communicator, a split of it, and a shrink that leaves out a peer that left', async () => {
    const reports = await startPair(`
(async () => {
  const comm = await join({ commName: 'configured', minCTAs: 1, maxCTAs: 4, splitShare: true, ctaPolicy: 'efficiency' });
  const stream = cuda.Stream.create({ device });
  const out = { rank: comm.rank };
  const a = cuda.DeviceBuffer.from(f((i) => (rank + 1) * i), { device });
  comm.allReduce(a, a, { stream });
  await comm.synchronize(stream);
  out.configured = check(a.readSync(Float32Array), (i) => 3 * i);

  // Each rank its own color: two communicators of one rank each.
  const alone = await comm.split({ color: rank, config: { commName: 'alone-' + rank } });
  const b = cuda.DeviceBuffer.from(f((i) => rank + i), { device });
  alone.allReduce(b, b, { stream });
  await alone.synchronize(stream);
  out.split = [alone.rank, alone.size, check(b.readSync(Float32Array), (i) => rank + i)];
  await alone.destroy();

  if (rank === 1) { report(out); process.exit(0); }
  // The peer has left: the rest go on without it.
  const rest = await comm.shrink([1], { abort: true, timeoutMs: 60000 });
  const c = cuda.DeviceBuffer.from(f((i) => 5 * i), { device });
  rest.allReduce(c, c, { stream });
  await rest.synchronize(stream);
  out.shrunk = [rest.rank, rest.size, check(c.readSync(Float32Array), (i) => 5 * i)];
  await rest.destroy();
  comm.abort();
  report(out);
})().catch((e) => { console.error(e); process.exit(1); });`);
    const ok = { wrong: 0, first: null };
    expect(reports[0]).toEqual({ rank: 0, configured: ok, split: [0, 1, ok], shrunk: [0, 1, ok] });
    expect(reports[1]).toEqual({ rank: 1, configured: ok, split: [0, 1, ok] });
  }, 120000);

  test('two processes bootstrapped over a TCP socket on loopback', async () => {
    const reports = await startPair(`
(async () => {
  const comm = await joinTcp();
  const stream = cuda.Stream.create({ device });
  const a = cuda.DeviceBuffer.from(f((i) => (rank + 1) * i), { device });
  comm.allReduce(a, a, { stream, type: 'float32', op: 'sum' });
  await comm.synchronize(stream);
  const out = { rank: comm.rank, sum: check(a.readSync(Float32Array), (i) => 3 * i) };
  await comm.destroy();
  report(out);
})().catch((e) => { console.error(e); process.exit(1); });`);
    expect(reports).toEqual([0, 1].map((rank) => ({ rank, sum: { wrong: 0, first: null } })));
  }, 120000);
});

describeNccl('NCCL across two GPUs in one process', () => {
  test('two worker threads, one GPU each: eager and captured allReduce', async () => {
    const worker = `
const { workerData, parentPort } = require('worker_threads');
const cuda = require(${JSON.stringify(distPath)});
const { nccl } = cuda;
const n = 4096;
const f = (g) => Float32Array.from({ length: n }, (_, i) => g(i));
const wrongOf = (got, g) => got.reduce((w, v, i) => w + (v !== g(i) ? 1 : 0), 0);
(async () => {
  const { id, rank } = workerData;
  const device = rank;
  const comm = await nccl.Communicator.init({ id, rank, size: 2, device });
  const stream = cuda.Stream.create({ device });
  const a = cuda.DeviceBuffer.from(f((i) => rank + 1 + i), { device });
  comm.allReduce(a, a, { stream });
  await comm.synchronize(stream);
  const eager = wrongOf(a.readSync(Float32Array), (i) => 3 + 2 * i);
  const c = cuda.DeviceBuffer.from(f(() => rank + 1), { device });
  const graph = stream.capture((st) => comm.allReduce(c, c, { stream: st }), { mode: 'relaxed' });
  const exec = graph.instantiate();
  exec.launch(stream);
  exec.launch(stream);
  await stream.synchronize();
  const captured = wrongOf(c.readSync(Float32Array), () => 6);
  exec.dispose();
  graph.dispose();
  const ordinal = comm.device.ordinal;
  await comm.destroy();
  parentPort.postMessage({ rank, device: ordinal, eager, captured });
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));`;
    const r = await startScript(`
const { Worker } = require('worker_threads');
const id = cuda.nccl.uniqueId();
Promise.all([0, 1].map((rank) => new Promise((resolve, reject) => {
  new Worker(${JSON.stringify(worker)}, { eval: true, workerData: { id, rank } }).once('message', resolve).once('error', reject);
}))).then(report, (e) => { console.error(e); process.exit(1); });`, ncclEnv).result;
    expect(r.stderr).toBe('');
    expect(r.report).toEqual([0, 1].map((rank) => ({ rank, device: rank, eager: 0, captured: 0 })));
  }, 120000);

  test('one thread driving both GPUs groups its calls; capturing calls for two GPUs from it is refused', async () => {
    const r = await startScript(`
const { nccl } = cuda;
const n = 4096;
const f = (g) => Float32Array.from({ length: n }, (_, i) => g(i));
(async () => {
  const id = nccl.uniqueId();
  // Each init runs on a thread of its own, so one JavaScript thread can make both ranks.
  const comms = await Promise.all([0, 1].map((rank) => nccl.Communicator.init({ id, rank, size: 2, device: rank })));
  const streams = [0, 1].map((device) => cuda.Stream.create({ device }));
  const bufs = [0, 1].map((device) => cuda.DeviceBuffer.from(f((i) => device + 1 + i), { device }));
  nccl.group(() => comms.forEach((comm, rank) => comm.allReduce(bufs[rank], bufs[rank], { stream: streams[rank] })));
  await Promise.all(comms.map((comm, rank) => comm.synchronize(streams[rank])));
  const wrong = bufs.map((b) => b.readSync(Float32Array).reduce((w, v, i) => w + (v !== 3 + 2 * i ? 1 : 0), 0));
  const captures = streams.map((s) => s.beginCapture({ mode: 'relaxed' }));
  comms[0].allReduce(bufs[0], bufs[0], { stream: streams[0] });
  let refused;
  try { comms[1].allReduce(bufs[1], bufs[1], { stream: streams[1] }); } catch (e) { refused = e.constructor.name + ': ' + e.message; }
  captures.forEach((c) => c.end().dispose());
  comms.forEach((c) => c.abort());
  report({ wrong, refused });
})().catch((e) => { console.error(e); process.exit(1); });`, ncclEnv).result;
    expect(r.stderr).toBe('');
    expect(r.report).toEqual({ wrong: [0, 0],
      refused: expect.stringMatching(/^RangeError: an NCCL call for device 1 inside a stream capture, while this thread captures NCCL calls for device 0/) });
  }, 120000);
});
