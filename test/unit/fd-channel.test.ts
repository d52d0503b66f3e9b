// Passing file descriptors between processes (lib/ipc/fd-channel.ts): between
// this process and real child processes that run the built package (dist/),
// descriptors arrive as the same open files, several per message; waits time out
// without blocking the event loop; a peer that dies or breaks the message format
// gives a clean error; nothing leaks, in either process; limits and disposal are
// enforced in TypeScript and in the native layer.
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { AbortError, ChannelClosedError, ChannelPeerError, ChannelProtocolError, DisposedError, SystemError, TimeoutError } from '../../lib/errors';
import { FdChannel, FdChannelServer, FdMessage, ReceivedFd } from '../../lib/ipc/fd-channel';
import { native } from '../../lib/native';
import { distPath, fdFlood, startScript, StartedScript } from '../helpers/subprocess';

const openFds = (): number => fs.readdirSync('/proc/self/fd').length;
const abstractName = (server: FdChannelServer): string => (server.address as { abstract: string }).abstract;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let scratch: string;
const children: StartedScript[] = [];

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-channel-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  for (const { child } of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

// A child process running body (in an async function, with `cuda`, `fs`, `report`
// and `address`, this test's server address); exits 1 with the error on a throw.
function child(server: FdChannelServer, body: string, env: Record<string, string> = {}, args: string[] = []): StartedScript {
  const started = startScript(
    `const fs = require('fs');
const address = { abstract: process.env.FD_CHANNEL_ADDRESS };
(async () => { ${body} })().catch((e) => { console.error(e && e.stack || e); process.exit(1); });`,
    { FD_CHANNEL_ADDRESS: abstractName(server), ...env },
    args,
  );
  children.push(started);
  return started;
}

async function succeeded(started: StartedScript): Promise<any> {
  const r = await started.result;
  if (r.status !== 0) throw new Error(`child failed (${r.status ?? r.signal}): ${r.stderr}`);
  return r.report;
}

// A connected pair inside this process.
async function pair(): Promise<{ server: FdChannelServer; a: FdChannel; b: FdChannel; dispose(): void }> {
  const server = FdChannelServer.listen();
  const [a, b] = await Promise.all([server.accept({ timeoutMs: 5000 }), FdChannel.connect(server.address, { timeoutMs: 5000 })]);
  return { server, a, b, dispose: () => [a, b, server].forEach((x) => x.dispose()) };
}

describe('between processes', () => {
  test('a file descriptor sent by a child is the same open file here: data and file offset are shared', async () => {
    using server = FdChannelServer.listen();
    const file = path.join(scratch, 'shared.txt');
    const c = child(server, `
      const fd = fs.openSync(process.env.FILE, 'w+');
      fs.unlinkSync(process.env.FILE);          // reachable only through the descriptor now
      fs.writeSync(fd, 'from child');           // the file offset is now 10
      const channel = await cuda.FdChannel.connect(address, { timeoutMs: 10000 });
      await channel.send({ kind: 'file', offset: 10 }, [fd]);
      const reply = await channel.receive({ timeoutMs: 10000 });
      const buf = Buffer.alloc(64);
      const n = fs.readSync(fd, buf, 0, 64, 0);
      report({ content: buf.toString('utf8', 0, n), reply: reply.payload, peer: reply.peer, pid: process.pid });
      channel.dispose();`, { FILE: file });

    using channel = await server.accept({ timeoutMs: 20000 });
    expect(channel.peer).toEqual({ pid: c.child.pid, uid: process.getuid!(), gid: process.getgid!() });
    using message = await channel.receive({ timeoutMs: 20000 });
    expect(message.payload).toEqual({ kind: 'file', offset: 10 });
    expect(message.fds).toHaveLength(1);
    expect(message.peer.pid).toBe(c.child.pid);
    const fd = message.fds[0].fd;
    expect(fs.existsSync(file)).toBe(false);
    const buf = Buffer.alloc(64);
    expect(buf.toString('utf8', 0, fs.readSync(fd, buf, 0, 64, 0))).toBe('from child');
    // A write without a position lands at the offset the child left: one open file description.
    fs.writeSync(fd, '+parent');
    await channel.send({ written: true });
    const report = await succeeded(c);
    expect(report.content).toBe('from child+parent');
    expect(report.reply).toEqual({ written: true });
    expect(report.peer.pid).toBe(process.pid);
  });

  test('several descriptors in one message, both ways: a pipe and two files', async () => {
    using server = FdChannelServer.listen();
    const fifo = path.join(scratch, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const pipeFd = fs.openSync(fifo, 'r+'); // both ends of the pipe
    const fileA = path.join(scratch, 'a.txt');
    const fileB = path.join(scratch, 'b.txt');
    fs.writeFileSync(fileA, 'contents of a');
    fs.writeFileSync(fileB, 'contents of b');
    const fdA = fs.openSync(fileA, 'r');
    const fdB = fs.openSync(fileB, 'r');
    const c = child(server, `
      const channel = await cuda.FdChannel.connect(address, { timeoutMs: 10000 });
      const message = await channel.receive({ timeoutMs: 10000 });
      const [pipe, a, b] = message.fds;
      fs.writeSync(pipe.fd, 'through the pipe');
      const read = (fd) => { const buf = Buffer.alloc(64); return buf.toString('utf8', 0, fs.readSync(fd, buf, 0, 64, 0)); };
      // Send a file back, and the pipe: the parent reads from the pipe what comes through it here.
      const back = fs.openSync(process.env.BACK, 'w+');
      fs.writeSync(back, 'written by the child');
      await channel.send({ a: read(a.fd), b: read(b.fd), order: message.payload.order }, [back, pipe]);
      fs.closeSync(back);
      message.dispose();
      await channel.receive({ timeoutMs: 10000 });   // until the parent is done
      channel.dispose();`, { BACK: path.join(scratch, 'back.txt') });

    using channel = await server.accept({ timeoutMs: 20000 });
    // send() duplicates the descriptors before it returns: closing ours at once is fine.
    const sent = channel.send({ order: ['pipe', 'a', 'b'] }, [pipeFd, fdA, fdB]);
    fs.closeSync(fdA);
    fs.closeSync(fdB);
    await sent;
    using reply = await channel.receive({ timeoutMs: 20000 });
    expect(reply.payload).toEqual({ a: 'contents of a', b: 'contents of b', order: ['pipe', 'a', 'b'] });
    expect(reply.fds).toHaveLength(2);
    const buf = Buffer.alloc(64);
    expect(buf.toString('utf8', 0, fs.readSync(pipeFd, buf, 0, 64, null))).toBe('through the pipe');
    expect(buf.toString('utf8', 0, fs.readSync(reply.fds[0].fd, buf, 0, 64, 0))).toBe('written by the child');
    // The pipe came back as a new descriptor for the same pipe.
    expect(reply.fds[1].fd).not.toBe(pipeFd);
    fs.writeSync(reply.fds[1].fd, 'round trip');
    expect(buf.toString('utf8', 0, fs.readSync(pipeFd, buf, 0, 64, null))).toBe('round trip');
    expect(fs.fstatSync(reply.fds[1].fd).ino).toBe(fs.fstatSync(pipeFd).ino);
    await channel.send('done');
    await succeeded(c);
    fs.closeSync(pipeFd);
  });

  test('no descriptor leaks: /proc/self/fd counts are equal before and after many cycles, in both processes', async () => {
    using server = FdChannelServer.listen();
    const file = path.join(scratch, 'leak.txt');
    fs.writeFileSync(file, 'x');
    const cycles = 150;
    const c = child(server, `
      const openFds = () => fs.readdirSync('/proc/self/fd').length;
      const channel = await cuda.FdChannel.connect(address, { timeoutMs: 10000 });
      const before = openFds();
      for (let i = 0; i < ${cycles}; i++) {
        const message = await channel.receive({ timeoutMs: 10000 });
        // Forward the received descriptors back, then let go of them three ways.
        await channel.send({ i }, message.fds);
        if (i % 3 === 0) message.dispose();
        else if (i % 3 === 1) for (const fd of message.fds) fs.closeSync(fd.takeFd());
        else for (const fd of message.fds) fd.dispose();
      }
      const after = openFds();
      await channel.receive({ timeoutMs: 10000 });
      channel.dispose();
      report({ before, after });`);

    using channel = await server.accept({ timeoutMs: 20000 });
    const fds = [fs.openSync(file, 'r'), fs.openSync(file, 'r'), fs.openSync(file, 'r')];
    const inodes = fds.map((fd) => fs.fstatSync(fd).ino);
    const before = openFds();
    for (let i = 0; i < cycles; i++) {
      await channel.send({ i }, fds);
      using message = await channel.receive({ timeoutMs: 10000 });
      expect(message.payload).toEqual({ i });
      expect(message.fds.map((fd) => fs.fstatSync(fd.fd).ino)).toEqual(inodes);
    }
    const after = openFds();
    await channel.send('done');
    const report = await succeeded(c);
    fds.forEach((fd) => fs.closeSync(fd));
    expect(after).toBe(before);
    expect(report.after).toBe(report.before);
  });

  test('a child that dies mid-conversation: a pending receive, then a send, reject with ChannelClosedError', async () => {
    using server = FdChannelServer.listen();
    const c = child(server, `
      const channel = await cuda.FdChannel.connect(address, { timeoutMs: 10000 });
      await channel.send('hello');
      await channel.receive({ timeoutMs: 10000 });
      process.kill(process.pid, 'SIGKILL');`);
    using channel = await server.accept({ timeoutMs: 20000 });
    expect((await channel.receive({ timeoutMs: 20000 })).payload).toBe('hello');
    const pending = channel.receive({ timeoutMs: 20000 });
    // Handled from the start: the child may die (and pending reject) before the send resolves.
    const pendingRejected = expect(pending).rejects.toThrow(ChannelClosedError);
    // The send races the peer's death: it may land, or find the peer gone; either way it is settled cleanly.
    await channel.send('now die').catch((error) => expect(error).toBeInstanceOf(ChannelClosedError));
    await pendingRejected;
    await expect(pending).rejects.toMatchObject({ operation: 'receive', message: 'receive: the peer closed the connection' });
    expect((await c.result).signal).toBe('SIGKILL');
    const sent = channel.send('anyone?');
    await expect(sent).rejects.toThrow(ChannelClosedError);
    await expect(sent).rejects.toMatchObject({ operation: 'send' });
  });

  test('the peer of a connection is the process that made it, seen from both ends', async () => {
    using server = FdChannelServer.listen();
    const c = child(server, `
      const channel = await cuda.FdChannel.connect(address, { timeoutMs: 10000 });
      report({ peer: channel.peer });
      await channel.receive({ timeoutMs: 10000 });`);
    using channel = await server.accept({ timeoutMs: 20000 });
    expect(channel.peer).toEqual({ pid: c.child.pid, uid: process.getuid!(), gid: process.getgid!() });
    await channel.send('bye');
    expect((await succeeded(c)).peer).toEqual({ pid: process.pid, uid: process.getuid!(), gid: process.getgid!() });
  });

  test('descriptors never disposed are closed once their objects are garbage-collected', async () => {
    const r = await succeeded(startScript(`(async () => {
      const fs = require('fs');
      const openFds = () => fs.readdirSync('/proc/self/fd').length;
      const server = cuda.FdChannelServer.listen();
      const [a, b] = await Promise.all([server.accept(), cuda.FdChannel.connect(server.address)]);
      const fd = fs.openSync(process.execPath, 'r');
      const before = openFds();
      for (let i = 0; i < 20; i++) { await a.send(i, [fd, fd, fd]); await b.receive(); }  // dropped undisposed
      const held = openFds();
      let after = held;
      for (let i = 0; i < 50 && after !== before; i++) { gc(); await new Promise((r) => setTimeout(r, 20)); after = openFds(); }
      report({ before, held, after });
    })();`, {}, ['--expose-gc']));
    expect(r.held).toBe(r.before + 60);
    expect(r.after).toBe(r.before);
  });
});

// A process of another user: only a process that may change its user (root) can start one.
const nobody = 65534;
const asOtherUser = process.geteuid?.() === 0 ? test : test.skip;

// Resolves once a started script has printed its report (the child's "ready").
function reported(started: StartedScript): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    started.child.stdout!.on('data', (d: Buffer | string) => {
      out += d.toString();
      if (out.includes('\n@@')) resolve();
    });
    started.child.once('close', () => reject(new Error('the script exited before it reported')));
  });
}

