// Shared by the benchmarks: statistics, the kernels every benchmark launches,
// building and running the C baselines, running the Python baselines, and
// printing and writing figures with their ratios.
'use strict';
const { execFileSync, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const cudaPath = process.env.CUDA_PATH || '/usr/local/cuda';
/** The Python interpreter of the Python baselines (PYTHON overrides it). */
const python = process.env.PYTHON || 'python3';

/** Median of an array of numbers. */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** 4 KiB, 16 KiB, ... up to largest, by fours: the sizes of the bandwidth benchmarks. */
function sizesUpTo(largest) {
  const sizes = [];
  for (let bytes = 4096; bytes <= largest; bytes *= 4) sizes.push(bytes);
  return sizes;
}

/** Nanoseconds since an arbitrary point, as a number. */
const now = () => Number(process.hrtime.bigint());

/**
 * Median nanoseconds per call of op(i) over rounds of batch calls, after a
 * warm-up of batch * 10 calls; drain() (when given) runs after the warm-up and
 * after every round, outside the timing. bench/python/common.py's per_call and
 * bench/c/timing.h's perBatch do the same.
 */
function perCall(op, batch, rounds, drain) {
  for (let i = 0; i < batch * 10; i++) op(i);
  if (drain) drain();
  const times = new Array(rounds);
  for (let r = 0; r < rounds; r++) {
    times[r] = batchTime(op, batch) / batch;
    if (drain) drain();
  }
  return median(times);
}

/** Nanoseconds of one batch: op(0) to op(batch - 1). */
function batchTime(op, batch) {
  const t0 = now();
  for (let i = 0; i < batch; i++) op(i);
  return now() - t0;
}

/**
 * perCall against C in this process (bench/c/inprocess.c): op(i) from
 * JavaScript and inC(count), which makes the same call count times in C and
 * returns their nanoseconds (timed in C), batch by batch in turn, which side
 * goes first alternating, drain after every batch. {js, c}: for each, the
 * median over rounds of a batch's time per call.
 */
function pairedPerCall(op, inC, batch, rounds, drain) {
  return pairedBatches((count) => batchTime(op, count), inC, batch, rounds, drain);
}

/**
 * pairedPerCall for a call that queues a whole batch (stream.submit):
 * submit() queues `batch` items; {js, c} per item.
 */
function pairedPerItem(submit, inC, batch, rounds, drain) {
  return pairedBatches((count) => {
    const t0 = now();
    if (count > 0) submit();
    return now() - t0;
  }, inC, batch, rounds, drain);
}

/**
 * The control of an in-process row, with nothing of the binding on either
 * side: inC(count), C's own loop, entered from JavaScript once per call
 * against the same loop entered once per batch ({js, c}, as pairedPerCall).
 */
function crossingControl(inC, batch, rounds, drain) {
  return pairedPerCall(() => inC(1), inC, batch, rounds, drain);
}

/** The other control: C's batch against C's batch, timed as pairedPerItem times a stream.submit(). */
function batchControl(inC, batch, rounds, drain) {
  return pairedPerItem(() => inC(batch), inC, batch, rounds, drain);
}

// jsBatch(count) and inC(count): nanoseconds of count calls. Each side's
// reading of its own clock (a batch of none, the median of many) is taken off
// its batches: process.hrtime.bigint() costs several times C's
// clock_gettime(), which over a batch of 5 graph launches (1000 nodes) was
// tens of nanoseconds a launch charged to JavaScript.
function pairedBatches(jsBatch, inC, batch, rounds, drain) {
  for (let i = 0; i < 10; i++) {
    jsBatch(batch);
    inC(batch);
  }
  drain();
  const jsClock = median(Array.from({ length: 101 }, () => jsBatch(0)));
  const cClock = median(Array.from({ length: 101 }, () => inC(0)));
  const js = new Array(rounds), c = new Array(rounds);
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? ['c', 'js'] : ['js', 'c']) {
      if (side === 'js') js[r] = (jsBatch(batch) - jsClock) / batch;
      else c[r] = (inC(batch) - cClock) / batch;
      drain();
    }
  }
  return { js: median(js), c: median(c) };
}

/**
 * A row of JavaScript's figure against C's in this process (pairedPerCall's
 * {js, c}, as picked over the passes), with a JS/C target, and with maxAdded
 * a target on the nanoseconds JavaScript adds to C.
 */
