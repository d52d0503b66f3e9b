// Blocking work off the JavaScript thread. A blocking call (cuStreamSynchronize,
// cuEventSynchronize, waiting on a socket) runs on one of the library's own
// wait threads, never libuv's small shared pool (fs, dns and crypto need it),
// and what follows runs on the JavaScript thread of the environment that asked.
//
// Wait threads put themselves in relaxed capture mode, so a wait never
// invalidates a global-mode capture running on the JavaScript thread.
#pragma once

#include <napi.h>

#include <functional>
#include <string>

#include "driver/call.h"

namespace cudrv {

// Runs work on a wait thread, then done on env's JavaScript thread (never, if
// env is torn down first). done must not throw. What both hold is released on
// the JavaScript thread.
void runOffThread(Napi::Env env, std::function<void()> work, std::function<void(Napi::Env)> done);

// A promise that resolves (to undefined) when wait succeeds, after onSuccess ran
// on the JavaScript thread, and rejects with a CudaError naming fn otherwise.
Napi::Promise waitPromise(Napi::Env env, std::function<CUresult()> wait, Fn fn, std::string detail,
                          std::function<void()> onSuccess = {});

}  // namespace cudrv
