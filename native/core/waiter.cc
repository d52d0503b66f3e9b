#include "core/waiter.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "core/addon_data.h"
#include "core/args.h"
#include "core/completion_poll.h"
#include "core/spin.h"
#include "core/errors.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

// A wait's two halves: work for a wait thread, done for the JavaScript thread.
struct Job {
  std::function<void()> work;
  std::function<void(Napi::Env)> done;
};

// A queued wait. Its delivery owns the job and was made on the JavaScript
// thread, so the wait thread allocates and lets go of nothing: once work has
// returned it only sends the delivery, and what the job holds is let go on
// the JavaScript thread.
struct Task {
  Job* job;
  PreparedDelivery delivery;
  bool pollable;  // see PreparedDelivery::send
};

// How long one idle wait thread looks for the next wait before it sleeps. A
// loop that awaits the GPU submits its next wait a few microseconds after the
// last one ended; found by a thread still looking, the wait starts without a
// futex wake-up, which would be most of the await's cost (bench/wait-latency.js).
constexpr std::chrono::microseconds kLookBeforeSleep{100};

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
        spinUntil([this] { return queued_.load(std::memory_order_acquire) != 0; }, kLookBeforeSleep);
        looking_.store(false, std::memory_order_release);
        lock.lock();
      }
      ready_.wait(lock, [this] { return !queue_.empty(); });
      --idle_;
      Task task = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_release);
      lock.unlock();
      task.job->work();
      task.delivery.send(task.pollable);
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

namespace {

// The task of a wait: its job, and the delivery that runs done and owns both.
Task taskOf(JsThreadTicket& ticket, std::function<void()> work, std::function<void(Napi::Env)> done, bool reapable,
            bool pollable) {
  auto job = std::make_shared<Job>(Job{std::move(work), std::move(done)});
  Job* running = job.get();
  PreparedDelivery delivery = ticket.prepare([job = std::move(job)](Napi::Env env) { job->done(env); }, reapable);
  return {running, delivery, pollable};
}

}  // namespace

void runOffThread(Napi::Env env, std::function<void()> work, std::function<void(Napi::Env)> done,
                  OffThreadOptions options) {
  JsThreadTicket ticket = JsThreadTicket::take(env);
  if (!options.keepAlive) ticket.cancel(env);
  pool().submit(taskOf(ticket, std::move(work), std::move(done), options.reapable, false));
}

GpuWait::GpuWait(Napi::Env env, Fn fn, std::function<void()> onSuccess)
    : deferred_(Napi::Promise::Deferred::New(env)),
      ticket_(JsThreadTicket::take(env)),
      fn_(fn),
      onSuccess_(std::move(onSuccess)) {}

std::shared_ptr<GpuWait> GpuWait::start(Napi::Env env, std::function<CUresult()> wait, Fn fn,
                                        std::function<void()> onSuccess, bool spins) {
  auto gpuWait = std::make_shared<GpuWait>(env, fn, std::move(onSuccess));
  gpuWait->polled_ = spins && beginPolledWait(env);
  // The wait's own ticket delivers; abandon() cancels the same hold. What the
  // functions hold (boxes, this wait) needs no JavaScript thread to be let go.
  pool().submit(taskOf(
      gpuWait->ticket_,
      [gpuWait, wait = std::move(wait)] {
        gpuWait->result_ = wait();
        if (gpuWait->result_ != CUDA_SUCCESS) gpuWait->log_ = takeDriverLog();
      },
      [gpuWait](Napi::Env env) { gpuWait->finish(env); }, true, gpuWait->polled_));
  return gpuWait;
}

void GpuWait::finish(Napi::Env env) {
  if (settled_) return;
  forget(env);
  if (result_ != CUDA_SUCCESS) {
    onSuccess_ = nullptr;
    deferred_.Reject(makeCudaError(env, result_, fn_, {}, &log_));
    return;
  }
  std::function<void()> onSuccess = std::move(onSuccess_);
  if (onSuccess) onSuccess();
  deferred_.Resolve(env.Undefined());
}

void GpuWait::abandon(Napi::Env env, Napi::Value reason) {
  if (settled_) return;
  forget(env);
  ticket_.cancel(env);
  onSuccess_ = nullptr;
  if (!reason.IsEmpty()) deferred_.Reject(reason);
}

// Settled from now on: no longer abandonable by number, nor polled for.
void GpuWait::forget(Napi::Env env) {
  settled_ = true;
  if (id_ != 0) addonData(env).abandonableWaits.erase(id_);
  if (polled_) endPolledWait(env);
  polled_ = false;
}

Napi::Object GpuWait::abandonable(Napi::Env env) {
  AddonData& data = addonData(env);
  id_ = ++data.lastWaitId;
  Napi::Object out = Napi::Object::New(env);
  out.Set("promise", promise());
  out.Set("id", id_);
  // Registered last: the object made above may throw.
  data.abandonableWaits.emplace(id_, shared_from_this());
  return out;
}

void WaitsInFlight::add(Napi::Env env, const std::shared_ptr<GpuWait>& wait) {
  if (!env_) {
    env_ = env;
    home_ = JsThreadHome::of(env);
  }
  waits_.erase(std::remove_if(waits_.begin(), waits_.end(),
                              [](const std::weak_ptr<GpuWait>& w) {
                                std::shared_ptr<GpuWait> live = w.lock();
                                return !live || live->settled();
                              }),
               waits_.end());
  waits_.push_back(wait);
}

void WaitsInFlight::abandonAll(const char* what) {
  if (waits_.empty()) return;
  std::vector<std::weak_ptr<GpuWait>> waits = std::move(waits_);
  waits_.clear();
  Napi::Env env(env_);
  // While the environment is torn down no error can be made: the promises stay pending.
  bool open = home_.isCurrent();
  for (const std::weak_ptr<GpuWait>& w : waits) {
    if (std::shared_ptr<GpuWait> wait = w.lock()) wait->abandon(env, open ? disposedError(env, what) : Napi::Value());
  }
}

// abandonWait(id, reason): settles the wait numbered id with reason, if still pending.
Napi::Value AbandonWait(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  double id = static_cast<double>(integerArg(info[0], "id", 1, INT64_C(1) << 53));
  AddonData& data = addonData(env);
  auto found = data.abandonableWaits.find(id);
  if (found == data.abandonableWaits.end()) return env.Undefined();
  std::shared_ptr<GpuWait> wait = found->second;  // abandon() takes it out of the map
  wait->abandon(env, info[1]);
  return env.Undefined();
}

}  // namespace cudrv
