// Keeping code loaded while launched work may still run it. A module or library
// records the streams its kernels were launched on (a pointer comparison when
// the stream is the last one seen, so a launch pays nothing more); when its last
// holder lets go, the unload waits for the work queued on those streams so far,
// without blocking the JavaScript thread: an event is recorded on each stream
// still busy and a background thread unloads once they have all completed.
// Streams are held strongly only while they may matter: one nobody else holds
// is dropped as soon as it is idle. Graph executables hold the code boxes
// themselves, so a graph keeps its kernels' code for as long as it exists.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "driver/call.h"

namespace cudrv {

class StreamUses {
 public:
  StreamUses() = default;
  StreamUses(const StreamUses&) = delete;
  StreamUses& operator=(const StreamUses&) = delete;

  // Records that work using the code is queued on stream. owner keeps the
  // stream's handle valid (its StreamBox); context is the stream's context.
  void note(const std::shared_ptr<void>& owner, CUstream stream, CUcontext context) {
    if (last_.load(std::memory_order_acquire) != owner.get()) noteSlow(owner, stream, context);
  }

  // Runs release (through releaseWhenSafe) once the work queued so far on every
  // noted stream is done; never blocks the caller. Call once, from the owner's destructor.
  void releaseAfterWork(std::function<void()> release);

  // How many streams are held (for tests).
  size_t heldStreams();

 private:
  struct Entry {
    std::shared_ptr<void> owner;
    CUstream stream;
    CUcontext context;
  };
  void noteSlow(const std::shared_ptr<void>& owner, CUstream stream, CUcontext context);

  std::mutex mutex_;
  std::atomic<const void*> last_{nullptr};
  std::vector<Entry> entries_;
};

}  // namespace cudrv
