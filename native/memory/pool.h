// Memory pools for stream-ordered allocation: created ones (owned, destroyed
// with the box) and a device's default or current pool (not owned).
#pragma once

#include <napi.h>

#include "context.h"
#include "core/handle.h"

namespace cudrv {

struct PoolBox {
  CUmemoryPool pool = nullptr;
  ContextRef context;
  // Where the pool's memory lives: the owning device's entry is implicit in access lists.
  CUmemLocation location{CU_MEM_LOCATION_TYPE_DEVICE, 0};
  bool owned = true;

  PoolBox() = default;
  PoolBox(const PoolBox&) = delete;
  PoolBox& operator=(const PoolBox&) = delete;
  ~PoolBox();
};
using PoolRef = std::shared_ptr<PoolBox>;

class MemoryPool : public Handle<MemoryPool, PoolBox> {
 public:
  static constexpr const char* kName = "MemoryPool";
  using Base::Base;
  static void init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value HandleValue(const Napi::CallbackInfo& info);
  Napi::Value Ordinal(const Napi::CallbackInfo& info);
  Napi::Value Location(const Napi::CallbackInfo& info);
  Napi::Value IsOwned(const Napi::CallbackInfo& info);
  Napi::Value GetAttribute(const Napi::CallbackInfo& info);
  Napi::Value SetAttribute(const Napi::CallbackInfo& info);
  Napi::Value TrimTo(const Napi::CallbackInfo& info);
  Napi::Value SetAccess(const Napi::CallbackInfo& info);
  Napi::Value GetAccess(const Napi::CallbackInfo& info);
};

}  // namespace cudrv
