#include "ipc/fd_channel.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/non_copyable.h"
#include "core/args.h"
#include "core/errors.h"
#include "core/handle.h"
#include "core/wait_thread.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

constexpr size_t kMaxPayloadBytes = 64 * 1024;
constexpr size_t kMaxFds = 64;
constexpr size_t kMaxAddressBytes = sizeof(sockaddr_un::sun_path) - 1;
constexpr uint32_t kMagic = 0x31434446;  // "FDC1"
constexpr size_t kControlBytes = CMSG_SPACE(sizeof(int) * kMaxFds);

struct FrameHeader {
  uint32_t magic;
  uint32_t payloadBytes;
  uint32_t fdCount;
};
static_assert(sizeof(FrameHeader) == 12, "the header is three packed words");

// A descriptor closed when it goes out of scope, unless released.
class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // close() releases the descriptor even when it reports EINTR: never retry it.
  void reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

// One socket, shared by its JavaScript object and the waits running on it;
// closed when the last of them lets go.
struct Socket {
  UniqueFd fd;
  std::shared_ptr<CancelSignal> disposed;  // fired when the JavaScript object lets go
  std::shared_ptr<CancelSignal> teardown;  // fired when the environment is torn down
  ucred peer{};                            // of a connected socket
  std::atomic<bool> receiving{false};
  std::atomic<bool> sending{false};
  std::atomic<bool> broken{false};

  // After a message was cut off midway nothing that follows on the stream can
  // be framed: shut the connection down, so the peer sees it end too.
  void breakOff() {
    broken = true;
    shutdown(fd.get(), SHUT_RDWR);
  }
};
using SocketRef = std::shared_ptr<Socket>;

// What a JavaScript object holds. Letting go of it wakes the socket's waits,
// which end and drop their hold, and removes the path a listener was bound to.
struct SocketBox : NonCopyable {
  SocketRef socket;
  std::string boundPath;
  dev_t boundDevice = 0;
  ino_t boundInode = 0;

  SocketBox() = default;
  ~SocketBox() {
    if (socket && socket->disposed) socket->disposed->fire();
    // Remove the path only if it is still the socket this listener made.
    struct stat st;
    if (!boundPath.empty() && stat(boundPath.c_str(), &st) == 0 && st.st_dev == boundDevice &&
        st.st_ino == boundInode) {
      unlink(boundPath.c_str());
    }
  }
};

struct FdBox : NonCopyable {
  UniqueFd fd;
};

// How a wait ended.
struct Outcome {
  enum Kind { Ok, Failed, TimedOut, Cancelled, Closed, Protocol } kind = Ok;
  int err = 0;
  const char* syscall = "";
  std::string message;  // for Closed and Protocol

  bool ok() const { return kind == Ok; }
  static Outcome failed(const char* syscall, int err) { return {Failed, err, syscall, {}}; }
  static Outcome closed(std::string message) { return {Closed, 0, "", std::move(message)}; }
  static Outcome protocol(std::string message) { return {Protocol, 0, "", std::move(message)}; }
  static Outcome of(WaitResult result, int err) {
    switch (result) {
      case WaitResult::TimedOut: return {TimedOut, 0, "", {}};
      case WaitResult::Cancelled: return {Cancelled, 0, "", {}};
      case WaitResult::Failed: return failed("poll", err);
      case WaitResult::Ready: break;
    }
    return {};
  }
};

// Runs a wait's body on its thread; running out of memory there is an outcome too.
template <typename Body>
Outcome guarded(Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Outcome::failed("malloc", ENOMEM);
  }
}

// The rejection for an outcome other than Ok. handle names the class whose
// dispose cancelled the wait.
Napi::Value outcomeError(Napi::Env env, const Outcome& o, const char* operation, int64_t timeoutMs,
                         const char* handle, const std::string& detail = {}) {
  switch (o.kind) {
    case Outcome::TimedOut: return timeoutError(env, operation, timeoutMs);
    case Outcome::Cancelled: return disposedError(env, handle);
    case Outcome::Closed: return channelError(env, "closed", operation, o.message);
    case Outcome::Protocol: return channelError(env, "protocol", operation, o.message);
    default: return systemError(env, o.err, o.syscall, detail);
  }
}

Napi::Promise rejected(Napi::Env env, Napi::Value error) {
  Napi::Promise::Deferred deferred = Napi::Promise::Deferred::New(env);
  deferred.Reject(error);
  return deferred.Promise();
}

