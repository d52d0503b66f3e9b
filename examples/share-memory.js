#!/usr/bin/env node
// Two Node processes sharing GPU memory. The parent fills two buffers — plain
// device memory (shared through legacy CUDA IPC) and virtual memory (shared as a
// POSIX file descriptor) — and starts a child of itself. The child opens both,
// checks them, adds 1 to every byte and tells the parent, which checks the
// result. shareMemory picks the path; the descriptor and any file descriptors
// travel over an FdChannel (a Unix socket that can carry descriptors).
//
//   node examples/share-memory.js
//
// Exits 0 once the data is checked (or, without a GPU, after saying so).
const { spawn } = require('child_process');
const cuda = require('..');
const { requireGpu } = require('./common/require-gpu');

const bytes = 1 << 20;
const expected = (i, plus) => (i * 7 + 3 + plus) & 0xff;

async function parent() {
  requireGpu(cuda, 'nothing to share');
  const device = cuda.Device.get(0);
  console.log(`parent ${process.pid}: ${device.name}`);

  // Two kinds of memory, the same contents.
  const data = Uint8Array.from({ length: bytes }, (_, i) => expected(i, 0));
  const plain = cuda.DeviceBuffer.from(data);
  const virtual = cuda.Mapping.alloc(bytes, { handleTypes: ['posixFileDescriptor'] });
  cuda.copy(virtual, data);
  console.log(`virtual memory rounded up to ${virtual.size} bytes (allocation granularity ${cuda.allocationGranularity()})`);

  const server = cuda.FdChannelServer.listen();
  const child = spawn(process.execPath, [__filename, '--child', server.address.abstract], { stdio: 'inherit' });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const channel = await server.accept({ timeoutMs: 30000 });

  const exports = [cuda.shareMemory(plain), cuda.shareMemory(virtual, { viewBytes: bytes })];
  for (const exported of exports) {
    console.log(`sharing ${exported.descriptor.size} bytes by the '${exported.descriptor.kind}' path (${exported.fds.length} file descriptor(s))`);
    await exported.send(channel);
  }
  const reply = await channel.receive({ timeoutMs: 60000 });
  reply.dispose();
  if (reply.payload.error) throw new Error(`the child says: ${reply.payload.error}`);

  // The child added 1 to every byte of both buffers.
  for (const [name, memory] of [['plain', plain], ['virtual', virtual]]) {
    const out = new Uint8Array(bytes);
    cuda.copy(out, memory, { bytes });
    const bad = out.findIndex((b, i) => b !== expected(i, 1));
    if (bad >= 0) throw new Error(`${name}: byte ${bad} is ${out[bad]}, expected ${expected(bad, 1)}`);
    console.log(`${name}: the child's writes arrived`);
  }
  await channel.send({ done: true });
  const status = await exited;
  // The child has closed its views: the memory may go now.
  exports.forEach((e) => e.dispose());
  [plain, virtual, channel, server].forEach((x) => x.dispose());
  if (status !== 0) throw new Error(`the child exited with ${status}`);
  console.log('parent: done');
}

async function childProcess(address) {
  const channel = await cuda.FdChannel.connect({ abstract: address }, { timeoutMs: 30000 });
  const opened = [];
  try {
    for (let n = 0; n < 2; n++) {
      const memory = await cuda.receiveSharedMemory(channel, { timeoutMs: 60000 });
      opened.push(memory);
      const view = new Uint8Array(memory.size);
      cuda.copy(view, memory);
      const bad = view.findIndex((b, i) => b !== expected(i, 0));
      if (bad >= 0) throw new Error(`${memory.path}: byte ${bad} is ${view[bad]}`);
      for (let i = 0; i < view.length; i++) view[i] = expected(i, 1);
      cuda.copy(memory, view);
      console.log(`child ${process.pid}: opened ${memory.size} bytes via '${memory.path}' at 0x${memory.address.toString(16)}, checked, wrote back`);
    }
    await channel.send({ ok: true });
  } catch (error) {
    await channel.send({ error: error.message });
    throw error;
  } finally {
    (await channel.receive({ timeoutMs: 60000 })).dispose();  // done
    opened.forEach((m) => m.dispose());
    channel.dispose();
  }
}

const run = process.argv[2] === '--child' ? childProcess(process.argv[3]) : parent();
run.catch((error) => {
  console.error(error);
  process.exit(1);
});
