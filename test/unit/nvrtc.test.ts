// Compiling with NVRTC: the real "no NVRTC" case and, through a stand-in
// library (test/fixtures/fake-libnvrtc.c), options, headers, name expressions,
// logs and failures. NVRTC loads once per process, so each scenario runs in its own.
import { compile, CompileError } from '../../lib';
import { fakeDriver, fakeNvrtc, runScript } from '../helpers/subprocess';

const describeError = `const d = (e) => ({ type: e.constructor.name, message: e.message, log: e.log, options: e.options,
  result: e.result, resultName: e.resultName, stage: e.stage, programName: e.programName, libraryPath: e.libraryPath, detail: e.detail });`;

describe('without NVRTC', () => {
  const env = { NVRTC_LIBRARY: '/nonexistent/libnvrtc.so.13', CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' };

  test('importing works; nvrtcStatus says why; the first compile throws NvrtcUnavailableError, sync and async', async () => {
    const r = runScript(`${describeError}
      (async () => {
        const status = cuda.nvrtcStatus();
        const out = { status };
        try { cuda.compile('__global__ void k() {}', { arch: 'sm_90' }); } catch (e) { out.sync = d(e); }
        try { cuda.compile('__global__ void k() {}'); } catch (e) { out.defaultArch = d(e); }
        try { await cuda.compileAsync('__global__ void k() {}', { arch: 90 }); } catch (e) { out.async = d(e); }
        report(out);
      })();`, env);
    expect(r.stderr).toBe('');
    expect(r.report.status).toMatchObject({ available: false, libraryPath: '/nonexistent/libnvrtc.so.13', version: null, supportedArchs: [] });
    expect(r.report.status.detail).toContain('/nonexistent/libnvrtc.so.13');
    for (const e of [r.report.sync, r.report.defaultArch, r.report.async]) {
      expect(e).toMatchObject({ type: 'NvrtcUnavailableError', libraryPath: '/nonexistent/libnvrtc.so.13' });
      expect(e.message).toMatch(/NVRTC could not be loaded .*set NVRTC_LIBRARY/);
    }
  });

  test('an NVRTC that lacks an entry point is reported as unusable', () => {
    const r = runScript(`report(cuda.nvrtcStatus());`, { NVRTC_LIBRARY: fakeNvrtc('incomplete') });
    expect(r.report).toMatchObject({ available: false });
    expect(r.report.detail).toMatch(/lacks nvrtcGetLoweredName/);
  });
});

describe('with a stand-in NVRTC', () => {
  let env: Record<string, string>;
  beforeAll(() => {
    env = { NVRTC_LIBRARY: fakeNvrtc(), CUDA_DRIVER_LIBRARY: '/nonexistent/libcuda.so.1' };
  });

  test('status names the library, its version and architectures', () => {
    const r = runScript(`report(cuda.nvrtcStatus());`, env);
    expect(r.report).toMatchObject({ available: true, libraryPath: env.NVRTC_LIBRARY, detail: '',
      version: { major: 12, minor: 9 }, supportedArchs: [75, 80, 86, 89, 90] });
  });

  test('PTX for a virtual architecture, with include paths, defines, headers and name expressions', () => {
    const r = runScript(`
      const p = cuda.compile('template <class T> __global__ void f(T* x) {}', {
        name: 'f.cu', arch: 'compute_80', includePaths: ['/opt/inc'], defines: { N: 4, FAST: true, MODE: 'x' },
        headers: { 'util.h': '#define UTIL 1' }, nameExpressions: ['f<float>', 'f<int>'], options: ['-std=c++17'] });
      report({ ptx: p.ptx, output: p.output, arch: p.arch, name: p.name, log: p.log, options: p.options,
        lowered: p.loweredName('f<float>'), all: [...p.loweredNames], codeIsBytes: p.code instanceof Uint8Array,
        codeLength: p.code.length, ptxLength: p.ptx.length });`, env);
    expect(r.stderr).toBe('');
    expect(r.report).toMatchObject({ output: 'ptx', arch: 'compute_80', name: 'f.cu', log: '', lowered: '_Z1fIfloatE',
      all: [['f<float>', '_Z1fIfloatE'], ['f<int>', '_Z1fIintE']], codeIsBytes: true });
    expect(r.report.options).toEqual(['--gpu-architecture=compute_80', '--include-path=/opt/inc',
      '--define-macro=N=4', '--define-macro=FAST', '--define-macro=MODE=x', '-std=c++17']);
    expect(r.report.ptx).toBe(`// options: ${r.report.options.join(' ')}\n// headers: util.h=#define UTIL 1\n` +
      'template <class T> __global__ void f(T* x) {}');
    expect(r.report.codeLength).toBe(r.report.ptxLength); // no terminating NUL
  });

  test('CUBIN for a real architecture; PTX of it on request; warnings reach the log', () => {
    const r = runScript(`
      const a = cuda.compile('__global__ void k() {} // warning', { arch: 'sm_90' });
      const b = cuda.compile('__global__ void k() {}', { arch: 90, output: 'ptx' });
      report({ a: { output: a.output, arch: a.arch, head: Buffer.from(a.code.slice(0, 9)).toString(), log: a.log },
        b: { output: b.output, arch: b.arch, ptx: b.ptx.split('\\n')[0] } });`, env);
    expect(r.report.a).toEqual({ output: 'cubin', arch: 'sm_90', head: 'FAKECUBIN', log: 'kernel.cu(1): warning: something to note\n' });
    expect(r.report.b).toEqual({ output: 'ptx', arch: 'compute_90', ptx: '// options: --gpu-architecture=compute_90' });
  });

  test('a failed compile throws CompileError carrying the full log, the options and the program name', async () => {
    const r = runScript(`${describeError}
      (async () => {
        const out = {};
        try { cuda.compile('__global__ void k() {}\\n#error nope\\n', { name: 'bad.cu', arch: 'sm_80', options: ['-G'] }); }
        catch (e) { out.sync = d(e); }
        try { await cuda.compileAsync('__global__ void k() {}\\n\\n#error nope\\n', { name: 'bad.cu', arch: 'sm_80' }); }
        catch (e) { out.async = d(e); out.isCompileError = e instanceof cuda.CompileError && e instanceof Error; }
        try { cuda.compile('__global__ void k() {}', { arch: 'sm_80', options: ['--bogus'] }); } catch (e) { out.option = d(e); }
        report(out);
      })();`, env);
    expect(r.stderr).toBe('');
    expect(r.report.sync).toMatchObject({ type: 'CompileError', result: 6, resultName: 'NVRTC_ERROR_COMPILATION', stage: 'compile',
      programName: 'bad.cu', options: ['--gpu-architecture=sm_80', '-G'] });
    expect(r.report.sync.log).toBe('bad.cu(2): error: #error directive\n\n1 error detected in the compilation of "bad.cu".\n');
    expect(r.report.sync.message).toBe('bad.cu failed to compile: NVRTC_ERROR_COMPILATION\n' +
      'bad.cu(2): error: #error directive\n\n1 error detected in the compilation of "bad.cu".');
    expect(r.report.async.log).toContain('bad.cu(3): error');
    expect(r.report.isCompileError).toBe(true);
    expect(r.report.option).toMatchObject({ type: 'CompileError', result: 5, resultName: 'NVRTC_ERROR_INVALID_OPTION',
      log: 'nvrtc: error: unrecognized option --bogus\n' });
  });

  test('compileAsync runs off the JavaScript thread and gives the same result', async () => {
    const r = runScript(`
      (async () => {
        let ticks = 0;
        const timer = setInterval(() => ticks++, 0);
        const results = await Promise.all([1, 2, 3].map((i) => cuda.compileAsync('// ' + i, { arch: 'compute_75', nameExpressions: ['g<int>'] })));
        clearInterval(timer);
        const sync = cuda.compile('// 1', { arch: 'compute_75', nameExpressions: ['g<int>'] });
        report({ ptx: results.map((p) => p.ptx.split('\\n')[2]), same: Buffer.compare(results[0].code, sync.code) === 0,
          lowered: results[2].loweredName('g<int>') });
      })();`, env);
    expect(r.report).toEqual({ ptx: ['// 1', '// 2', '// 3'], same: true, lowered: '_Z1gIintE' });
  });

  test('the default target is the device\'s architecture, or PTX for the newest NVRTC knows', () => {
    const driver = fakeDriver(); // compute capability 9.0
    const own = runScript(`const p = cuda.compile('// k'); report({ arch: p.arch, output: p.output });`, { ...env, CUDA_DRIVER_LIBRARY: driver });
    expect(own.report).toEqual({ arch: 'sm_90', output: 'cubin' });
    const older = runScript(`${describeError} const p = cuda.compile('// k'); let e;
      try { cuda.compile('// k', { output: 'cubin' }); } catch (x) { e = d(x); }
      report({ arch: p.arch, output: p.output, e });`, { ...env, CUDA_DRIVER_LIBRARY: driver, FAKE_NVRTC_ARCHS: '75,80' });
    expect(older.report).toMatchObject({ arch: 'compute_80', output: 'ptx', e: { type: 'RangeError' } });
    expect(older.report.e.message).toMatch(/no CUBIN target for sm_90/);
  });

  test('an unknown name expression is a RangeError naming the known ones', () => {
    const r = runScript(`${describeError} const p = cuda.compile('// k', { arch: 'sm_80', nameExpressions: ['a<int>'] });
      try { p.loweredName('b<int>'); } catch (e) { report(d(e)); }`, env);
    expect(r.report.type).toBe('RangeError');
    expect(r.report.message).toBe(`'b<int>' was not among the nameExpressions of kernel.cu; known: 'a<int>'`);
  });
});

describe('compile arguments are checked before NVRTC is needed', () => {
  test.each([
    [() => compile(42 as never), TypeError, /source must be a string/],
    [() => compile('', { arch: 'sm90' }), RangeError, /options.arch must look like/],
    [() => compile('', { arch: 'compute_90', output: 'cubin' }), RangeError, /virtual architecture/],
    [() => compile('', { arch: 'sm_90', output: 'fatbin' as never }), RangeError, /options.output/],
    [() => compile('', { arch: 'sm_90', options: ['-arch=sm_80'] }), RangeError, /must not set the architecture/],
    [() => compile('', { arch: 'sm_90', options: ['--gpu-architecture', 'sm_80'] }), RangeError, /must not set the architecture/],
    [() => compile('', { arch: 'sm_90', includePaths: 'x' as never }), TypeError, /includePaths must be an array/],
    [() => compile('', { arch: 'sm_90', defines: { A: {} as never } }), TypeError, /defines.A/],
    [() => compile('', { arch: 'sm_90', defines: 5 as never }), TypeError, /options.defines must be an object/],
    [() => compile('', { arch: 'sm_90', headers: 'a.h' as never }), TypeError, /options.headers must be an object/],
    [() => compile('', { arch: 'sm_90', headers: { 'a.h': 1 as never } }), TypeError, /headers\['a.h'\]/],
    [() => compile('a\0b', { arch: 'sm_90' }), RangeError, /source must not contain NUL/],
  ])('%#', (call, type, message) => {
    expect(call).toThrow(type);
    expect(call).toThrow(message);
  });

  test('CompileError is an Error with its own name', () => {
    expect(new CompileError({ stage: 'compile', result: 6, resultName: 'NVRTC_ERROR_COMPILATION', log: 'x\n', loweredNames: [],
      libraryPath: '', detail: '' }, 'a.cu', [])).toMatchObject({ name: 'CompileError', message: 'a.cu failed to compile: NVRTC_ERROR_COMPILATION\nx' });
  });
});
