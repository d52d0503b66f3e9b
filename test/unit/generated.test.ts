// The files scripts/gen-boundary.js writes from the entry and layout tables
// must be what the tables say: a table edited without regenerating, or a
// generated file edited by hand, fails here.
import * as fs from 'fs';
import * as path from 'path';
import { addonPath } from '../helpers/subprocess';

const root = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { outputs } = require(path.join(root, 'scripts/gen-boundary.js')) as { outputs(): Map<string, string> };

describe('generated boundary files', () => {
  const generated = outputs();

  test.each([...generated.keys()])('%s is up to date (regenerate: node scripts/gen-boundary.js)', (file) => {
    expect(fs.readFileSync(path.join(root, file), 'utf8')).toBe(generated.get(file));
  });

  test('the addon exports exactly the entries the tables declare', () => {
    const declared = [...generated.get('native/generated/entries.cc')!.matchAll(/exports\.Set\("(\w+)"/g)].map((m) => m[1]);
    expect(new Set(declared).size).toBe(declared.length);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = Object.keys(require(addonPath) as object);
    expect(exported.sort()).toEqual([...declared].sort());
  });
});
