#include "stream_uses.h"

#include <chrono>
#include <condition_variable>
#include <thread>
#include <utility>

#include "context.h"
#include "release.h"

namespace cudrv {

namespace {

struct RecordedEvent {
  CUevent event;
  CUcontext context;
};

struct PendingRelease {
  std::vector<RecordedEvent> events;
  std::function<void()> release;
};

// One background thread, started on first need, that waits for recorded events
// by polling (never blocking inside the driver, so process exit finds it idle)
// and then hands each release to releaseWhenSafe. Deliberately never destroyed:
// it must outlive static destruction at exit, when it simply stops.
class ReleaseWaiter {
 public:
  static ReleaseWaiter& instance() {
    static ReleaseWaiter* waiter = new ReleaseWaiter();
    return *waiter;
  }

  void add(PendingRelease pending) {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_.push_back(std::move(pending));
    if (!started_) {
      started_ = true;
      std::thread([this] { run(); }).detach();
    }
    wake_.notify_one();
  }

 private:
  static bool done(const PendingRelease& pending) {
    for (const RecordedEvent& e : pending.events) {
      setCurrent(e.context);
      if (CU_CALL(cuEventQuery, e.event) == CUDA_ERROR_NOT_READY) return false;
    }
    return true;
  }

  void run() {
    std::vector<PendingRelease> waiting;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return !pending_.empty() || !waiting.empty(); });
        for (auto& p : pending_) waiting.push_back(std::move(p));
        pending_.clear();
      }
      if (processExiting()) return;
      std::vector<PendingRelease> still;
      for (PendingRelease& p : waiting) {
        if (!done(p)) {
          still.push_back(std::move(p));
          continue;
        }
        for (const RecordedEvent& e : p.events) CU_CALL(cuEventDestroy, e.event);
        releaseWhenSafe(std::move(p.release));
      }
      waiting.swap(still);
      if (!waiting.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<PendingRelease> pending_;
  bool started_ = false;
};

bool idle(CUstream stream, CUcontext context) {
  setCurrent(context);
  // NOT_READY is the only answer that means work is still queued; an error
  // (a failed launch, a destroyed context) means none will run.
  return CU_CALL(cuStreamQuery, stream) != CUDA_ERROR_NOT_READY;
}

}  // namespace

void StreamUses::noteSlow(const std::shared_ptr<void>& owner, CUstream stream, CUcontext context) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Entry& e : entries_) {
    if (e.owner == owner) {
      last_.store(owner.get(), std::memory_order_release);
      return;
    }
  }
  // Drop streams nobody else holds once they are idle: no new work can reach them.
  for (size_t i = 0; i < entries_.size();) {
    Entry& e = entries_[i];
    if (e.owner.use_count() == 1 && idle(e.stream, e.context)) {
      entries_[i] = std::move(entries_.back());
      entries_.pop_back();
    } else {
      ++i;
    }
  }
  entries_.push_back({owner, stream, context});
  last_.store(owner.get(), std::memory_order_release);
}

size_t StreamUses::heldStreams() {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

void StreamUses::releaseAfterWork(std::function<void()> release) {
  std::vector<Entry> entries;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    entries.swap(entries_);
    last_.store(nullptr, std::memory_order_release);
  }
  if (entries.empty()) {
    releaseWhenSafe(std::move(release));
    return;
  }
  releaseWhenSafe([entries = std::move(entries), release = std::move(release)]() mutable {
    PendingRelease pending{{}, std::move(release)};
    for (const Entry& e : entries) {
      if (idle(e.stream, e.context)) continue;
      CUevent event = nullptr;
      if (CU_CALL(cuEventCreate, &event, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
          CU_CALL(cuEventRecord, event, e.stream) == CUDA_SUCCESS) {
        pending.events.push_back({event, e.context});
        continue;
      }
      // No event to be had (out of resources): wait for the stream here instead.
      if (event) CU_CALL(cuEventDestroy, event);
      CU_CALL(cuStreamSynchronize, e.stream);
    }
    // The streams may go now: work already queued on a destroyed stream still runs.
    entries.clear();
    if (pending.events.empty()) {
      pending.release();
    } else {
      ReleaseWaiter::instance().add(std::move(pending));
    }
  });
}

}  // namespace cudrv