// A timeout in milliseconds; -1 waits without one.
int64_t timeoutArg(Napi::Value value) { return integerArg(value, "timeoutMs", -1, std::numeric_limits<int32_t>::max()); }

// A filesystem path or (abstract) a name in Linux's abstract namespace.
struct Address {
  sockaddr_un addr{};
  socklen_t length = 0;
  std::string detail;  // for error messages
};

Address addressArg(Napi::Value nameValue, Napi::Value abstractValue) {
  Napi::Env env = nameValue.Env();
  std::string name = stringArg(nameValue, "address");
  bool abstract = boolArg(abstractValue, "abstract");
  if (name.empty() || name.size() > kMaxAddressBytes) {
    rangeError(env, "address", "must be 1 to " + std::to_string(kMaxAddressBytes) + " bytes long, got " +
                                   std::to_string(name.size()));
  }
  if (!abstract && name.find('\0') != std::string::npos) typeError(env, "address", "a path without NUL characters");
  Address a;
  a.addr.sun_family = AF_UNIX;
  // An abstract name starts with a NUL byte and is exactly as long as given.
  std::memcpy(a.addr.sun_path + (abstract ? 1 : 0), name.data(), name.size());
  a.length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size() + 1);
  a.detail = (abstract ? "abstract=" : "path=") + name;
  return a;
}

// A new Socket around fd. Runs on any thread.
Outcome makeSocket(UniqueFd fd, const std::shared_ptr<CancelSignal>& teardown, bool connected, SocketRef* out) {
  auto socket = std::make_shared<Socket>();
  if (connected) {
    socklen_t length = sizeof socket->peer;
    if (getsockopt(fd.get(), SOL_SOCKET, SO_PEERCRED, &socket->peer, &length) != 0) {
      return Outcome::failed("getsockopt(SO_PEERCRED)", errno);
    }
  }
  int err = 0;
  socket->disposed = CancelSignal::create(&err);
  if (!socket->disposed) return Outcome::failed("eventfd", err);
  socket->fd = std::move(fd);
  socket->teardown = teardown;
  *out = std::move(socket);
  return {};
}

