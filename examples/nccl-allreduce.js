#!/usr/bin/env node
// All-reduce across two GPUs in two processes with NCCL. This process is rank
// 0 on GPU 0: it makes the communicator's unique id, starts rank 1 (this same
// file, on GPU 1) and hands it the id on its stdin, as any channel would (a
// socket to another machine, a worker message). Each rank fills a buffer with
// its own numbers, the all-reduce sums them on both GPUs, and each checks the
// sum. Needs two GPUs and NCCL (libnccl.so.2, or a wheel such as
// nvidia-nccl-cu12; NCCL_LIBRARY names it anywhere else).
//
//   node examples/nccl-allreduce.js
'use strict';
const { spawn } = require('child_process');
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');
const { nccl } = cuda;

// NVLink SHARP (multicast) stays off, here and in the child, which inherits it.
process.env.NCCL_NVLS_ENABLE = '0';

const n = 1 << 20;

async function runRank(rank, id) {
  const device = rank;
  const comm = await nccl.Communicator.init({ id, rank, size: 2, device });
  const stream = cuda.Stream.create({ device });
  // Rank r holds r + 1 + i at element i; the sum over both ranks is 3 + 2i.
  const data = cuda.DeviceBuffer.from(Float32Array.from({ length: n }, (_, i) => rank + 1 + i), { device });
  comm.allReduce(data, data, { stream, type: 'float32', op: 'sum' });
  await comm.synchronize(stream);
  const sum = data.readSync(Float32Array);
  const wrong = sum.findIndex((v, i) => v !== 3 + 2 * i);
  await comm.destroy();
  return wrong < 0 ? `rank ${rank} on GPU ${device}: all ${n} sums correct` : `rank ${rank}: element ${wrong} is ${sum[wrong]}`;
}

function readId(input) {
  return new Promise((resolve, reject) => {
    let text = '';
    input.setEncoding('utf8').on('data', (d) => {
      text += d;
      if (text.includes('\n')) resolve(new Uint8Array(Buffer.from(text.trim(), 'hex')));
    }).on('end', () => reject(new Error('rank 0 sent no id')));
  });
}

async function main() {
  if (process.argv[2] === 'rank1') {
    console.log(await runRank(1, await readId(process.stdin)));
    process.exit(0);
  }
  requireGpu(cuda);
  if (cuda.Device.count() < 2) {
    console.log(`only ${cuda.Device.count()} GPU here; an all-reduce across GPUs needs two`);
    return;
  }
  const status = nccl.ncclStatus();
  if (!status.available) {
    console.log(`NCCL is not usable here (${status.detail}); set NCCL_LIBRARY to libnccl.so.2`);
    return;
  }
  console.log(`NCCL ${status.version.major}.${status.version.minor}.${status.version.patch} from ${status.libraryPath}`);
  const id = nccl.uniqueId();
  const child = spawn(process.execPath, [__filename, 'rank1'], { stdio: ['pipe', 'inherit', 'inherit'] });
  child.stdin.end(`${Buffer.from(id).toString('hex')}\n`);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  console.log(await runRank(0, id));
  const code = await exited;
  if (code !== 0) throw new Error(`rank 1 exited with ${code}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
