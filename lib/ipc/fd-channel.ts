// Passing file descriptors between processes. Node's child_process can pass only
// sockets as handles, so descriptors (the ones VMM allocations and memory pools
// are exported as, or any others) travel over a Unix domain socket of their own,
// with SCM_RIGHTS: a message is a JSON payload plus up to FdChannel.maxFds
// descriptors, delivered whole. Every wait (accept, connect, send, receive) runs
// off the JavaScript thread with an optional timeout and AbortSignal and returns
// a promise; every object is disposable, and a received descriptor is closed
// unless taken.
import { randomBytes } from 'crypto';
import * as path from 'path';
import { Disposable } from '../disposable';
import { AbortError, ChannelPeerError, ChannelProtocolError, DisposedError, PeerCredentials } from '../errors';
import { native, NativeFdChannel, NativeFdChannelServer, NativePeerCredentials, NativeReceivedFd, Slot } from '../native';
import { checkInteger, checkObject, checkOptions, checkString, noOptions } from '../validate';
import { CheckedWait, checkWaitOptions } from '../wait-options';

/**
 * Where a channel server listens: a filesystem path (made absolute; the server
 * creates the socket file and removes it when disposed), or a name in Linux's
 * abstract socket namespace (no file; gone with the server). Either is at most
 * {@link FdChannelServer.maxAddressBytes} bytes of UTF-8.
 */
export type FdChannelAddress = string | {
  /** A name in the abstract socket namespace. */
  readonly abstract: string;
};

/** Options of a call that waits. */
export interface FdChannelWaitOptions {
  /** How long to wait, in milliseconds; Infinity (the default) waits until done or disposed. */
  readonly timeoutMs?: number;
  /**
   * Gives up the wait when aborted: the promise rejects with an AbortError
   * (cause: the signal's reason) and the wait's thread is let go. As with a
   * timeout, a send or receive cut off midway shuts the channel down.
   */
  readonly signal?: AbortSignal;
}

/** Which peers a connection may have, for {@link FdChannel.connect} and {@link FdChannelServer.accept}. */
export interface FdChannelPeerOptions {
  /**
   * The user id the process at the other end must run as (its effective uid
   * when it made its socket). Defaults to this process's effective user; null
   * accepts any user. Any process that can reach an address can connect to it,
   * and any process can listen at an abstract name or a path it may create
   * before the intended server does.
   */
  readonly peerUid?: number | null;
}

/** Options of {@link FdChannel.connect}. */
export interface FdChannelConnectOptions extends FdChannelWaitOptions, FdChannelPeerOptions {}

/** Options of {@link FdChannelServer.accept}. */
export interface FdChannelAcceptOptions extends FdChannelWaitOptions, FdChannelPeerOptions {}

/** Options of {@link FdChannelServer.listen}. */
export interface FdChannelListenOptions {
  /** How many connections may wait to be accepted (listen's backlog); default 64. */
  readonly backlog?: number;
}

const limits = native.fdChannelLimits;

// The options of connect and accept.
const peerWaitKeys: readonly string[] = ['timeoutMs', 'signal', 'peerUid'];

// The user a peer must run as (-1: any), from options.peerUid.
function expectedPeerUid(options: FdChannelPeerOptions): number {
  if (options.peerUid === null) return -1;
  if (options.peerUid === undefined) return process.geteuid?.() ?? -1;
  return checkInteger(options.peerUid, 'options.peerUid', 0, 0xffffffff);
}

// A pending wait keeps its object reachable: collecting the object would run its
// finalizer, which disposes the handle and so cancels the wait.
function holding<R>(owner: object, wait: Promise<R>): Promise<R> {
  return wait.finally(() => void owner);
}

