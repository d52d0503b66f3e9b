// Handing work from other threads (the library's wait threads, CUDA's callback
// thread) back to the JavaScript thread of one environment. CUDA calls are
// forbidden on CUDA's own threads and JavaScript runs only on its thread, so
// anything that must happen "when the GPU gets here" goes through this.
#pragma once

#include <napi.h>

#include <functional>
#include <memory>

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

// Repeated deliveries from other threads for as long as the port lives (a
// graph's host node runs at every launch). Unlike a ticket, an open port does
// not keep the event loop alive: work queued on the GPU does that only while
// someone waits for it.
class JsThreadPort {
 public:
  // Opened on the JavaScript thread.
  static std::shared_ptr<JsThreadPort> open(Napi::Env env);
  ~JsThreadPort();
  JsThreadPort(const JsThreadPort&) = delete;
  JsThreadPort& operator=(const JsThreadPort&) = delete;

  // From any thread, any number of times; never blocks. Dropped (and leaked)
  // if the environment is closing.
  void post(std::function<void(Napi::Env)> work);

 private:
  explicit JsThreadPort(napi_threadsafe_function channel) : channel_(channel) {}
  napi_threadsafe_function channel_;
};

// Closes this environment's channel (environment teardown).
void closeJsThreadChannel(Napi::Env env);

}  // namespace cudrv
