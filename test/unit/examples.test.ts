// Without a usable driver every example says so and exits 0 (a new user on a
// laptop without a GPU gets a sentence, not a stack trace). The driver is
// hidden by pointing CUDA_DRIVER_LIBRARY at a library that does not exist.
import * as fs from 'fs';
import * as path from 'path';
import { spawnSync } from 'child_process';
import * as os from 'os';
import { readmeExample, root, runExample, userModule } from '../helpers/examples';

const examples = fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.js')).sort();

describe('examples without a GPU', () => {
  test('there are examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
  });

  for (const file of examples) {
    test(`node examples/${file} exits 0 and says why it cannot run`, async () => {
      const run = await runExample(file, { CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' }, 60000);
      expect(run.output).toMatch(/(no usable GPU here|driver not usable here) \(library-missing/);
      expect(run.output).not.toMatch(/Error|at .*\.js:\d+/);
      expect(run.status).toBe(0);
    }, 60000);
  }

  test("the README's graph example is a valid ES module that imports only what the package exports", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-readme-'));
    try {
      const source = readmeExample();
      const file = userModule(dir, 'pipeline.mjs', source);
      const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      // Importing the names it uses works without a GPU (the first driver call would not).
      const names = /import \{([^}]*)\} from 'cuda-driver'/.exec(source)![1].split(',').map((n) => n.trim());
      const probe = userModule(dir, 'probe.mjs', `import { ${names.join(', ')} } from 'cuda-driver';\n` +
        `console.log(JSON.stringify([${names.join(', ')}].map((v) => typeof v)));\n`);
      const run = spawnSync(process.execPath, [probe], { cwd: dir, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual(names.map((n) => (n === 'arg' ? 'object' : 'function')));
      expect(source.split('\n').filter((l) => l.trim() && !l.trim().startsWith('//')).length).toBeLessThanOrEqual(24);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