describe('peers of other users', () => {
  asOtherUser('a listener of another user at the address is refused on connect, before anything moves (needs root: skipped otherwise)', async () => {
    const name = `cuda-driver-squatter-${process.pid}-${process.hrtime.bigint()}`;
    // The squatter listens where this process means to connect, as nobody, and answers
    // every connection with a message: what a forged memory descriptor would ride on.
    const squatter = startScript(`(async () => {
      process.setgid(${nobody}); process.setuid(${nobody});
      const server = cuda.FdChannelServer.listen({ abstract: process.env.NAME });
      report('listening');
      for (;;) {
        const channel = await server.accept({ peerUid: null });
        await channel.send({ forged: true }, [require('fs').openSync('/dev/zero', 'r')]).catch(() => {});
      }
    })();`, { NAME: name });
    children.push(squatter);
    await reported(squatter);

    const before = openFds();
    const refused = await FdChannel.connect({ abstract: name }, { timeoutMs: 5000 }).catch((e) => e);
    expect(refused).toBeInstanceOf(ChannelPeerError);
    expect(refused).toMatchObject({
      operation: 'connect', expectedUid: process.geteuid!(), peer: { pid: squatter.child.pid, uid: nobody, gid: nobody },
      message: `connect: the peer (pid ${squatter.child.pid}) runs as user ${nobody}, not ${process.geteuid!()}; the connection was closed`,
    });
    expect(openFds()).toBe(before);
    // Named, the squatter's user is accepted: the same holds for null (any user).
    for (const peerUid of [nobody, null]) {
      using channel = await FdChannel.connect({ abstract: name }, { timeoutMs: 5000, peerUid });
      expect(channel.peer).toEqual({ pid: squatter.child.pid, uid: nobody, gid: nobody });
      using message = await channel.receive({ timeoutMs: 5000 });
      expect(message.payload).toEqual({ forged: true });
      expect(message.fds[0].peer).toEqual(channel.peer);
    }
    expect(() => FdChannel.connect({ abstract: name }, { peerUid: -1 })).toThrow(/options.peerUid/);
  });

  asOtherUser('a client of another user is closed by accept, which waits on (needs root: skipped otherwise)', async () => {
    using server = FdChannelServer.listen();
    const client = startScript(`(async () => {
      process.setgid(${nobody}); process.setuid(${nobody});
      const channel = await cuda.FdChannel.connect({ abstract: process.env.NAME }, { timeoutMs: 5000, peerUid: 0 });
      const closed = await channel.receive({ timeoutMs: 5000 }).then(() => 'received', (e) => e.name);
      report({ closed });
    })();`, { NAME: abstractName(server) });
    children.push(client);
    await expect(server.accept({ timeoutMs: 1500 })).rejects.toThrow(TimeoutError);
    expect((await client.result).report).toEqual({ closed: 'ChannelClosedError' });
  });
});

