#!/usr/bin/env node
// The whole benchmark suite in one command, on a GPU host: every measurement
// from JavaScript against the same operations in C (built here with gcc
// against libcuda) and through NVIDIA's Python bindings (cuda.bindings and
// cuda.core, when `python3 -c "import cuda.bindings"` works), in one run.
// Prints a table of figures and ratios per section and a summary of the
// targets, and writes results.json, results.md (the tables, for
// bench/RESULTS.md) and results.svg (a chart) into BENCH_OUT (default bench/out).
//
// Usage: node bench/run.js [--quick] [--passes=N] [--only=launch,graph,calls,wait,copy,peer,nccl,device,service] [--stand-in] [--cpus=LIST]
//        node bench/run.js --render=DIR/results.json
//   --quick     fewer rounds, passes and service requests, copies and all-reduces up to 16 MiB (a check that all runs)
//   --passes=N  passes of the launch, graph, per-call and service benchmarks (default 3):
//               JavaScript, C and Python take turns in each pass, and each
//               figure is the median over the passes
//   --only      the benchmarks to run (default: all; peer, the copies between devices 0 and 1,
//               and nccl, the all-reduce across them, report why they are skipped where
//               fewer than two are visible, nccl also where NCCL cannot be loaded)
//   --stand-in  over the stand-in driver (test/fixtures/fake-libcuda.c), without
//               a GPU: checks the suite's plumbing; no figure means anything
//   --cpus      the CPUs every measured process runs on (taskset -c LIST; default:
//               the last two CPUs; --cpus=all leaves placement to the scheduler).
//               JavaScript, C and Python run pinned alike: unpinned, a process
//               moving between cores moved graph launch times by up to 2x from one
//               run to the next on a 16-core GPU host, more than any binding adds.
//   --render    measures nothing: writes the summary, results.md and results.svg
//               of a run's results.json anew (into BENCH_OUT, default the JSON's
//               folder), its figures judged by this tree's targets
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const common = require('./common');
const { renderChart } = require('./chart');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const wanted = (name) => !only || only.includes(name);
const passes = Number(args.find((a) => a.startsWith('--passes='))?.slice(9) ?? 3);
if (!Number.isInteger(passes) || passes < 1) throw new RangeError('--passes must be a positive integer');
const render = args.find((a) => a.startsWith('--render='))?.slice(9);
const cpus = args.find((a) => a.startsWith('--cpus='))?.slice(7) ?? `${Math.max(0, os.cpus().length - 2)},${os.cpus().length - 1}`;

const benchmarks = [
  ['launch', () => require('./launch').measure(quick ? { batch: 50, rounds: 30, passes: 1 } : { passes })],
  ['graph', () => require('./graph').measure(quick ? { passes: 1 } : { passes })],
  ['calls', () => require('./calls').measure(quick ? { batch: 50, rounds: 30, passes: 1 } : { passes })],
  ['wait', () => require('./wait-latency').measure(quick ? { iterations: 200 } : {})],
  ['copy', () => require('./copy-bandwidth').measure(quick ? { repetitions: 5, largest: 16 << 20 } : {})],
  ['peer', () => require('./peer-copy').measure(quick ? { repetitions: 5, largest: 16 << 20 } : {})],
  ['nccl', () => require('./nccl').measure(quick ? { repetitions: 3, largest: 16 << 20, batch: 50, rounds: 10 } : {})],
  ['device', () => require('./device-launch').measure(quick ? { iterations: 100, repetitions: 2 } : {})],
  ['service', () => require('./service').measure(quick ? { requests: 300, passes: 1 } : { passes })],
];

