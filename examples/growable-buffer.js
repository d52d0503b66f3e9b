#!/usr/bin/env node
// A device buffer that grows in place, with virtual memory management: a large
// address range is reserved once, and physical memory is mapped at its end as
// the buffer grows. The address and the contents stay where they are, so
// nothing is copied and pointers handed out earlier stay valid (unlike a
// realloc). Here records are appended in batches, then a kernel reads and
// writes all of them at the address the buffer had from the start.
//
//   node examples/growable-buffer.js
'use strict';
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { arg } = cuda;

requireGpu(cuda);
const device = cuda.Device.get(0);
if (!device.capabilities.virtualMemoryManagement) {
  console.log(`${device.name} has no virtual memory management; nothing to run`);
  process.exit(0);
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const batch = 3 << 20;  // values per batch (12 MiB)

// Up to 1 GiB of address space; no physical memory yet.
const buffer = cuda.GrowableBuffer.create({ maxSize: 1 << 30 });
const start = buffer.address;
console.log(`reserved ${mib(buffer.maxSize)} at 0x${start.toString(16)} (granularity ${mib(cuda.allocationGranularity())})`);

for (let b = 0; b < 5; b++) {
  const offset = buffer.size;
  buffer.resize(offset + batch * 4);  // maps more memory at the end when the capacity runs out
  const values = Uint32Array.from({ length: batch }, (_, i) => b * batch + i);
  cuda.copy(buffer, values, { dstOffset: offset });
  const pieces = buffer.segments();
  pieces.forEach((piece) => piece.allocation.dispose());
  console.log(`batch ${b}: size ${mib(buffer.size)}, capacity ${mib(buffer.capacity)} in ${pieces.length} piece(s), ` +
    `address ${buffer.address === start ? 'unchanged' : 'MOVED'}`);
  if (buffer.address !== start) process.exitCode = 1;
}

// The whole buffer is one contiguous range for kernels and copies.
const library = cuda.Library.load(cuda.compile(`
  extern "C" __global__ void increment(unsigned* values, unsigned long long n) {
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (i < n) values[i] += 1;
  }`, { name: 'growable-buffer.cu' }));
const increment = library.kernel('increment');
const stream = cuda.Stream.create();
const count = buffer.size / 4;
increment.launch({ grid: Math.ceil(count / 256), block: 256, stream }, [arg.ptr(buffer), arg.u64(count)]);
stream.synchronizeSync();

const out = new Uint32Array(count);
cuda.copy(out, buffer);
const wrong = out.findIndex((v, i) => v !== i + 1);
console.log(wrong < 0 ? `all ${count} values kept across growth and incremented by the kernel: ok` : `WRONG at ${wrong}: ${out[wrong]}`);
if (wrong >= 0) process.exitCode = 1;

for (const handle of [stream, increment, library, buffer]) handle.dispose();
