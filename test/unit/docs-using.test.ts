// The docs' JavaScript as a reader pastes it into a file. A ```js block that uses
// `using` needs explicit resource management (Node.js 24+) or TypeScript, and says
// so on its first line (`usingMarker`); every other js block must parse under any
// Node this package supports. Under Node 24+ the marked blocks parse too, and two
// of them run against the stand-in driver (test/fixtures/fake-libcuda.c).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { root, userModule } from '../helpers/examples';
import { fakeDriver, parseReport } from '../helpers/subprocess';

/** The first line of a js block that uses `using`. */
const usingMarker = '// Node.js 24+ or TypeScript (for `using`); elsewhere call dispose()';
const nodeHasUsing = Number(process.versions.node.split('.')[0]) >= 24;
const describeWithUsing = nodeHasUsing ? describe : describe.skip;

interface DocBlock {
  /** file:line of the opening fence. */
  where: string;
  code: string;
  usesUsing: boolean;
  marked: boolean;
}

// A declaration, not the word in a comment or a string: `using x =` or `await using x =` opening a line.
const usingDeclaration = /^[ \t]*(await[ \t]+)?using[ \t]+[\p{L}_$][\p{L}\p{N}_$]*[ \t]*=/mu;

function jsBlocks(): DocBlock[] {
  const files = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
  const blocks: DocBlock[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/^```js\n([\s\S]*?)^```/gm)) {
      const code = m[1];
      blocks.push({
        where: `${file}:${text.slice(0, m.index).split('\n').length}`,
        code,
        usesUsing: usingDeclaration.test(code),
        marked: code.split('\n')[0] === usingMarker,
      });
    }
  }
  return blocks;
}

/** The one js block of file with a line that starts with start, so a test names the example it runs. */
function docBlock(file: string, start: string): string {
  const found = jsBlocks().filter((b) => b.where.startsWith(`${file}:`) && b.code.split('\n').some((l) => l.trim().startsWith(start)));
  if (found.length !== 1) throw new Error(`${file}: ${found.length} js blocks have a line starting ${JSON.stringify(start)}`);
  return found[0].code;
}

const blocks = jsBlocks();
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-docs-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// `node --check` on a .mjs file: an ES module, the one goal in which import,
// top-level await and top-level `using` all parse, as the docs' blocks use them.
function parseError(block: DocBlock): string {
  const file = path.join(dir, `${block.where.replace(/[^\w.-]/g, '_')}.mjs`);
  fs.writeFileSync(file, block.code);
  const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
  return r.status === 0 ? '' : r.stderr;
}

describe('js blocks in README.md and docs/', () => {
  test('there are js blocks, and some use `using`', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(30);
    expect(blocks.filter((b) => b.usesUsing).length).toBeGreaterThanOrEqual(15);
  });

  test('every block that uses `using` says first that it needs Node.js 24+ or TypeScript', () => {
    expect(blocks.filter((b) => b.usesUsing && !b.marked).map((b) => b.where)).toEqual([]);
  });

  test('the marker is only where `using` is', () => {
    expect(blocks.filter((b) => b.marked && !b.usesUsing).map((b) => b.where)).toEqual([]);
  });

  // Unmarked blocks parse under every Node; marked ones only where `using` exists.
  for (const block of blocks) {
    const runs = !block.marked || nodeHasUsing;
    (runs ? test : test.skip)(`${block.where} parses as an ES module under Node ${process.versions.node}`, () => {
      expect(parseError(block)).toBe('');
    });
  }
});

describeWithUsing('`using` examples run as plain JavaScript under Node 24+ (stand-in driver)', () => {
  const run = (name: string, source: string) => {
    const file = userModule(dir, name, source);
    const r = spawnSync(process.execPath, [file], {
      cwd: dir, encoding: 'utf8', timeout: 60000, env: { ...process.env, CUDA_DRIVER_LIBRARY: fakeDriver() },
    });
    if (r.status !== 0) throw new Error(`${name} failed (${r.status}, ${r.signal}):\n${r.stderr}\n${r.stdout}`);
    return parseReport(r.stdout);
  };
  // Reported at exit, after the module's top-level `using` declarations have disposed.
  const atExit = (value: string) => `\nprocess.on('exit', () => console.log('\\n@@' + JSON.stringify(${value})));\n`;

  test("docs/memory.md's device memory block, as a CommonJS file: the bytes, then both buffers disposed", () => {
    const code = docBlock('docs/memory.md', 'using a = DeviceBuffer.alloc(1 << 20);');
    const seen = 'const seen = { values: Array.from(values), first: a.readSync(Float32Array)[0], kept: [a, b] };';
    const report = run('device-memory.cjs', `${code}${seen}${atExit('{ values: seen.values, first: seen.first, disposed: seen.kept.map((x) => x.disposed) }')}`);
    expect(report).toEqual({ values: [1, 4, 3], first: 1, disposed: [true, true] });
  });

  test("docs/errors-and-lifetimes.md's block, as an ES module: disposed at the end of the block, buffer before stream", () => {
    const code = docBlock('docs/errors-and-lifetimes.md', 'using buffer = DeviceBuffer.alloc(1 << 20);');
    // What `using` calls, recorded in the order it calls it.
    const preamble = `import { DeviceBuffer, Stream } from 'cuda-driver';
const order = [];
for (const C of [Stream, DeviceBuffer]) {
  const dispose = C.prototype[Symbol.dispose];
  C.prototype[Symbol.dispose] = function () { dispose.call(this); order.push([C.name, this.disposed]); };
}
`;
    const report = run('lifetimes.mjs', `${preamble}${code}const afterBlock = order.slice();${atExit('{ afterBlock }')}`);
    expect(report).toEqual({ afterBlock: [['DeviceBuffer', true], ['Stream', true]] });
  });
});
