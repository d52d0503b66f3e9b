// Handing work from other threads (the library's wait threads, CUDA's callback
// thread) back to the JavaScript thread of one environment. CUDA calls are
// forbidden on CUDA's own threads and JavaScript runs only on its thread, so
// anything that must happen "when the GPU gets here" goes through this.
//
// Every environment has one channel. When the environment is torn down (a
// worker ending, the process exiting) the channel closes under a lock, so no
// other thread touches Node's structures after that: work sent later is
// dropped, and deliberately leaked rather than destroyed off its thread.
#pragma once

#include <napi.h>

#include <functional>
#include <memory>

namespace cudrv {

struct JsThreadChannel;

// One pending delivery. Taken on the JavaScript thread; while any is pending the
// event loop stays alive, as it does for pending I/O.
class JsThreadTicket {
 public:
  static JsThreadTicket take(Napi::Env env);

  // Runs work on the JavaScript thread later. Callable once, from any thread;
  // never blocks.
  void deliver(std::function<void(Napi::Env)> work);

  // Gives the ticket back unused (JavaScript thread), when what would have
  // delivered it could not be queued.
  void cancel(Napi::Env env);

 private:
  explicit JsThreadTicket(std::shared_ptr<JsThreadChannel> channel) : channel_(std::move(channel)) {}
  std::shared_ptr<JsThreadChannel> channel_;
};

// Repeated deliveries from other threads for as long as the port lives (a
// graph's host node runs at every launch). Unlike a ticket, an open port does
// not keep the event loop alive: work queued on the GPU does that only while
// someone waits for it.
class JsThreadPort {
 public:
  // Opened on the JavaScript thread.
  static std::shared_ptr<JsThreadPort> open(Napi::Env env);

  // From any thread, any number of times; never blocks.
  void post(std::function<void(Napi::Env)> work);

 private:
  explicit JsThreadPort(std::shared_ptr<JsThreadChannel> channel) : channel_(std::move(channel)) {}
  std::shared_ptr<JsThreadChannel> channel_;
};

// Closes this environment's channel (environment teardown).
void closeJsThreadChannel(Napi::Env env);

}  // namespace cudrv
