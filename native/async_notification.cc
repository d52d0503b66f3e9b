// Device notifications (cuDeviceRegisterAsyncNotification): the driver calls
// from a thread of its own, where neither JavaScript nor CUDA calls may run
// (invariant 13), so the callback only copies the notification and posts it to
// the JavaScript thread. The driver is handed a number, not a pointer: a
// notification that races the unregistration finds the number gone from the
// table below and is dropped, instead of reaching a freed registration.
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "context.h"
#include "core/args.h"
#include "core/release.h"
#include "generated/entries.h"
#include "host_function.h"

namespace cudrv {

namespace {

struct Registrations {
  std::mutex mutex;
  std::unordered_map<uintptr_t, std::shared_ptr<HostCallback>> live;
  uintptr_t next = 1;
};
// Never destroyed: the driver may call while the process exits.
Registrations& registrations() {
  static Registrations* instance = new Registrations();
  return *instance;
}

void CUDA_CB onAsyncNotification(CUasyncNotificationInfo* info, void* data, CUasyncCallbackHandle) {
  if (!info) return;
  const int type = info->type;
  const uint64_t overBudget = type == CU_ASYNC_NOTIFICATION_TYPE_OVER_BUDGET ? info->info.overBudget.bytesOverBudget : 0;
  // Posted under the lock, so that this thread never holds the last reference
  // to the callback (a JavaScript function, let go of on its own thread only).
  Registrations& r = registrations();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.live.find(reinterpret_cast<uintptr_t>(data));
  if (it == r.live.end()) return;
  const HostCallback& callback = *it->second;
  callback.port->post([function = callback.function, type, overBudget](Napi::Env env) {
    callReporting(env, *function, {Napi::Number::New(env, type), Napi::BigInt::New(env, overBudget)});
  });
}

}  // namespace

struct AsyncNotificationBox : NonCopyable {
  CUdevice device = 0;
  CUasyncCallbackHandle handle = nullptr;
  uintptr_t id = 0;

  ~AsyncNotificationBox() {
    {
      Registrations& r = registrations();
      std::lock_guard<std::mutex> lock(r.mutex);
      r.live.erase(id);
    }
    if (!handle) return;
    CUdevice dev = device;
    CUasyncCallbackHandle h = handle;
    releaseWhenSafe([dev, h] { CU_CALL(cuDeviceUnregisterAsyncNotification, dev, h); });
  }
};

class AsyncNotification : public Handle<AsyncNotification, AsyncNotificationBox> {
 public:
  static constexpr const char* kName = "AsyncNotification";
};

// (ordinal, callback) -> AsyncNotification
Napi::Value RegisterAsyncNotification(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<HostCallback> callback = makeHostCallback(env, info[1]);
  CUdevice device = deviceOf(env, info[0], "ordinal");
  auto box = std::make_shared<AsyncNotificationBox>();
  box->device = device;
  {
    Registrations& r = registrations();
    std::lock_guard<std::mutex> lock(r.mutex);
    box->id = r.next++;
    r.live.emplace(box->id, callback);
  }
  CUresult result = CU_CALL(cuDeviceRegisterAsyncNotification, device, onAsyncNotification,
                            reinterpret_cast<void*>(box->id), &box->handle);
  if (result != CUDA_SUCCESS) {
    box->handle = nullptr;
    throwCudaError(env, result, Fn::cuDeviceRegisterAsyncNotification);
  }
  return AsyncNotification::newSlot(env, std::move(box));
}

}  // namespace cudrv