Outcome acceptConnection(const Socket& listener, int64_t timeoutMs, int64_t peerUid, SocketRef* out) {
  Deadline deadline(timeoutMs);
  for (;;) {
    int err = 0;
    WaitResult waited = waitFor(listener.fd.get(), POLLIN, deadline, listener.disposed.get(), *listener.teardown, &err);
    if (waited != WaitResult::Ready) return Outcome::of(waited, err);
    UniqueFd fd(accept4(listener.fd.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (fd.get() < 0) {
      // The connection went away or was taken before this call: wait for the next.
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED) continue;
      return Outcome::failed("accept4", errno);
    }
    Outcome made = makeSocket(std::move(fd), listener.teardown, true, out);
    if (!made.ok()) return made;
    // A peer of another user is refused (closed) and the wait goes on.
    if (peerUid >= 0 && (*out)->peer.uid != static_cast<uid_t>(peerUid)) {
      out->reset();
      continue;
    }
    return {};
  }
}

Outcome connectTo(const Address& address, int64_t timeoutMs, const std::shared_ptr<CancelSignal>& teardown,
                  SocketRef* out) {
  Deadline deadline(timeoutMs);
  UniqueFd fd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (fd.get() < 0) return Outcome::failed("socket", errno);
  int backoffMs = 1;
  for (;;) {
    if (connect(fd.get(), reinterpret_cast<const sockaddr*>(&address.addr), address.length) == 0) break;
    int e = errno;
    if (e == EINTR) continue;
    if (e == EISCONN) break;
    if (e != EAGAIN) return Outcome::failed("connect", e);
    // The listener's backlog is full; a non-blocking Unix socket cannot wait
    // for room, so try again shortly, within the deadline.
    int slice = deadline.remainingMs();
    if (slice == 0) return Outcome::of(WaitResult::TimedOut, 0);
    if (slice < 0 || slice > backoffMs) slice = backoffMs;
    backoffMs = std::min(backoffMs * 2, 100);
    int err = 0;
    WaitResult waited = waitFor(-1, 0, Deadline(slice), nullptr, *teardown, &err);
    if (waited != WaitResult::TimedOut) return Outcome::of(waited, err);
  }
  return makeSocket(std::move(fd), teardown, true, out);
}

Outcome sendFrame(Socket& s, const std::vector<char>& frame, const std::vector<UniqueFd>& fds, int64_t timeoutMs) {
  Deadline deadline(timeoutMs);
  alignas(cmsghdr) char control[kControlBytes];
  size_t sent = 0;
  while (sent < frame.size()) {
    int err = 0;
    WaitResult waited = waitFor(s.fd.get(), POLLOUT, deadline, s.disposed.get(), *s.teardown, &err);
    if (waited != WaitResult::Ready) {
      if (sent > 0) s.breakOff();
      return Outcome::of(waited, err);
    }
    iovec iov{const_cast<char*>(frame.data()) + sent, frame.size() - sent};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    // The descriptors go with the first bytes only.
    if (sent == 0 && !fds.empty()) {
      std::memset(control, 0, sizeof control);
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      for (size_t i = 0; i < fds.size(); ++i) {
        int fd = fds[i].get();
        std::memcpy(CMSG_DATA(c) + i * sizeof(int), &fd, sizeof fd);
      }
    }
    ssize_t n = sendmsg(s.fd.get(), &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      int e = errno;
      if (e == EINTR || e == EAGAIN || e == EWOULDBLOCK) continue;
      if (sent > 0) s.breakOff();
      if (e == EPIPE || e == ECONNRESET) return Outcome::closed("the peer closed the connection");
      return Outcome::failed("sendmsg", e);
    }
    sent += static_cast<size_t>(n);
  }
  return {};
}

Outcome tooManyFds(size_t arrived, size_t limit, const char* limitName) {
  return Outcome::protocol("the peer sent more descriptors than " + std::string(limitName) + " (" +
                           std::to_string(arrived) + " > " + std::to_string(limit) + "); those that arrived were closed");
}

// Takes ownership of the descriptors a recvmsg delivered, so that none leaks
// whatever is judged of them. With MSG_CTRUNC the kernel installs only those
// that fit the control buffer, and those are what it holds.
void takeDescriptors(msghdr& msg, std::vector<UniqueFd>& fds) {
  const char* end = static_cast<const char*>(msg.msg_control) + msg.msg_controllen;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len < CMSG_LEN(0)) continue;
    const char* data = reinterpret_cast<const char*>(CMSG_DATA(c));
    size_t bytes = std::min<size_t>(c->cmsg_len - CMSG_LEN(0), static_cast<size_t>(end - data));
    for (size_t i = 0; i < bytes / sizeof(int); ++i) {
      int fd;
      std::memcpy(&fd, data + i * sizeof(int), sizeof fd);
      fds.emplace_back(fd);
    }
  }
}

