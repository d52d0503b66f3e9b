// Blocking work off the JavaScript thread. A blocking call (cuStreamSynchronize,
// cuEventSynchronize, waiting on a socket) runs on one of the library's own
// wait threads, never libuv's small shared pool (fs, dns and crypto need it),
// and what follows runs on the JavaScript thread of the environment that asked.
//
// Wait threads put themselves in relaxed capture mode, so a wait never
// invalidates a global-mode capture running on the JavaScript thread.
#pragma once

#include <napi.h>

#include <functional>
#include <memory>
#include <vector>

#include "driver/call.h"
#include "core/driver_log.h"
#include "core/js_thread.h"

namespace cudrv {

struct OffThreadOptions {
  // Nothing the functions hold needs the JavaScript thread to be let go of: if
  // the environment is torn down first, the reaper (native/core/reaper.h) lets go of
  // it once the teardown is over, instead of leaking it.
  bool reapable = false;
  // Until done has run, the event loop stays alive (as for pending I/O).
  bool keepAlive = true;
};

// Runs work on a wait thread, then done on env's JavaScript thread (never, if
// env is torn down first). done must not throw. What both hold is released on
// the JavaScript thread; when env is torn down first it is leaked, unless
// options say it is reapable.
void runOffThread(Napi::Env env, std::function<void()> work, std::function<void(Napi::Env)> done,
                  OffThreadOptions options = {});

// A wait for the GPU as JavaScript sees it: a promise, settled once, when the
// driver call returns, or earlier by abandon(). The driver call itself cannot
// be stopped: what it needs (the stream or event it waits on) stays with its
// wait thread until it returns, however the promise was settled.
class GpuWait : public std::enable_shared_from_this<GpuWait> {
 public:
  // Runs wait on a wait thread. On success onSuccess runs on the JavaScript
  // thread and the promise resolves (to undefined); otherwise it rejects with a
  // CudaError naming fn. wait holds what the driver call needs; onSuccess may
  // hold more, let go of when the wait is abandoned. spins: the driver call
  // spins rather than sleeps, so the JavaScript thread may poll for its end
  // (core/completion_poll.h).
  static std::shared_ptr<GpuWait> start(Napi::Env env, std::function<CUresult()> wait, Fn fn,
                                        std::function<void()> onSuccess, bool spins);
  // The promise, during the call that started the wait.
  Napi::Promise promise() const { return deferred_.Promise(); }

  // Settles the promise now, rejecting it with reason, and lets go of what the
  // JavaScript side holds, its hold on the event loop included. With an empty
  // reason (the environment is being torn down) the promise stays pending.
  // Nothing once settled. JavaScript thread.
  void abandon(Napi::Env env, Napi::Value reason);

  // The promise and a number abandonWait (JavaScript) takes: { promise, id }.
  Napi::Object abandonable(Napi::Env env);

  bool settled() const { return settled_; }

  GpuWait(Napi::Env env, Fn fn, std::function<void()> onSuccess);

 private:
  void finish(Napi::Env env);
  void forget(Napi::Env env);

  Napi::Promise::Deferred deferred_;
  JsThreadTicket ticket_;
  Fn fn_;
  std::function<void()> onSuccess_;
  CUresult result_ = CUDA_SUCCESS;  // written by the wait thread before it delivers
  DriverLogLines log_;              // what the driver logged for a failure, taken there too
  double id_ = 0;                   // its number for abandonWait, or 0
  bool settled_ = false;
  bool polled_ = false;             // counted by beginPolledWait until settled
};

// The waits in flight on one stream or event, so that its dispose() settles
// them. JavaScript thread only.
class WaitsInFlight {
 public:
  void add(Napi::Env env, const std::shared_ptr<GpuWait>& wait);
  // Rejects every wait still pending with the DisposedError of `what`; while
  // their environment is being torn down, lets go of them unsettled.
  void abandonAll(const char* what);

 private:
  napi_env env_ = nullptr;  // of the waits (a handle is used from one environment)
  JsThreadHome home_;
  std::vector<std::weak_ptr<GpuWait>> waits_;
};

}  // namespace cudrv
