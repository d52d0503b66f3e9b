// A child Node process that shares GPU memory with the test: it runs a body
// with `cuda`, an FdChannel `ch` to the parent, `next()` (the next message),
// `pattern`, `readBytes` and `equal` in scope, while the test talks to it over
// the parent's end of the channel.
import { copy, FdChannel, FdChannelServer, FdMessage } from '../../lib';
import { ScriptResult, startScript, StartedScript } from './subprocess';

export const patternSource = `(n, seed) => {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i++) bytes[i] = (i * 131 + seed * 7 + (i >> 12)) & 0xff;
  return bytes;
}`;
/** n bytes of a pattern that differs with seed (the child has the same function). */
// eslint-disable-next-line no-eval
export const pattern: (n: number, seed: number) => Uint8Array = eval(patternSource);

/** bytes of memory from offset, copied to the host. */
export function read(memory: Parameters<typeof copy>[1] & { size: number }, offset = 0, bytes = memory.size - offset): Uint8Array {
  const out = new Uint8Array(bytes);
  copy(out, memory, { srcOffset: offset, bytes });
  return out;
}

const prelude = `const M = 1 << 20;
const pattern = ${patternSource};
const equal = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
const readBytes = (m, offset = 0, bytes = m.size - offset) => { const out = new Uint8Array(bytes); cuda.copy(out, m, { srcOffset: offset, bytes }); return out; };
(async () => {
  const ch = await cuda.FdChannel.connect({ abstract: process.env.IPC_ADDRESS }, { timeoutMs: 30000 });
  const next = () => ch.receive({ timeoutMs: 60000 });
`;
const epilogue = `
  ch.dispose();
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });`;

const children: StartedScript[] = [];

/** Kills the children still running (for afterEach). */
export function killChildren(): void {
  for (const c of children.splice(0)) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
}

/**
 * Starts a child running body, hands the parent's end of the channel to talk,
 * then waits for the child to exit and returns how it ended.
 */
export async function withChild(body: string, talk: (ch: FdChannel, started: StartedScript) => Promise<void>): Promise<ScriptResult> {
  const server = FdChannelServer.listen();
  const started = startScript(prelude + body + epilogue, { IPC_ADDRESS: (server.address as { abstract: string }).abstract });
  children.push(started);
  try {
    const ch = await Promise.race([
      server.accept({ timeoutMs: 30000 }),
      started.result.then((r): never => {
        throw new Error(`the child exited (${r.status ?? r.signal}) before connecting: ${r.stderr}`);
      }),
    ]);
    try {
      await talk(ch, started);
    } finally {
      ch.dispose();
    }
  } finally {
    server.dispose();
  }
  return started.result;
}

/** The next message, whose payload must be the given step (the child's error otherwise); the caller disposes it. */
export async function stepMessage<T = Record<string, unknown>>(ch: FdChannel, name: string, started: StartedScript): Promise<FdMessage<{ step?: string } & T>> {
  let message: FdMessage<{ step?: string } & T>;
  try {
    message = await ch.receive<{ step?: string } & T>({ timeoutMs: 60000 });
  } catch (error) {
    const r = await Promise.race([started.result, new Promise<undefined>((resolve) => setTimeout(resolve, 2000, undefined))]);
    throw new Error(`waiting for '${name}': ${(error as Error).message}${r ? `; the child exited (${r.status ?? r.signal}): ${r.stderr}` : ''}`);
  }
  if (message.payload.step !== name) message.dispose();
  expect(message.payload.step).toBe(name);
  return message;
}

/** The payload of the next message, which must be the given step. */
export async function step<T = Record<string, unknown>>(ch: FdChannel, name: string, started: StartedScript): Promise<T> {
  const message = await stepMessage<T>(ch, name, started);
  message.dispose();
  return message.payload;
}

/** Throws with the child's stderr unless it exited with status 0. */
export function succeeded(r: ScriptResult): void {
  if (r.status !== 0) throw new Error(`the child failed (${r.status ?? r.signal}): ${r.stderr}`);
}