// Reads exactly n bytes of the message being received into dst, keeping the
// descriptors that arrive on the way; consumed counts the message's bytes so
// far. More than fdLimit descriptors in all (the count the header announced,
// or while the header is still coming, the most a message may carry; limitName
// says which) fail the read at once: a peer must not make this process hold
// descriptors it never announced while the rest of the message is awaited.
Outcome readExact(Socket& s, char* dst, size_t n, const Deadline& deadline, size_t fdLimit, const char* limitName,
                  std::vector<UniqueFd>& fds, size_t& consumed) {
  alignas(cmsghdr) char control[kControlBytes];
  size_t got = 0;
  while (got < n) {
    int err = 0;
    WaitResult waited = waitFor(s.fd.get(), POLLIN, deadline, s.disposed.get(), *s.teardown, &err);
    if (waited != WaitResult::Ready) {
      if (consumed > 0) s.breakOff();
      return Outcome::of(waited, err);
    }
    iovec iov{dst + got, n - got};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t r = recvmsg(s.fd.get(), &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (r < 0) {
      int e = errno;
      if (e == EINTR || e == EAGAIN || e == EWOULDBLOCK) continue;
      if (consumed > 0) s.breakOff();
      if (e == ECONNRESET) return Outcome::closed("the peer closed the connection");
      return Outcome::failed("recvmsg", e);
    }
    takeDescriptors(msg, fds);
    if (msg.msg_flags & MSG_CTRUNC) {
      s.breakOff();
      return Outcome::protocol("the peer sent more than " + std::to_string(kMaxFds) +
                               " descriptors with a message (MSG_CTRUNC); those that arrived were closed");
    }
    if (fds.size() > fdLimit) {
      s.breakOff();
      return tooManyFds(fds.size(), fdLimit, limitName);
    }
    if (r == 0) {
      if (consumed == 0) return Outcome::closed("the peer closed the connection");
      s.breakOff();
      return Outcome::closed("the peer closed the connection in the middle of a message");
    }
    got += static_cast<size_t>(r);
    consumed += static_cast<size_t>(r);
  }
  return {};
}

struct Received {
  std::vector<char> payload;
  std::vector<UniqueFd> fds;
};

Outcome receiveFrame(Socket& s, int64_t timeoutMs, Received* out) {
  Deadline deadline(timeoutMs);
  FrameHeader header{};
  size_t consumed = 0;
  Outcome o = readExact(s, reinterpret_cast<char*>(&header), sizeof header, deadline, kMaxFds, "a message may carry",
                        out->fds, consumed);
  if (!o.ok()) return o;
  if (header.magic != kMagic) {
    s.breakOff();
    return Outcome::protocol("the peer sent something that is not a message of this channel");
  }
  if (header.payloadBytes > kMaxPayloadBytes || header.fdCount > kMaxFds) {
    s.breakOff();
    return Outcome::protocol("the peer announced " + std::to_string(header.payloadBytes) + " payload bytes and " +
                             std::to_string(header.fdCount) + " descriptors; the limits are " +
                             std::to_string(kMaxPayloadBytes) + " and " + std::to_string(kMaxFds));
  }
  const char* announced = "its message announced";
  if (out->fds.size() > header.fdCount) {
    s.breakOff();
    return tooManyFds(out->fds.size(), header.fdCount, announced);
  }
  out->payload.resize(header.payloadBytes);
  o = readExact(s, out->payload.data(), out->payload.size(), deadline, header.fdCount, announced, out->fds, consumed);
  if (!o.ok()) return o;
  if (out->fds.size() != header.fdCount) {
    s.breakOff();
    return Outcome::protocol("the message announced " + std::to_string(header.fdCount) + " descriptors but " +
                             std::to_string(out->fds.size()) + " arrived; they were closed");
  }
  return {};
}

}  // namespace

// A descriptor this process owns (received from a peer, or made by an export),
// closed when disposed unless taken.
class ReceivedFd : public Handle<ReceivedFd, FdBox> {
 public:
  static constexpr const char* kName = "ReceivedFd";
};

class FdChannel : public Handle<FdChannel, SocketBox> {
 public:
  static constexpr const char* kName = "FdChannel";

  static Napi::Value newSocketSlot(Napi::Env env, SocketRef socket) {
    auto box = std::make_shared<SocketBox>();
    box->socket = std::move(socket);
    return newSlot(env, std::move(box));
  }
};

class FdChannelServer : public Handle<FdChannelServer, SocketBox> {
 public:
  static constexpr const char* kName = "FdChannelServer";
};

Napi::Value newOwnedFdSlot(Napi::Env env, int fd) {
  auto box = std::make_shared<FdBox>();
  box->fd.reset(fd);
  return ReceivedFd::newSlot(env, std::move(box));
}

namespace {

struct SendJob {
  std::vector<char> frame;
  std::vector<UniqueFd> fds;
  Outcome outcome;
};
struct ReceiveJob {
  Received received;
  Outcome outcome;
};
struct SocketJob {
  SocketRef socket;
  Outcome outcome;
};
constexpr const char* kBrokenMessage =
    "the channel was shut down after a message was cut off midway (a timeout or a peer that went away)";

}  // namespace

Napi::Value ReceivedFdNumber(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), ReceivedFd::fromSlot(info[0], "fd")->fd.get());
}

Napi::Value ReceivedFdTake(const Napi::CallbackInfo& info) {
  SlotTable& table = slotTable(info.Env());
  int fd = ReceivedFd::fromSlot(table, info[0], "fd")->fd.release();
  table.dispose(slotArg(info[0]));
  return Napi::Number::New(info.Env(), fd);
}

Napi::Value FdChannelPeer(const Napi::CallbackInfo& info) {
  const ucred peer = FdChannel::fromSlot(info[0], "channel")->socket->peer;
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("pid", static_cast<double>(peer.pid));
  out.Set("uid", static_cast<double>(peer.uid));
  out.Set("gid", static_cast<double>(peer.gid));
  return out;
}

