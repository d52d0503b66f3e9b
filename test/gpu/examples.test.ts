// Every example runs on the GPU as a new user would run it, exits 0, and
// prints what it should (each example checks its own results and prints 'ok'
// or 'WRONG' per check).
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { readmeExample, root, runExample, userModule } from '../helpers/examples';
import { describeGpu } from '../helpers/tiers';

/** What each example must print; every example is listed (a new one fails until it is added). */
const expectations: Record<string, RegExp[]> = {
  'device-info.js': [/driver supports CUDA \d+\.\d+/, /\[0\] .+ sm_\d+ +[\d.]+ GiB/, /supports: .*virtualMemoryManagement/],
  'graph-pipeline.js': [/graph: 5 nodes, 5 edges, levels: 1 \/ 2 \/ 1 \/ 1/, /a = 2x: .* ok/, /a = 4x: .* ok/, /a = 8x: .* ok/],
  'saxpy.js': [/compiled saxpy\.cu for sm_\d+/, /y = 2x \+ 1: correct/, /10000 prepared launches: [\d.]+ µs/],
  'capture-update.js': [/captured a graph of 2 nodes: (kernel, memcpy|memcpy, kernel)/, /launch: .* ok/, /after update: .* ok/,
    /update refused as expected: topologyChanged/, /after re-instantiation: .* ok/, /^done$/m],
  'while-loop.js': [/values below 1048576: the loop ran 20 iterations \(expected 20\), 0 values left ok/,
    /values below 1024: the loop ran 10 iterations \(expected 10\), 0 values left ok/, /^done$/m],
  'device-scheduler.js': [/values below 1000: the GPU chose 4 halvings then 62 decrements \(66 steps, one host launch\), 0 values left ok/,
    /values below 50: the GPU chose 0 halvings then 49 decrements \(49 steps, one host launch\), 0 values left ok/, /^done$/m],
  'green-contexts.js': [/: \d+ SMs \(groups of at least \d+, in multiples of \d+\)/,
    /latency pipeline: green context of \d+ SMs; its blocks ran on \d+ of them ok/,
    /batch pipeline: green context of \d+ SMs; its blocks ran on \d+ of them ok/, /SMs both pipelines ran on: 0 ok/,
    /z = 2x \+ 3x after the batch pipeline waited for the latency pipeline: ok/, /^done$/m],
  'growable-buffer.js': [/reserved 1024 MiB at 0x[0-9a-f]+/, /batch 4: size 60 MiB, capacity 96 MiB in 4 piece\(s\), address unchanged/,
    /all 15728640 values kept across growth and incremented by the kernel: ok/],
  'share-memory.js': [/sharing \d+ bytes by the 'legacy' path/, /sharing \d+ bytes by the 'vmm' path/, /via 'legacy'/, /via 'vmm'/,
    /plain: the child's writes arrived/, /virtual: the child's writes arrived/, /parent: done/],
  // Its full output is checked by the multigpu tier; on one GPU it says what it needs.
  'multi-gpu.js': [/this example needs two GPUs; 1 visible: nothing to run|sum on device 0: \d+ ok/],
  'nccl-allreduce.js': [/only 1 GPU here; an all-reduce across GPUs needs two|rank 0 on GPU 0: all 1048576 sums correct/],
  'nvrtc-template.js': [/map<float>\(x => x \* x \+ 1\.0f\): out\[999\] = 998002 ok \(1 compile\(s\) so far\)/,
    // The cached run's line, after the first: still one compile.
    /map<float>\(x => x \* x \+ 1\.0f\): out\[999\] = 998002 ok \(1 compile\(s\) so far\)[\s\S]*map<float>\(x => x \* x \+ 1\.0f\): out\[999\] = 998002 ok \(1 compile\(s\) so far\)/,
    /map<unsigned>\(x => x << 3\): out\[999\] = 7992 ok \(2 compile\(s\) so far\)/, /compiled once per variant: ok/],
};

describeGpu('examples', () => {
  test('every example has expectations', () => {
    const files = fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.js')).sort();
    expect(Object.keys(expectations).sort()).toEqual(files);
  });

  for (const [file, patterns] of Object.entries(expectations)) {
    test(`node examples/${file}`, async () => {
      const run = await runExample(file);
      if (run.status !== 0) console.log(`examples/${file} exited ${run.status ?? run.signal}:\n${run.output}`);
      expect(run.status).toBe(0);
      expect(run.output).not.toMatch(/WRONG|no usable GPU/);
      for (const pattern of patterns) expect(run.output).toMatch(pattern);
    }, 180000);
  }

  test('graph-pipeline.js --dot writes its graph as DOT, which `cuda-driver dot` draws', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-dot-'));
    try {
      const saved = path.join(dir, 'pipeline.dot');
      const run = spawnSync(process.execPath, [path.join('examples', 'graph-pipeline.js'), '--dot', saved], { cwd: root, encoding: 'utf8', timeout: 120000 });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`wrote ${saved}; draw it with: npx cuda-driver dot ${saved} -o graph.svg`);
      const text = fs.readFileSync(saved, 'utf8');
      for (const label of ['upload x', 'a = 2x', 'b = 3x', 'sum = a + b', 'download sum']) expect(text).toContain(label);
      const drawn = runCli(['dot', saved, '--format', 'dot']);
      expect(drawn.status).toBe(0);
      expect(drawn.stdout).toBe(text);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180000);

  test("the README's graph example runs in a user's project and prints 2", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-readme-'));
    try {
      const file = userModule(dir, 'pipeline.mjs', readmeExample());
      const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 120000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toBe('2\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180000);
});
