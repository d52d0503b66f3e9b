// Raw legacy IPC handles with a program that is not this package: a Python
// process with CuPy (memory both ways, events both ways) or PyTorch (a tensor's
// storage and events both ways). Skipped, with the reason, where python3 has
// neither. Handles travel as hex in JSON lines over the child's stdin/stdout.
import { ChildProcess, spawn, spawnSync } from 'child_process';
import * as readline from 'readline';
import {
  copy,
  DeviceBuffer,
  Event,
  exportIpcEventHandle,
  exportIpcMemHandle,
  fill,
  HostBuffer,
  openIpcEventHandle,
  openIpcMemHandle,
  Stream,
} from '../../lib';
import { expectBytes } from '../helpers/bytes';
import { pattern, read } from '../helpers/ipc-child';
import { runScript } from '../helpers/subprocess';
import { describeGpu, gpu } from '../helpers/tiers';

const pythonEnv = { ...process.env, NCCL_NVLS_ENABLE: '0' };

// Whether python3 can import module (and initialize CUDA with it), and if not, why.
function pythonHas(module: 'cupy' | 'torch'): { ok: boolean; reason: string } {
  const probe = module === 'cupy' ? 'import numpy, cupy; cupy.cuda.runtime.getDeviceCount()' : 'import torch; assert torch.cuda.is_available()';
  const r = spawnSync('python3', ['-c', probe], { encoding: 'utf8', env: pythonEnv, timeout: 120000 });
  if (r.error) return { ok: false, reason: `python3 cannot be run (${r.error.message})` };
  if (r.status !== 0) return { ok: false, reason: `python3 cannot use ${module}: ${r.stderr.trim().split('\n').pop()}` };
  return { ok: true, reason: '' };
}

const python = gpu.gpu ? { cupy: pythonHas('cupy'), torch: pythonHas('torch') } : undefined;

// The Python side: the same pattern as pattern(), and one command per line.
// CuPy (its runtime calls and numpy): 'open-mem' opens our handle, checks it and writes 255 - x back;
// 'export-mem' makes a cudaMalloc allocation of its own; 'events' opens our
// event, makes its stream wait for it, fills its memory with 0xab and records
// an interprocess event of its own. PyTorch: 'export-mem' shares a tensor's
// storage (an interior block of the caching allocator's segment); 'events' as CuPy.
const script = String.raw`
import faulthandler, json, signal, sys
faulthandler.register(signal.SIGUSR1)  # the test asks for the stacks before it gives up
backend = sys.argv[1]
def send(**reply):
    sys.stdout.write(json.dumps(reply) + '\n')
    sys.stdout.flush()
keep = {}
if backend == 'cupy':
    # Host copies with numpy and runtime.memcpy: no kernel of CuPy's to compile.
    import numpy
    import cupy
    from cupy.cuda import runtime as rt
    def pattern(n, seed):
        i = numpy.arange(n, dtype=numpy.int64)
        return ((i * 131 + seed * 7 + (i >> 12)) & 0xff).astype(numpy.uint8)
    send(ready=cupy.__version__)
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd['op']
        if op == 'open-mem':
            ptr = rt.ipcOpenMemHandle(bytes.fromhex(cmd['handle']))
            host = numpy.empty(cmd['n'], dtype=numpy.uint8)
            rt.memcpy(host.ctypes.data, ptr, cmd['n'], rt.memcpyDeviceToHost)
            ok = bool((host == pattern(cmd['n'], cmd['seed'])).all())
            host = 255 - host
            rt.memcpy(ptr, host.ctypes.data, cmd['n'], rt.memcpyHostToDevice)
            rt.ipcCloseMemHandle(ptr)
            send(ok=ok)
        elif op == 'export-mem':
            ptr = rt.malloc(cmd['n'])
            data = pattern(cmd['n'], cmd['seed'])
            rt.memcpy(ptr, data.ctypes.data, cmd['n'], rt.memcpyHostToDevice)
            keep['ptr'] = ptr
            send(handle=bytes(rt.ipcGetMemHandle(ptr)).hex(), offset=0, bytes=cmd['n'])
        elif op == 'events':
            theirs = rt.ipcOpenEventHandle(bytes.fromhex(cmd['handle']))
            stream = cupy.cuda.Stream(non_blocking=True)
            mine = cupy.cuda.Event(block=False, disable_timing=True, interprocess=True)
            rt.streamWaitEvent(stream.ptr, theirs, 0)
            rt.memsetAsync(keep['ptr'], 0xab, cmd['n'], stream.ptr)
            mine.record(stream)
            keep.update(stream=stream, mine=mine, theirs=theirs)
            send(handle=bytes(rt.ipcGetEventHandle(mine.ptr)).hex(), pending=not mine.done)
        elif op == 'finish':
            keep['stream'].synchronize()
            rt.eventDestroy(keep['theirs'])
            rt.free(keep['ptr'])
            send(done=True)
            break
else:
    import torch
    def pattern(n, seed):
        i = torch.arange(n, dtype=torch.int64, device='cuda')
        return ((i * 131 + seed * 7 + (i >> 12)) & 0xff).to(torch.uint8)
    send(ready=torch.__version__)
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd['op']
        if op == 'export-mem':
            # The fill kernel 'events' uses, launched once here: a first launch may load its
            # module lazily, which waits for the device, and behind a wait for us it never would.
            torch.empty(16, dtype=torch.uint8, device='cuda').fill_(1)
            keep['before'] = torch.empty(cmd['n'], dtype=torch.uint8, device='cuda')  # so that ours lies inside its segment
            t = pattern(cmd['n'], cmd['seed'])
            torch.cuda.synchronize()
            keep['t'] = t
            shared = t.untyped_storage()._share_cuda_()
            handle, size, offset = shared[1], shared[2], shared[3]
            send(handle=handle[-64:].hex(), prefix=handle[:-64].hex(), offset=offset, bytes=size)
        elif op == 'events':
            theirs = torch.cuda.Event.from_ipc_handle(torch.cuda.current_device(), bytes.fromhex(cmd['handle']))
            stream = torch.cuda.Stream()
            mine = torch.cuda.Event(interprocess=True)
            stream.wait_event(theirs)
            with torch.cuda.stream(stream):
                keep['t'].fill_(0xab)
            mine.record(stream)
            keep.update(stream=stream, mine=mine, theirs=theirs)
            send(handle=bytes(mine.ipc_handle()).hex(), pending=not mine.query())
        elif op == 'finish':
            keep['stream'].synchronize()
            send(done=True)
            break
`;

