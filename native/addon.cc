// Module initialisation: one call per JavaScript environment (the main thread
// and each worker_thread that loads the addon).
#include <napi.h>

#include "addon_data.h"
#include "context.h"
#include "device.h"
#include "driver_info.h"
#include "event.h"
#include "graph/graph.h"
#include "js_thread.h"
#include "memory/memory.h"
#include "ipc/fd_channel.h"
#include "ipc/imported_memory.h"
#include "release.h"
#include "stream.h"

namespace cudrv {

// Module set-up of files without a header of their own.
void initHostFunctions(Napi::Env env, Napi::Object exports);
void initCapture(Napi::Env env, Napi::Object exports);

namespace {

// The main environment's teardown is the process exiting: from then on releases
// are skipped (leaked to the driver's own teardown) rather than made into a
// driver that may be shutting down. A worker's teardown releases normally.
void onMainEnvironmentExit(void*) { markProcessExiting(); }

// Idempotent: the TypeScript layer may be loaded more than once over one addon
// instance (jest gives each test file its own module registry, but Node loads a
// .node file once), and Node aborts on a cleanup hook registered twice.
Napi::Value MarkMainThread(const Napi::CallbackInfo& info) {
  AddonData& data = addonData(info.Env());
  if (!data.markedMainThread) {
    napi_add_env_cleanup_hook(info.Env(), onMainEnvironmentExit, nullptr);
    data.markedMainThread = true;
  }
  return info.Env().Undefined();
}

}  // namespace

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  napi_add_env_cleanup_hook(env, [](void* e) { closeJsThreadChannel(Napi::Env(static_cast<napi_env>(e))); }, env);
  initDriverInfo(env, exports);
  initDevice(env, exports);
  Context::init(env, exports);
  Stream::init(env, exports);
  Event::init(env, exports);
  initMemory(env, exports);
  initHostFunctions(env, exports);
  Graph::init(env, exports);
  initCapture(env, exports);
  initFdChannel(env, exports);
  initIpc(env, exports);
  exports.Set("markMainThread", Napi::Function::New(env, MarkMainThread));
  return exports;
}

}  // namespace cudrv

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return cudrv::Init(env, exports); }
NODE_API_MODULE(cuda_driver, InitAddon)
