// Relocatable compiles and the driver's JIT linker, over the stand-in driver
// and NVRTC (test/fixtures/fake-libcuda.c, fake-libnvrtc.c): each kind of
// input reaches cuLinkAddData or cuLinkAddFile with its type, the linked image
// loads as a library or module, failures carry the linker's log, and the
// linker's state is destroyed once, by dispose() or by link() itself.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, fakeNvrtc, runScript } from '../helpers/subprocess';

const prelude = `
  const fs = require('fs');
  const log = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n')
    .filter((l) => /^(link|library load|module load)/.test(l));
  const clearLog = () => fs.writeFileSync(process.env.FAKE_CUDA_LOG, '');
  const d = (e) => ({ type: e.constructor.name, message: e.message, code: e.code, result: e.result, call: e.call,
    log: e.log, infoLog: e.infoLog, input: e.input, paths: e.paths, reason: e.reason });
  const attempt = (f) => { try { f(); return null; } catch (e) { return d(e); } };
`;

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-link-'));
  env = { CUDA_DRIVER_LIBRARY: fakeDriver(), NVRTC_LIBRARY: fakeNvrtc(), FAKE_CUDA_LOG: path.join(dir, 'log') };
});
beforeEach(() => fs.writeFileSync(env.FAKE_CUDA_LOG, ''));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (body: string, extraEnv: Record<string, string> = {}) => {
  const r = runScript(prelude + body, { ...env, ...extraEnv });
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

// A toolkit directory with a stand-in device runtime: it defines what device code calls.
function toolkit(): string {
  const root = fs.mkdtempSync(path.join(dir, 'toolkit-'));
  fs.mkdirSync(path.join(root, 'lib64'));
  fs.mkdirSync(path.join(root, 'include', 'cccl'), { recursive: true });
  fs.writeFileSync(path.join(root, 'lib64', 'libcudadevrt.a'), '!<arch>\ndefine cudaGraphLaunch\n');
  fs.writeFileSync(path.join(root, 'include', 'cuda_device_runtime_api.h'), '');
  return root;
}

describe('relocatable compiles', () => {
  test('relocatable: true asks NVRTC for relocatable device code; calls into other code need it', () => {
    const r = run(`
      const source = 'kernel launcher 8\\nextern cudaGraphLaunch\\n';
      const program = cuda.compile(source, { arch: 'sm_90', relocatable: true });
      // extern "C" names a kernel: no call into other code.
      const plain = cuda.compile('extern "C" __global__ void k() {}\\nkernel k 4\\n', { arch: 'sm_90' });
      const byOption = cuda.compile('kernel k 4\\n', { arch: 'sm_90', options: ['-rdc=true'] });
      report({ options: program.options, relocatable: program.relocatable, plain: plain.relocatable, byOption: byOption.relocatable,
        refused: attempt(() => cuda.compile(source, { arch: 'sm_90' })),
        wrongType: attempt(() => cuda.compile(source, { arch: 'sm_90', relocatable: 'yes' })) });`);
    expect(r.options).toEqual(['--gpu-architecture=sm_90', '--relocatable-device-code=true']);
    expect(r).toMatchObject({ relocatable: true, plain: false, byOption: true });
    expect(r.refused).toMatchObject({ type: 'CompileError', code: 'NVRTC_ERROR_COMPILATION' });
    expect(r.refused.log).toMatch(/relocatable device code/);
    expect(r.wrongType).toMatchObject({ type: 'TypeError' });
    expect(r.wrongType.message).toMatch(/options\.relocatable/);
  });
});

describe('linking', () => {
  test('every kind of input reaches the linker with its type, and the image loads as a library and a module', () => {
    const root = toolkit();
    const object = path.join(dir, 'helper.o');
    fs.writeFileSync(object, 'kernel fromFile 4\n');
    const r = run(`
      const rt = cuda.deviceRuntime();
      // The stand-in's CUBIN is its source after a marker: the kernel goes on a line of its own.
      const program = cuda.compile('\\nkernel launcher 8\\nextern cudaGraphLaunch\\n', { arch: 'sm_90', relocatable: true });
      const ptx = cuda.compile('kernel fromPtx 4\\n', { arch: 'compute_90', relocatable: true });
      const image = cuda.link([
        program,
        ptx,
        'kernel fromText 4\\n',
        { data: new TextEncoder().encode('kernel fromFatbin 8\\n'), type: 'fatbin', name: 'kernels.fatbin' },
        { data: new TextEncoder().encode('kernel fromLibrary 8\\n'), type: 'library' },
        { data: 'kernel fromData 8\\n', name: 'data.ptx' },
        { path: ${JSON.stringify(object)} },
        rt.library,
      ], { optimizationLevel: 3, generateLineInfo: true });
      const library = cuda.Library.load(image);
      const module = cuda.Module.load(image);
      report({ log: log(), inputs: image.inputs, infoLog: image.infoLog, isImage: image instanceof cuda.LinkedProgram,
        kernels: library.kernels().map((k) => k.name).sort(), functions: module.functions().length, rt });`, { CUDA_PATH: root });
    expect(r.log).toEqual([
      'link create 6 options',
      'link add type=0 kernel.cu',
      'link add type=1 kernel.cu',
      'link add type=1 input 2',
      'link add type=2 kernels.fatbin',
      'link add type=4 input 4',
      'link add type=1 data.ptx',
      `link add type=3 ${path.join(dir, 'helper.o')}`,
      `link add type=4 ${path.join(root, 'lib64', 'libcudadevrt.a')}`,
      'link complete 8 inputs',
      'link destroy',
      'library load 7 kernels, 4 jit options',
      'module load 7 kernels',
    ]);
    expect(r.inputs).toEqual(['kernel.cu', 'kernel.cu', 'input 2', 'kernels.fatbin', 'input 4', 'data.ptx',
      path.join(dir, 'helper.o'), path.join(root, 'lib64', 'libcudadevrt.a')]);
    expect(r).toMatchObject({ infoLog: 'info    : fake link of 8 inputs\n', isImage: true, functions: 7 });
    expect(r.kernels).toEqual(['fromData', 'fromFatbin', 'fromFile', 'fromLibrary', 'fromPtx', 'fromText', 'launcher']);
    expect(r.rt).toEqual({ root, library: { path: path.join(root, 'lib64', 'libcudadevrt.a'), type: 'library' },
      includePaths: [path.join(root, 'include'), path.join(root, 'include', 'cccl')] });
  });

  test('bytes say what they are: a GPU ELF is a CUBIN, another ELF an object, then fatbins, archives and PTX', () => {
    const named = path.join(dir, 'code.bin');
    fs.writeFileSync(named, '!<arch>\nkernel fromArchive 4\n');
    const r = run(`
      const elf = (machine) => { const b = new Uint8Array(64); b.set([0x7f, 0x45, 0x4c, 0x46]); b[18] = machine & 255; b[19] = machine >> 8; return b; };
      const linker = cuda.Linker.create();
      linker.add(elf(190)).add(elf(62)).add(new Uint8Array([0x50, 0xed, 0x55, 0xba, 1, 0, 0, 0]))
        .add(new TextEncoder().encode('!<arch>\\nkernel k 4\\n')).add(new TextEncoder().encode('  .version 8.0\\n'))
        .add({ path: ${JSON.stringify(named)} });
      const unknown = attempt(() => linker.add(new Uint8Array([1, 2, 3])));
      const empty = attempt(() => linker.add(new Uint8Array(0)));
      const wrongType = attempt(() => linker.add({ data: 'x', type: 'cubin' }));
      const badType = attempt(() => linker.add({ data: new Uint8Array(4), type: 'elf' }));
      const unknownKey = attempt(() => linker.add({ path: 'x.a', kind: 'library' }));
      const notInput = attempt(() => linker.add(42));
      linker.dispose();
      report({ log: log(), unknown, empty, wrongType, badType, unknownKey, notInput });`);
    expect(r.log.slice(1, 7)).toEqual(['link add type=0 input 0', 'link add type=3 input 1', 'link add type=2 input 2',
      'link add type=4 input 3', 'link add type=1 input 4', `link add type=4 ${named}`]);
    expect(r.unknown).toMatchObject({ type: 'TypeError' });
    expect(r.unknown.message).toMatch(/cannot tell what input holds/);
    expect(r.empty).toMatchObject({ type: 'RangeError' });
    expect(r.wrongType.message).toMatch(/only PTX is/);
    expect(r.badType).toMatchObject({ type: 'RangeError' });
    expect(r.badType.message).toMatch(/input\.type must be one of 'cubin', 'ptx', 'fatbin', 'object', 'library'/);
    expect(r.unknownKey).toMatchObject({ type: 'TypeError' });
    expect(r.unknownKey.message).toMatch(/kind/);
    expect(r.notInput).toMatchObject({ type: 'TypeError' });
  });

  test("a refused input, an unresolved call and a missing file throw LinkError with the linker's log", () => {
    const r = run(`
      const refused = attempt(() => cuda.link(['kernel ok 4\\n', { data: 'a bad line\\n', name: 'broken.ptx' }]));
      const unresolved = attempt(() => cuda.link([cuda.compile('kernel k 8\\nextern cudaGraphLaunch\\n', { arch: 90, relocatable: true })]));
      const missing = attempt(() => cuda.link([{ path: '/nonexistent/libcudadevrt.a' }]));
      report({ refused, unresolved, missing, log: log() });`);
    expect(r.refused).toMatchObject({ type: 'LinkError', code: 'CUDA_ERROR_INVALID_PTX', call: 'cuLinkAddData', input: 'broken.ptx',
      log: 'ptxas fatal   : fake syntax error in broken.ptx\n' });
    expect(r.refused.message).toMatch(/^the linker refused broken\.ptx: CUDA_ERROR_INVALID_PTX\nptxas fatal {3}: fake syntax error in broken\.ptx$/);
    expect(r.unresolved).toMatchObject({ type: 'LinkError', code: 'CUDA_ERROR_INVALID_IMAGE', call: 'cuLinkComplete', input: null,
      log: "nvlink error   : Undefined reference to 'cudaGraphLaunch'\n" });
    expect(r.unresolved.message).toMatch(/^the link failed: CUDA_ERROR_INVALID_IMAGE\nnvlink error/);
    expect(r.missing).toMatchObject({ type: 'LinkError', code: 'CUDA_ERROR_FILE_NOT_FOUND', call: 'cuLinkAddFile',
      input: '/nonexistent/libcudadevrt.a' });
    // Every linker is destroyed, failed or not.
    expect(r.log.filter((l: string) => l === 'link destroy')).toHaveLength(3);
    expect(r.log.filter((l: string) => l.startsWith('link create'))).toHaveLength(3);
  });

  test('the device runtime is found through CUDA_PATH, and its absence is a clear error', () => {
    const empty = fs.mkdtempSync(path.join(dir, 'empty-'));
    const r = run(`report({ error: attempt(() => cuda.deviceRuntime()) });`, { CUDA_PATH: empty });
    expect(r.error).toMatchObject({ type: 'DeviceRuntimeNotFoundError', code: 'ERR_CUDA_DEVICE_RUNTIME_NOT_FOUND' });
    expect(r.error.paths).toContain(path.join(empty, 'lib64', 'libcudadevrt.a'));
    expect(r.error.paths.every((p: string) => p.startsWith(empty))).toBe(true);
    expect(r.error.message).toMatch(/libcudadevrt\.a\) was not found; looked at .*set CUDA_PATH/);
  });

  test('a linker is a disposable: dispose() destroys its state once, and it is unusable afterwards', () => {
    const r = run(`
      const linker = cuda.Linker.create({ maxRegisters: 64 });
      linker.add('kernel k 4\\n');
      const text = String(linker);
      const image = linker.complete();
      const logs = { info: linker.infoLog, error: linker.errorLog };
      linker.dispose();
      linker.dispose();
      const after = attempt(() => linker.add('kernel j 4\\n'));
      const scoped = cuda.Linker.create(); scoped.add('kernel s 4\\n'); scoped[Symbol.dispose]();
      const library = cuda.Library.load(image);
      report({ text, logs, after, disposedText: String(linker), kernels: library.kernelCount, log: log(),
        unknownOption: attempt(() => cuda.Linker.create({ optimisation: 2 })),
        badLevel: attempt(() => cuda.link(['kernel k 4\\n'], { optimizationLevel: 7 })),
        noInputs: attempt(() => cuda.link([])) });`);
    expect(r).toMatchObject({ text: 'Linker(1 inputs)', disposedText: 'Linker(disposed)', kernels: 1,
      logs: { info: 'info    : fake link of 1 inputs\n', error: '' } });
    expect(r.after).toMatchObject({ type: 'DisposedError' });
    expect(r.log).toEqual(['link create 5 options', 'link add type=1 input 0', 'link complete 1 inputs', 'link destroy',
      'link create 4 options', 'link add type=1 input 0', 'link destroy', 'library load 1 kernels, 4 jit options']);
    expect(r.unknownOption).toMatchObject({ type: 'TypeError' });
    expect(r.unknownOption.message).toMatch(/optimisation/);
    expect(r.badLevel).toMatchObject({ type: 'RangeError' });
    expect(r.noInputs).toMatchObject({ type: 'TypeError' });
  });
});
