#include "waiter.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "errors.h"
#include "js_thread.h"

namespace cudrv {

namespace {

struct Task {
  std::function<void()> work;
  std::function<void(Napi::Env)> done;
  JsThreadTicket ticket;
};

// Process-wide pool of wait threads: grows while every thread is busy (each
// wait blocks its thread); idle threads stay for the next wait.
class WaitPool {
 public:
  void submit(Task task) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
    // An idle thread already woken for an earlier task still counts as idle
    // until it takes that task: compare with the whole queue, or a second wait
    // would queue behind a blocking first one (a send behind a receive).
    if (queue_.size() > static_cast<size_t>(idle_)) {
      std::thread([this] { run(); }).detach();
    } else {
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
      ready_.wait(lock, [this] { return !queue_.empty(); });
      --idle_;
      Task task = std::move(queue_.front());
      queue_.pop_front();
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
