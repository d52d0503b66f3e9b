#!/usr/bin/env node
// The shape of a Node service running GPU pipelines, against the same service
// in C with one thread per request in flight (bench/c/service.h, built here:
// in this process, in turn with JavaScript, and as a process of its own) and
// in cuda.core with threads (bench/python/service.py). A request uploads
// 1 MiB from pinned memory, launches a graph of 20 kernel nodes that transform
// it, downloads the result and waits for it; requests run closed-loop, 1, 8
// and 32 in flight, and each figure is requests per second and the p50 and
// p99 latency (from a request's start to its result in host memory).
//
// The pool: each request in flight has a slot of its own, made before the
// timing: a stream, pinned input and output staging, a device buffer and a
// graph executable whose nodes name that buffer. A real service keeps one
// executable per slot rather than sharing one: an executable's launches are
// ordered behind its previous launches whatever the stream (cuGraphLaunch),
// so a shared one would run the requests one after another, and its kernel
// nodes name one buffer, which a shared executable would have to have
// updated before every launch. With N requests in flight and N slots, the
// worker that takes a slot from the pool always finds the same one, so each
// worker holds its slot.
//
// The work, the same in all three: words (u32) of the input are
// hash(i) = i * 0x9E3779B1 (wrapping), written once per slot; node k (0..19)
// computes x = x * (2k + 3) + (k + 1) * 16777619 on every word, in a chain,
// so the download is x * A + B with A and B the chain's composition. Each
// request writes its own tags, id * 64 + j, at words j * 4096 (j < 64) and
// checks its result at those words and at the last word of each 4096 (a
// download that did not happen, or happened before the graph ran, shows the
// previous request's tags or untransformed ones); in the warm-up before each
// timed run, the first request of each worker checks every word. A wrong word
// stops the benchmark with an error.
// Over the stand-in driver, kernels do nothing and the expected result is the
// input itself (the copies still move the bytes).
//
// Usage: node bench/service.js [requests=10000] [passes=3]
'use strict';
const { cubinFile, describePython, inProcessC, now, pick, runAlone, runC, runPython, standIn } = require('./common');

const concurrencies = [1, 8, 32];
// Rounds of JavaScript and C in this process per pass: from one round to the
// next, either side's throughput moved by more than the goal's margin.
const ROUNDS = 3;
const WORDS = 1 << 18; // 1 MiB of 32-bit words
const NODES = 20;
const BLOCK = 256;
const TAGS = 64;
const STRIDE = WORDS / TAGS;

const hash = (i) => Math.imul(i, 0x9e3779b1) >>> 0;
/** Node k's constants: it computes x * a + b. */
const step = (k) => ({ a: 2 * k + 3, b: (k + 1) * 16777619 });

/** The chain's composition {A, B} (x -> x * A + B), or the identity over the stand-in. */
function composition(identity) {
  let A = 1, B = 0;
  if (!identity) {
    for (let k = 0; k < NODES; k++) {
      const { a, b } = step(k);
      A = Math.imul(a, A) >>> 0;
      B = (Math.imul(a, B) + b) >>> 0;
    }
  }
  return { A, B, at: (x) => (Math.imul(A, x) + B) >>> 0 };
}

/** A slot of the pool: stream, pinned staging, device buffer and an executable of the 20-node chain on that buffer. */
function makeSlot(cuda, kernel) {
  const { arg } = cuda;
  const stream = cuda.Stream.create();
  const input = cuda.HostBuffer.alloc(WORDS * 4);
  const output = cuda.HostBuffer.alloc(WORDS * 4);
  const device = cuda.DeviceBuffer.alloc(WORDS * 4);
  const words = input.view(Uint32Array);
  for (let i = 0; i < WORDS; i++) words[i] = hash(i);
  const graph = cuda.Graph.create();
  let previous;
  for (let k = 0; k < NODES; k++) {
    const { a, b } = step(k);
    const args = [arg.ptr(device), arg.u32(a), arg.u32(b), arg.u32(WORDS)];
    previous = graph.addKernel(kernel, { grid: WORDS / BLOCK, block: BLOCK }, args, previous ? { after: [previous] } : {});
  }
  const exec = graph.instantiate();
  graph.dispose();
  return { stream, input, output, device, exec, inputWords: words, outputWords: output.view(Uint32Array) };
}

