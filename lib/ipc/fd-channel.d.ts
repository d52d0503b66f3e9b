import { Disposable } from '../disposable';
import { NativeFdChannel, NativeFdChannelServer, NativeReceivedFd } from '../native';
/**
 * Where a channel server listens: a filesystem path (made absolute; the server
 * creates the socket file and removes it when disposed), or a name in Linux's
 * abstract socket namespace (no file; gone with the server). Either is at most
 * {@link FdChannelServer.maxAddressBytes} bytes of UTF-8.
 */
export type FdChannelAddress = string | {
    readonly abstract: string;
};
/**
 * The process at the other end of a channel, as the kernel recorded it when the
 * connection was made (SO_PEERCRED): check it before trusting what arrives,
 * since any process that can reach the address can connect.
 */
export interface PeerCredentials {
    readonly pid: number;
    readonly uid: number;
    readonly gid: number;
}
/** Options of a call that waits. */
export interface FdChannelWaitOptions {
    /** How long to wait, in milliseconds; Infinity (the default) waits until done or disposed. */
    readonly timeoutMs?: number;
}
/** Options of {@link FdChannelServer.accept}. */
export interface FdChannelAcceptOptions extends FdChannelWaitOptions {
    /**
     * Accept only peers running as this user id; others are closed at once and the
     * wait goes on. Defaults to this process's user; null accepts any user.
     */
    readonly peerUid?: number | null;
}
/** Options of {@link FdChannelServer.listen}. */
export interface FdChannelListenOptions {
    /** How many connections may wait to be accepted (listen's backlog); default 64. */
    readonly backlog?: number;
}
/**
 * A file descriptor this process owns: made by an export (a VMM allocation or a
 * memory pool exported as a POSIX descriptor, a dma_buf) or received from a
 * peer ({@link ReceivedFd}). It is this object's to close: dispose() closes it
 * (and so does garbage collection, as a backstop), unless takeFd() handed it
 * over first. Descriptors made by exports are close-on-exec, so child processes
 * do not inherit them.
 */
export declare class OwnedFd extends Disposable<NativeReceivedFd> {
    /** @internal */
    constructor(handle: NativeReceivedFd);
    /** The descriptor number in this process; valid until this object is disposed. */
    get fd(): number;
    /**
     * Takes ownership of the descriptor: the caller must close it (fs.closeSync,
     * or by passing it to something that adopts it). This object is disposed.
     */
    takeFd(): number;
    toString(): string;
}
/** A file descriptor received from a peer over an {@link FdChannel}. */
export declare class ReceivedFd extends OwnedFd {
}
/**
 * A message received on a channel. Disposing it disposes every descriptor that
 * came with it and was not taken, so `using message = await channel.receive()`
 * leaks none.
 */
export declare class FdMessage<T = unknown> implements globalThis.Disposable {
    /** The payload, as the sender passed it through JSON. */
    readonly payload: T;
    /** The descriptors, in the order they were sent. */
    readonly fds: readonly ReceivedFd[];
    /** The sending process. */
    readonly peer: PeerCredentials;
    /** @internal */
    constructor(payload: T, fds: ReceivedFd[], peer: PeerCredentials);
    /** Disposes every descriptor of the message (those taken are left alone). Idempotent. */
    dispose(): void;
    [Symbol.dispose](): void;
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
export declare class FdChannel extends Disposable<NativeFdChannel> {
    #private;
    /** The largest payload a message may carry, in bytes of JSON (UTF-8). */
    static readonly maxPayloadBytes: number;
    /** The most descriptors a message may carry. */
    static readonly maxFds: number;
    /** @internal */
    constructor(handle: NativeFdChannel);
    /**
     * Connects to a server's address. Resolves once connected (a full backlog is
     * waited out within timeoutMs); rejects with a SystemError (`ENOENT`: no such
     * path; `ECONNREFUSED`: nobody listens there) or a TimeoutError.
     */
    static connect(address: FdChannelAddress, options?: FdChannelWaitOptions): Promise<FdChannel>;
    /** The process at the other end, as recorded when the connection was made. */
    get peer(): PeerCredentials;
    /**
     * Sends payload (anything JSON.stringify takes, at most maxPayloadBytes as
     * JSON) and fds (at most maxFds descriptors of this process, or OwnedFd /
     * ReceivedFd objects) as one message. The descriptors are duplicated before this returns,
     * so the caller may close its own at once; the peer receives new descriptors
     * for the same open files. Bad arguments throw (TypeError, RangeError, a
     * SystemError `EBADF` for a descriptor that is not open); the promise rejects
     * with a TimeoutError when the peer does not make room in time, or a
     * ChannelClosedError when it is gone.
     */
    send(payload: unknown, fds?: ReadonlyArray<number | OwnedFd>, options?: FdChannelWaitOptions): Promise<void>;
    /**
     * Receives the next message. Rejects with a TimeoutError when none arrives in
     * time, a ChannelClosedError when the peer closed the connection (or died), a
     * ChannelProtocolError when what arrived is not a well-formed message (its
     * descriptors are closed), or a DisposedError when this channel is disposed
     * meanwhile.
     */
    receive<T = unknown>(options?: FdChannelWaitOptions): Promise<FdMessage<T>>;
    toString(): string;
}
/**
 * A listening Unix domain socket that accepts {@link FdChannel} connections.
 * Disposing it stops listening, removes its socket file, and rejects a pending
 * accept with a DisposedError; channels already accepted stay open. As with a
 * net.Server, a pending wait (here or on a channel) keeps the process running;
 * each one waits on a thread of its own, never on libuv's shared pool.
 */
export declare class FdChannelServer extends Disposable<NativeFdChannelServer> {
    /** The longest address, in bytes of UTF-8 (the kernel's sun_path less one). */
    static readonly maxAddressBytes: number;
    /** Where this server listens: pass it to {@link FdChannel.connect} (in another process). */
    readonly address: FdChannelAddress;
    private constructor();
    /**
     * Listens at address; without one, at a fresh name in the abstract namespace.
     * Throws a SystemError (`EADDRINUSE` for an address already taken, `EACCES`, ...).
     */
    static listen(address?: FdChannelAddress, options?: FdChannelListenOptions): FdChannelServer;
    /**
     * Waits for the next connection (from a process of this user, unless
     * options.peerUid says otherwise). Rejects with a TimeoutError, or a
     * DisposedError when the server is disposed meanwhile.
     */
    accept(options?: FdChannelAcceptOptions): Promise<FdChannel>;
    toString(): string;
}