// Starts a native wait that the signal, when aborted, cancels on its thread
// (native/core/wait_thread.h armWaitCancel): the wait then ends as its handle's
// dispose() would end it, and that DisposedError becomes an AbortError.
function cancellable<R>(wait: CheckedWait, operation: string, start: () => Promise<R>): Promise<R> {
  const { signal } = wait;
  if (signal === undefined) return start();
  if (signal.aborted) return Promise.reject(new AbortError(operation, signal.reason));
  const id = native.armWaitCancel();
  let started: Promise<R>;
  try {
    started = start();
  } finally {
    native.disarmWaitCancel();
  }
  const onAbort = () => native.cancelWait(id);
  signal.addEventListener('abort', onAbort, { once: true });
  return started.then(
    (value) => {
      signal.removeEventListener('abort', onAbort);
      return value;
    },
    (error: unknown) => {
      signal.removeEventListener('abort', onAbort);
      throw signal.aborted && error instanceof DisposedError ? new AbortError(operation, signal.reason) : error;
    },
  );
}

function checkAddress(address: unknown, name: string): { name: string; abstract: boolean; address: FdChannelAddress } {
  let value: string;
  let abstract: boolean;
  if (typeof address === 'string') {
    if (address.length === 0) throw new RangeError(`${name} must not be empty`);
    if (address.includes('\0')) throw new TypeError(`${name} must be a path without NUL characters`);
    value = path.resolve(address);
    abstract = false;
  } else if (typeof address === 'object' && address !== null && 'abstract' in address) {
    value = checkString((address as { abstract: unknown }).abstract, `${name}.abstract`);
    if (value.length === 0) throw new RangeError(`${name}.abstract must not be empty`);
    abstract = true;
  } else {
    throw new TypeError(`${name} must be a path or { abstract: name }`);
  }
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > limits.maxAddressBytes) {
    throw new RangeError(`${name} must be at most ${limits.maxAddressBytes} bytes as UTF-8, got ${bytes}${abstract ? '' : ` (${value})`}`);
  }
  return { name: value, abstract, address: abstract ? Object.freeze({ abstract: value }) : value };
}

/**
 * A file descriptor this process owns: made by an export (a VMM allocation or a
 * memory pool exported as a POSIX descriptor, a dma_buf) or received from a
 * peer ({@link ReceivedFd}). It is this object's to close: dispose() closes it
 * (and so does garbage collection, as a backstop), unless takeFd() handed it
 * over first. Descriptors made by exports are close-on-exec, so child processes
 * do not inherit them.
 */
export class OwnedFd extends Disposable<NativeReceivedFd> {
  /** @internal */
  constructor(handle: Slot<NativeReceivedFd>) {
    super(handle);
  }

  /** The descriptor number in this process; valid until this object is disposed. */
  get fd(): number {
    return native.receivedFdNumber(this.slot);
  }

  /**
   * Takes ownership of the descriptor: the caller must close it (fs.closeSync,
   * or by passing it to something that adopts it). This object is disposed.
   */
  takeFd(): number {
    return native.receivedFdTake(this.slot);
  }

  override toString(): string {
    return this.disposed ? `${this.constructor.name}(disposed)` : `${this.constructor.name}(${this.fd})`;
  }
}

/** A file descriptor received from a peer over an {@link FdChannel}. */
export class ReceivedFd extends OwnedFd {
  /** The process that sent it (the channel's peer). */
  readonly peer: PeerCredentials;

  /** @internal */
  constructor(handle: Slot<NativeReceivedFd>, peer: PeerCredentials) {
    super(handle);
    this.peer = peer;
  }
}

/**
 * A message received on a channel. Disposing it disposes every descriptor that
 * came with it and was not taken, so `using message = await channel.receive()`
 * leaks none.
 */
export class FdMessage<T = unknown> implements globalThis.Disposable {
  /** The payload, as the sender passed it through JSON. */
  readonly payload: T;
  /** The descriptors, in the order they were sent. */
  readonly fds: readonly ReceivedFd[];
  /** The sending process. */
  readonly peer: PeerCredentials;

  /** @internal */
  constructor(payload: T, fds: ReceivedFd[], peer: PeerCredentials) {
    this.payload = payload;
    this.fds = Object.freeze(fds);
    this.peer = peer;
  }

  /** Disposes every descriptor of the message (those taken are left alone). Idempotent. */
  dispose(): void {
    for (const fd of this.fds) fd.dispose();
  }

