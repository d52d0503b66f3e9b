#include "waiter.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "errors.h"
#include "js_thread.h"

namespace cudrv {

namespace {

struct Task {
  std::function<void()> work;
  std::function<void(Napi::Env)> done;
  JsThreadTicket ticket;
};

// How long one idle wait thread looks for the next wait before it sleeps. A
// loop that awaits the GPU submits its next wait a few microseconds after the
// last one ended; found by a thread still looking, the wait starts without a
// futex wake-up (2 to 15 microseconds of the await on the GPU host's VMs:
// bench/HISTORY.md).
constexpr std::chrono::microseconds kLookBeforeSleep{100};

// A spin-wait step: lets the core's other hardware thread run.
void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Process-wide pool of wait threads: grows while every thread is busy (each
// wait blocks its thread); idle threads stay for the next wait, one of them
// looking for it for a moment before it sleeps.
class WaitPool {
 public:
  void submit(Task task) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
    queued_.store(queue_.size(), std::memory_order_release);
    // An idle thread already woken for an earlier task still counts as idle
    // until it takes that task: compare with the whole queue, or a second wait
    // would queue behind a blocking first one (a send behind a receive).
    if (queue_.size() > static_cast<size_t>(idle_)) {
      std::thread([this] { run(); }).detach();
    } else if (queue_.size() > 1 || !looking_.load(std::memory_order_acquire)) {
      // (A thread looking takes a lone task: it checks the queue under this
      // lock before it sleeps, so waking a sleeping one would only cost a call.)
      ready_.notify_one();
    }
  }

 private:
  void run() {
    // Waits from this thread must not invalidate a global capture elsewhere.
    // (Without a loaded driver this is a no-op: the table entry is empty.)
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    CU_CALL(cuThreadExchangeStreamCaptureMode, &mode);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      ++idle_;
      if (queue_.empty() && !looking_.exchange(true, std::memory_order_acquire)) {
        lock.unlock();
        const auto until = std::chrono::steady_clock::now() + kLookBeforeSleep;
        while (queued_.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < until) relax();
        looking_.store(false, std::memory_order_release);
        lock.lock();
      }
      ready_.wait(lock, [this] { return !queue_.empty(); });
      --idle_;
      Task task = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_release);
      lock.unlock();
      task.work();
      // The functions travel back, so what they hold is released on the
      // JavaScript thread, never here.
      task.ticket.deliver([work = std::move(task.work), done = std::move(task.done)](Napi::Env env) { done(env); });
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> queue_;
  int idle_ = 0;
  std::atomic<size_t> queued_{0};   // queue_.size(), read without the lock by the thread looking
  std::atomic<bool> looking_{false};  // one idle thread looks before it sleeps; the others sleep
};

WaitPool& pool() {
  // Never destroyed: detached threads may still use it at process exit.
  static WaitPool* instance = new WaitPool();
  return *instance;
}

}  // namespace

void runOffThread(Napi::Env env, std::function<void()> work, std::function<void(Napi::Env)> done) {
  pool().submit({std::move(work), std::move(done), JsThreadTicket::take(env)});
}

Napi::Promise waitPromise(Napi::Env env, std::function<CUresult()> wait, Fn fn, std::string detail,
                          std::function<void()> onSuccess) {
  auto deferred = std::make_shared<Napi::Promise::Deferred>(env);
  auto result = std::make_shared<CUresult>(CUDA_SUCCESS);
  runOffThread(
      env, [wait, result] { *result = wait(); },
      [deferred, result, fn, detail, onSuccess](Napi::Env env) {
        if (*result != CUDA_SUCCESS) {
          deferred->Reject(makeCudaError(env, *result, fn, detail));
          return;
        }
        if (onSuccess) onSuccess();
        deferred->Resolve(env.Undefined());
      });
  return deferred->Promise();
}

}  // namespace cudrv
