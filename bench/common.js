// Shared by the benchmarks: statistics, building and running the C baselines
// on the GPU host, and printing a table of figures and ratios.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const cudaPath = process.env.CUDA_PATH || '/usr/local/cuda';

/** Median of an array of numbers. */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Nanoseconds since an arbitrary point, as a number. */
const now = () => Number(process.hrtime.bigint());

/**
 * Compiles bench/c/<name>.c against the CUDA headers and libcuda (with gcc, in
 * a temporary directory) and returns the executable's path.
 */
function buildC(name) {
  const source = path.join(__dirname, 'c', `${name}.c`);
  const out = path.join(os.tmpdir(), `cuda-driver-bench-${name}`);
  execFileSync('gcc', ['-O2', '-std=c11', '-o', out, source, `-I${cudaPath}/include`, '-lcuda', '-lm'], { stdio: 'inherit' });
  return out;
}

/** Runs a C baseline; it prints one JSON object. */
function runC(name, args = []) {
  return JSON.parse(execFileSync(buildC(name), args.map(String), { encoding: 'utf8' }));
}

/** Prints rows of [label, js, c, unit] with the ratio js/c, and writes them as JSON. */
function report(title, rows, { ratioLabel = 'JS/C' } = {}) {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((r) => r[0].length), 10);
  console.log(`${'measure'.padEnd(width)} ${'JavaScript'.padStart(12)} ${'C'.padStart(12)} ${ratioLabel.padStart(8)}  unit`);
  for (const [label, js, c, unit] of rows) {
    console.log(`${label.padEnd(width)} ${js.toFixed(2).padStart(12)} ${c.toFixed(2).padStart(12)} ${(js / c).toFixed(3).padStart(8)}  ${unit}`);
  }
  const dir = process.env.BENCH_OUT;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.json`);
    fs.writeFileSync(file, JSON.stringify({ title, rows: rows.map(([label, js, c, unit]) => ({ label, js, c, unit, ratio: js / c })) }, null, 1));
  }
}

module.exports = { median, now, buildC, runC, report };
