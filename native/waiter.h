// Waiting for the GPU without blocking Node. A blocking driver wait
// (cuStreamSynchronize, cuEventSynchronize) runs on one of the library's own
// wait threads, never libuv's pool (fs and dns need it), and its result comes
// back to the JavaScript thread of the environment that asked.
//
// Wait threads put themselves in relaxed capture mode, so a wait never
// invalidates a global-mode capture running on the JavaScript thread.
#pragma once

#include <napi.h>

#include <functional>
#include <memory>
#include <string>

#include "driver/call.h"

namespace cudrv {

struct WaitJob {
  // Runs on a wait thread: the blocking call, returning its result.
  std::function<CUresult()> wait;
  // Runs on the JavaScript thread afterwards (never if the environment is gone).
  // Must not throw.
  std::function<void(Napi::Env, CUresult)> done;
};

void submitWait(Napi::Env env, WaitJob job);

// A promise that resolves (to undefined) when wait succeeds, after onSuccess ran
// on the JavaScript thread, and rejects with a CudaError naming fn otherwise.
Napi::Promise waitPromise(Napi::Env env, std::function<CUresult()> wait, Fn fn, std::string detail,
                          std::function<void()> onSuccess = {});

}  // namespace cudrv