function inProcessRow(label, js, c, maxRatio, maxAdded) {
  const added = maxAdded === undefined ? {} : { maxAbove: maxAdded, reference: c, of: 'C' };
  return { label: `${label}, C in this process`, unit: 'ns', better: 'lower', js, c, target: { maxRatio, ...added } };
}

/**
 * True when the suite runs over the stand-in driver (bench/run.js --stand-in):
 * every part runs, including the C baselines, but no figure means anything.
 */
const standIn = () => process.env.BENCH_STAND_IN === '1';

/**
 * The kernels the benchmarks run, in every language: empty ones for the
 * launch and graph benchmarks, and the service benchmark's step (x = x * a + b
 * on n 32-bit words, wrapping, so that its result can be checked exactly).
 */
const kernelSource = `
extern "C" __global__ void empty0() {}
extern "C" __global__ void empty4(float* a, const float* b, float c, unsigned n) {}
extern "C" __global__ void empty16(float* p0, float* p1, float* p2, float* p3, float f0, float f1, float f2, float f3,
                                   int i0, int i1, int i2, int i3, unsigned long long u0, unsigned long long u1,
                                   double d0, double d1) {}
extern "C" __global__ void affine(unsigned* x, unsigned a, unsigned b, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a + b;
}
`;

/** The same kernels in the stand-in driver's code format (parameter sizes). */
const standInImage = [
  'FAKE',
  'kernel empty0',
  'kernel empty4 8,8,4,4',
  'kernel empty16 8,8,8,8,4,4,4,4,4,4,4,4,8,8,8,8',
  'kernel affine 8,4,4,4',
].join('\n');

let cubinPath;
/**
 * A CUBIN of kernelSource for device 0, written to a temporary file once per
 * process: compiled with NVRTC through the package, or with nvcc where NVRTC
 * is missing. Every side (JavaScript, C, Python) loads this file.
 */
function cubinFile(cuda) {
  if (cubinPath) return cubinPath;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-bench-'));
  cubinPath = path.join(dir, 'kernels.cubin');
  if (standIn()) {
    fs.writeFileSync(cubinPath, standInImage);
  } else if (cuda.nvrtcStatus().available) {
    fs.writeFileSync(cubinPath, cuda.compile(kernelSource, { name: 'bench-kernels.cu' }).code);
  } else {
    const { major, minor } = cuda.Device.get(0).computeCapability;
    fs.writeFileSync(path.join(dir, 'kernels.cu'), kernelSource);
    execFileSync(path.join(cudaPath, 'bin', 'nvcc'), [`-arch=sm_${major}${minor}`, '-cubin', '-o', cubinPath,
      path.join(dir, 'kernels.cu')], { stdio: 'inherit' });
  }
  return cubinPath;
}

/**
 * Builds the stand-in driver (test/fixtures/fake-libcuda.c) into the temporary
 * directory and returns its path: loaded through CUDA_DRIVER_LIBRARY, it makes
 * driver calls nearly free, so that timings show the binding's own cost. It is
 * named libcuda.so, so that the C baselines can link against it too.
 */
function buildStandIn() {
  const source = path.join(__dirname, '..', 'test', 'fixtures', 'fake-libcuda.c');
  const dir = path.join(os.tmpdir(), `cuda-driver-bench-stand-in-${fs.statSync(source).mtimeMs.toString(36)}`);
  const out = path.join(dir, 'libcuda.so');
  if (!fs.existsSync(out)) {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', `${out}.${process.pid}`, source], { stdio: 'inherit' });
    fs.renameSync(`${out}.${process.pid}`, out);
  }
  return out;
}

/**
 * The environment of a process that runs over the stand-in driver: this
 * process's, with CUDA_DRIVER_LIBRARY naming the stand-in (built here), extra
 * added, and FAKE_CUDA_LOG removed (the stand-in's log of calls, for tests:
 * writing it would slow the calls measured).
 */
function standInEnv(extra = {}) {
  const env = { ...process.env, CUDA_DRIVER_LIBRARY: buildStandIn(), ...extra };
  delete env.FAKE_CUDA_LOG;
  return env;
}

// The outputs buildC has made in this process.
const builtC = new Set();

/**
 * Compiles bench/c/<name>.c against the CUDA headers and libcuda (with gcc, in
 * a temporary directory) and returns the output's path: an executable, or with
 * addon a Node-API module (a C baseline that runs in this process). Over the
 * stand-in, it links against the stand-in driver instead. libs: more linker
 * arguments (-ldl for a baseline that opens a library itself). Built once per
 * process.
 */
