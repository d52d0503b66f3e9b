// Tensor maps against the stand-in driver (test/fixtures/fake-libcuda.c),
// which logs every encode with what it was given and puts the address and the
// encode's number in the descriptor: the encoding, the checks made before the
// driver is asked, the descriptor's place in a kernel's parameters (launches,
// prepared launches, kernel nodes) and the memory a map keeps alive.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fakeDriver, runScript } from '../helpers/subprocess';

// tma(CUtensorMap, float*, unsigned) and late(unsigned, CUtensorMap): the map at 0 and at 64.
const image = ['FAKE', 'kernel tma 128@64,8,4', 'kernel late 4,128@64'].join('\n');

const prelude = `
  const fs = require('fs');
  const log = () => fs.readFileSync(process.env.FAKE_CUDA_LOG, 'utf8').split('\\n')
    .filter((l) => l && !/^(retain|release)$/.test(l));
  const clearLog = () => fs.writeFileSync(process.env.FAKE_CUDA_LOG, '');
  const d = (e) => ({ type: e.constructor.name, message: e.message, code: e.code, result: e.result, call: e.call });
  const attempt = (f) => { try { f(); return null; } catch (e) { return d(e); } };
  const settle = async () => { for (let i = 0; i < 10; i++) { global.gc?.(); await new Promise((r) => setTimeout(r, 10)); } };
  const hex = (address) => address.toString(16);
  // A descriptor's first 16 bytes as the launch log shows them: the address and the encode's number, little-endian.
  const head = (address, id) => {
    const b = Buffer.alloc(16);
    b.writeBigUInt64LE(address, 0);
    b.writeBigUInt64LE(BigInt(id), 8);
    return b.toString('hex');
  };
  const image = ${JSON.stringify(image)};
`;

let logFile: string;
let env: Record<string, string>;
beforeAll(() => {
  logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-tensor-map-')), 'log');
  env = { CUDA_DRIVER_LIBRARY: fakeDriver(), FAKE_CUDA_LOG: logFile };
});
beforeEach(() => fs.writeFileSync(logFile, ''));

const run = (body: string, extraEnv: Record<string, string> = {}) => {
  const r = runScript(`${prelude}(async () => { ${body} })().catch((e) => { console.error(e); process.exitCode = 1; });`,
    { ...env, ...extraEnv }, ['--expose-gc']);
  if (r.status !== 0 || r.report === undefined) throw new Error(`script failed (${r.status}):\n${r.stderr}\n${r.stdout}`);
  return r.report;
};