describe('waits', () => {
  test('accept and receive time out in time, while the event loop keeps running', async () => {
    using server = FdChannelServer.listen();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      let start = Date.now();
      const accepting = server.accept({ timeoutMs: 300 });
      await expect(accepting).rejects.toThrow(TimeoutError);
      await expect(accepting).rejects.toMatchObject({ operation: 'accept', timeoutMs: 300, message: 'accept timed out after 300 ms' });
      let elapsed = Date.now() - start;
      expect(elapsed).toBeGreaterThanOrEqual(295);
      expect(elapsed).toBeLessThan(3000);
      expect(ticks).toBeGreaterThanOrEqual(10);

      const p = await pair();
      try {
        ticks = 0;
        start = Date.now();
        await expect(p.a.receive({ timeoutMs: 250 })).rejects.toMatchObject({ name: 'TimeoutError', operation: 'receive', timeoutMs: 250 });
        elapsed = Date.now() - start;
        expect(elapsed).toBeGreaterThanOrEqual(245);
        expect(elapsed).toBeLessThan(3000);
        expect(ticks).toBeGreaterThanOrEqual(8);
        // Nothing had moved: the channel still works.
        await p.b.send({ after: 'timeout' });
        expect((await p.a.receive({ timeoutMs: 5000 })).payload).toEqual({ after: 'timeout' });
        await expect(p.a.receive({ timeoutMs: 0 })).rejects.toThrow(TimeoutError);
      } finally {
        p.dispose();
      }
    } finally {
      clearInterval(timer);
    }
  });

  test('connect waits out a full backlog within its timeout', async () => {
    using server = FdChannelServer.listen(undefined, { backlog: 1 });
    // Linux queues backlog + 1 connections; the next connect finds no room.
    const queued: FdChannel[] = [];
    let full: unknown = null;
    for (let i = 0; i < 4 && full === null; i++) {
      try {
        queued.push(await FdChannel.connect(server.address, { timeoutMs: 200 }));
      } catch (e) {
        full = e;
      }
    }
    expect(full).toBeInstanceOf(TimeoutError);
    expect(full).toMatchObject({ operation: 'connect', timeoutMs: 200 });
    const waiting = FdChannel.connect(server.address, { timeoutMs: 10000 });
    await wait(50);
    using accepted = await server.accept({ timeoutMs: 1000 });
    using late = await waiting;
    expect(late.peer.pid).toBe(process.pid);
    expect(accepted.peer.pid).toBe(process.pid);
    queued.forEach((c) => c.dispose());
  });

  test('disposing an object rejects its pending waits with DisposedError', async () => {
    const server = FdChannelServer.listen();
    const accepting = server.accept();
    server.dispose();
    await expect(accepting).rejects.toThrow(DisposedError);
    await expect(accepting).rejects.toMatchObject({ handleType: 'FdChannelServer' });

    const p = await pair();
    const receiving = p.a.receive();
    p.a.dispose();
    await expect(receiving).rejects.toMatchObject({ name: 'DisposedError', handleType: 'FdChannel' });
    // The other end sees the connection close.
    await expect(p.b.receive({ timeoutMs: 5000 })).rejects.toThrow(ChannelClosedError);
    p.dispose();
  });

  test('an AbortSignal gives up accept, receive and send on their threads; a wait given up before anything moved leaves its object usable', async () => {
    const abortSoon = (reason: unknown) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason), 20);
      return controller.signal;
    };
    const reason = new Error('shutting down');
    using server = FdChannelServer.listen();
    const accepting = server.accept({ signal: abortSoon(reason) });
    await expect(accepting).rejects.toThrow(AbortError);
    await expect(accepting).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', operation: 'accept', message: 'accept was aborted', cause: reason });
    await expect(server.accept({ signal: AbortSignal.abort(reason) })).rejects.toMatchObject({ operation: 'accept', cause: reason });

    const p = await pair();
    try {
      // The native receive has ended (not just its promise): another may start at once.
      await expect(p.a.receive({ signal: abortSoon(reason) })).rejects.toMatchObject({ name: 'AbortError', operation: 'receive', cause: reason });
      const next = p.a.receive({ timeoutMs: 5000 });
      await p.b.send({ after: 'abort' });
      expect((await next).payload).toEqual({ after: 'abort' });

      // A send waits only while the peer's buffer is full: fill it first.
      const big = 'x'.repeat(60000);
      for (;;) {
        try {
          await p.b.send(big, [], { timeoutMs: 50 });
        } catch (e) {
          expect(e).toBeInstanceOf(TimeoutError);
          break;
        }
      }
      await expect(p.b.send(big, [], { signal: abortSoon(reason) })).rejects.toMatchObject({ name: 'AbortError', operation: 'send' });
      // Nothing of that message had moved: the channel still carries whole messages.
      let drained = 0;
      while (await p.a.receive({ timeoutMs: 100 }).then((m) => m.payload === big, () => false)) drained++;
      expect(drained).toBeGreaterThan(0);
      await p.b.send('last');
      expect((await p.a.receive({ timeoutMs: 5000 })).payload).toBe('last');
    } finally {
      p.dispose();
    }
    // Connecting with a signal that never aborts behaves as without.
    const connecting = FdChannel.connect(server.address, { signal: new AbortController().signal, timeoutMs: 5000 });
    using accepted = await server.accept({ timeoutMs: 5000 });
    using connected = await connecting;
    expect(connected.peer.pid).toBe(accepted.peer.pid);
    await expect(FdChannel.connect(server.address, { signal: AbortSignal.abort(reason) })).rejects.toMatchObject({ operation: 'connect', cause: reason });
  });

  test('a server refuses peers of other users (by default, users other than its own) and keeps waiting', async () => {
    using server = FdChannelServer.listen();
    using client = await FdChannel.connect(server.address, { timeoutMs: 5000 });
    await expect(server.accept({ timeoutMs: 300, peerUid: process.getuid!() + 1 })).rejects.toThrow(TimeoutError);
    await expect(client.receive({ timeoutMs: 5000 })).rejects.toThrow(ChannelClosedError);
    using other = await FdChannel.connect(server.address, { timeoutMs: 5000 });
    using accepted = await server.accept({ timeoutMs: 5000, peerUid: null });
    expect(accepted.peer.pid).toBe(process.pid);
    void other;
  });

  test('one receive and one send at a time per channel', async () => {
    const p = await pair();
    try {
      const first = p.a.receive({ timeoutMs: 5000 });
      expect(() => p.a.receive()).toThrow(/a receive is already in progress/);
      await p.b.send(1);
      expect((await first).payload).toBe(1);
      const sending = p.b.send(2);
      expect(() => p.b.send(3)).toThrow(/a send is already in progress/);
      await sending;
      await p.b.send(3); // free again once the promise has settled
      expect((await p.a.receive({ timeoutMs: 5000 })).payload).toBe(2);
      expect((await p.a.receive({ timeoutMs: 5000 })).payload).toBe(3);
    } finally {
      p.dispose();
    }
  });

  test('a pending wait does not hold up a worker thread that is terminated, nor the exit of a process', async () => {
    const worker = new Worker(
      `const cuda = require(${JSON.stringify(distPath)});
       const { parentPort } = require('worker_threads');
       (async () => {
         const server = cuda.FdChannelServer.listen();
         const [a, b] = await Promise.all([server.accept(), cuda.FdChannel.connect(server.address)]);
         a.receive(); server.accept();   // wait forever
         parentPort.postMessage('waiting');
       })();`,
      { eval: true },
    );
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const start = Date.now();
    await worker.terminate();
    expect(Date.now() - start).toBeLessThan(2000);

    const exited = await succeeded(startScript(`(async () => {
      const server = cuda.FdChannelServer.listen();
      const [a, b] = await Promise.all([server.accept(), cuda.FdChannel.connect(server.address)]);
      a.receive(); server.accept();
      setTimeout(() => { report('exiting'); process.exit(0); }, 50);
    })();`));
    expect(exited).toBe('exiting');
  });
});

