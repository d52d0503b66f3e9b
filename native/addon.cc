// Module initialisation: one call per JavaScript environment (the main thread
// and each worker_thread that loads the addon).
#include <napi.h>

#include "addon_data.h"
#include "args.h"
#include "context.h"
#include "device.h"
#include "driver_info.h"
#include "kernel.h"
#include "library.h"
#include "module.h"
#include "nvrtc/program.h"
#include "release.h"

namespace cudrv {

namespace {

// The main environment's teardown is the process exiting: from then on releases
// are skipped (leaked to the driver's own teardown) rather than made into a
// driver that may be shutting down. A worker's teardown releases normally.
void onMainEnvironmentExit(void*) { markProcessExiting(); }

Napi::Value MarkMainThread(const Napi::CallbackInfo& info) {
  napi_add_env_cleanup_hook(info.Env(), onMainEnvironmentExit, nullptr);
  return info.Env().Undefined();
}

}  // namespace

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  env.SetInstanceData(new AddonData());
  initDriverInfo(env, exports);
  initDevice(env, exports);
  Context::init(env, exports);
  initNvrtc(env, exports);
  Library::init(env, exports);
  Module::init(env, exports);
  Kernel::init(env, exports);
  exports.Set("markMainThread", Napi::Function::New(env, MarkMainThread));
  return exports;
}

}  // namespace cudrv

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return cudrv::Init(env, exports); }
NODE_API_MODULE(cuda_driver, InitAddon)