Napi::Value FdChannelSend(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // The descriptors first: reading them may run JavaScript (getters), which
  // could detach the payload's buffer if its memory were already in hand.
  if (!info[2].IsArray()) typeError(env, "fds", "an array");
  Napi::Array fdList = info[2].As<Napi::Array>();
  if (fdList.Length() > kMaxFds) {
    rangeError(env, "fds", "must hold at most " + std::to_string(kMaxFds) + " descriptors, got " +
                               std::to_string(fdList.Length()));
  }
  std::vector<int> given;
  for (uint32_t i = 0; i < fdList.Length() && i < kMaxFds; ++i) {
    std::string name = "fds[" + std::to_string(i) + "]";
    given.push_back(static_cast<int>(integerArg(fdList.Get(i), name.c_str(), 0, std::numeric_limits<int32_t>::max())));
  }
  int64_t timeoutMs = timeoutArg(info[3]);
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
    typeError(env, "payload", "a Uint8Array");
  }
  Napi::Uint8Array payload = info[1].As<Napi::Uint8Array>();
  if (payload.ByteLength() > kMaxPayloadBytes) {
    rangeError(env, "payload", "must be at most " + std::to_string(kMaxPayloadBytes) + " bytes, got " +
                                   std::to_string(payload.ByteLength()));
  }
  SocketRef socket = FdChannel::fromSlot(info[0], "channel")->socket;
  auto job = std::make_shared<SendJob>();
  FrameHeader header{kMagic, static_cast<uint32_t>(payload.ByteLength()), static_cast<uint32_t>(given.size())};
  job->frame.resize(sizeof header + payload.ByteLength());
  std::memcpy(job->frame.data(), &header, sizeof header);
  if (payload.ByteLength() > 0) std::memcpy(job->frame.data() + sizeof header, payload.Data(), payload.ByteLength());

  if (socket->broken) return rejected(env, channelError(env, "closed", "send", kBrokenMessage));
  if (socket->sending.exchange(true)) {
    throw Napi::Error::New(env, "a send is already in progress on this FdChannel; await it first");
  }
  try {
    for (size_t i = 0; i < given.size(); ++i) {
      UniqueFd copy(fcntl(given[i], F_DUPFD_CLOEXEC, 0));
      if (copy.get() < 0) {
        throwSystemError(env, errno, "fcntl(F_DUPFD_CLOEXEC)", "fds[" + std::to_string(i) + "]=" + std::to_string(given[i]));
      }
      job->fds.push_back(std::move(copy));
    }
    return runOnWaitThread(
        env,
        [socket, job, timeoutMs] {
          job->outcome = guarded([&] { return sendFrame(*socket, job->frame, job->fds, timeoutMs); });
          job->fds.clear();
        },
        // The flag drops here, on the JavaScript thread, so "in progress" means
        // exactly "its promise has not settled".
        [socket, job, timeoutMs](Napi::Env env, Napi::Promise::Deferred& deferred) {
          socket->sending = false;
          if (job->outcome.ok()) {
            deferred.Resolve(env.Undefined());
          } else {
            deferred.Reject(outcomeError(env, job->outcome, "send", timeoutMs, FdChannel::kName));
          }
        });
  } catch (...) {
    socket->sending = false;
    throw;
  }
}

Napi::Value FdChannelReceive(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int64_t timeoutMs = timeoutArg(info[1]);
  SocketRef socket = FdChannel::fromSlot(info[0], "channel")->socket;
  if (socket->broken) return rejected(env, channelError(env, "closed", "receive", kBrokenMessage));
  if (socket->receiving.exchange(true)) {
    throw Napi::Error::New(env, "a receive is already in progress on this FdChannel; await it first");
  }
  auto job = std::make_shared<ReceiveJob>();
  try {
    return runOnWaitThread(
        env,
        [socket, job, timeoutMs] {
          job->outcome = guarded([&] { return receiveFrame(*socket, timeoutMs, &job->received); });
          if (!job->outcome.ok()) job->received.fds.clear();
        },
        [socket, job, timeoutMs](Napi::Env env, Napi::Promise::Deferred& deferred) {
          socket->receiving = false;
          if (!job->outcome.ok()) {
            deferred.Reject(outcomeError(env, job->outcome, "receive", timeoutMs, FdChannel::kName));
            return;
          }
          std::vector<char>& payload = job->received.payload;
          std::vector<UniqueFd>& fds = job->received.fds;
          Napi::Array wrapped = Napi::Array::New(env, fds.size());
          // Each descriptor moves into its handle; any left (if wrapping throws) close with the job.
          for (size_t i = 0; i < fds.size(); ++i) {
            auto box = std::make_shared<FdBox>();
            box->fd = std::move(fds[i]);
            wrapped.Set(static_cast<uint32_t>(i), ReceivedFd::newSlot(env, std::move(box)));
          }
          Napi::Object message = Napi::Object::New(env);
          message.Set("payload", Napi::Buffer<char>::Copy(env, payload.data(), payload.size()));
          message.Set("fds", wrapped);
          deferred.Resolve(message);
        });
  } catch (...) {
    socket->receiving = false;
    throw;
  }
}