function buildC(name, { addon = false, libs = [] } = {}) {
  const source = path.join(__dirname, 'c', `${name}.c`);
  const out = path.join(os.tmpdir(), `cuda-driver-bench-${name}${addon ? '.node' : ''}`);
  if (builtC.has(out)) return out;
  const link = standIn()
    ? [`-L${path.dirname(process.env.CUDA_DRIVER_LIBRARY)}`, `-Wl,-rpath,${path.dirname(process.env.CUDA_DRIVER_LIBRARY)}`]
    : [];
  const module = addon ? ['-shared', '-fPIC', `-I${path.join(path.dirname(require.resolve('node-api-headers/package.json')), 'include')}`] : [];
  execFileSync('gcc', ['-O2', '-std=c11', ...module, '-o', out, source, `-I${cudaPath}/include`, ...link, ...libs, '-lcuda', '-lm'], { stdio: 'inherit' });
  builtC.add(out);
  return out;
}

/**
 * Runs a C baseline (built once per process, with libs); it prints one JSON
 * object. env: its environment (default this process's).
 */
function runC(name, args = [], { libs, env, timeoutMs } = {}) {
  return JSON.parse(execFileSync(buildC(name, { libs }), args.map(String),
    { encoding: 'utf8', env: env ?? process.env, timeout: timeoutMs, killSignal: 'SIGKILL' }));
}

/**
 * The file of a C baseline that runs in a Node process, as a Node-API module
 * (built once per process, with libs): bench/c/inprocess.c by default, or
 * bench/c/<name>.c.
 */
function inProcessCFile(name = 'inprocess', { libs } = {}) {
  return buildC(name, { addon: true, libs });
}

/** Loads a C baseline that runs in this process (inProcessCFile's module). */
function inProcessC(name, options) {
  return require(inProcessCFile(name, options));
}

let pythonState;
/**
 * Whether the Python baselines can run: `python3 -c "import cuda.bindings"`
 * (PYTHON overrides the interpreter). {available, reason?, version?}.
 */
