// Merges the call counts the GPU test files left and prints them (and writes
// them to CUDA_DRIVER_COUNTERS_REPORT when set).
const fs = require('fs');
const path = require('path');

module.exports = async () => {
  const dir = process.env.CUDA_DRIVER_COUNTERS_DIR;
  if (!dir || !fs.existsSync(dir)) return;
  const merged = new Map();
  for (const file of fs.readdirSync(dir)) {
    for (const { name, calls, errors } of JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))) {
      const row = merged.get(name) ?? { name, calls: 0, errors: 0 };
      row.calls += calls;
      row.errors += errors;
      merged.set(name, row);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  if (merged.size === 0) return;
  const rows = [...merged.values()].sort((a, b) => a.name.localeCompare(b.name));
  const width = Math.max(...rows.map((r) => r.name.length));
  const text = [`driver functions called by the GPU tiers: ${rows.length}`,
    ...rows.map((r) => `  ${r.name.padEnd(width)} ${String(r.calls).padStart(9)} calls ${String(r.errors).padStart(6)} errors`)].join('\n');
  process.stdout.write(`\n${text}\n`);
  if (process.env.CUDA_DRIVER_COUNTERS_REPORT) {
    fs.writeFileSync(process.env.CUDA_DRIVER_COUNTERS_REPORT, JSON.stringify(rows, null, 1));
  }
};
