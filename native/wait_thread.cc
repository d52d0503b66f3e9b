#include "wait_thread.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <thread>

#include "addon_data.h"
#include "errors.h"

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
    pollfd fds[3] = {{fd, events, 0}, {teardown.fd(), POLLIN, 0}, {cancel ? cancel->fd() : -1, POLLIN, 0}};
    int n = poll(fds, 3, deadline.remainingMs());
    if (n < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return WaitResult::Failed;
    }
    if (fds[1].revents || fds[2].revents) return WaitResult::Cancelled;
    if (fds[0].revents & POLLNVAL) {
      *err = EBADF;
      return WaitResult::Failed;
    }
    if (fds[0].revents) return WaitResult::Ready;
    if (n == 0 && deadline.remainingMs() == 0) return WaitResult::TimedOut;
  }
}

namespace {

struct WaitJob {
  std::function<void()> work;
  std::function<void(Napi::Env, Napi::Promise::Deferred&)> settle;
  Napi::Promise::Deferred deferred;
  std::thread thread;
  std::string failure;  // what work threw (std::bad_alloc, ...), if it threw
};

void settleOnJsThread(Napi::Env env, Napi::Function, WaitJob* job, void*) {
  // A null env: the environment is being torn down and job may be gone already.
  if (static_cast<napi_env>(env) == nullptr) return;
  try {
    if (!job->failure.empty()) throw Napi::Error::New(env, job->failure);
    job->settle(env, job->deferred);
  } catch (const Napi::Error& e) {
    job->deferred.Reject(e.Value());
  } catch (const std::exception& e) {
    job->deferred.Reject(Napi::Error::New(env, e.what()).Value());
  }
}

// Runs on the JavaScript thread once the wait thread has let go of the function
// (or the environment is torn down, after its cancel signal woke the thread).
void finishJob(Napi::Env, void*, WaitJob* job) {
  if (job->thread.joinable()) job->thread.join();
  delete job;
}

using Completion = Napi::TypedThreadSafeFunction<WaitJob, void, settleOnJsThread>;

}  // namespace

Napi::Promise runOnWaitThread(Napi::Env env, std::function<void()> work,
                              std::function<void(Napi::Env, Napi::Promise::Deferred&)> settle) {
  auto job = std::make_unique<WaitJob>(WaitJob{std::move(work), std::move(settle), Napi::Promise::Deferred::New(env), {}, {}});
  Napi::Promise promise = job->deferred.Promise();
  Completion done = Completion::New(env, "cuda-driver:wait", 0, 1, job.get(), finishJob);
  WaitJob* owned = job.release();  // finishJob deletes it from now on
  try {
    owned->thread = std::thread([owned, done]() {
      try {
        owned->work();
      } catch (const std::exception& e) {
        owned->failure = std::string("wait thread: ") + e.what();
      }
      // napi_closing: the environment is going away; the function must not be touched again.
      if (done.BlockingCall() == napi_ok) done.Release();
    });
  } catch (const std::system_error& e) {
    done.Release();
    throwSystemError(env, e.code().value(), "pthread_create");
  }
  return promise;
}

}  // namespace cudrv
