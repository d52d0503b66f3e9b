#include "core/reaper.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "context.h"
#include "core/release.h"

namespace cudrv {

namespace {

// How often the reaper looks at the events it watches: soon after a hand-off,
// then less and less often while the work goes on.
constexpr std::chrono::milliseconds kFirstPause{1};
constexpr std::chrono::milliseconds kLongestPause{100};

struct Entry {
  JsThreadHome home;
  CUcontext context;
  CUevent marker;
  std::function<void(bool)> finish;
};

class Reaper {
 public:
  void add(Entry entry) {
    std::lock_guard<std::mutex> lock(mutex_);
    incoming_.push_back(std::move(entry));
    if (!started_) {
      started_ = true;
      std::thread([this] { run(); }).detach();
    }
    wake_.notify_one();
  }

  void wake() {
    std::lock_guard<std::mutex> lock(mutex_);
    woken_ = true;
    wake_.notify_one();
  }

 private:
  void run() {
    // Queries and releases from here must not invalidate a global capture elsewhere.
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    CU_CALL(cuThreadExchangeStreamCaptureMode, &mode);
    std::vector<Entry> watched;
    std::chrono::milliseconds pause = kFirstPause;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        auto news = [this] { return !incoming_.empty() || woken_; };
        if (watched.empty()) wake_.wait(lock, news);
        else wake_.wait_for(lock, pause, news);
        pause = news() ? kFirstPause : std::min(pause * 2, kLongestPause);
        woken_ = false;
        for (Entry& entry : incoming_) watched.push_back(std::move(entry));
        incoming_.clear();
      }
      if (processExiting()) {
        // The driver may be shutting down: leave everything to its teardown.
        for (Entry& entry : watched) new std::function<void(bool)>(std::move(entry.finish));
        watched.clear();
        continue;
      }
      for (size_t i = 0; i < watched.size();) {
        Entry& entry = watched[i];
        CUresult r = CUDA_SUCCESS;
        if (!entry.home.tornDown() || (entry.marker && (r = CU_CALL(cuEventQuery, entry.marker)) == CUDA_ERROR_NOT_READY)) {
          ++i;
          continue;
        }
        Entry done = std::move(entry);
        watched[i] = std::move(watched.back());
        watched.pop_back();
        finish(done, r == CUDA_SUCCESS);
      }
    }
  }

  // What finish holds is let go here; a release may hand the reaper more (a
  // stream freed with work of its own), so no lock is held.
  static void finish(Entry& entry, bool workOver) {
    if (entry.marker) CU_CALL(cuEventDestroy, entry.marker);
    if (entry.context) setCurrent(entry.context);
    entry.finish(workOver);
    entry.finish = nullptr;
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Entry> incoming_;
  bool woken_ = false;
  bool started_ = false;
};

Reaper& reaper() {
  // Never destroyed: its detached thread may still use it at process exit.
  static Reaper* instance = new Reaper();
  return *instance;
}

}  // namespace

void reapAfter(JsThreadHome home, CUcontext context, CUevent marker, std::function<void(bool workOver)> finish) {
  reaper().add({std::move(home), context, marker, std::move(finish)});
}

void wakeReaper() { reaper().wake(); }

}  // namespace cudrv