function disposeSlot(slot) {
  for (const h of [slot.exec, slot.stream, slot.device, slot.input, slot.output]) h.dispose();
}

/** count slots of file's `affine`, and close(), which disposes of them and the library. */
function openSlots(cuda, file, count) {
  const lib = cuda.Library.loadFile(file);
  const kernel = lib.kernel('affine');
  const slots = Array.from({ length: count }, () => makeSlot(cuda, kernel));
  const close = () => {
    for (const slot of slots) disposeSlot(slot);
    kernel.dispose();
    lib.dispose();
  };
  return { slots, close };
}

/** Throws unless the download of request id is its transformed input: at the sampled words, or every word. */
function check(slot, id, t, every) {
  const out = slot.outputWords;
  const wrong = (i, expected) => {
    throw new Error(`service: request ${id}: word ${i} is ${out[i]}, expected ${expected}`);
  };
  for (let j = 0; j < TAGS; j++) {
    const tagged = j * STRIDE, last = tagged + STRIDE - 1;
    const expected = t.at((id * TAGS + j) >>> 0);
    if (out[tagged] !== expected) wrong(tagged, expected);
    if (out[last] !== t.at(hash(last))) wrong(last, t.at(hash(last)));
    if (every) {
      for (let i = tagged + 1; i < last; i++) if (out[i] !== t.at(hash(i))) wrong(i, t.at(hash(i)));
    }
  }
}

/**
 * One request on slot: tag the input, upload it, run the graph, download, await
 * the result (or, blocking, wait for it on this thread). Its latency in ns.
 */
async function request(cuda, slot, id, blocking) {
  const t0 = now();
  const words = slot.inputWords;
  for (let j = 0; j < TAGS; j++) words[j * STRIDE] = id * TAGS + j;
  cuda.copy(slot.device, slot.input, { stream: slot.stream });
  slot.exec.launch(slot.stream);
  cuda.copy(slot.output, slot.device, { stream: slot.stream });
  if (blocking) slot.stream.synchronizeSync();
  else await slot.stream.synchronize();
  return now() - t0;
}

/**
 * count requests numbered from first, slots.length in flight, each worker on
 * its slot; checks every result, with full the first of each worker at every
 * word. {seconds, latencies}.
 */
async function serve(cuda, slots, first, count, t, full, blocking) {
  const latencies = new Float64Array(count);
  let next = 0;
  const worker = async (slot) => {
    for (let every = full, i = next++; i < count; i = next++, every = false) {
      latencies[i] = await request(cuda, slot, first + i, blocking);
      check(slot, first + i, t, every);
    }
  };
  const t0 = now();
  await Promise.all(slots.map(worker));
  return { seconds: (now() - t0) / 1e9, latencies };
}

/** The q-quantile of sorted values (nearest rank), as service.h and service.py take it. */
const quantile = (sorted, q) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];

