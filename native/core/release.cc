#include "core/release.h"

#include <atomic>
#include <mutex>
#include <vector>

namespace cudrv {

namespace {
std::mutex mutex;
int captures = 0;
std::vector<std::function<void()>> deferred;
std::atomic<bool> exiting{false};
std::atomic<int> capturesOpen{0};  // mirrors captures, read without the lock
}  // namespace

void deferUnlessSafe(std::function<void()> release) {
  if (exiting.load(std::memory_order_acquire)) return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (captures > 0) {
      deferred.push_back(std::move(release));
      return;
    }
  }
  release();
}

void captureStarted() {
  std::lock_guard<std::mutex> lock(mutex);
  ++captures;
  capturesOpen.store(captures, std::memory_order_relaxed);
}

void captureFinished() {
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (captures > 0 && --captures == 0) ready.swap(deferred);
    capturesOpen.store(captures, std::memory_order_relaxed);
  }
  // Run outside the lock: a release may drop the last reference to another
  // resource, whose own release comes back through releaseWhenSafe.
  if (!exiting.load(std::memory_order_acquire)) {
    for (auto& release : ready) release();
  }
}

int activeCaptures() {
  std::lock_guard<std::mutex> lock(mutex);
  return captures;
}

bool anyCaptureActive() { return capturesOpen.load(std::memory_order_relaxed) > 0; }

void markProcessExiting() { exiting.store(true, std::memory_order_release); }
bool processExiting() { return exiting.load(std::memory_order_acquire); }

}  // namespace cudrv