interface PythonPeer {
  request(command: Record<string, unknown>): Promise<Record<string, unknown>>;
  exited: Promise<{ status: number | null; stderr: string }>;
  child: ChildProcess;
  stderr(): string;
}

function startPython(backend: 'cupy' | 'torch'): PythonPeer {
  const child = spawn('python3', ['-u', '-c', script, backend], { env: pythonEnv, timeout: 180000 });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ status: number | null; stderr: string }>((resolve) => child.on('close', (status) => resolve({ status, stderr })));
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: Array<(line: string) => void> = [];
  const early: string[] = [];
  lines.on('line', (line) => (waiting.length > 0 ? waiting.shift()!(line) : early.push(line)));
  const nextLine = () => new Promise<string>((resolve, reject) => {
    if (early.length > 0) return resolve(early.shift()!);
    waiting.push(resolve);
    void exited.then(({ status }) => reject(new Error(`python3 exited (${status}): ${stderr}`)));
  });
  const ready = nextLine();
  const within = <T>(promise: Promise<T>, what: string) => new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no reply to ${what} from python3 in 90 s`)), 90000);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
  return {
    child,
    exited,
    stderr: () => stderr,
    async request(command) {
      await within(ready, 'start-up');
      child.stdin!.write(`${JSON.stringify(command)}\n`);
      return JSON.parse(await within(nextLine(), String(command.op))) as Record<string, unknown>;
    },
  };
}

const peers: PythonPeer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) {
    if (p.child.exitCode !== null) continue;
    // Still running: the test failed; show where python3 was.
    p.child.kill('SIGUSR1');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    console.log(`python3 was still running; its stderr:\n${p.stderr().slice(-6000)}`);
    p.child.kill('SIGKILL');
  }
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const unhex = (text: unknown) => new Uint8Array(Buffer.from(text as string, 'hex'));

// Events both ways: our stream holds our event back until a flag is set; the
// peer's stream waits for it, fills its memory (opened here as theirs) and
// records its event; our stream waits for that and copies the memory. Before
// the flag, the peer's event is pending; after, the copy holds the fill.
async function eventsBothWays(peer: PythonPeer, theirs: { size: number } & Parameters<typeof copy>[1]): Promise<void> {
  using flag = DeviceBuffer.alloc(64);
  fill(flag, 0);
  using held = Stream.create();
  using waiter = Stream.create();
  using signal = Stream.create();
  using ours = Event.create({ interprocess: true });
  using pinned = HostBuffer.alloc(theirs.size);
  held.waitValue32(flag, 1, { condition: 'eq' });
  ours.record(held);
  const reply = await peer.request({ op: 'events', handle: hex(exportIpcEventHandle(ours)), n: theirs.size });
  expect(reply.pending).toBe(true);
  using event = openIpcEventHandle(unhex(reply.handle));
  expect(event.interprocess).toBe(true);
  expect(event.query()).toBe(false);
  waiter.waitEvent(event);
  copy(pinned, theirs, { stream: waiter });
  signal.writeValue32(flag, 1);
  await waiter.synchronize({ timeoutMs: 60000 });
  await event.synchronize({ timeoutMs: 60000 });
  expect(pinned.view(Uint8Array).every((b) => b === 0xab)).toBe(true);
}

const describeWith = (module: 'cupy' | 'torch', title: string, body: () => void) => {
  const check = python?.[module];
  if (check === undefined || check.ok) describeGpu(title, body);
  else describe.skip(`${title} (skipped: ${check.reason})`, body);
};

describeWith('cupy', 'raw IPC handles with CuPy', () => {
  test('memory both ways: CuPy opens our buffer and writes back; we open its allocation; events order work both ways', async () => {
    const peer = startPython('cupy');
    peers.push(peer);
    const n = 2 << 20;
    // Ours, opened by CuPy: it checks the bytes and writes 255 - x.
    using buffer = DeviceBuffer.alloc(n);
    copy(buffer, pattern(n, 1));
    const handle = exportIpcMemHandle(buffer);
    expect(handle).toHaveLength(64);
    expect(await peer.request({ op: 'open-mem', handle: hex(handle), n, seed: 1 })).toEqual({ ok: true });
    expectBytes(read(buffer), pattern(n, 1).map((x) => 255 - x));
    // Theirs (cudaMalloc), opened here: the whole allocation by default, and a view sharing the opening.
    const exported = await peer.request({ op: 'export-mem', n, seed: 2 });
    const theirs = openIpcMemHandle(unhex(exported.handle));
    expect(theirs.path).toBe('legacy');
    expect(theirs.descriptor).toBeUndefined();
    expect(theirs.size).toBe(n);
    expectBytes(read(theirs), pattern(n, 2));
    {
      using part = openIpcMemHandle(unhex(exported.handle), { offset: 4096, bytes: 4096 });
      expect(part.address).toBe(theirs.address + 4096n);
      expectBytes(read(part), pattern(n, 2).subarray(4096, 8192));
    }
    await eventsBothWays(peer, theirs);
    theirs.dispose();  // before the exporter frees it
    expect(await peer.request({ op: 'finish' })).toEqual({ done: true });
    expect((await peer.exited).status).toBe(0);
  }, 180000);
});

describeWith('torch', 'raw IPC handles with PyTorch', () => {
  test('a tensor\'s storage opened here at its offset in the allocator\'s segment; events order work both ways', async () => {
    const peer = startPython('torch');
    peers.push(peer);
    const n = 1 << 18;
    const exported = await peer.request({ op: 'export-mem', n, seed: 3 });
    // PyTorch's handle: a version byte and the type byte 'c' (cudaMalloc memory), then the CUipcMemHandle.
    expect(exported.prefix).toMatch(/^[0-9a-f]{2}63$/);
    expect(exported.bytes).toBe(n);
    expect(exported.offset).toBeGreaterThan(0);
    const theirs = openIpcMemHandle(unhex(exported.handle), { offset: exported.offset as number, bytes: n });
    expectBytes(read(theirs), pattern(n, 3));
    await eventsBothWays(peer, theirs);
    theirs.dispose();  // before the exporter exits
    expect(await peer.request({ op: 'finish' })).toEqual({ done: true });
    expect((await peer.exited).status).toBe(0);
  }, 180000);
});

describeGpu('raw IPC handles that name nothing', () => {
  test('64 random bytes are refused by the driver with a typed error, and the process lives on', () => {
    // In a child, so that the test would see a crash rather than die of it.
    const r = runScript(`const attempt = (f) => { try { f(); return 'opened'; } catch (e) { return e instanceof cuda.CudaError ? e.code : e.constructor.name + ': ' + e.message; } };
      const out = { memory: [], events: [] };
      for (let i = 0; i < 8; i++) {
        const bytes = require('crypto').randomBytes(64);
        out.memory.push(attempt(() => cuda.openIpcMemHandle(bytes)));
        out.events.push(attempt(() => cuda.openIpcEventHandle(bytes)));
      }
      out.zeros = [attempt(() => cuda.openIpcMemHandle(new Uint8Array(64))), attempt(() => cuda.openIpcEventHandle(new Uint8Array(64)))];
      const b = cuda.DeviceBuffer.alloc(64); cuda.copy(b, new Uint8Array(64).fill(7));
      out.afterwards = Array.from(b.readSync()).every((x) => x === 7);
      report(out);`);
    expect(r.signal).toBeNull();
    const refused = expect.stringMatching(/^CUDA_ERROR_/);
    expect(r.report).toEqual({ memory: Array(8).fill(refused), events: Array(8).fill(refused), zeros: [refused, refused], afterwards: true });
  });
});
