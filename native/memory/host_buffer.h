// Page-locked host memory: allocated by the driver (cuMemHostAlloc,
// cuMemAllocHost) or an existing JavaScript buffer registered with
// cuMemHostRegister. Allocated memory is shown to JavaScript as an external
// ArrayBuffer that keeps the memory alive while reachable and is detached by
// dispose(), so a view never outlives the memory.
#pragma once

#include <napi.h>

#include "handle.h"
#include "memory/memory.h"

namespace cudrv {

struct HostMemoryBox;

// What an ArrayBuffer view holds: the memory, until dispose() detaches the view.
struct ViewHold {
  std::shared_ptr<HostMemoryBox> box;
};

struct HostMemoryBox : MemoryBox {
  bool registered = false;
  unsigned int flags = 0;
  napi_env env = nullptr;
  napi_ref source = nullptr;  // registered: the JavaScript buffer, held strongly
  // Allocated: the ArrayBuffer handed out (weak), and what it holds (owned by
  // the ArrayBuffer's finalizer: a strong reference here would keep the box for good).
  napi_ref arrayBuffer = nullptr;
  std::weak_ptr<ViewHold> hold;

  ~HostMemoryBox() override;
};

class HostBuffer : public Handle<HostBuffer, HostMemoryBox> {
 public:
  static constexpr const char* kName = "HostBuffer";
  using Base::Base;
  static void init(Napi::Env env, Napi::Object exports);
  static void disposing(HostMemoryBox& box);

 private:
  Napi::Value Address(const Napi::CallbackInfo& info);
  Napi::Value Size(const Napi::CallbackInfo& info);
  Napi::Value Flags(const Napi::CallbackInfo& info);
  Napi::Value IsRegistered(const Napi::CallbackInfo& info);
  Napi::Value DevicePointer(const Napi::CallbackInfo& info);
  Napi::Value View(const Napi::CallbackInfo& info);
};

}  // namespace cudrv