// What a hostile or broken peer can send: frames cut short or too large, descriptor
// counts other than announced, floods, a hang-up midway. Each fails the receive with
// a clean error and leaves no descriptor behind. (Listeners and clients of other users:
// 'peers of other users' above; descriptors of the wrong kind for an import:
// vmm-stand-in.test.ts.)
describe('hostile peers', () => {
  // Raw bytes from a plain socket, as a misbehaving peer would send them.
  async function fromRawPeer(server: FdChannelServer, bytes: Buffer, end: boolean): Promise<{ channel: FdChannel; raw: net.Socket }> {
    const raw = net.connect({ path: server.address as string });
    await new Promise((resolve, reject) => raw.once('connect', resolve).once('error', reject));
    const channel = await server.accept({ timeoutMs: 5000 });
    raw.write(bytes);
    if (end) raw.end();
    return { channel, raw };
  }
  const header = (payloadBytes: number, fdCount: number, magic = 0x31434446) => {
    const b = Buffer.alloc(12);
    b.writeUInt32LE(magic, 0);
    b.writeUInt32LE(payloadBytes, 4);
    b.writeUInt32LE(fdCount, 8);
    return b;
  };

  // Node's net cannot reach abstract names: these servers listen at a path.
  const rawServer = () => FdChannelServer.listen(path.join(scratch, `raw-${process.hrtime.bigint()}.sock`));

  test('a header cut short gives ChannelClosedError, and waits on a header that stops coming end in a shut-down channel', async () => {
    using server = rawServer();
    const short = await fromRawPeer(server, header(2, 0).subarray(0, 5), true);
    await expect(short.channel.receive({ timeoutMs: 5000 })).rejects.toThrow(/closed the connection in the middle of a message/);
    short.channel.dispose();
    short.raw.destroy();
    const stalled = await fromRawPeer(server, header(2, 0).subarray(0, 7), false);
    await expect(stalled.channel.receive({ timeoutMs: 300 })).rejects.toThrow(TimeoutError);
    await expect(stalled.channel.receive({ timeoutMs: 300 })).rejects.toThrow(/shut down after a message was cut off/);
    stalled.channel.dispose();
    stalled.raw.destroy();
  });

  test('a message cut off midway gives ChannelClosedError and shuts the channel down', async () => {
    using server = rawServer();
    const { channel, raw } = await fromRawPeer(server, Buffer.concat([header(10, 0), Buffer.from('{"a":')]), true);
    await expect(channel.receive({ timeoutMs: 5000 })).rejects.toThrow(/closed the connection in the middle of a message/);
    await expect(channel.receive({ timeoutMs: 5000 })).rejects.toThrow(/shut down after a message was cut off/);
    await expect(channel.send(1)).rejects.toThrow(ChannelClosedError);
    channel.dispose();
    raw.destroy();
  });

  test('something that is not a message gives ChannelProtocolError', async () => {
    using server = rawServer();
    for (const [bytes, message] of [
      [header(2, 0, 0x12345678), /not a message of this channel/],
      [header(1 << 20, 0), /announced 1048576 payload bytes/],
      [header(2, 65), /announced 2 payload bytes and 65 descriptors; the limits are 65536 and 64/],
      [Buffer.concat([header(2, 2), Buffer.from('{}')]), /announced 2 descriptors but 0 arrived/],
      [header(0, 0), /the payload is not JSON/],
    ] as const) {
      const { channel, raw } = await fromRawPeer(server, bytes, false);
      const error = await channel.receive({ timeoutMs: 5000 }).catch((e) => e);
      expect(error).toBeInstanceOf(ChannelProtocolError);
      expect(error.message).toMatch(message);
      channel.dispose();
      raw.destroy();
    }
    // A payload that is not JSON: the framing held, so the channel goes on.
    const { channel, raw } = await fromRawPeer(server, Buffer.concat([header(3, 0), Buffer.from('{x}'), header(4, 0), Buffer.from('true')]), false);
    await expect(channel.receive({ timeoutMs: 5000 })).rejects.toThrow(/the payload is not JSON/);
    expect((await channel.receive({ timeoutMs: 5000 })).payload).toBe(true);
    channel.dispose();
    raw.destroy();
  });

  // A peer running test/fixtures/fd-flood.c with these arguments; resolves to its exit code.
  function flood(server: FdChannelServer, announced: number, pieces: number, perPiece: number, end = 'stall'): Promise<number | null> {
    const sender = spawn(fdFlood(), [abstractName(server), String(announced), String(pieces), String(perPiece), end], { stdio: 'ignore' });
    return new Promise((resolve) => sender.on('close', resolve));
  }

  test('more descriptors than a message may carry: those that arrived are closed, none leak', async () => {
    using server = FdChannelServer.listen();
    const exited = flood(server, 100, 1, 100);
    using channel = await server.accept({ timeoutMs: 10000 });
    const before = openFds();
    const error = await channel.receive({ timeoutMs: 10000 }).catch((e) => e);
    expect(error).toBeInstanceOf(ChannelProtocolError);
    expect(error.message).toMatch(/more than 64 descriptors .*MSG_CTRUNC.*closed/);
    expect(openFds()).toBe(before);
    expect(await exited).toBe(0); // the channel was shut down, so the sender saw its end
  });

  test('descriptors beyond the announced count are refused at once, not held while the rest of the message is awaited', async () => {
    using server = FdChannelServer.listen();
    // One descriptor announced, then 64 with each of 200 one-byte pieces, and a message that never ends.
    const exited = flood(server, 1, 200, 64);
    using channel = await server.accept({ timeoutMs: 10000 });
    const before = openFds();
    const start = Date.now();
    const error = await channel.receive({ timeoutMs: 8000 }).catch((e) => e);
    expect(error).toBeInstanceOf(ChannelProtocolError);
    expect(error.message).toBe('receive: the peer sent more descriptors than its message announced (64 > 1); those that arrived were closed');
    expect(Date.now() - start).toBeLessThan(4000);
    expect(openFds()).toBe(before);
    expect(await exited).toBe(0);
    await expect(channel.receive({ timeoutMs: 1000 })).rejects.toThrow(/shut down after a message was cut off/);
  });

  test('descriptor counts that differ from the announced one, in whole messages: refused, all closed', async () => {
    for (const [announced, perPiece, pieces, message] of [
      [0, 1, 1, 'receive: the peer sent more descriptors than its message announced (1 > 0); those that arrived were closed'],
      [2, 1, 3, 'receive: the peer sent more descriptors than its message announced (3 > 2); those that arrived were closed'],
      [3, 1, 1, 'receive: the message announced 3 descriptors but 1 arrived; they were closed'],
    ] as const) {
      using server = FdChannelServer.listen();
      const exited = flood(server, announced, pieces, perPiece, 'complete');
      using channel = await server.accept({ timeoutMs: 10000 });
      const before = openFds();
      const error = await channel.receive({ timeoutMs: 8000 }).catch((e) => e);
      expect(error).toBeInstanceOf(ChannelProtocolError);
      expect(error.message).toBe(message);
      expect(openFds()).toBe(before);
      channel.dispose();
      expect(await exited).toBe(0);
    }
    // As many as announced: the message arrives.
    using server = FdChannelServer.listen();
    const exited = flood(server, 3, 3, 1, 'complete');
    using channel = await server.accept({ timeoutMs: 10000 });
    using message = await channel.receive({ timeoutMs: 8000 });
    expect(message.payload).toBe('xx');
    expect(message.fds.map((fd) => fs.fstatSync(fd.fd).rdev)).toEqual(Array(3).fill(fs.statSync('/dev/null').rdev));
    channel.dispose();
    expect(await exited).toBe(0);
  });

  test('a peer that hangs up in the middle of a message that brought descriptors: ChannelClosedError, none kept', async () => {
    using server = FdChannelServer.listen();
    const exited = flood(server, 4, 2, 2, 'hangup');
    using channel = await server.accept({ timeoutMs: 10000 });
    expect(await exited).toBe(0);
    const before = openFds();
    const error = await channel.receive({ timeoutMs: 8000 }).catch((e) => e);
    expect(error).toBeInstanceOf(ChannelClosedError);
    expect(error.message).toBe('receive: the peer closed the connection in the middle of a message');
    expect(openFds()).toBe(before);
  });

});

