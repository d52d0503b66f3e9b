#!/usr/bin/env node
// One vector split across two GPUs: each device computes y = 3x + 1 on its half,
// device 1's half is gathered on device 0 with a peer copy (device to device,
// not through the host), device 0's stream waits for that copy through an event
// of device 1, and a kernel on device 0 sums the whole vector. Every value and
// the sum are checked. Peer access is enabled where the devices allow it; the
// copies work without it too.
//
//   node examples/multi-gpu.js
//
// With fewer than two GPUs it says so and exits 0.
'use strict';
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { arg } = cuda;

requireGpu(cuda);
const count = cuda.Device.count();
if (count < 2) {
  console.log(`this example needs two GPUs; ${count} visible: nothing to run`);
  process.exit(0);
}

const devices = [cuda.Device.get(0), cuda.Device.get(1)];
const peers = devices[0].canAccessPeer(devices[1]) && devices[1].canAccessPeer(devices[0]);
if (peers) {
  devices[0].primaryContext.enablePeerAccess(devices[1].primaryContext);
  devices[1].primaryContext.enablePeerAccess(devices[0].primaryContext);
}
console.log(`devices: [0] ${devices[0].name}, [1] ${devices[1].name}; peer access ${peers ? 'enabled both ways' : 'not possible here'}`);

// One library: its kernels run on whichever device the stream belongs to.
const library = cuda.Library.load(cuda.compile(`
  extern "C" __global__ void affine(const unsigned* x, unsigned* y, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 3 * x[i] + 1;
  }
  extern "C" __global__ void sum(const unsigned* in, unsigned n, unsigned long long* total) {
    __shared__ unsigned long long partial[256];
    unsigned t = threadIdx.x;
    unsigned long long v = 0;
    for (unsigned i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += in[i];
    partial[t] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s) partial[t] += partial[t + s];
      __syncthreads();
    }
    if (t == 0) atomicAdd(total, partial[0]);
  }`, { name: 'multi-gpu.cu' }));
const affine = library.kernel('affine');
const sum = library.kernel('sum');

const n = 1 << 24;
const half = n / 2;
const x = cuda.HostBuffer.alloc(n * 4);
x.view(Uint32Array).forEach((_, i, a) => (a[i] = i));

// Each device: its half of x in, y = 3x + 1 out, on a stream of its own.
const parts = devices.map((device, k) => {
  const stream = cuda.Stream.create({ device });
  const xs = cuda.DeviceBuffer.alloc(half * 4, { device });
  const ys = cuda.DeviceBuffer.alloc(half * 4, { device });
  cuda.copy(xs, x, { srcOffset: k * half * 4, bytes: half * 4, stream });
  affine.launch({ grid: half / 256, block: 256, stream }, [arg.ptr(xs), arg.ptr(ys), arg.u32(half)]);
  return { stream, xs, ys };
});
console.log(`computed y = 3x + 1 on 2 devices, ${half} values each`);

// Gather on device 0: its own half, then device 1's with a peer copy queued on
// device 1's stream, timed there by two events of device 1.
const y = cuda.DeviceBuffer.alloc(n * 4, { device: devices[0] });
cuda.copy(y, parts[0].ys, { stream: parts[0].stream });
const start = cuda.Event.create({ device: devices[1], timing: true }).record(parts[1].stream);
cuda.copy(y, parts[1].ys, { dstOffset: half * 4, stream: parts[1].stream });
const gathered = cuda.Event.create({ device: devices[1], timing: true }).record(parts[1].stream);
parts[0].stream.waitEvent(gathered);  // device 0's stream goes on once device 1's copy is done

// The sum, on device 0, of the whole gathered vector.
const total = cuda.DeviceBuffer.alloc(8, { device: devices[0] });
cuda.fill(total, 0, { stream: parts[0].stream });
sum.launch({ grid: 256, block: 256, stream: parts[0].stream }, [arg.ptr(y), arg.u32(n), arg.ptr(total)]);
const out = cuda.HostBuffer.alloc(n * 4);
cuda.copy(out, y, { stream: parts[0].stream });
const result = cuda.HostBuffer.alloc(8);
cuda.copy(result, total, { stream: parts[0].stream });
parts[0].stream.synchronizeSync();

const ms = start.elapsedTime(gathered);
console.log(`peer copy of device 1's half to device 0: ${half * 4 / 2 ** 20} MiB in ${ms.toFixed(3)} ms (${(half * 4 / ms / 1e6).toFixed(1)} GB/s)`);
const values = out.view(Uint32Array);
const wrong = values.findIndex((v, i) => v !== 3 * i + 1);
console.log(wrong < 0 ? `gathered vector: ${n} values ok` : `gathered vector: WRONG at ${wrong}: ${values[wrong]}`);
const expected = 3n * BigInt(n) * BigInt(n - 1) / 2n + BigInt(n);
const got = result.view(BigUint64Array)[0];
console.log(`sum on device 0: ${got} ${got === expected ? 'ok' : `WRONG (expected ${expected})`}`);
if (wrong >= 0 || got !== expected) process.exitCode = 1;

for (const part of parts) [part.xs, part.ys, part.stream].forEach((h) => h.dispose());
[start, gathered, y, total, out, result, x, sum, affine, library].forEach((h) => h.dispose());
console.log('done');
