// A worker's teardown waits for GPU work that holds JavaScript values. Those
// die with the environment (a registered buffer's memory goes back to the
// heap), which must not happen while the GPU may still reach them. The wait is
// bounded, once for the whole teardown, so that a worker whose work never ends
// still ends; work still running after it is left as it is, with all it holds.
#pragma once

#include <napi.h>

#include <functional>
#include <memory>

namespace cudrv {

// Asks over() until it says the work is over or the teardown's wait is spent,
// and returns its last answer. On the environment's thread, during its teardown.
bool waitDuringTeardown(const std::function<bool()>& over);

// Work in flight that another thread watches, holding JavaScript values.
struct HeldWork {
  virtual ~HeldWork() = default;
  // Whether the watching thread has seen the work end (or fail to end): from any thread.
  virtual bool settled() const = 0;
  // Once settled: lets go of what the work held, here, on the environment's thread.
  virtual void releaseHere() = 0;
};

// env's teardown waits for work (held weakly).
void waitForAtTeardown(Napi::Env env, const std::shared_ptr<HeldWork>& work);

// At env's teardown: waits for the work waitForAtTeardown named that still
// lives, and lets go of what it held once it is over; nothing when the process
// is exiting.
void waitForHeldWork(Napi::Env env);

}  // namespace cudrv
