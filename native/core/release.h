// When driver resources are given back. A release (free, destroy, unload) made
// while a stream capture is active can invalidate the capture, and a garbage
// collector may run one at any point; so releases wait until no capture begun
// through this library is active. At process exit they are skipped: the driver
// reclaims everything, and calling into it while it shuts down is unsafe.
#pragma once

#include <functional>
#include <utility>

namespace cudrv {

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
  if (!anyCaptureActive()) {
    release();
    return;
  }
  deferUnlessSafe(std::function<void()>(std::forward<Release>(release)));
}

}  // namespace cudrv