  /** The same as dispose(), for `using`. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}

/**
 * A connection that carries messages, each a JSON payload plus file
 * descriptors, both ways. Made by {@link FdChannel.connect} or
 * {@link FdChannelServer.accept}. One send and one receive may be in flight at
 * a time (await each before the next). A send or receive cut off midway (by its
 * timeout or a peer that died) shuts the channel down, since the rest of the
 * stream could no longer be framed; a timeout before anything moved leaves it
 * usable.
 */
export class FdChannel extends Disposable<NativeFdChannel> {
  /** The largest payload a message may carry, in bytes of JSON (UTF-8). */
  static readonly maxPayloadBytes: number = limits.maxPayloadBytes;
  /** The most descriptors a message may carry. */
  static readonly maxFds: number = limits.maxFds;

  readonly #peer: PeerCredentials;

  /** @internal */
  constructor(handle: Slot<NativeFdChannel>) {
    super(handle);
    const peer: NativePeerCredentials = native.fdChannelPeer(this.slot);
    this.#peer = Object.freeze({ pid: peer.pid, uid: peer.uid, gid: peer.gid });
  }

  /**
   * Connects to a server's address. Resolves once connected (a full backlog is
   * waited out within timeoutMs) to a listener of the user options.peerUid
   * names (by default this process's); rejects with a ChannelPeerError (the
   * connection is closed before anything is sent or received) when the
   * listener runs as another user, a SystemError (`ENOENT`: no such path;
   * `ECONNREFUSED`: nobody listens there), a TimeoutError or an AbortError.
   */
  static connect(address: FdChannelAddress, options: FdChannelConnectOptions = noOptions): Promise<FdChannel> {
    const wait = checkWaitOptions(options);
    checkOptions(options, 'options', 'FdChannel.connect', peerWaitKeys);
    const target = checkAddress(address, 'address');
    const peerUid = expectedPeerUid(options);
    return cancellable(wait, 'connect', () => native.fdChannelConnect(target.name, target.abstract, wait.timeoutMs)).then((handle) => {
      const channel = new FdChannel(handle);
      if (peerUid >= 0 && channel.#peer.uid !== peerUid) {
        channel.dispose();
        throw new ChannelPeerError('connect', channel.#peer, peerUid);
      }
      return channel;
    });
  }

  /** The process at the other end, as recorded when the connection was made. */
  get peer(): PeerCredentials {
    if (this.disposed) throw new DisposedError('FdChannel');
    return this.#peer;
  }

  /**
   * Sends payload (anything JSON.stringify takes, at most maxPayloadBytes as
   * JSON) and fds (at most maxFds descriptors of this process, or OwnedFd /
   * ReceivedFd objects) as one message. The descriptors are duplicated before this returns,
   * so the caller may close its own at once; the peer receives new descriptors
   * for the same open files. Bad arguments throw (TypeError, RangeError, a
   * SystemError `EBADF` for a descriptor that is not open); the promise rejects
   * with a TimeoutError when the peer does not make room in time, an
   * AbortError when options.signal is aborted first, or a ChannelClosedError
   * when the peer is gone.
   */
  send(payload: unknown, fds: ReadonlyArray<number | OwnedFd> = [], options: FdChannelWaitOptions = noOptions): Promise<void> {
    const json = JSON.stringify(payload);
    if (json === undefined) throw new TypeError('payload must be a value JSON can represent');
    const bytes = Buffer.from(json, 'utf8');
    if (bytes.length > limits.maxPayloadBytes) {
      throw new RangeError(`payload must be at most ${limits.maxPayloadBytes} bytes as JSON, got ${bytes.length}`);
    }
    if (!Array.isArray(fds)) throw new TypeError('fds must be an array of descriptors');
    if (fds.length > limits.maxFds) throw new RangeError(`fds must hold at most ${limits.maxFds} descriptors, got ${fds.length}`);
    const numbers = fds.map((fd, i) => (fd instanceof OwnedFd ? fd.fd : checkInteger(fd, `fds[${i}]`, 0, 0x7fffffff)));
    const wait = checkWaitOptions(options, 'options', 'FdChannel.send');
    return holding(this, cancellable(wait, 'send', () => native.fdChannelSend(this.slot, bytes, numbers, wait.timeoutMs)));
  }

  /**
   * Receives the next message. Rejects with a TimeoutError when none arrives in
   * time, a ChannelClosedError when the peer closed the connection (or died), a
   * ChannelProtocolError when what arrived is not a well-formed message (its
   * descriptors are closed), an AbortError when options.signal is aborted
   * first, or a DisposedError when this channel is disposed meanwhile. A wait
   * given up before a message began leaves the channel usable, and the next
   * receive gets that message.
   */
  receive<T = unknown>(options: FdChannelWaitOptions = noOptions): Promise<FdMessage<T>> {
    const wait = checkWaitOptions(options, 'options', 'FdChannel.receive');
    return holding(this, cancellable(wait, 'receive', () => native.fdChannelReceive(this.slot, wait.timeoutMs))).then(({ payload, fds }) => {
      const received = fds.map((handle) => new ReceivedFd(handle, this.#peer));
      let value: T;
      try {
        value = JSON.parse(payload.toString('utf8')) as T;
      } catch (e) {
        for (const fd of received) fd.dispose();
        throw new ChannelProtocolError('receive', `the payload is not JSON (${(e as Error).message}); its descriptors were closed`);
      }
      return new FdMessage(value, received, this.#peer);
    });
  }

  override toString(): string {
    return this.disposed ? 'FdChannel(disposed)' : `FdChannel(peer pid ${this.#peer.pid})`;
  }
}

/**
 * A listening Unix domain socket that accepts {@link FdChannel} connections.
 * Disposing it stops listening, removes its socket file, and rejects a pending
 * accept with a DisposedError; channels already accepted stay open. As with a
 * net.Server, a pending wait (here or on a channel) keeps the process running;
 * each one waits on a thread of its own, never on libuv's shared pool.
 */
export class FdChannelServer extends Disposable<NativeFdChannelServer> {
  /** The longest address, in bytes of UTF-8 (the kernel's sun_path less one). */
  static readonly maxAddressBytes: number = limits.maxAddressBytes;

  /** Where this server listens: pass it to {@link FdChannel.connect} (in another process). */
  readonly address: FdChannelAddress;

  private constructor(handle: Slot<NativeFdChannelServer>, address: FdChannelAddress) {
    super(handle);
    this.address = address;
  }

  /**
   * Listens at address; without one, at a fresh name in the abstract namespace.
   * Throws a SystemError (`EADDRINUSE` for an address already taken, `EACCES`, ...).
   */
  static listen(address?: FdChannelAddress, options: FdChannelListenOptions = noOptions): FdChannelServer {
    checkObject(options, 'options');
    checkOptions(options, 'options', 'FdChannelServer.listen', ['backlog']);
    const target = checkAddress(address ?? { abstract: `cuda-driver-${process.pid}-${randomBytes(8).toString('hex')}` }, 'address');
    const backlog = options.backlog === undefined ? 64 : checkInteger(options.backlog, 'options.backlog', 1, 65535);
    return new FdChannelServer(native.fdChannelListen(target.name, target.abstract, backlog), target.address);
  }

  /**
   * Waits for the next connection from a process of the user options.peerUid
   * names (by default this process's); connections of other users are closed
   * at once and the wait goes on. Rejects with a TimeoutError, an AbortError,
   * or a DisposedError when the server is disposed meanwhile.
   */
  accept(options: FdChannelAcceptOptions = noOptions): Promise<FdChannel> {
    const wait = checkWaitOptions(options);
    checkOptions(options, 'options', 'FdChannelServer.accept', peerWaitKeys);
    const peerUid = expectedPeerUid(options);
    return holding(this, cancellable(wait, 'accept', () => native.fdChannelServerAccept(this.slot, wait.timeoutMs, peerUid))).then((handle) => new FdChannel(handle));
  }

  override toString(): string {
    const where = typeof this.address === 'string' ? this.address : `abstract ${this.address.abstract}`;
    return this.disposed ? 'FdChannelServer(disposed)' : `FdChannelServer(${where})`;
  }
}
