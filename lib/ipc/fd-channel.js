"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.FdChannelServer = exports.FdChannel = exports.FdMessage = exports.ReceivedFd = exports.OwnedFd = void 0;
// Passing file descriptors between processes. Node's child_process can pass only
// sockets as handles, so descriptors (the ones VMM allocations and memory pools
// are exported as, or any others) travel over a Unix domain socket of their own,
// with SCM_RIGHTS: a message is a JSON payload plus up to FdChannel.maxFds
// descriptors, delivered whole. Every wait (accept, connect, send, receive) runs
// off the JavaScript thread with an optional timeout and returns a promise; every
// object is disposable, and a received descriptor is closed unless taken.
const crypto_1 = require("crypto");
const path = __importStar(require("path"));
const disposable_1 = require("../disposable");
const errors_1 = require("../errors");
const native_1 = require("../native");
const validate_1 = require("../validate");
const limits = native_1.native.fdChannelLimits;
// A pending wait keeps its object reachable: collecting the object would run its
// finalizer, which disposes the handle and so cancels the wait.
function holding(owner, wait) {
    return wait.finally(() => void owner);
}
function checkAddress(address, name) {
    let value;
    let abstract;
    if (typeof address === 'string') {
        if (address.length === 0)
            throw new RangeError(`${name} must not be empty`);
        if (address.includes('\0'))
            throw new TypeError(`${name} must be a path without NUL characters`);
        value = path.resolve(address);
        abstract = false;
    }
    else if (typeof address === 'object' && address !== null && 'abstract' in address) {
        value = (0, validate_1.checkString)(address.abstract, `${name}.abstract`);
        if (value.length === 0)
            throw new RangeError(`${name}.abstract must not be empty`);
        abstract = true;
    }
    else {
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
class OwnedFd extends disposable_1.Disposable {
    /** @internal */
    constructor(handle) {
        super(handle);
    }
    /** The descriptor number in this process; valid until this object is disposed. */
    get fd() {
        return this.native.fd;
    }
    /**
     * Takes ownership of the descriptor: the caller must close it (fs.closeSync,
     * or by passing it to something that adopts it). This object is disposed.
     */
    takeFd() {
        return this.native.take();
    }
    toString() {
        return this.disposed ? `${this.constructor.name}(disposed)` : `${this.constructor.name}(${this.fd})`;
    }
}
exports.OwnedFd = OwnedFd;
/** A file descriptor received from a peer over an {@link FdChannel}. */
class ReceivedFd extends OwnedFd {
}
exports.ReceivedFd = ReceivedFd;
/**
 * A message received on a channel. Disposing it disposes every descriptor that
 * came with it and was not taken, so `using message = await channel.receive()`
 * leaks none.
 */
class FdMessage {
    /** The payload, as the sender passed it through JSON. */
    payload;
    /** The descriptors, in the order they were sent. */
    fds;
    /** The sending process. */
    peer;
    /** @internal */
    constructor(payload, fds, peer) {
        this.payload = payload;
        this.fds = Object.freeze(fds);
        this.peer = peer;
    }
    /** Disposes every descriptor of the message (those taken are left alone). Idempotent. */
    dispose() {
        for (const fd of this.fds)
            fd.dispose();
    }
    [Symbol.dispose]() {
        this.dispose();
    }
}
exports.FdMessage = FdMessage;
/**
 * A connection that carries messages, each a JSON payload plus file
 * descriptors, both ways. Made by {@link FdChannel.connect} or
 * {@link FdChannelServer.accept}. One send and one receive may be in flight at
 * a time (await each before the next). A send or receive cut off midway (by its
 * timeout or a peer that died) shuts the channel down, since the rest of the
 * stream could no longer be framed; a timeout before anything moved leaves it
 * usable.
 */
class FdChannel extends disposable_1.Disposable {
    /** The largest payload a message may carry, in bytes of JSON (UTF-8). */
    static maxPayloadBytes = limits.maxPayloadBytes;
    /** The most descriptors a message may carry. */
    static maxFds = limits.maxFds;
    #peer;
    /** @internal */
    constructor(handle) {
        super(handle);
        const peer = handle.peer();
        this.#peer = Object.freeze({ pid: peer.pid, uid: peer.uid, gid: peer.gid });
    }
    /**
     * Connects to a server's address. Resolves once connected (a full backlog is
     * waited out within timeoutMs); rejects with a SystemError (`ENOENT`: no such
     * path; `ECONNREFUSED`: nobody listens there) or a TimeoutError.
     */
    static connect(address, options = {}) {
        const target = checkAddress(address, 'address');
        const timeoutMs = (0, validate_1.checkTimeout)(options.timeoutMs, 'options.timeoutMs');
        return native_1.native.fdChannelConnect(target.name, target.abstract, timeoutMs).then((handle) => new FdChannel(handle));
    }
    /** The process at the other end, as recorded when the connection was made. */
    get peer() {
        if (this.disposed)
            throw new errors_1.DisposedError('FdChannel');
        return this.#peer;
    }
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
    send(payload, fds = [], options = {}) {
        const json = JSON.stringify(payload);
        if (json === undefined)
            throw new TypeError('payload must be a value JSON can represent');
        const bytes = Buffer.from(json, 'utf8');
        if (bytes.length > limits.maxPayloadBytes) {
            throw new RangeError(`payload must be at most ${limits.maxPayloadBytes} bytes as JSON, got ${bytes.length}`);
        }
        if (!Array.isArray(fds))
            throw new TypeError('fds must be an array of descriptors');
        if (fds.length > limits.maxFds)
            throw new RangeError(`fds must hold at most ${limits.maxFds} descriptors, got ${fds.length}`);
        const numbers = fds.map((fd, i) => (fd instanceof OwnedFd ? fd.fd : (0, validate_1.checkInteger)(fd, `fds[${i}]`, 0, 0x7fffffff)));
        const timeoutMs = (0, validate_1.checkTimeout)(options.timeoutMs, 'options.timeoutMs');
        return holding(this, this.native.send(bytes, numbers, timeoutMs));
    }
    /**
     * Receives the next message. Rejects with a TimeoutError when none arrives in
     * time, a ChannelClosedError when the peer closed the connection (or died), a
     * ChannelProtocolError when what arrived is not a well-formed message (its
     * descriptors are closed), or a DisposedError when this channel is disposed
     * meanwhile.
     */
    receive(options = {}) {
        const timeoutMs = (0, validate_1.checkTimeout)(options.timeoutMs, 'options.timeoutMs');
        return holding(this, this.native.receive(timeoutMs)).then(({ payload, fds }) => {
            const received = fds.map((handle) => new ReceivedFd(handle));
            let value;
            try {
                value = JSON.parse(payload.toString('utf8'));
            }
            catch (e) {
                for (const fd of received)
                    fd.dispose();
                throw new errors_1.ChannelProtocolError('receive', `the payload is not JSON (${e.message}); its descriptors were closed`);
            }
            return new FdMessage(value, received, this.#peer);
        });
    }
    toString() {
        return this.disposed ? 'FdChannel(disposed)' : `FdChannel(peer pid ${this.#peer.pid})`;
    }
}
exports.FdChannel = FdChannel;
/**
 * A listening Unix domain socket that accepts {@link FdChannel} connections.
 * Disposing it stops listening, removes its socket file, and rejects a pending
 * accept with a DisposedError; channels already accepted stay open. As with a
 * net.Server, a pending wait (here or on a channel) keeps the process running;
 * each one waits on a thread of its own, never on libuv's shared pool.
 */
class FdChannelServer extends disposable_1.Disposable {
    /** The longest address, in bytes of UTF-8 (the kernel's sun_path less one). */
    static maxAddressBytes = limits.maxAddressBytes;
    /** Where this server listens: pass it to {@link FdChannel.connect} (in another process). */
    address;
    constructor(handle, address) {
        super(handle);
        this.address = address;
    }
    /**
     * Listens at address; without one, at a fresh name in the abstract namespace.
     * Throws a SystemError (`EADDRINUSE` for an address already taken, `EACCES`, ...).
     */
    static listen(address, options = {}) {
        const target = checkAddress(address ?? { abstract: `cuda-driver-${process.pid}-${(0, crypto_1.randomBytes)(8).toString('hex')}` }, 'address');
        const backlog = options.backlog === undefined ? 64 : (0, validate_1.checkInteger)(options.backlog, 'options.backlog', 1, 65535);
        return new FdChannelServer(native_1.native.fdChannelListen(target.name, target.abstract, backlog), target.address);
    }
    /**
     * Waits for the next connection (from a process of this user, unless
     * options.peerUid says otherwise). Rejects with a TimeoutError, or a
     * DisposedError when the server is disposed meanwhile.
     */
    accept(options = {}) {
        const timeoutMs = (0, validate_1.checkTimeout)(options.timeoutMs, 'options.timeoutMs');
        const peerUid = options.peerUid === null ? -1 : options.peerUid === undefined ? process.getuid?.() ?? -1 : (0, validate_1.checkInteger)(options.peerUid, 'options.peerUid', 0, 0xffffffff);
        return holding(this, this.native.accept(timeoutMs, peerUid)).then((handle) => new FdChannel(handle));
    }
    toString() {
        const where = typeof this.address === 'string' ? this.address : `abstract ${this.address.abstract}`;
        return this.disposed ? 'FdChannelServer(disposed)' : `FdChannelServer(${where})`;
    }
}
exports.FdChannelServer = FdChannelServer;
//# sourceMappingURL=fd-channel.js.map