function pythonBaselines() {
  if (pythonState) return pythonState;
  if (process.env.BENCH_PYTHON === '0') return (pythonState = { available: false, reason: 'BENCH_PYTHON=0' });
  const probe = spawnSync(python, ['-c', 'import sys, cuda.bindings; print(sys.version.split()[0], getattr(cuda.bindings, "__version__", "?"))'],
    { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    const why = probe.error ? probe.error.message : (probe.stderr || '').trim().split('\n').pop();
    return (pythonState = { available: false, reason: `${python} -c "import cuda.bindings" failed: ${why}` });
  }
  const [version, bindings] = probe.stdout.trim().split(' ');
  return (pythonState = { available: true, python: version, bindings });
}

/**
 * Runs bench/python/<name>.py with args; returns its JSON ({bindings, core,
 * coreImport, coreMissing, versions, errors}), or undefined when the Python
 * baselines cannot run or the script fails (the reason is printed).
 */
function runPython(name, args = []) {
  if (!pythonBaselines().available) return undefined;
  const run = spawnSync(python, [path.join(__dirname, 'python', `${name}.py`), ...args.map(String)],
    { encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, maxBuffer: 1 << 24 });
  if (run.status !== 0) {
    console.error(`bench/python/${name}.py failed (${run.status ?? run.signal}):\n${(run.stderr || '').trim().split('\n').slice(-15).join('\n')}`);
    return undefined;
  }
  const result = JSON.parse(run.stdout.trim().split('\n').pop());
  for (const [measure, error] of Object.entries(result.errors ?? {})) console.error(`bench/python/${name}.py: ${measure} failed: ${error}`);
  return result;
}

/** Says which Python baselines run (and which cuda.core import path was found). */
function describePython(result) {
  const state = pythonBaselines();
  if (!state.available) return `Python baselines: not run (${state.reason})`;
  if (!result) return `Python baselines: python ${state.python}, cuda.bindings ${state.bindings} (the scripts failed; see above)`;
  const core = result.coreImport
    ? `cuda.core ${result.versions?.['cuda.core'] ?? '?'} found as ${result.coreImport}`
    : `cuda.core not found (${result.coreMissing})`;
  return `Python baselines: python ${state.python}, cuda.bindings ${state.bindings}; ${core}`;
}

/** Median of the figure key picks from each run, skipping runs without it; undefined when none has it. */
function pick(runs, key) {
  const values = runs.map((r) => (typeof key === 'function' ? key(r) : r?.[key])).filter((v) => typeof v === 'number');
  return values.length ? median(values) : undefined;
}

/**
 * One figure of the suite.
 * @typedef {object} Row
 * @property {string} label     what was measured
 * @property {string} unit      'ns', 'us' or 'GB/s'
 * @property {'lower'|'higher'} better
 * @property {number} js        the figure from JavaScript
 * @property {number} [c]       the same in C
 * @property {number} [bindings] the same through cuda.bindings
 * @property {number} [core]    the same through cuda.core
 * @property {number} [torch]   the same through torch.distributed (NCCL rows)
 * @property {boolean} [perCall] a per-call host time (the added-time targets against Python apply)
 * @property {number} [bytes]   the copy size (copy bandwidth rows)
 * @property {'h2d'|'d2h'|'0to1'|'1to0'} [direction] the copy direction (copy bandwidth rows: host and device, or device 0 and 1)
 * @property {{maxRatio?: number, minRatio?: number, maxAbove?: number, reference?: number, of?: string}} [target]
 *   maxAbove: at most this many units above reference (a figure of this run), which `of` names
 */

/** JS ÷ C. */
const ratioToC = (row) => (row.c ? row.js / row.c : undefined);
/** What JavaScript adds to C's time (JS − C), for times. */
const addedToC = (row) => (row.better === 'lower' && row.c !== undefined && row.js !== undefined ? row.js - row.c : undefined);
/** How many times better JavaScript is than another figure (time: theirs ÷ ours; bandwidth, requests/s: ours ÷ theirs). */
const advantage = (row, other) => (other === undefined || !row.js ? undefined : row.better === 'higher' ? row.js / other : other / row.js);
/**
 * Whether a row meets its targets: a list of {what, met, undecided?};
 * undecided marks an added-time target whose other binding measured at or
 * below C.
 */
function targetsOf(row) {
  const out = [];
  const t = row.target ?? {};
  const r = ratioToC(row);
  if (t.maxRatio !== undefined && r !== undefined) out.push({ what: `JS/C <= ${t.maxRatio}`, met: r <= t.maxRatio });
  if (t.minRatio !== undefined && r !== undefined) out.push({ what: `JS/C >= ${t.minRatio}`, met: r >= t.minRatio });
  if (t.maxAbove !== undefined && t.reference !== undefined) {
    out.push({ what: `<= ${t.maxAbove} ${row.unit} above ${t.of}`, met: row.js - t.reference <= t.maxAbove });
  }
  if (row.perCall) {
    // What each binding adds to C ((theirs − C) ÷ (JS − C)), not the total
    // time: where the driver's own time dominates a call, C itself is not 2×
    // faster than cuda.bindings in total, so no binding could be, but what
    // each adds to C is its own cost. C is the floor, so a binding measured at
    // or below it met another moment of the host (C runs as a process of its
    // own): nothing to compare then, neither met nor not.
    const addedTime = (other, factor, name) => {
      const ours = addedToC(row);
      if (other === undefined || ours === undefined) return;
      const what = `adds >= ${factor}x less to C than ${name}`;
      const theirs = other - row.c;
      if (theirs <= 0) {
        out.push({ what: `${what} (${name} measured below C in this run)`, met: false, undecided: true });
        return;
      }
      if (ours <= 0) {
        out.push({ what: `${what} (JavaScript measured at or below C in this run)`, met: true });
        return;
      }
      const times = theirs / ours;
      out.push({ what: `${what} (${fixed(times, 1)}x)`, met: times >= factor });
    };
    addedTime(row.bindings, 2, 'cuda.bindings');
    addedTime(row.core, 3, 'cuda.core');
  }
  return out;
}

/** A target's outcome as a table says it. */
const outcome = (target, notMet) => (target.undecided ? 'undecided' : target.met ? 'met' : notMet);

const fixed = (value, digits = 2) => (value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits));

/** The torch.distributed columns, where a row of the section has that figure. */
const torchColumns = (rows) => rows.some((r) => r.torch !== undefined);