async function main() {
  const cuda = require('..');
  const out = path.resolve(process.env.BENCH_OUT || path.join(__dirname, 'out'));
  process.env.BENCH_OUT = out;
  const device = cuda.Device.get(0);
  const driver = cuda.driverStatus().driverVersion;
  const python = common.pythonBaselines();
  const header = [
    `cuda-driver benchmark suite, ${new Date().toISOString()}${common.standIn() ? ' (STAND-IN DRIVER: no figure means anything)' : ''}`,
    `GPU: ${device.name}; driver: ${nvidiaDriver()}CUDA ${driver.major}.${driver.minor}; node ${process.version}; ` +
      `CPU: ${os.cpus()[0]?.model ?? 'unknown'} (${os.cpus().length} threads; measured on ${process.env.BENCH_PINNED ? `CPUs ${process.env.BENCH_PINNED}` : 'any CPU'}); ` +
      `${os.type()} ${os.release()}`,
    python.available ? `Python baselines: python ${python.python}, cuda.bindings ${python.bindings} (cuda.core: see each section)`
      : `Python baselines: not run: ${python.reason}`,
  ];
  for (const line of header) console.log(line);

  const sections = [];
  for (const [name, run] of benchmarks) {
    if (!wanted(name)) continue;
    const started = Date.now();
    console.log(`\n[${name}] running...`);
    for (const section of await run()) {
      common.report(section);
      sections.push(section);
    }
    console.log(`[${name}] ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  writeResults(out, header, sections);
}

// Prints the summary of the targets and writes results.json, results.md and
// results.svg into out.
function writeResults(out, header, sections) {
  const targets = sections.flatMap((s) => s.rows.flatMap((row) => common.targetsOf(row).map((t) => ({ ...t, label: row.label }))));
  const undecided = targets.filter((t) => t.undecided).length;
  const missed = targets.filter((t) => !t.met && !t.undecided);
  const summary = `Targets: ${targets.length - missed.length - undecided} of ${targets.length} met` +
    (undecided ? `; ${undecided} undecided (an added-time target whose other binding measured below C)` : '');
  console.log(`\n${summary}`);
  for (const t of missed) console.log(`  NOT met: ${t.label}: ${t.what}`);

  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify({ header, sections, targets }, null, 1));
  fs.writeFileSync(path.join(out, 'results.md'), `${header.map((h) => `${h}  `).join('\n')}\n\n` +
    `${sections.map(common.tableMarkdown).join('\n\n')}\n\n` +
    `${summary}.${missed.map((t) => `\n- not met: ${t.label}: ${t.what}`).join('')}\n\n` +
    '×JS: how many times better the JavaScript figure is than that column (time: theirs ÷ ours; bandwidth and requests/s: ours ÷ theirs). ' +
    'JS−C: the time JavaScript adds to the same call from C (what a binding costs; compare it with cuda.bindings − C).\n');
  fs.writeFileSync(path.join(out, 'results.svg'), renderChart(sections, header));
  console.log(`\nwritten: ${['results.json', 'results.md', 'results.svg'].map((f) => path.join(out, f)).join(', ')}`);
}

// The NVIDIA driver's version as nvidia-smi reports it ("580.65.06, "), or nothing.
function nvidiaDriver() {
  if (common.standIn()) return '';
  try {
    const version = execFileSync('nvidia-smi', ['--query-gpu=driver_version', '--format=csv,noheader', '-i', '0'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return version ? `${version}, ` : '';
  } catch {
    return '';
  }
}

// Whether taskset is here to pin the run.
function canPin() {
  try {
    execFileSync('taskset', ['-c', cpus, 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (render !== undefined) {
  const { header, sections } = JSON.parse(fs.readFileSync(render, 'utf8'));
  writeResults(path.resolve(process.env.BENCH_OUT || path.dirname(render)), header, sections);
// Pinned: run again under taskset (children inherit the CPUs).
} else if (cpus !== 'all' && !process.env.BENCH_PINNED && canPin()) {
  execFileSync('taskset', ['-c', cpus, process.execPath, __filename, ...args], { stdio: 'inherit', env: { ...process.env, BENCH_PINNED: cpus } });
// --stand-in: run again over the stand-in driver (the driver loads once per process).
} else if (args.includes('--stand-in') && !process.env.CUDA_DRIVER_LIBRARY) {
  execFileSync(process.execPath, [__filename, ...args], { stdio: 'inherit', env: common.standInEnv({ BENCH_STAND_IN: '1', BENCH_PYTHON: '0' }) });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