describe('encoding', () => {
  test('tiled: names become the driver\'s numbers; dense strides by default; a MemoryPointer offsets the address', () => {
    const r = run(`
      const a = cuda.DeviceBuffer.alloc(64 * 32 * 4);
      const map = cuda.TensorMap.tiled({ memory: a, dataType: 'float32', dims: [64, 32], box: [16, 8], swizzle: '64B',
        l2Promotion: '128B' });
      const at = cuda.TensorMap.tiled({ memory: new cuda.MemoryPointer(a, 256), dataType: 'uint8', dims: [32, 4, 2],
        strides: [64, 512], box: [16, 2, 1], elementStrides: [1, 2, 1], interleave: 0, oobFill: 'none' });
      const nan = cuda.TensorMap.tiled({ memory: a, dataType: 'bfloat16', dims: [8], box: [8], oobFill: 'nanRequestZeroFma' });
      report({ address: hex(a.address), log: log().filter((l) => l.startsWith('tensormap')), text: String(map),
        kind: map.kind, dataType: map.dataType, dims: map.dims, strides: map.strides, offset: at.offset,
        same: map.memory === a, frozen: Object.isFrozen(map.dims) });`);
    const a = r.address;
    const b = (BigInt(`0x${a}`) + 256n).toString(16);
    expect(r.log).toEqual([
      `tensormap tiled id=1 type=7 rank=2 address=${a} dims=64,32 strides=256 box=16,8 elementStrides=1,1 interleave=0 swizzle=2 l2=2 oob=0`,
      `tensormap tiled id=2 type=0 rank=3 address=${b} dims=32,4,2 strides=64,512 box=16,2,1 elementStrides=1,2,1 interleave=0 swizzle=0 l2=0 oob=0`,
      `tensormap tiled id=3 type=9 rank=1 address=${a} dims=8 strides= box=8 elementStrides=1 interleave=0 swizzle=0 l2=0 oob=1`,
    ]);
    expect(r).toMatchObject({ text: 'TensorMap(tiled, float32, [64, 32])', kind: 'tiled', dataType: 'float32', dims: [64, 32],
      strides: [256], offset: 256, same: true, frozen: true });
  });

  test('im2col and im2colWide pass corners, channels, pixels and mode', () => {
    const r = run(`
      const a = cuda.DeviceBuffer.alloc(1 << 16);
      cuda.TensorMap.im2col({ memory: a, dataType: 'float16', dims: [8, 16, 16, 2], pixelBoxLowerCorner: [-1, -1],
        pixelBoxUpperCorner: [1, 1], channelsPerPixel: 8, pixelsPerColumn: 64, swizzle: '32B' });
      cuda.TensorMap.im2colWide({ memory: a, dataType: 'float16', dims: [32, 64, 4], pixelBoxLowerCornerWidth: -2,
        pixelBoxUpperCornerWidth: 2, channelsPerPixel: 32, pixelsPerColumn: 128, mode: 'w128', swizzle: '128B', l2Promotion: '256B' });
      report({ address: hex(a.address), log: log().filter((l) => l.startsWith('tensormap')) });`);
    const a = r.address;
    expect(r.log).toEqual([
      `tensormap im2col id=1 type=6 rank=4 address=${a} dims=8,16,16,2 strides=16,256,4096 lower=-1,-1 upper=1,1 channels=8 pixels=64 ` +
        'elementStrides=1,1,1,1 interleave=0 swizzle=1 l2=0 oob=0',
      `tensormap im2colWide id=2 type=6 rank=3 address=${a} dims=32,64,4 strides=64,4096 lower=-2 upper=2 channels=32 pixels=128 ` +
        'elementStrides=1,1,1 interleave=0 mode=1 swizzle=3 l2=3 oob=0',
    ]);
  });

  test('the driver\'s refusal is a CudaError naming the call; a driver without im2colWide says which version it needs', () => {
    const refused = run(`
      const a = cuda.DeviceBuffer.alloc(4096);
      report({ e: attempt(() => cuda.TensorMap.tiled({ memory: a, dataType: 'float32', dims: [16], box: [8] })) });`,
    { FAKE_CUDA_FAIL: 'cuTensorMapEncodeTiled=1' });
    expect(refused.e).toMatchObject({ type: 'CudaError', code: 'CUDA_ERROR_INVALID_VALUE', result: 1, call: 'cuTensorMapEncodeTiled' });
    const old = run(`
      const a = cuda.DeviceBuffer.alloc(4096);
      report({ e: attempt(() => cuda.TensorMap.im2colWide({ memory: a, dataType: 'float32', dims: [8, 8, 8],
        pixelBoxLowerCornerWidth: 0, pixelBoxUpperCornerWidth: 0, channelsPerPixel: 8, pixelsPerColumn: 8, swizzle: '128B' })) });`,
    { FAKE_CUDA_VERSION: '12030' });
    expect(old.e).toMatchObject({ type: 'FunctionUnavailableError', call: 'cuTensorMapEncodeIm2colWide' });
  });
});

