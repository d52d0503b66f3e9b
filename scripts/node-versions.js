#!/usr/bin/env node
// Runs an import smoke test and the unit tier under several Node.js releases, so
// that "installs anywhere" is checked against the Nodes users run, not only the one
// on this machine. Each Node comes from the npm registry's per-platform package
// (node-linux-<arch>@<version> holds bin/node; see scripts/node-release.js).
//
//   node scripts/node-versions.js [--majors=20,22,newest] [--smoke-only] [-- <jest args>]
//
// Default majors: 20, 22, 24 and the newest the registry has, each at its newest
// release. dist/ must be built (npm run build:ts). Exits non-zero when any Node fails.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { ensureNode, nodePackage, releasedVersions } = require('./node-release');

const root = path.resolve(__dirname, '..');
const logDir = path.join(root, 'node_modules', '.cache', 'cuda-driver-node', 'logs');
const defaultMajors = [20, 22, 24];
// A library that cannot exist: the smoke test must find no driver, whatever this machine has.
const missingLibrary = '/nonexistent/cuda-driver-smoke/libcuda.so.1';

function usage(message) {
  if (message) process.stderr.write(`node-versions: ${message}\n`);
  process.stderr.write('usage: node scripts/node-versions.js [--majors=20,22,newest] [--smoke-only] [-- <jest args>]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const options = { majors: null, smokeOnly: false, jestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { options.jestArgs = argv.slice(i + 1); break; }
    if (a === '--smoke-only') options.smokeOnly = true;
    else if (a.startsWith('--majors=')) {
      options.majors = a.slice('--majors='.length).split(',').filter(Boolean).map((m) => {
        if (m !== 'newest' && !/^\d+$/.test(m)) usage(`not a major version: ${m}`);
        return m === 'newest' ? m : Number(m);
      });
      if (!options.majors.length) usage('--majors= names no version');
    } else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  return options;
}

const parseVersion = (v) => v.split('.').map(Number);
// Where scripts/node-release.js keeps a version's binary; only to say whether this run fetched it.
const cachedBinary = (pkg, version) => fs.existsSync(path.join(logDir, '..', `${pkg}-${version}`, 'bin', 'node'));

// The package as a user's program loads it, both ways, with no driver to find.
const smokeSource = `
const { pathToFileURL } = require('url');
const dist = ${JSON.stringify(path.join(root, 'dist'))};
const cjs = require(dist);
import(pathToFileURL(dist + '/index.mjs').href).then((esm) => {
  const s = cjs.driverStatus(), e = esm.driverStatus();
  const missing = Object.keys(cjs).filter((k) => k !== 'default' && !(k in esm));
  console.log(JSON.stringify({ version: process.version, cjs: s.stage, esm: e.stage, available: s.available, missing }));
}, (err) => { console.error(err); process.exit(1); });
`;

function smoke(bin, version) {
  const r = spawnSync(bin, ['-e', smokeSource], {
    cwd: os.tmpdir(), encoding: 'utf8', timeout: 60000,
    env: { ...process.env, CUDA_DRIVER_LIBRARY: missingLibrary },
  });
  let said;
  try { said = JSON.parse(r.stdout.trim().split('\n').pop()); } catch { said = null; }
  if (r.status !== 0 || !said) {
    return { ok: false, text: `FAIL (exit ${r.status}${r.signal ? `, ${r.signal}` : ''})`, detail: `${r.stdout}${r.stderr}` };
  }
  const ok = said.version === `v${version}` && said.cjs === 'library-missing' && said.esm === 'library-missing' &&
    !said.available && !said.missing.length;
  const text = `${ok ? 'ok' : 'FAIL'}: ${said.cjs === said.esm ? said.cjs : `cjs ${said.cjs}, esm ${said.esm}`} (cjs+esm)`;
  const detail = said.missing.length ? `not exported by dist/index.mjs: ${said.missing.join(', ')}` : JSON.stringify(said);
  return { ok, text, detail };
}

// Preloaded (NODE_OPTIONS) into every Node process the unit tier starts: jest, its
// workers, and the children tests spawn record which Node ran them.
const probeSource = `'use strict';
try {
  const log = process.env.CUDA_DRIVER_NODE_PROBE;
  if (log && require('worker_threads').isMainThread) {
    require('fs').appendFileSync(log, JSON.stringify({ pid: process.pid, version: process.version,
      execPath: process.execPath, script: process.argv[1] || '' }) + '\\n');
  }
} catch {}
`;

function jestArgsWithWorkers(jestArgs) {
  // Jest runs in band where it sees one spare core; at least two workers make it
  // fork them, so that the check below covers the processes it starts itself.
  if (jestArgs.some((a) => /^(-w|-i|--maxWorkers|--runInBand)(=|$)/.test(a))) return jestArgs;
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return [`--maxWorkers=${Math.max(2, cores - 1)}`, ...jestArgs];
}

function unitTier(bin, version, jestArgs) {
  const log = path.join(logDir, `unit-${version}.log`);
  const probeLog = path.join(logDir, `processes-${version}.jsonl`);
  const probe = path.join(logDir, 'probe.js');
  fs.writeFileSync(probe, probeSource);
  fs.rmSync(probeLog, { force: true });
  const env = {
    ...process.env,
    // Tests that start `node` or a #!/usr/bin/env node script by name get this Node too.
    PATH: `${path.dirname(bin)}${path.delimiter}${process.env.PATH || ''}`,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS || ''} --require ${JSON.stringify(probe)}`.trim(),
    CUDA_DRIVER_NODE_PROBE: probeLog,
  };
  const args = [path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--selectProjects', 'unit', ...jestArgsWithWorkers(jestArgs)];
  const expected = fs.realpathSync(bin);
  return new Promise((resolve) => {
    const out = fs.createWriteStream(log);
    out.on('error', (e) => process.stderr.write(`node-versions: cannot write ${log}: ${e.message}\n`));
    const child = spawn(bin, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const take = (d) => { out.write(d); text += d; };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (status, signal) => {
      out.end();
      const plain = text.toString().replace(/\x1b\[[0-9;]*m/g, '');
      const tests = (/^Tests:\s+(.*)$/m.exec(plain) || [])[1];
      const suites = (/^Test Suites:\s+(.*)$/m.exec(plain) || [])[1];
      const processes = checkProcesses(probeLog, version, expected);
      const ok = status === 0 && !!tests && processes.ok;
      resolve({
        ok,
        text: tests ? `${ok ? '' : 'FAIL: '}${tests}` : `FAIL (exit ${status}${signal ? `, ${signal}` : ''}, no summary)`,
        suites,
        processes,
        log,
      });
    });
  });
}

/** Every process of the run was this Node, and jest's workers were among them. */
function checkProcesses(probeLog, version, expected) {
  let records = fs.existsSync(probeLog)
    ? fs.readFileSync(probeLog, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } })
    : [];
  // A line cut short (a process killed while writing it) says nothing either way.
  records = records.filter(Boolean);
  // process.execPath is already the real path.
  const other = records.filter((r) => r.version !== `v${version}` || r.execPath !== expected);
  const workers = records.filter((r) => /jest-worker[\\/]build[\\/]workers[\\/]processChild\.js$/.test(r.script)).length;
  const ok = records.length > 0 && !other.length;
  const text = other.length
    ? `FAIL: ${other.length} of ${records.length} ran ${[...new Set(other.map((r) => `${r.version} ${r.execPath}`))].join(', ')}`
    : `${records.length} processes (${workers} jest workers), all v${version}`;
  return { ok, text, workers };
}

function table(rows) {
  const head = ['Node', 'smoke (require + import, no driver)', 'unit tier', 'processes', 'time'];
  const cells = [head, ...rows.map((r) => [r.node, r.smoke, r.unit, r.processes, r.time])];
  const widths = head.map((_, i) => Math.max(...cells.map((c) => c[i].length)));
  const line = (c) => `| ${c.map((x, i) => x.padEnd(widths[i])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map((r) => line([r.node, r.smoke, r.unit, r.processes, r.time]))].join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(root, 'dist', 'index.js')) || !fs.existsSync(path.join(root, 'dist', 'index.mjs'))) {
    throw new Error('dist/ is not built: run npm run build:ts first');
  }
  if (process.platform !== 'linux') throw new Error(`this package is Linux-only; here is ${process.platform}`);
  const pkg = nodePackage(process.arch);
  const versions = releasedVersions(pkg);
  const newestMajor = parseVersion(versions[versions.length - 1])[0];
  const majors = [...new Set((options.majors || [...defaultMajors, 'newest']).map((m) => (m === 'newest' ? newestMajor : m)))];
  fs.mkdirSync(logDir, { recursive: true });

  const rows = [];
  let failed = false;
  for (const major of majors) {
    const version = versions.filter((v) => parseVersion(v)[0] === major).pop();
    if (!version) {
      rows.push({ node: `${major}.x`, smoke: `FAIL: no ${pkg}@${major} on the registry`, unit: '-', processes: '-', time: '-' });
      failed = true;
      continue;
    }
    const started = Date.now();
    process.stdout.write(`Node ${version}: `);
    let bin;
    try {
      const cached = cachedBinary(pkg, version);
      bin = ensureNode(process.arch, version);
      process.stdout.write(cached ? '(cached) ' : `(fetched ${pkg}@${version}) `);
    } catch (e) {
      process.stdout.write('\n');
      rows.push({ node: version, smoke: `FAIL: ${e.message.split('\n')[0]}`, unit: '-', processes: '-', time: '-' });
      failed = true;
      continue;
    }
    const s = smoke(bin, version);
    process.stdout.write(`smoke ${s.text}\n`);
    if (!s.ok) process.stdout.write(`${s.detail}\n`);
    const row = { node: version, smoke: s.text, unit: 'skipped', processes: '-', time: '' };
    if (!options.smokeOnly) {
      process.stdout.write(`  unit tier under ${bin} (log: ${path.relative(root, path.join(logDir, `unit-${version}.log`))})\n`);
      const u = await unitTier(bin, version, options.jestArgs);
      row.unit = u.text;
      row.processes = u.processes.text;
      if (!u.ok) {
        process.stdout.write(`  FAILED; see ${u.log}${u.suites ? ` (suites: ${u.suites})` : ''}\n`);
        failed = true;
      }
    }
    row.time = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    failed = failed || !s.ok;
    rows.push(row);
  }
  process.stdout.write(`\n${table(rows)}\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`node-versions: ${e.message}\n`);
  process.exit(1);
});
