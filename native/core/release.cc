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
int holds = 0;                      // holdReleases brackets open
std::atomic<int> holdsOpen{0};      // mirrors holds, read without the lock

// The deferred releases, once neither captures nor holds keep them (under the lock).
std::vector<std::function<void()>> takeReady() {
  std::vector<std::function<void()>> ready;
  if (captures == 0 && holds == 0) ready.swap(deferred);
  return ready;
}

// Run outside the lock: a release may drop the last reference to another
// resource, whose own release comes back through releaseWhenSafe.
void runReady(std::vector<std::function<void()>>& ready) {
  if (!exiting.load(std::memory_order_acquire)) {
    ReleaseBracket bracket;
    for (auto& release : ready) release();
  }
}
}  // namespace

void deferUnlessSafe(std::function<void()> release) {
  if (exiting.load(std::memory_order_acquire)) return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (captures > 0 || holds > 0) {
      deferred.push_back(std::move(release));
      return;
    }
  }
  ReleaseBracket bracket;
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
    if (captures > 0 && --captures == 0) ready = takeReady();
    capturesOpen.store(captures, std::memory_order_relaxed);
  }
  runReady(ready);
}

void holdReleases() {
  std::lock_guard<std::mutex> lock(mutex);
  holdsOpen.store(++holds, std::memory_order_relaxed);
}

void letReleasesGo() {
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (holds > 0 && --holds == 0) ready = takeReady();
    holdsOpen.store(holds, std::memory_order_relaxed);
  }
  runReady(ready);
}

bool releasesHeld() { return holdsOpen.load(std::memory_order_relaxed) > 0; }

int activeCaptures() {
  std::lock_guard<std::mutex> lock(mutex);
  return captures;
}

bool anyCaptureActive() { return capturesOpen.load(std::memory_order_relaxed) > 0; }

void markProcessExiting() { exiting.store(true, std::memory_order_release); }
bool processExiting() { return exiting.load(std::memory_order_acquire); }

}  // namespace cudrv
