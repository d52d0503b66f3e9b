#include "core/wait_thread.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "core/addon_data.h"
#include "core/args.h"
#include "core/errors.h"
#include "generated/entries.h"
#include "core/waiter.h"

namespace cudrv {

std::shared_ptr<CancelSignal> CancelSignal::create(int* err) {
  int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) {
    *err = errno;
    return nullptr;
  }
  return std::shared_ptr<CancelSignal>(new CancelSignal(fd));
}

CancelSignal::~CancelSignal() { close(fd_); }

void CancelSignal::fire() const {
  uint64_t one = 1;
  // Never read, so the counter only fails to grow when it is about to overflow,
  // and then the signal is already readable.
  ssize_t written;
  do {
    written = write(fd_, &one, sizeof one);
  } while (written < 0 && errno == EINTR);
}

namespace {

// The cancel signal of the wait running on this thread, if it has one.
thread_local const CancelSignal* waitCancel = nullptr;

void fireOnTeardown(void* signal) {
  auto* held = static_cast<std::shared_ptr<CancelSignal>*>(signal);
  (*held)->fire();
  delete held;
}

}  // namespace

std::shared_ptr<CancelSignal> teardownSignal(Napi::Env env) {
  AddonData& data = addonData(env);
  if (!data.teardown) {
    int err = 0;
    std::shared_ptr<CancelSignal> signal = CancelSignal::create(&err);
    if (!signal) throwSystemError(env, err, "eventfd");
    // Environment cleanup hooks run before the handles of thread-safe functions
    // are closed, so waits wake before their threads are joined.
    napi_status status = napi_add_env_cleanup_hook(env, fireOnTeardown, new std::shared_ptr<CancelSignal>(signal));
    if (status != napi_ok) throw Napi::Error::New(env, "could not register the environment cleanup hook");
    data.teardown = std::move(signal);
  }
  return data.teardown;
}

Deadline::Deadline(int64_t timeoutMs)
    : bounded_(timeoutMs >= 0), end_(std::chrono::steady_clock::now() + std::chrono::milliseconds(bounded_ ? timeoutMs : 0)) {}

int Deadline::remainingMs() const {
  if (!bounded_) return -1;
  auto left = end_ - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero()) return 0;
  // Round up, so a wait never ends a little before its deadline.
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > INT32_MAX ? INT32_MAX : static_cast<int>(ms);
}

WaitResult waitFor(int fd, short events, const Deadline& deadline, const CancelSignal* cancel,
                   const CancelSignal& teardown, int* err) {
  for (;;) {
    pollfd fds[4] = {{fd, events, 0},
                     {teardown.fd(), POLLIN, 0},
                     {cancel ? cancel->fd() : -1, POLLIN, 0},
                     {waitCancel ? waitCancel->fd() : -1, POLLIN, 0}};
    int n = poll(fds, 4, deadline.remainingMs());
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return WaitResult::Failed;
    }
    if (fds[1].revents || fds[2].revents || fds[3].revents) return WaitResult::Cancelled;
    if (fds[0].revents & POLLNVAL) {
      *err = EBADF;
      return WaitResult::Failed;
    }
    if (fds[0].revents) return WaitResult::Ready;
    if (n == 0 && deadline.remainingMs() == 0) return WaitResult::TimedOut;
  }
}

Napi::Promise runOnWaitThread(Napi::Env env, std::function<void()> work,
                              std::function<void(Napi::Env, Napi::Promise::Deferred&)> settle) {
  auto deferred = std::make_shared<Napi::Promise::Deferred>(env);
  auto failure = std::make_shared<std::string>();  // what work threw (std::bad_alloc, ...), if it threw
  std::shared_ptr<CancelSignal> cancel = std::move(addonData(env).armedCancel);
  runOffThread(
      env,
      [work, failure, cancel] {
        waitCancel = cancel.get();
        try {
          work();
        } catch (const std::exception& e) {
          *failure = std::string("wait thread: ") + e.what();
        }
        waitCancel = nullptr;
      },
      [deferred, settle, failure](Napi::Env env) {
        try {
          if (!failure->empty()) throw Napi::Error::New(env, *failure);
          settle(env, *deferred);
        } catch (const Napi::Error& e) {
          deferred->Reject(e.Value());
        } catch (const std::exception& e) {
          deferred->Reject(Napi::Error::New(env, e.what()).Value());
        }
      });
  return deferred->Promise();
}

Napi::Value ArmWaitCancel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int err = 0;
  std::shared_ptr<CancelSignal> signal = CancelSignal::create(&err);
  if (!signal) throwSystemError(env, err, "eventfd");
  AddonData& data = addonData(env);
  // Signals whose waits have ended (held by nobody now) go first.
  for (auto it = data.waitCancels.begin(); it != data.waitCancels.end();) {
    it = it->second.expired() ? data.waitCancels.erase(it) : std::next(it);
  }
  const double id = ++data.lastWaitCancel;
  data.waitCancels.emplace(id, signal);
  data.armedCancel = std::move(signal);
  return Napi::Number::New(env, id);
}

Napi::Value DisarmWaitCancel(const Napi::CallbackInfo& info) {
  addonData(info.Env()).armedCancel.reset();
  return info.Env().Undefined();
}

Napi::Value CancelWait(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  double id = static_cast<double>(integerArg(info[0], "id", 1, INT64_C(1) << 53));
  AddonData& data = addonData(env);
  auto found = data.waitCancels.find(id);
  if (found != data.waitCancels.end()) {
    if (std::shared_ptr<CancelSignal> signal = found->second.lock()) signal->fire();
  }
  return env.Undefined();
}

}  // namespace cudrv