/** The rows of a section as text lines: figures, JS/C, and JavaScript's advantage over each Python API. */
function tableLines(rows) {
  const torch = torchColumns(rows);
  const width = Math.max(...rows.map((r) => r.label.length), 10);
  const head = `${'measure'.padEnd(width)} ${'unit'.padEnd(5)} ${'JS'.padStart(10)} ${'C'.padStart(10)} ${'JS/C'.padStart(7)} ` +
    `${'JS-C'.padStart(9)} ${'bindings'.padStart(10)} ${'xJS'.padStart(6)} ${'core'.padStart(10)} ${'xJS'.padStart(6)}` +
    `${torch ? ` ${'torch'.padStart(10)} ${'xJS'.padStart(6)}` : ''}  targets`;
  const lines = [head];
  for (const row of rows) {
    const targets = targetsOf(row).map((t) => `${outcome(t, 'NOT met')}: ${t.what}`).join('; ');
    lines.push(`${row.label.padEnd(width)} ${row.unit.padEnd(5)} ${fixed(row.js).padStart(10)} ${fixed(row.c).padStart(10)} ` +
      `${fixed(ratioToC(row), 3).padStart(7)} ${fixed(addedToC(row)).padStart(9)} ${fixed(row.bindings).padStart(10)} ` +
      `${fixed(advantage(row, row.bindings)).padStart(6)} ` +
      `${fixed(row.core).padStart(10)} ${fixed(advantage(row, row.core)).padStart(6)}` +
      `${torch ? ` ${fixed(row.torch).padStart(10)} ${fixed(advantage(row, row.torch)).padStart(6)}` : ''}  ${targets}`);
  }
  return lines;
}

/** The rows of a section as a Markdown table (for bench/RESULTS.md). */
function tableMarkdown(section) {
  const torch = torchColumns(section.rows);
  const lines = [`### ${section.title}`, '',
    `| measure | unit | JS | C | JS/C | JS−C | cuda.bindings | ×JS | cuda.core | ×JS |${torch ? ' torch.distributed | ×JS |' : ''} targets |`,
    `|---|---|--:|--:|--:|--:|--:|--:|--:|--:|${torch ? '--:|--:|' : ''}---|`];
  for (const row of section.rows) {
    const targets = targetsOf(row).map((t) => `${outcome(t, '**not met**')}: ${t.what}`).join('; ');
    lines.push(`| ${row.label} | ${row.unit} | ${fixed(row.js)} | ${fixed(row.c)} | ${fixed(ratioToC(row), 3)} | ${fixed(addedToC(row))} | ${fixed(row.bindings)} | ` +
      `${fixed(advantage(row, row.bindings))} | ${fixed(row.core)} | ${fixed(advantage(row, row.core))} | ` +
      `${torch ? `${fixed(row.torch)} | ${fixed(advantage(row, row.torch))} | ` : ''}${targets} |`);
  }
  for (const note of section.notes ?? []) lines.push('', `- ${note}`);
  return lines.join('\n');
}

/**
 * Prints a section: its title, its table (xJS: how many times better the
 * JavaScript figure is than that column's), notes; and writes it as
 * BENCH_OUT/<title>.json when BENCH_OUT is set.
 */
function report(section) {
  console.log(`\n${section.title}`);
  for (const line of tableLines(section.rows)) console.log(line);
  for (const note of section.notes ?? []) console.log(`  ${note}`);
  writeJson(section.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), section);
}

/**
 * The chain of n empty-kernel nodes the graph benchmarks build: node by node,
 * each after the last, or through the data-flow builder, each reading and
 * writing buffer (which infers the same chain).
 */
function buildChain(cuda, kernel, n, dataflow, buffer) {
  const graph = cuda.Graph.create({ dataflow });
  let previous;
  for (let i = 0; i < n; i++) {
    previous = dataflow
      ? graph.addKernel(kernel, { grid: 1, block: 32 }, [], { reads: [buffer], writes: [buffer] })
      : graph.addKernel(kernel, { grid: 1, block: 32 }, [], previous ? { after: [previous] } : {});
  }
  return graph;
}

/** Writes value as BENCH_OUT/<name>.json (when BENCH_OUT is set); returns the path or undefined. */
function writeJson(name, value) {
  const dir = process.env.BENCH_OUT;
  if (!dir) return undefined;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(value, null, 1));
  return file;
}

/** Runs a benchmark's measure() and prints its sections: what `node bench/<name>.js` does. */
function runAlone(measure, options) {
  measure(options)
    .then((sections) => {
      for (const section of sections) report(section);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}

module.exports = {
  batchControl,
  buildChain,
  crossingControl,
  cubinFile,
  describePython,
  inProcessC,
  inProcessCFile,
  inProcessRow,
  median,
  now,
  pairedPerCall,
  pairedPerItem,
  perCall,
  pick,
  python,
  pythonBaselines,
  ratioToC,
  report,
  runAlone,
  runC,
  runPython,
  sizesUpTo,
  standIn,
  standInEnv,
  standInImage,
  tableMarkdown,
  targetsOf,
  writeJson,
};