describe('arguments and limits', () => {
  test('payload and descriptor limits give RangeError; the largest allowed message arrives whole', async () => {
    const p = await pair();
    try {
      expect(FdChannel.maxPayloadBytes).toBe(65536);
      expect(FdChannel.maxFds).toBe(64);
      const largest = 'x'.repeat(FdChannel.maxPayloadBytes - 2); // plus two quotes as JSON
      expect(() => p.a.send(largest + 'x')).toThrow(new RangeError('payload must be at most 65536 bytes as JSON, got 65537'));
      const fd = fs.openSync(process.execPath, 'r');
      expect(() => p.a.send(null, new Array(65).fill(fd))).toThrow(new RangeError('fds must hold at most 64 descriptors, got 65'));
      await p.a.send(largest, new Array(64).fill(fd));
      using message = await p.b.receive({ timeoutMs: 5000 });
      expect(message.payload).toBe(largest);
      expect(message.fds).toHaveLength(64);
      expect(new Set(message.fds.map((f) => f.fd)).size).toBe(64);
      fs.closeSync(fd);
    } finally {
      p.dispose();
    }
  });

  test('bad arguments throw TypeError or RangeError naming the parameter; a closed descriptor is EBADF', async () => {
    const p = await pair();
    try {
      expect(() => p.a.send(undefined)).toThrow(TypeError);
      expect(() => p.a.send(10n)).toThrow(TypeError);
      expect(() => p.a.send(1, [-1])).toThrow(/fds\[0\] must be between 0/);
      expect(() => p.a.send(1, [0, 1.5])).toThrow(new TypeError('fds[1] must be an integer, got 1.5'));
      expect(() => p.a.send(1, ['3' as never])).toThrow(TypeError);
      expect(() => p.a.send(1, 3 as never)).toThrow(new TypeError('fds must be an array of descriptors'));
      expect(() => p.a.receive({ timeoutMs: -1 })).toThrow(RangeError);
      expect(() => p.a.receive({ timeoutMs: NaN })).toThrow(/options.timeoutMs must be a number of milliseconds/);
      expect(() => p.server.accept({ peerUid: -2 })).toThrow(/options.peerUid/);
      const closed = fs.openSync(process.execPath, 'r');
      fs.closeSync(closed);
      let error: any;
      try {
        p.a.send(1, [closed]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SystemError);
      expect(error).toMatchObject({ code: 'EBADF', errno: 9, syscall: 'fcntl(F_DUPFD_CLOEXEC)', detail: `fds[0]=${closed}` });
      // The failed call left the channel usable.
      await p.a.send('still fine');
      expect((await p.b.receive({ timeoutMs: 5000 })).payload).toBe('still fine');
    } finally {
      p.dispose();
    }
  });

  test('the native layer checks what protects memory itself', async () => {
    const p = await pair();
    try {
      const n = {
        send: (payload: Uint8Array, fds: number[], timeoutMs: number) => native.fdChannelSend(p.a.slot, payload, fds, timeoutMs),
        receive: (timeoutMs: number) => native.fdChannelReceive(p.a.slot, timeoutMs),
      };
      // Errors made by the addon belong to Node's realm, not jest's: compare names and messages.
      const throws = (f: () => unknown, name: string, message: RegExp) => {
        let error: any;
        try {
          f();
        } catch (e) {
          error = e;
        }
        expect(error?.name).toBe(name);
        expect(error?.message).toMatch(message);
      };
      throws(() => n.send(new Uint8Array(65537), [], -1), 'RangeError', /^payload must be at most 65536 bytes, got 65537$/);
      throws(() => n.send('text' as never, [], -1), 'TypeError', /^payload must be a Uint8Array$/);
      throws(() => n.send(new Float64Array(2) as never, [], -1), 'TypeError', /^payload must be a Uint8Array$/);
      throws(() => n.send(new Uint8Array(1), new Array(65).fill(0), -1), 'RangeError', /^fds must hold at most 64 descriptors, got 65$/);
      throws(() => n.send(new Uint8Array(1), [2 ** 31], -1), 'RangeError', /^fds\[0\] must be between 0 and 2147483647$/);
      throws(() => n.send(new Uint8Array(1), [-1], -1), 'RangeError', /^fds\[0\] must be between 0/);
      throws(() => n.send(new Uint8Array(1), {} as never, -1), 'TypeError', /^fds must be an array$/);
      throws(() => n.receive(-2), 'RangeError', /^timeoutMs must be between -1 and 2147483647$/);
      throws(() => n.receive(2 ** 31), 'RangeError', /^timeoutMs must be between/);
      throws(() => native.fdChannelServerAccept(p.server.slot, 0, -2), 'RangeError', /^peerUid must be between -1/);
      throws(() => native.fdChannelListen('a'.repeat(108), true, 1), 'RangeError', /^address must be 1 to 107 bytes long, got 108$/);
      throws(() => native.fdChannelListen('', false, 1), 'RangeError', /^address must be 1 to 107 bytes/);
      throws(() => native.fdChannelListen('/tmp/a\0b', false, 1), 'TypeError', /^address must be a path without NUL characters$/);
      throws(() => native.fdChannelListen('x', true, 0), 'RangeError', /^backlog must be between 1 and 65535$/);
      throws(() => native.fdChannelConnect('x', 'yes' as never, 0), 'TypeError', /^abstract must be a boolean$/);
      throws(() => native.fdChannelConnect(7 as never, true, 0), 'TypeError', /^address must be a string$/);
      // A getter among the descriptors that detaches the payload's buffer: the
      // payload is read after the descriptors, so what goes out is empty, not freed memory.
      const payload = new Uint8Array(1024).fill(65);
      const fds: number[] = [];
      Object.defineProperty(fds, 0, { enumerable: true, get: () => (structuredClone(payload.buffer, { transfer: [payload.buffer] }), 0) });
      await n.send(payload, fds, 5000);
      expect(payload.byteLength).toBe(0);
      await expect(p.b.receive({ timeoutMs: 5000 })).rejects.toThrow(/the payload is not JSON/);
    } finally {
      p.dispose();
    }
  });

  test('addresses: filesystem paths (removed on dispose), abstract names, and their limits', async () => {
    const file = path.join(scratch, 'server.sock');
    {
      using server = FdChannelServer.listen(file);
      expect(server.address).toBe(file);
      expect(fs.statSync(file).isSocket()).toBe(true);
      let taken: any;
      try {
        FdChannelServer.listen(file);
      } catch (e) {
        taken = e;
      }
      expect(taken).toMatchObject({ name: 'SystemError', code: 'EADDRINUSE', syscall: 'bind', detail: `path=${file}` });
      using client = await FdChannel.connect(file, { timeoutMs: 5000 });
      using accepted = await server.accept({ timeoutMs: 5000 });
      await client.send('by path');
      expect((await accepted.receive({ timeoutMs: 5000 })).payload).toBe('by path');
    }
    expect(fs.existsSync(file)).toBe(false);
    FdChannelServer.listen(file).dispose(); // the path is free again

    const relative = path.relative(process.cwd(), path.join(scratch, 'relative.sock'));
    const server = FdChannelServer.listen(relative);
    expect(server.address).toBe(path.resolve(relative));
    server.dispose();

    expect(() => FdChannelServer.listen('/tmp/' + 'x'.repeat(120))).toThrow(/address must be at most 107 bytes/);
    expect(() => FdChannelServer.listen({ abstract: 'é'.repeat(54) })).toThrow(/at most 107 bytes as UTF-8, got 108/);
    expect(() => FdChannelServer.listen({ abstract: '' })).toThrow(RangeError);
    expect(() => FdChannelServer.listen('')).toThrow(RangeError);
    expect(() => FdChannelServer.listen('a\0b')).toThrow(TypeError);
    expect(() => FdChannelServer.listen({} as never)).toThrow(new TypeError('address must be a path or { abstract: name }'));
    expect(() => FdChannelServer.listen(undefined, { backlog: 0 })).toThrow(RangeError);
    await expect(FdChannel.connect(path.join(scratch, 'nobody.sock'))).rejects.toMatchObject({ name: 'SystemError', code: 'ENOENT', syscall: 'connect' });
    await expect(FdChannel.connect({ abstract: 'cuda-driver-test-nobody-listens' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('lifetime', () => {
  test('after dispose every call throws DisposedError; dispose is idempotent; a taken descriptor stays open', async () => {
    const p = await pair();
    const fd = fs.openSync(process.execPath, 'r');
    await p.a.send('x', [fd, fd]);
    fs.closeSync(fd);
    const message: FdMessage = await p.b.receive({ timeoutMs: 5000 });
    const [kept, dropped] = message.fds;
    expect(kept).toBeInstanceOf(ReceivedFd);

    const taken = kept.takeFd();
    expect(kept.disposed).toBe(true);
    expect(() => kept.fd).toThrow(DisposedError);
    expect(() => kept.takeFd()).toThrow(DisposedError);
    const droppedFd = dropped.fd;
    message.dispose();
    message.dispose();
    expect(dropped.disposed).toBe(true);
    expect(() => dropped.fd).toThrow(new DisposedError('ReceivedFd'));
    expect(fs.fstatSync(taken).isFile()).toBe(true); // still open: it is the caller's now
    expect(() => fs.fstatSync(droppedFd)).toThrow(/EBADF/);
    fs.closeSync(taken);

    p.dispose();
    p.dispose();
    expect(p.a.disposed && p.b.disposed && p.server.disposed).toBe(true);
    expect(() => p.a.send(1)).toThrow(DisposedError);
    expect(() => p.a.receive()).toThrow(DisposedError);
    expect(() => p.a.peer).toThrow(DisposedError);
    expect(() => p.server.accept()).toThrow(new DisposedError('FdChannelServer'));
    expect(String(p.a)).toBe('FdChannel(disposed)');
  });

  test('using closes the sockets at the end of the block', async () => {
    FdChannelServer.listen().dispose(); // the first use makes the environment's teardown signal, which stays
    const before = openFds();
    {
      using server = FdChannelServer.listen();
      using a = await FdChannel.connect(server.address, { timeoutMs: 5000 });
      using b = await server.accept({ timeoutMs: 5000 });
      await a.send('x');
      using message = await b.receive({ timeoutMs: 5000 });
      expect(openFds()).toBeGreaterThan(before);
      void message;
    }
    expect(openFds()).toBe(before);
  });
});
