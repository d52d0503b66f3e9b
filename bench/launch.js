#!/usr/bin/env node
// Host time per launch of an empty kernel with 0, 4 and 16 arguments, from
// JavaScript against the same launches in C (bench/c/launch.c, built here), in
// one run. The kernels are compiled once with NVRTC (or nvcc where NVRTC is
// missing) and both sides load the same CUBIN as a library. Each figure is the
// median over rounds of (host time of a batch of launches) / batch; the stream
// is drained between batches, outside the timing. C and JavaScript take turns
// for `passes` passes and the median pass is reported.
// Usage: node bench/launch.js [batch=200] [rounds=300] [passes=3]
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const cuda = require('..');
const { median, now, runC, report } = require('./common');

const batch = Number(process.argv[2] || 200);
const rounds = Number(process.argv[3] || 300);
const passes = Number(process.argv[4] || 3);

const source = `
extern "C" __global__ void empty0() {}
extern "C" __global__ void empty4(float* a, const float* b, float c, unsigned n) {}
extern "C" __global__ void empty16(float* p0, float* p1, float* p2, float* p3, float f0, float f1, float f2, float f3,
                                   int i0, int i1, int i2, int i3, unsigned long long u0, unsigned long long u1,
                                   double d0, double d1) {}
`;

// A CUBIN of the kernels for device 0, from NVRTC or, without it, nvcc.
function cubin() {
  if (cuda.nvrtcStatus().available) return cuda.compile(source, { name: 'launch-bench.cu' }).code;
  const { major, minor } = cuda.Device.get(0).computeCapability;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-launch-'));
  fs.writeFileSync(path.join(dir, 'k.cu'), source);
  const nvcc = path.join(process.env.CUDA_PATH || '/usr/local/cuda', 'bin', 'nvcc');
  execFileSync(nvcc, [`-arch=sm_${major}${minor}`, '-cubin', '-o', path.join(dir, 'k.cubin'), path.join(dir, 'k.cu')], { stdio: 'inherit' });
  return fs.readFileSync(path.join(dir, 'k.cubin'));
}

// The median per-launch host time of launch(), in nanoseconds.
function perLaunch(launch, stream) {
  for (let i = 0; i < batch * 10; i++) launch();
  stream.synchronizeSync();
  const times = new Array(rounds);
  for (let r = 0; r < rounds; r++) {
    const t0 = now();
    for (let i = 0; i < batch; i++) launch();
    times[r] = (now() - t0) / batch;
    stream.synchronizeSync();
  }
  return median(times);
}

function measureJs(lib, stream, buffer) {
  const k0 = lib.kernel('empty0');
  const k4 = lib.kernel('empty4');
  const k16 = lib.kernel('empty16');
  const shape = { grid: 1, block: 32, stream };
  const { arg } = cuda;
  const args4 = [buffer, buffer, 2, 1000];
  const args16 = [buffer, buffer, buffer, buffer, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const types16 = ['ptr', 'ptr', 'ptr', 'ptr', 'f32', 'f32', 'f32', 'f32', 'i32', 'i32', 'i32', 'i32', 'u64', 'u64', 'f64', 'f64'];
  const p0 = k0.prepare(shape, []);
  const p4 = k4.prepare(shape, ['ptr', 'ptr', 'f32', 'u32'], args4);
  const p16 = k16.prepare(shape, types16, args16);
  const typed4 = [arg.ptr(buffer), arg.ptr(buffer), arg.f32(2), arg.u32(1000)];
  const typed16 = types16.map((t, i) => new cuda.KernelArg(t, args16[i]));
  let n = 0;
  const out = {
    prepared0: perLaunch(() => p0.launch(), stream),
    prepared4: perLaunch(() => p4.launch(), stream),
    prepared16: perLaunch(() => p16.launch(), stream),
    updated4: perLaunch(() => p4.set(3, (n = (n + 1) & 1023)).launch(), stream),
    plain0: perLaunch(() => k0.launch(shape), stream),
    plain4: perLaunch(() => k4.launch(shape, typed4), stream),
    plain16: perLaunch(() => k16.launch(shape, typed16), stream),
  };
  for (const handle of [p0, p4, p16, k0, k4, k16]) handle.dispose();
  return out;
}

const device = cuda.Device.get(0);
console.log(`${device.name}, driver CUDA ${cuda.driverStatus().driverVersion}, batch ${batch}, ${rounds} rounds, ${passes} passes`);
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cuda-driver-launch-')), 'kernels.cubin');
fs.writeFileSync(file, cubin());

const lib = cuda.Library.loadFile(file);
const stream = cuda.Stream.create();
const buffer = cuda.DeviceBuffer.alloc(1024);
const c = [], js = [];
for (let pass = 0; pass < passes; pass++) {
  c.push(runC('launch', [file, batch, rounds]));
  js.push(measureJs(lib, stream, buffer));
}
const pick = (runs, key) => median(runs.map((r) => r[key]));

report('Kernel launch host time', [
  ['0 arguments, prepared', pick(js, 'prepared0'), pick(c, '0'), 'ns/launch'],
  ['4 arguments, prepared', pick(js, 'prepared4'), pick(c, '4'), 'ns/launch'],
  ['16 arguments, prepared', pick(js, 'prepared16'), pick(c, '16'), 'ns/launch'],
  ['4 arguments, prepared, one set per launch', pick(js, 'updated4'), pick(c, '4'), 'ns/launch'],
  ['0 arguments, kernel.launch()', pick(js, 'plain0'), pick(c, '0'), 'ns/launch'],
  ['4 arguments, kernel.launch()', pick(js, 'plain4'), pick(c, '4'), 'ns/launch'],
  ['16 arguments, kernel.launch()', pick(js, 'plain16'), pick(c, '16'), 'ns/launch'],
]);
const ratio = pick(js, 'prepared4') / pick(c, '4');
console.log(`\ngoal: prepared launch with 4 arguments <= 1.15x C: ${ratio.toFixed(3)}x ${ratio <= 1.15 ? 'met' : 'NOT met'}`);
buffer.dispose();
stream.dispose();
lib.dispose();
