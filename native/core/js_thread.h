// Handing work from other threads (the library's wait threads, CUDA's callback
// thread) back to the JavaScript thread of one environment. CUDA calls are
// forbidden on CUDA's own threads and JavaScript runs only on its thread, so
// anything that must happen "when the GPU gets here" goes through this.
//
// Every environment has one channel. When the environment is torn down (a
// worker ending, the process exiting) the channel closes under a lock, so no
// other thread touches Node's structures after that: work sent later is
// dropped, and deliberately leaked rather than destroyed off its thread
// (unless its sender hands it to the reaper, native/core/reaper.h).
#pragma once

#include <napi.h>

#include <chrono>
#include <functional>
#include <memory>

namespace cudrv {

struct JsThreadChannel;
struct Delivery;

// Work for the JavaScript thread, made there ahead of time
// (JsThreadTicket::prepare) and sent once from any thread.
class PreparedDelivery {
 public:
  // Never blocks, allocates nothing. pollable: while the JavaScript thread
  // polls for deliveries (startPolledDeliveries), the work waits for the poll
  // to take it instead of waking the thread.
  void send(bool pollable);

 private:
  friend class JsThreadTicket;
  explicit PreparedDelivery(Delivery* delivery) : delivery_(delivery) {}
  Delivery* delivery_;
};

// One pending delivery. Taken on the JavaScript thread; while any is pending the
// event loop stays alive, as it does for pending I/O.
class JsThreadTicket {
 public:
  static JsThreadTicket take(Napi::Env env);

  // Runs work on the JavaScript thread later. Callable once, from any thread;
  // never blocks. Dropped (and leaked) when the environment is gone.
  void deliver(std::function<void(Napi::Env)> work);
  // Work made ready now, on the JavaScript thread, for a thread that will send
  // it later and must neither allocate nor let go of anything then (a wait
  // thread, the moment the GPU is done). reapable: when the environment is
  // gone (when it is sent, or before it gets its turn), work is handed to the
  // reaper (native/core/reaper.h), which destroys it once the teardown is
  // over: only for work whose captures need no JavaScript thread to be let go
  // of; otherwise it is dropped and leaked, as deliver's is.
  PreparedDelivery prepare(std::function<void(Napi::Env)> work, bool reapable);
  // From a thread of CUDA's, for a host callback whose queuing counted it
  // (countWaitingHostCall): delivers work and returns once it has run (thrown
  // included), or once the environment is torn down; at once, without
  // waiting, when the JavaScript thread is blocked in a guarded wait (which
  // then throws: see BlockingWait).
  void deliverAndWait(std::function<void(Napi::Env)> work);

  // Lets go of the ticket's hold on the event loop (JavaScript thread), when
  // what would have delivered it could not be queued, or nobody waits for it
  // any more. Idempotent; a delivery that still comes runs without the hold.
  void cancel(Napi::Env env);

  struct State;  // the hold, shared by the ticket's copies and its delivery

 private:
  explicit JsThreadTicket(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
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
  // From a thread of CUDA's (a host node): posts work and returns once it has
  // run, as JsThreadTicket::deliverAndWait does; the call counts as pending
  // (see BlockingWait) from now until it has run.
  void postAndWait(std::function<void(Napi::Env)> work);

 private:
  explicit JsThreadPort(std::shared_ptr<JsThreadChannel> channel) : channel_(std::move(channel)) {}
  std::shared_ptr<JsThreadChannel> channel_;
};

// The environment a resource belongs to, as the resource remembers it: code
// that may run on any thread, or after the environment is gone, asks it
// whether it can still use the environment.
class JsThreadHome {
 public:
  // On the JavaScript thread.
  static JsThreadHome of(Napi::Env env);
  // The environment of a channel, from any thread.
  static JsThreadHome of(const std::shared_ptr<JsThreadChannel>& channel);
  // No environment: never current, torn down already.
  JsThreadHome() = default;

  // This thread is the environment's JavaScript thread, and its channel is
  // open (the environment is not being torn down).
  bool isCurrent() const;
  // This thread is the environment's JavaScript thread, and the environment
  // is still there (open, or being torn down).
  bool onItsThread() const;
  // The environment's teardown is over: nothing of it runs any more, and what
  // belonged to it may be let go on any thread (native/core/reaper.h).
  bool tornDown() const;

 private:
  explicit JsThreadHome(std::shared_ptr<JsThreadChannel> channel) : channel_(std::move(channel)) {}
  std::shared_ptr<JsThreadChannel> channel_;
};

// The deadlock guard. A host callback that CUDA's thread waits for needs the
// JavaScript thread; a blocking wait there for work behind it would never end.
// Such callbacks count as pending from when they are queued on a stream (or,
// for host nodes, reached by a launch) until they have run, and a guarded
// wait refuses to block while any is pending in its environment. A host node
// reached while the thread is blocked is not waited for, and the wait throws
// once it returns.
//
// Counts a host callback queued on a stream whose CUDA thread will wait for
// it (JavaScript thread); uncountWaitingHostCall when it could not be queued.
void countWaitingHostCall(Napi::Env env);
void uncountWaitingHostCall(Napi::Env env);
//
// A blocking wait on the JavaScript thread, under the guard: made right
// before the blocking driver call, done() right after it. Both throw an Error
// with code ERR_CUDA_HOST_CALLBACK_PENDING: the constructor instead of
// blocking while a waiting host callback is pending, done() when one became
// due during the wait. what names the call in the message.
class BlockingWait {
 public:
  BlockingWait(Napi::Env env, const char* what);
  ~BlockingWait();
  BlockingWait(const BlockingWait&) = delete;
  BlockingWait& operator=(const BlockingWait&) = delete;
  void done();

 private:
  bool leave();  // true when a host callback became due meanwhile
  Napi::Env env_;
  const char* what_;
  std::shared_ptr<JsThreadChannel> channel_;  // null: no host callback was ever queued here
};

// Polled deliveries (core/completion_poll.h). From startPolledDeliveries on,
// pollable deliveries wait in the channel instead of waking the JavaScript
// thread; runPolledDeliveries runs those waiting (JavaScript thread) and
// returns how many ran, setting *thrown to the first error one threw (it is
// not thrown: every delivery runs); stopPolledDeliveries sends those still
// waiting, and the next ones, the usual way again. awaitPolledDelivery spins
// until a delivery waits or for limit, and says whether one does. A polled
// delivery's hold on the event loop and what it captured are let go after
// what it resumed has run: by releaseSpentDeliveries, which the poll's next
// turn calls, or by stopPolledDeliveries.
void startPolledDeliveries(Napi::Env env);
size_t runPolledDeliveries(Napi::Env env, napi_value* thrown);
void releaseSpentDeliveries(Napi::Env env);
bool awaitPolledDelivery(Napi::Env env, std::chrono::nanoseconds limit);
void stopPolledDeliveries(Napi::Env env);

// Closes this environment's channel (environment teardown).
void closeJsThreadChannel(Napi::Env env);
// Marks the environment's teardown over (the last thing it does).
void finishJsThreadTeardown(Napi::Env env);

}  // namespace cudrv