Napi::Value FdChannelServerAccept(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int64_t timeoutMs = timeoutArg(info[1]);
  int64_t peerUid = integerArg(info[2], "peerUid", -1, std::numeric_limits<uint32_t>::max());
  SocketRef listener = FdChannelServer::fromSlot(info[0], "server")->socket;
  auto job = std::make_shared<SocketJob>();
  return runOnWaitThread(
      env,
      [listener, job, timeoutMs, peerUid] {
        job->outcome = guarded([&] { return acceptConnection(*listener, timeoutMs, peerUid, &job->socket); });
      },
      [job, timeoutMs](Napi::Env env, Napi::Promise::Deferred& deferred) {
        if (job->outcome.ok()) {
          deferred.Resolve(FdChannel::newSocketSlot(env, std::move(job->socket)));
        } else {
          deferred.Reject(outcomeError(env, job->outcome, "accept", timeoutMs, FdChannelServer::kName));
        }
      });
}

Napi::Value FdChannelListen(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Address address = addressArg(info[0], info[1]);
  bool abstract = info[1].As<Napi::Boolean>().Value();
  int backlog = static_cast<int>(integerArg(info[2], "backlog", 1, 65535));
  std::shared_ptr<CancelSignal> teardown = teardownSignal(env);
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (fd.get() < 0) throwSystemError(env, errno, "socket");
  SocketRef socket;
  Outcome made = makeSocket(std::move(fd), teardown, false, &socket);
  if (!made.ok()) throwSystemError(env, made.err, made.syscall);
  auto box = std::make_shared<SocketBox>();
  box->socket = socket;
  if (bind(socket->fd.get(), reinterpret_cast<const sockaddr*>(&address.addr), address.length) != 0) {
    throwSystemError(env, errno, "bind", address.detail);
  }
  if (!abstract) {
    // From here on the box removes the path it made (also if listen fails).
    struct stat st;
    std::string path = info[0].As<Napi::String>().Utf8Value();
    if (stat(path.c_str(), &st) == 0) {
      box->boundPath = path;
      box->boundDevice = st.st_dev;
      box->boundInode = st.st_ino;
    }
  }
  if (listen(socket->fd.get(), backlog) != 0) throwSystemError(env, errno, "listen", address.detail);
  return FdChannelServer::newSlot(env, std::move(box));
}

Napi::Value FdChannelConnect(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto address = std::make_shared<Address>(addressArg(info[0], info[1]));
  int64_t timeoutMs = timeoutArg(info[2]);
  std::shared_ptr<CancelSignal> teardown = teardownSignal(env);
  auto job = std::make_shared<SocketJob>();
  return runOnWaitThread(
      env,
      [address, job, timeoutMs, teardown] {
        job->outcome = guarded([&] { return connectTo(*address, timeoutMs, teardown, &job->socket); });
      },
      [address, job, timeoutMs](Napi::Env env, Napi::Promise::Deferred& deferred) {
        if (job->outcome.ok()) {
          deferred.Resolve(FdChannel::newSocketSlot(env, std::move(job->socket)));
        } else {
          deferred.Reject(outcomeError(env, job->outcome, "connect", timeoutMs, FdChannel::kName, address->detail));
        }
      });
}

Napi::Value FdChannelLimits(Napi::Env env) {
  Napi::Object limits = Napi::Object::New(env);
  limits.Set("maxPayloadBytes", static_cast<double>(kMaxPayloadBytes));
  limits.Set("maxFds", static_cast<double>(kMaxFds));
  limits.Set("maxAddressBytes", static_cast<double>(kMaxAddressBytes));
  return limits;
}

}  // namespace cudrv
