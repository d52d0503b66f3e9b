// When driver resources are given back. A release (free, destroy, unload) made
// while a stream capture is active can invalidate the capture, and a garbage
// collector may run one at any point; so releases wait until no capture begun
// through this library is active. At process exit they are skipped: the driver
// reclaims everything, and calling into it while it shuts down is unsafe.
#pragma once

#include <functional>
#include <memory>
#include <utility>

namespace cudrv {

struct JsThreadChannel;

// Brackets a release run on this thread. On a JavaScript thread, host nodes
// reached meanwhile do not wait for their callback: a free may synchronize the
// device, which would wait for them on this very thread (core/js_thread.cc).
class ReleaseBracket {
 public:
  ReleaseBracket();
  ~ReleaseBracket();
  ReleaseBracket(const ReleaseBracket&) = delete;
  ReleaseBracket& operator=(const ReleaseBracket&) = delete;

 private:
  std::shared_ptr<JsThreadChannel> channel_;  // this thread's, while it marks the thread blocked
};

// Runs release once the last active capture ends, or now when none is; never
// at process exit. Releases run on whichever thread ends the last capture;
// they only call the driver. releaseWhenSafe below is the usual entry point.
void deferUnlessSafe(std::function<void()> release);

// Bracket every capture the library begins (begin -> end, including failed ends).
void captureStarted();
void captureFinished();
int activeCaptures();
// A cheap check for hot paths: is any capture begun through the library open?
bool anyCaptureActive();
// The same for holdReleases.
bool releasesHeld();

// Bracket each host callback that CUDA's thread waits for while it is pending
// (native/host_function.h): a release that synchronizes the device (a free, an
// unload) made meanwhile on the JavaScript thread would wait for the callback
// on the thread that has to run it. Releases wait for both kinds of bracket.
void holdReleases();
void letReleasesGo();

// Called once the main environment is being torn down.
void markProcessExiting();
bool processExiting();

// Runs release now, or once the last active capture ends; never at process exit.
// The common case (no capture open) runs release at once, without wrapping it in
// a std::function (an allocation) or taking the lock. A capture begun on another
// thread right after the check is the same race as deferUnlessSafe's, which
// also runs release after letting go of its lock.
template <typename Release>
void releaseWhenSafe(Release&& release) {
  if (processExiting()) return;
  if (!anyCaptureActive() && !releasesHeld()) {
    ReleaseBracket bracket;
    release();
    return;
  }
  deferUnlessSafe(std::function<void()>(std::forward<Release>(release)));
}

}  // namespace cudrv