describe('checks before the driver', () => {
  test('every rule the driver states is a RangeError or TypeError naming the option; none reaches the driver', () => {
    const r = run(`
      const a = cuda.DeviceBuffer.alloc(1 << 16);
      const base = { memory: a, dataType: 'float32', dims: [64, 32], box: [16, 8] };
      const tiled = (o) => attempt(() => cuda.TensorMap.tiled({ ...base, ...o }));
      const conv = { memory: a, dataType: 'float16', dims: [8, 16, 16, 2], pixelBoxLowerCorner: [0, 0], pixelBoxUpperCorner: [0, 0],
        channelsPerPixel: 8, pixelsPerColumn: 8 };
      const im2col = (o) => attempt(() => cuda.TensorMap.im2col({ ...conv, ...o }));
      const wide = { memory: a, dataType: 'float16', dims: [32, 64, 4], pixelBoxLowerCornerWidth: 0, pixelBoxUpperCornerWidth: 0,
        channelsPerPixel: 32, pixelsPerColumn: 8, swizzle: '128B' };
      const im2colWide = (o) => attempt(() => cuda.TensorMap.im2colWide({ ...wide, ...o }));
      clearLog();
      report({
        unknownKey: tiled({ boxDim: [1] }),
        notOptions: attempt(() => cuda.TensorMap.tiled(null)),
        notMemory: tiled({ memory: 42 }),
        dataType: tiled({ dataType: 'float33' }),
        dataTypeNumber: tiled({ dataType: 99 }),
        rankHigh: tiled({ dims: [2, 2, 2, 2, 2, 2], box: [1, 1, 1, 1, 1, 1] }),
        rankZero: tiled({ dims: [], box: [] }),
        dimZero: tiled({ dims: [64, 0] }),
        dimHuge: tiled({ dims: [64, 2 ** 32 + 1] }),
        boxCount: tiled({ box: [16] }),
        boxBig: tiled({ box: [16, 257] }),
        boxRow: tiled({ box: [3, 8] }),
        denseStride: tiled({ dims: [3, 4], box: [4, 4] }),
        strideCount: tiled({ strides: [256, 256] }),
        strideUnit: tiled({ strides: [264] }),
        elementStride: tiled({ elementStrides: [1, 9] }),
        interleaveRank: tiled({ interleave: '16B' }),
        interleave32: tiled({ dims: [8, 4, 4], strides: [32, 128], box: [8, 4, 4], interleave: '32B' }),
        swizzleSpan: tiled({ box: [16, 8], swizzle: '32B' }),
        oobInteger: tiled({ dataType: 'int32', oobFill: 'nanRequestZeroFma' }),
        packedDims: tiled({ dataType: '16u4Align16B', dims: [64, 4], strides: [64], box: [128, 1] }),
        packedBox: tiled({ dataType: '16u4Align16B', dims: [256, 4], strides: [256], box: [64, 1] }),
        packedSwizzle: tiled({ dataType: '16u4Align16B', dims: [256, 4], strides: [256], box: [128, 1], swizzle: '64B' }),
        misaligned: tiled({ memory: new cuda.MemoryPointer(a, 8) }),
        tooBig: tiled({ dims: [64, 1024] }),
        pastEnd: tiled({ memory: new cuda.MemoryPointer(a, 65536 - 1024) }),
        im2colRank: im2col({ dims: [8, 16], pixelBoxLowerCorner: [], pixelBoxUpperCorner: [] }),
        corners: im2col({ pixelBoxLowerCorner: [0] }),
        cornerRange: im2col({ pixelBoxLowerCorner: [-129, 0] }),
        channels: im2col({ channelsPerPixel: 257 }),
        pixels: im2col({ pixelsPerColumn: 1025 }),
        channelSpan: im2col({ swizzle: '32B', channelsPerPixel: 32, dims: [32, 16, 16, 2] }),
        wideSwizzleMissing: im2colWide({ swizzle: undefined }),
        wideSwizzle: im2colWide({ swizzle: 'none' }),
        wideCorner: im2colWide({ pixelBoxLowerCornerWidth: 40000 }),
        wideMode: im2colWide({ mode: 'w64' }),
        log: log().filter((l) => l.startsWith('tensormap')),
      });`);
    const range = (message: string) => ({ type: 'RangeError', message: expect.stringContaining(message) });
    const type = (message: string) => ({ type: 'TypeError', message: expect.stringContaining(message) });
    expect(r).toMatchObject({
      unknownKey: type('options.boxDim is not an option of TensorMap.tiled'),
      notOptions: type('options must be an object'),
      notMemory: type('options.memory must be library memory'),
      dataType: range('options.dataType must be one of uint8'),
      dataTypeNumber: range('options.dataType must be one of'),
      rankHigh: range('options.dims must have 1 to 5 entries'),
      rankZero: range('options.dims must have 1 to 5 entries'),
      dimZero: range('options.dims[1] must be between 1 and 4294967296'),
      dimHuge: range('options.dims[1] must be between 1 and 4294967296'),
      boxCount: range('options.box must have 2 entries'),
      boxBig: range('options.box[1] must be between 1 and 256'),
      boxRow: range('options.box[0] × the element size must be a multiple of 16 bytes'),
      denseStride: range('the dense stride of dimension 1 (12 bytes) is not a multiple of 16'),
      strideCount: range('options.strides must have 1 entries'),
      strideUnit: range('options.strides[0] must be a multiple of 16 bytes'),
      elementStride: range('options.elementStrides[1] must be between 1 and 8'),
      interleaveRank: range('needs a tensor of rank 3 or more'),
      interleave32: range('options.interleave \'32B\' needs options.swizzle \'32B\''),
      swizzleSpan: range('more than options.swizzle \'32B\' spans (32)'),
      oobInteger: range('needs a floating-point dataType'),
      packedDims: range('options.dims[0] must be a multiple of 128'),
      packedBox: range('options.box[0] must be 128'),
      packedSwizzle: range('options.swizzle must be none, 128B, 128BAtom32B'),
      misaligned: range('options.memory must be aligned to 16 bytes'),
      tooBig: range('the tensor spans 262144 bytes but options.memory has 65536'),
      pastEnd: range('has 1024 from offset 64512'),
      im2colRank: range('options.dims must have 3 to 5 entries'),
      corners: range('options.pixelBoxLowerCorner must have 2 entries'),
      cornerRange: range('options.pixelBoxLowerCorner[0] must be between -128 and 127'),
      channels: range('options.channelsPerPixel must be between 1 and 256'),
      pixels: range('options.pixelsPerColumn must be between 1 and 1024'),
      channelSpan: range('a pixel\'s channels'),
      wideSwizzleMissing: type('options.swizzle is required'),
      wideSwizzle: range('options.swizzle must be 64B, 128B or 128BAtom32B'),
      wideCorner: range('options.pixelBoxLowerCornerWidth must be between -32768 and 32767'),
      wideMode: range('options.mode must be one of w, w128'),
      log: [],
    });
  });
});

