// Without a usable driver every example says so and exits 0 (a new user on a
// laptop without a GPU gets a sentence, not a stack trace). The driver is
// hidden by pointing CUDA_DRIVER_LIBRARY at a library that does not exist.
import * as fs from 'fs';
import * as path from 'path';
import { root, runExample } from '../helpers/examples';

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
});
