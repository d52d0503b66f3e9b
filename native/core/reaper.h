// Releases that outlive their JavaScript environment. A worker thread may end
// with GPU work in flight: what that work uses (its stream, memory, kernels and
// their library, ...) can be let go neither on the worker's thread, which is
// gone, nor before the GPU is done with it. The reaper, one thread for the
// process, watches an event recorded behind the work; once the event has
// completed and the environment's teardown is over, it finishes the hand-off on
// its own thread, with the work's context current, so the driver releases run
// there. It polls the events rather than blocking on one, so work that never
// ends holds up no other release.
#pragma once

#include <functional>

#include "driver/call.h"
#include "core/js_thread.h"

namespace cudrv {

// Once marker has completed (null: there is nothing to wait for) and home's
// teardown is over, calls finish(true) on the reaper's thread with context
// current (when not null), then destroys finish there, and marker. When the
// marker reports an error the work may still be running: finish(false) is
// called, and must leak what the work uses. At process exit nothing is called
// and finish is leaked. From any thread.
void reapAfter(JsThreadHome home, CUcontext context, CUevent marker, std::function<void(bool workOver)> finish);

// Has the reaper look again at once (an environment's teardown is over).
void wakeReaper();

}  // namespace cudrv
