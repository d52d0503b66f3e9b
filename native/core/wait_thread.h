// Waits that may block for long (accepting a connection, receiving a message,
// each with a timeout) run on a thread of their own: never on the JavaScript
// thread, and never on libuv's small shared pool, where a few long waits would
// hold up every fs, dns and crypto call, and every GPU-completion promise, queued
// behind them. A wait polls its descriptor together with cancel signals, one
// fired when the object it works on is disposed and one when its JavaScript
// environment is torn down, so no wait outlives either; and a third lib/ may
// fire (an AbortSignal), which ends the wait as a dispose would.
#pragma once

#include <napi.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

namespace cudrv {

// A latched, thread-safe signal that poll() can watch: an eventfd that becomes
// readable when fire() is called, and stays so.
class CancelSignal {
 public:
  // The new signal, or null with *err set (EMFILE, ...).
  static std::shared_ptr<CancelSignal> create(int* err);
  ~CancelSignal();
  CancelSignal(const CancelSignal&) = delete;
  CancelSignal& operator=(const CancelSignal&) = delete;

  void fire() const;
  int fd() const { return fd_; }

 private:
  explicit CancelSignal(int fd) : fd_(fd) {}
  int fd_;
};

// The signal fired when env is torn down (a worker thread ending, the process
// exiting); made on first use. Throws a SystemError if no eventfd can be made.
std::shared_ptr<CancelSignal> teardownSignal(Napi::Env env);

// The time a wait must end by, if any.
class Deadline {
 public:
  // timeoutMs < 0: no deadline.
  explicit Deadline(int64_t timeoutMs);
  // What poll() takes: -1 without a deadline, 0 once it has passed.
  int remainingMs() const;

 private:
  bool bounded_;
  std::chrono::steady_clock::time_point end_;
};

enum class WaitResult { Ready, TimedOut, Cancelled, Failed };

// Waits until fd reports one of events (or an error or hang-up, which the next
// call on fd reports), the deadline passes, or cancel (may be null), teardown or
// the wait's own cancel signal (armWaitCancel, below) fires. fd < 0 waits for
// the deadline or the signals only. Failed sets *err.
WaitResult waitFor(int fd, short events, const Deadline& deadline, const CancelSignal* cancel,
                   const CancelSignal& teardown, int* err);

// Runs work on a new thread; when it is done, settle runs on the JavaScript
// thread and resolves or rejects the promise returned here (a Napi::Error that
// settle throws rejects it, and so does an exception work throws). If env is
// torn down first, settle never runs. The wait takes the cancel signal armed
// for it, if any.
Napi::Promise runOnWaitThread(Napi::Env env, std::function<void()> work,
                              std::function<void(Napi::Env, Napi::Promise::Deferred&)> settle);

}  // namespace cudrv
