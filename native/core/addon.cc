// Module initialisation: one call per JavaScript environment (the main thread
// and each worker_thread that loads the addon).
#include <napi.h>

#include "core/addon_data.h"
#include "core/driver_log.h"
#include "context.h"
#include "generated/entries.h"
#include "graph/graph.h"
#include "core/js_thread.h"
#include "memory/host_buffer.h"
#include "core/reaper.h"
#include "core/release.h"
#include "core/teardown_wait.h"
#include "stream.h"
#include "core/wait_thread.h"
#include "core/waiter.h"

namespace cudrv {

// Module set-up of files without a header of their own.

namespace {

// The main environment's teardown is the process exiting: from then on releases
// are skipped (leaked to the driver's own teardown) rather than made into a
// driver that may be shutting down. A worker's teardown releases normally.
// The driver's log callback is unregistered then too (core/driver_log.h).
void onMainEnvironmentExit(void*) {
  markProcessExiting();
  stopDriverLog();
}

// Handles still live are released here, once no work can be handed back to
// this thread, while the environment's state (AddonData) is whole; the
// instance data's own finalizer runs last, with parts of it gone. What work
// still in flight uses goes to the reaper (core/reaper.h), which lets go of it once
// the work is over and this teardown is; work that holds JavaScript values is
// waited for first (core/teardown_wait.h).
void onEnvironmentTeardown(void* e) {
  Napi::Env env(static_cast<napi_env>(e));
  Napi::HandleScope scope(env);  // a hook has none of its own; releases may make values
  closeJsThreadChannel(env);
  slotTable(env).releaseAll();
  waitForHeldWork(env);
  finishJsThreadTeardown(env);
  wakeReaper();
}

}  // namespace

// Idempotent: the TypeScript layer may be loaded more than once over one addon
// instance (jest gives each test file its own module registry, but Node loads a
// .node file once), and Node aborts on a cleanup hook registered twice.
Napi::Value MarkMainThread(const Napi::CallbackInfo& info) {
  AddonData& data = addonData(info.Env());
  if (data.mainThreadMarked) return Napi::Boolean::New(info.Env(), false);
  data.mainThreadMarked = true;
  napi_add_env_cleanup_hook(info.Env(), onMainEnvironmentExit, nullptr);
  return Napi::Boolean::New(info.Env(), true);
}

Napi::Value MarkProcessExiting(const Napi::CallbackInfo& info) {
  markProcessExiting();
  return info.Env().Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  // A module registry that is reset (jest's, per test file) loads the addon
  // again into the same environment: keep its data and hooks (Node refuses a
  // cleanup hook twice); the classes are defined anew below.
  if (!env.GetInstanceData<AddonData>()) {
    auto* data = new AddonData();
    env.SetInstanceData(data);
    napi_add_env_cleanup_hook(env, onEnvironmentTeardown, env);
    // What frees the slots nobody adopted, in a task of its own (SlotTable::expectOwner).
    data->setImmediate = Napi::Persistent(env.Global().Get("setImmediate").As<Napi::Function>());
    data->sweepUnowned = Napi::Persistent(Napi::Function::New(
        env, [](const Napi::CallbackInfo& info) { slotTable(info.Env()).sweepUnowned(); }, "sweepUnownedHandles"));
  }
  registerEntries(env, exports);
  findHostBuiltins(env);
  return exports;
}

}  // namespace cudrv

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return cudrv::Init(env, exports); }
NODE_API_MODULE(cuda_driver, InitAddon)
