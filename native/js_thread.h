// Handing work from other threads (the library's wait threads, CUDA's callback
// thread) back to the JavaScript thread of one environment. CUDA calls are
// forbidden on CUDA's own threads and JavaScript runs only on its thread, so
// anything that must happen "when the GPU gets here" goes through this.
#pragma once

#include <napi.h>

#include <functional>

namespace cudrv {

// One pending delivery. Taken on the JavaScript thread; while any is pending the
// event loop stays alive, as it does for pending I/O.
class JsThreadTicket {
 public:
  static JsThreadTicket take(Napi::Env env);

  // Runs work on the JavaScript thread later. Callable once, from any thread;
  // never blocks. If the environment is closing, work is dropped unrun and
  // deliberately leaked (its captures are not destroyed off their thread).
  void deliver(std::function<void(Napi::Env)> work);

  // Gives the ticket back unused (JavaScript thread), when what would have
  // delivered it could not be queued.
  void cancel(Napi::Env env);

 private:
  explicit JsThreadTicket(napi_threadsafe_function channel) : channel_(channel) {}
  napi_threadsafe_function channel_;
};

// Closes this environment's channel (environment teardown).
void closeJsThreadChannel(Napi::Env env);

}  // namespace cudrv
