// docs/driver-api-map.md is generated from native/ and lib/ by
// scripts/gen-api-map.js: it must match what the sources say now.
import * as fs from 'fs';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require('../../scripts/gen-api-map.js');

describe('driver API map (docs/driver-api-map.md)', () => {
  let generated: { page: string; uncalled: string[]; unreachedFromTs: string[] };
  beforeAll(() => {
    generated = generator.render();
  }, 120000);

  test('is up to date with the sources (regenerate: npm run gen:api-map)', () => {
    const page = fs.readFileSync(generator.pagePath, 'utf8');
    expect(page).toBe(generated.page);
  });

  test('lists the driver functions that no code calls', () => {
    if (generated.uncalled.length > 0) {
      console.log(`driver functions in native/driver/functions.h that no code calls:\n  ${generated.uncalled.join('\n  ')}`);
    }
    const section = generated.page.split('## In the table, called by no code')[1].split('\n## ')[0];
    for (const name of generated.uncalled) expect(section).toContain(`\`${name}\``);
    // The list itself, so that a function falling out of use (or coming into it) is a visible change here.
    expect(generated.uncalled).toEqual([
      'cuCtxGetDevice',
      'cuCtxSynchronize',
      'cuFuncGetModule',
      'cuKernelGetLibrary',
      'cuModuleLoadData',
      'cuOccupancyMaxActiveBlocksPerMultiprocessor',
      'cuOccupancyMaxPotentialBlockSize',
    ]);
    // Every function the native layer calls reaches the public API (directly, or as a shared helper's call).
    expect(generated.unreachedFromTs).toEqual([]);
  });

  test('maps known calls to their TypeScript names', () => {
    const row = (fn: string) => generated.page.split('\n').find((l) => l.startsWith(`| \`${fn}\` |`)) ?? '';
    expect(row('cuGraphLaunch')).toContain('`GraphExec.launch()`');
    expect(row('cuStreamCreate')).toContain('`Stream.create()`');
    expect(row('cuMemAlloc')).toContain('`DeviceBuffer.alloc()`');
    expect(row('cuMemFree')).toContain('`DeviceBuffer.dispose()` (release)');
    expect(row('cuGraphInstantiateWithParams')).toContain('`Graph.instantiate()`');
    expect(row('cuMemMap')).toContain('`GrowableBuffer.create()`');
  });

  test('finds function bodies and calls in C++ despite comments, strings and initializer lists', () => {
    const source = [
      '// void commented() { CU_CALL(cuFake); }',
      'namespace cudrv {',
      'struct FooBox { ~FooBox(); };',
      'FooBox::~FooBox() { releaseWhenSafe([] { CU_CALL(cuMemFree, 0); }); }',
      'const char* text = "int notAFunction() {";',
      'Napi::Value Foo::Bar(const Napi::CallbackInfo& info) : a_(1), b_{2} {',
      '  CU_CHECK_DETAIL(info.Env(), "a, b", cuMemAlloc, &p, 1);',
      '}',
      'namespace { int helper(int x) { if (x) { return 1; } return 0; } }',
      '}',
    ].join('\n');
    const { bare } = generator.blank(source);
    const names = generator.functionDefinitions('x.cc', bare).map((d: { name: string }) => d.name);
    expect(names).toEqual(['FooBox::~FooBox', 'Foo::Bar', 'helper']);
  });
});