/** A run's figures from its latencies (sorted here) and its seconds: {throughput, p50, p99} (ns). */
function figuresOf(latencies, seconds) {
  latencies.sort();
  return { throughput: latencies.length / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

/** The warm-up before a timed run at n in flight, as service.h takes it. */
const warmupOf = (n) => Math.max(200, 4 * n);

/**
 * requests at n in flight on the first n slots, after a warm-up of max(200,
 * 4n), awaited or (blocking) waited for on this thread: {throughput, p50, p99} (ns).
 */
async function atConcurrency(cuda, slots, n, requests, t, blocking = false) {
  const warmup = warmupOf(n);
  await serve(cuda, slots.slice(0, n), 0, warmup, t, true, blocking);
  const { seconds, latencies } = await serve(cuda, slots.slice(0, n), warmup, requests, t, false, blocking);
  return figuresOf(latencies, seconds);
}

// The control on worker threads: the same requests at THREADS_IN_FLIGHT in
// flight, THREADS Node worker threads of an equal share each, every thread
// with its own slots. What the one JavaScript thread costs at that
// concurrency, where it makes every driver call that C's threads share out.
const THREADS = 4;
const THREADS_IN_FLIGHT = 32;

/** Starts THREADS worker threads of this file, each with slots for its share of THREADS_IN_FLIGHT. */
function startThreads(file, identity) {
  const { Worker } = require('worker_threads');
  return Array.from({ length: THREADS }, () => new Worker(__filename,
    { workerData: { role: 'service thread', file, identity, inFlight: THREADS_IN_FLIGHT / THREADS } }));
}

/**
 * requests split among the threads, each after its own warm-up; all start
 * together and the time runs from that start to the last result:
 * {throughput, p50, p99} (ns).
 */
async function onThreads(threads, requests) {
  const share = Math.floor(requests / threads.length);
  const flags = new Int32Array(new SharedArrayBuffer(8)); // [threads warmed up, go]
  const results = threads.map((thread, k) => new Promise((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.postMessage({ first: (k + 1) * 1e6, count: share, flags: flags.buffer });
  }));
  while (Atomics.load(flags, 0) < threads.length) Atomics.wait(flags, 0, Atomics.load(flags, 0), 1000);
  const t0 = now();
  Atomics.store(flags, 1, 1);
  Atomics.notify(flags, 1);
  const done = await Promise.all(results);
  const latencies = new Float64Array(share * threads.length);
  done.forEach((r, k) => latencies.set(r.latencies, k * share));
  return figuresOf(latencies, (Math.max(...done.map((r) => r.end)) - t0) / 1e9);
}

/** Ends the threads: each disposes of its slots first. */
async function stopThreads(threads) {
  await Promise.all(threads.map((thread) => new Promise((resolve) => {
    thread.once('exit', resolve);
    thread.postMessage({});
  })));
}

/** A worker thread's part (startThreads): warm up, wait for the start, serve its share. */
function serveOnThread({ file, identity, inFlight }) {
  const { parentPort } = require('worker_threads');
  const cuda = require('..');
  const t = composition(identity);
  const { slots, close } = openSlots(cuda, file, inFlight);
  parentPort.on('message', async ({ first, count, flags }) => {
    if (count === undefined) {
      close();
      parentPort.close();
      return;
    }
    const shared = new Int32Array(flags);
    await serve(cuda, slots, first - warmupOf(inFlight), warmupOf(inFlight), t, true, false);
    Atomics.add(shared, 0, 1);
    Atomics.notify(shared, 0);
    Atomics.wait(shared, 1, 0);
    const { latencies } = await serve(cuda, slots, first, count, t, false, false);
    parentPort.postMessage({ end: now(), latencies }, [latencies.buffer]);
  });
}

/** Runs the service benchmark; returns its section of the report. */
async function measure({ requests = 10000, passes = 3 } = {}) {
  const cuda = require('..');
  const file = cubinFile(cuda);
  const identity = standIn();
  const t = composition(identity);
  const most = Math.max(...concurrencies);
  const { slots, close } = openSlots(cuda, file, most);
  // C in this process, at each concurrency right before or after JavaScript,
  // ROUNDS times a pass, the order alternating; C in a process of its own, and
  // Python, after each pass. Each figure is the median over every round.
  const inC = inProcessC('service-inprocess', { libs: ['-pthread'] });
  inC.open(file, Boolean(identity), most, requests);
  // (Not over the stand-in driver, whose memory bookkeeping is one thread's.)
  const threads = identity ? [] : startThreads(file, identity);
  const js = [], c = [], cProcess = [], py = [];
  for (let pass = 0; pass < passes; pass++) {
    for (let round = 0; round < ROUNDS; round++) {
      const run = {}, cRun = {};
      const cFirst = (pass * ROUNDS + round) % 2 === 1;
      for (const n of concurrencies) {
        if (cFirst) cRun[n] = inC.run(n, requests);
        run[n] = await atConcurrency(cuda, slots, n, requests, t);
        if (!cFirst) cRun[n] = inC.run(n, requests);
      }
      if (round === 0) run.blocking = await atConcurrency(cuda, slots, 1, requests, t, true);
      if (threads.length) run.threads = await onThreads(threads, requests);
      js.push(run);
      c.push(cRun);
    }
    cProcess.push(runC('service', [file, identity ? 1 : 0, requests, ...concurrencies], { libs: ['-pthread'], timeoutMs: 300000 }));
    py.push(runPython('service', [file, requests, ...concurrencies]));
  }
  inC.close();
  await stopThreads(threads);
  close();

  const us = (ns) => (ns === undefined ? undefined : ns / 1e3);
  const rows = [];
  for (const n of concurrencies) {
    const figure = (key, scale = (v) => v) => ({
      js: scale(pick(js, (r) => r[n][key])),
      c: scale(pick(c, (r) => r[n]?.[key])),
      core: scale(pick(py, (r) => r?.core[`${n}.${key}`])),
    });
    const label = `service, ${n} in flight`;
    rows.push({ label: `${label}: requests/s`, unit: 'req/s', better: 'higher', concurrency: n, ...figure('throughput'), target: { minRatio: 0.95 } });
    rows.push({ label: `${label}: p50 latency`, unit: 'us', better: 'lower', ...figure('p50', us) });
    rows.push({ label: `${label}: p99 latency`, unit: 'us', better: 'lower', ...figure('p99', us), target: { maxRatio: 1.2 } });
  }
  // A control row: key ('throughput', 'p50' or 'p99') of jsRuns' figures
  // (jsFigure of a run) in the JS column against C's in this process at n.
  const control = (label, key, jsRuns, jsFigure, n) => {
    const scale = key === 'throughput' ? (v) => v : us;
    return {
      label: `${label}: ${key === 'throughput' ? 'requests/s' : `${key} latency`}`,
      unit: key === 'throughput' ? 'req/s' : 'us', better: key === 'throughput' ? 'higher' : 'lower',
      js: scale(pick(jsRuns, (r) => jsFigure(r)?.[key])), c: scale(pick(c, (r) => r[n]?.[key])),
    };
  };
  // The same requests one at a time with the JavaScript thread blocked in
  // each wait, as C's thread is: what is left of the gap at 1 in flight
  // without the await.
  const blockingLabel = 'control: service, 1 in flight, JavaScript blocking in synchronizeSync()';
  rows.push(control(blockingLabel, 'throughput', js, (r) => r.blocking, 1), control(blockingLabel, 'p50', js, (r) => r.blocking, 1));
  const threadsLabel = `control: service, ${THREADS_IN_FLIGHT} in flight, JavaScript on ${THREADS} worker threads of ${THREADS_IN_FLIGHT / THREADS} each`;
  rows.push(control(threadsLabel, 'throughput', js, (r) => r.threads, THREADS_IN_FLIGHT),
    control(threadsLabel, 'p99', js, (r) => r.threads, THREADS_IN_FLIGHT));
  // The other control: C's service in a process of its own (in the JS
  // column) against C's in this process; what the host's moment moves.
  for (const n of concurrencies) {
    const label = `control: service, ${n} in flight, C in a process of its own against C in this process`;
    rows.push(control(label, 'throughput', cProcess, (r) => r[n], n), control(label, 'p99', cProcess, (r) => r[n], n));
  }
  return [{
    title: 'Service',
    rows,
    notes: [
      `requests of 1 MiB up, a graph of ${NODES} kernel nodes, 1 MiB down, awaited; ${requests} requests closed-loop at each ` +
        `concurrency after a warm-up, every result checked; median of ${passes} passes of ${ROUNDS} rounds; C in this process (bench/c/service-inprocess.c) ` +
        'right before or after JavaScript at each concurrency in every round, in turn; C in a process of its own and Python after each pass',
      'each request in flight has its own stream, pinned staging, device buffer and graph executable; ' +
        'JavaScript: async workers on one thread, `await stream.synchronize()`; C: one pthread per request in flight, ' +
        'cuStreamSynchronize; cuda.core: one Python thread per request in flight, Stream.sync()',
      'control rows: JavaScript at 1 in flight waiting with stream.synchronizeSync(), blocking its thread as C does, against C at 1 in flight; ' +
        `JavaScript at ${THREADS_IN_FLIGHT} in flight on ${THREADS} Node worker threads (each with its own slots, all starting together, ` +
        `every round), against C at ${THREADS_IN_FLIGHT}; C in a process of its own against C in this process`,
      describePython(py.find(Boolean)),
    ],
  }];
}

module.exports = { measure };

const { isMainThread, workerData } = require('worker_threads');
if (!isMainThread && workerData?.role === 'service thread') {
  serveOnThread(workerData);
} else if (require.main === module) {
  runAlone(measure, { requests: Number(process.argv[2]) || undefined, passes: Number(process.argv[3]) || undefined });
}