describe('as a kernel argument', () => {
  test('the descriptor\'s 128 bytes go at the parameter\'s offset, from a launch and a prepared launch', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const lib = cuda.Library.load(image);
      const tma = lib.kernel('tma');
      const late = lib.kernel('late');
      const a = cuda.DeviceBuffer.alloc(4096);
      const out = cuda.DeviceBuffer.alloc(64);
      const map = cuda.TensorMap.tiled({ memory: a, dataType: 'float32', dims: [16, 16], box: [8, 8] });
      clearLog();
      tma.launch({ grid: 1, block: 1, stream }, [cuda.arg.tensorMap(map), cuda.arg.ptr(out), cuda.arg.u32(5)]);
      late.launch({ grid: 1, block: 1, stream }, [cuda.arg.u32(7), cuda.arg.tensorMap(map)]);
      const prepared = tma.prepare({ grid: 1, block: 1, stream }, ['tensorMap', 'ptr', 'u32'], [map, out, 6]);
      prepared.launch();
      report({ params: [tma.params, late.params], a: a.address, out: out.address, log: log(),
        wrongValue: attempt(() => prepared.set(0, a)), wrongArg: attempt(() => cuda.arg.tensorMap(a)),
        asPointer: attempt(() => tma.launch({ grid: 1, block: 1, stream }, [cuda.arg.tensorMap(map), cuda.arg.ptr(map), cuda.arg.u32(5)])),
        asBytesSize: attempt(() => late.launch({ grid: 1, block: 1, stream }, [cuda.arg.u32(7), cuda.arg.ptr(out)])) });`);
    expect(r.params).toEqual([[{ offset: 0, size: 128 }, { offset: 128, size: 8 }, { offset: 136, size: 4 }],
      [{ offset: 0, size: 4 }, { offset: 64, size: 128 }]]);
    const descriptor = '{head}' + '00'.repeat(112);
    const args = (count: number) => descriptor + '|' + Buffer.from(new BigUint64Array([BigInt(r.out)]).buffer).toString('hex') +
      '|' + count.toString(16).padStart(2, '0') + '000000';
    const [launch, late, prepared] = r.log.map((l: string) => l.replace(/[0-9a-f]{32}/, '{head}'));
    expect(launch).toBe(`launch tma grid=1,1,1 block=1,1,1 smem=0 stream=1 args=${args(5)}`);
    expect(late).toBe(`launch late grid=1,1,1 block=1,1,1 smem=0 stream=1 args=07000000|${descriptor}`);
    expect(prepared).toBe(`launch tma grid=1,1,1 block=1,1,1 smem=0 stream=1 args=${args(6)}`);
    const head = Buffer.alloc(16);
    head.writeBigUInt64LE(BigInt(r.a), 0);
    head.writeBigUInt64LE(1n, 8);
    for (const line of r.log) expect(line).toContain(head.toString('hex'));
    expect(r.wrongValue).toMatchObject({ type: 'TypeError', message: 'values[0] must be a TensorMap' });
    expect(r.wrongArg).toMatchObject({ type: 'TypeError', message: 'map must be a TensorMap, got DeviceBuffer' });
    expect(r.asPointer).toMatchObject({ type: 'TypeError', message: expect.stringContaining('memory must be') });
    expect(r.asBytesSize).toMatchObject({ type: 'KernelArgumentError', message: expect.stringContaining('parameter 1 takes 128 bytes') });
  });

  test('without the driver\'s layout (before CUDA 12.4) a tensor map is refused: its offset cannot be known', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const late = cuda.Library.load(image).kernel('late');
      const a = cuda.DeviceBuffer.alloc(4096);
      const map = cuda.TensorMap.tiled({ memory: a, dataType: 'float32', dims: [16, 16], box: [8, 8] });
      clearLog();
      report({ params: late.params, launch: attempt(() => late.launch({ grid: 1, block: 1, stream }, [cuda.arg.u32(7), cuda.arg.tensorMap(map)])),
        prepare: attempt(() => late.prepare({ grid: 1, block: 1, stream }, ['u32', 'tensorMap'])), log: log() });`, { FAKE_CUDA_VERSION: '12030' });
    expect(r.params).toBeNull();
    for (const e of [r.launch, r.prepare]) {
      expect(e).toMatchObject({ type: 'KernelArgumentError', message: expect.stringContaining('argument 1 is a tensor map, which needs the parameter layout') });
    }
    expect(r.log).toEqual([]);
  });

  test('replaceAddress points later launches and kernel node updates at new memory, checked as the map was', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const tma = cuda.Library.load(image).kernel('tma');
      const a = cuda.DeviceBuffer.alloc(4096);
      const b = cuda.DeviceBuffer.alloc(4096);
      const out = cuda.DeviceBuffer.alloc(64);
      const map = cuda.TensorMap.tiled({ memory: a, dataType: 'float32', dims: [16, 16], box: [8, 8] });
      const graph = cuda.Graph.create();
      const node = graph.addKernel(tma, { grid: 1, block: 1 }, [cuda.arg.tensorMap(map), cuda.arg.ptr(out), cuda.arg.u32(1)]);
      const exec = graph.instantiate();
      clearLog();
      map.replaceAddress(b);
      tma.launch({ grid: 1, block: 1, stream }, [cuda.arg.tensorMap(map), cuda.arg.ptr(out), cuda.arg.u32(2)]);
      exec.setParams(node, { type: 'kernel', kernel: tma, grid: 1, block: 1, args: [cuda.arg.tensorMap(map), cuda.arg.ptr(out), cuda.arg.u32(3)] });
      const atOffset = cuda.DeviceBuffer.alloc(8192);
      map.replaceAddress(new cuda.MemoryPointer(atOffset, 4096));
      const refused = {
        misaligned: attempt(() => map.replaceAddress(new cuda.MemoryPointer(b, 4))),
        small: attempt(() => map.replaceAddress(out)),
        notMemory: attempt(() => map.replaceAddress(map)),
      };
      await stream.synchronize();
      report({ a: hex(a.address), b: hex(b.address), c: hex(atOffset.address + 4096n), memory: map.memory === atOffset, offset: map.offset,
        head: [head(b.address, 1)], log: log().filter((l) => /^(tensormap|launch|exec-update) /.test(l)), refused });`);
    expect(r.log[0]).toBe(`tensormap replace id=1 address=${r.b}`);
    expect(r.log[1]).toMatch(/^launch tma .* args=/);
    expect(r.log[1]).toContain(r.head[0]);
    expect(r.log[2]).toMatch(/^exec-update tma /);
    expect(r.log[2]).toContain(r.head[0]);
    expect(r.log[3]).toBe(`tensormap replace id=1 address=${r.c}`);
    expect(r.log).toHaveLength(4);
    expect(r).toMatchObject({ memory: true, offset: 4096 });
    expect(r.refused).toMatchObject({
      misaligned: { type: 'RangeError', message: expect.stringContaining('memory must be aligned to 16 bytes') },
      small: { type: 'RangeError', message: 'the tensor spans 1024 bytes but memory has 64 from offset 0: check options.dims and options.strides' },
      notMemory: { type: 'TypeError' },
    });
  });
});

describe('lifetime', () => {
  test('a map holds its memory; a launch, a kernel node and an old descriptor hold theirs until the work is done', () => {
    const r = run(`
      const stream = cuda.Stream.create();
      const tma = cuda.Library.load(image).kernel('tma');
      // The stand-in's allocator may hand a freed address out again: count the frees of an address from its allocation on.
      const frees = (address) => log().filter((l) => l.startsWith('free ') && l.split(' ')[1] === address).length;
      const allocate = () => { const buffer = cuda.DeviceBuffer.alloc(4096); const address = hex(buffer.address); return { buffer, address, before: frees(address) }; };
      const kept = (m) => frees(m.address) === m.before;
      const out = cuda.DeviceBuffer.alloc(64);
      const held = {};

      // The map alone.
      const a = allocate();
      let map = cuda.TensorMap.tiled({ memory: a.buffer, dataType: 'float32', dims: [16, 16], box: [8, 8] });
      a.buffer.dispose(); a.buffer = null;
      await settle();
      held.byMap = kept(a);
      map.dispose(); map = null;
      await settle();
      held.afterMap = kept(a);

      // A launch still running, and the old address of a map pointed elsewhere.
      const b = allocate(), c = allocate();
      map = cuda.TensorMap.tiled({ memory: b.buffer, dataType: 'float32', dims: [16, 16], box: [8, 8] });
      tma.launch({ grid: 1, block: 1, stream }, [cuda.arg.tensorMap(map), cuda.arg.ptr(out), cuda.arg.u32(1)]);
      map.replaceAddress(c.buffer);
      b.buffer.dispose(); b.buffer = null; c.buffer.dispose(); c.buffer = null;
      await settle();
      held.byLaunch = kept(b);
      await stream.synchronize();
      await settle();
      held.afterLaunch = kept(b);
      held.cByMap = kept(c);

      // A kernel node: the graph's executable holds the descriptor.
      const d = allocate();
      const graph = cuda.Graph.create();
      let dMap = cuda.TensorMap.tiled({ memory: d.buffer, dataType: 'float32', dims: [16, 16], box: [8, 8] });
      graph.addKernel(tma, { grid: 1, block: 1 }, [cuda.arg.tensorMap(dMap), cuda.arg.ptr(out), cuda.arg.u32(1)]);
      const exec = graph.instantiate();
      dMap.dispose(); dMap = null; d.buffer.dispose(); d.buffer = null; graph.dispose();
      await settle();
      held.byExec = kept(d);
      exec.dispose();
      await settle();
      held.afterExec = kept(d);

      const stale = cuda.arg.tensorMap(map);
      map.dispose();
      const disposed = { arg: attempt(() => tma.launch({ grid: 1, block: 1, stream }, [stale, cuda.arg.ptr(out), cuda.arg.u32(1)])),
        replace: attempt(() => map.replaceAddress(out)) };
      report({ held, disposed, text: String(map) });`, { FAKE_CUDA_WORK_MS: '300' });
    expect(r.held).toEqual({ byMap: true, afterMap: false, byLaunch: true, afterLaunch: false, cByMap: true, byExec: true, afterExec: false });
    expect(r.disposed).toMatchObject({ replace: { type: 'DisposedError' }, arg: { type: 'DisposedError' } });
    expect(r.text).toBe('TensorMap(disposed)');
  });
});
