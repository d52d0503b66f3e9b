#include "memory/pool.h"

#include <cstring>
#include <vector>

#include "core/args.h"
#include "memory/memory.h"
#include "core/release.h"
#include "generated/entries.h"

namespace cudrv {

PoolBox::~PoolBox() {
  if (!owned || !pool) return;
  // Outstanding allocations keep their pool box alive; the driver also defers
  // the release until the pool's frees have completed.
  CUmemoryPool p = pool;
  releaseWhenSafe([p] { CU_CALL(cuMemPoolDestroy, p); });
}

namespace {

Napi::Value wrapPool(Napi::Env env, CUmemoryPool pool, CUmemLocation location, ContextRef context, bool owned) {
  auto box = std::make_shared<PoolBox>();
  box->pool = pool;
  box->location = location;
  box->context = std::move(context);
  box->owned = owned;
  return MemoryPool::newSlot(env, std::move(box));
}

CUmemPool_attribute poolAttributeArg(Napi::Value value) {
  auto attribute = static_cast<CUmemPool_attribute>(uintArg(value, "attribute"));
  if (attribute < CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES || attribute > CU_MEMPOOL_ATTR_USED_MEM_HIGH) {
    throwRangeError(value.Env(), "attribute is not a memory pool attribute");
  }
  return attribute;
}

// Sizes are 64-bit; the reuse switches are ints.
bool is64BitAttribute(CUmemPool_attribute attribute) { return attribute >= CU_MEMPOOL_ATTR_RELEASE_THRESHOLD; }

}  // namespace

// createPool(locationType, locationId, allocationType, handleTypes, maxSize, context | undefined)
Napi::Value CreatePool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemPoolCreate);
  CUmemPoolProps props;
  std::memset(&props, 0, sizeof(props));
  props.location = locationArg(info[0], info[1]);
  props.allocType = static_cast<CUmemAllocationType>(uintArg(info[2], "allocationType"));
  props.handleTypes = static_cast<CUmemAllocationHandleType>(uintArg(info[3], "handleTypes"));
  props.maxSize = u64Arg(info[4], "maxSize");
  ContextRef context = info[5].IsUndefined() ? locationContext(env, props.location) : Context::fromSlot(info[5], "context");
  makeCurrent(env, context);
  CUmemoryPool pool = nullptr;
  CU_CHECK(env, cuMemPoolCreate, &pool, &props);
  return wrapPool(env, pool, props.location, std::move(context), true);
}

// devicePool(ordinal, current): the device's default pool, or its current one.
Napi::Value DevicePool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  CUmemoryPool pool = nullptr;
  if (boolArg(info[1], "current")) {
    CU_CHECK(env, cuDeviceGetMemPool, &pool, device);
  } else {
    CU_CHECK(env, cuDeviceGetDefaultMemPool, &pool, device);
  }
  int ordinal = intArg(info[0], "ordinal");
  return wrapPool(env, pool, CUmemLocation{CU_MEM_LOCATION_TYPE_DEVICE, ordinal}, primaryContext(env, ordinal), false);
}

// setDevicePool(ordinal, pool): the pool cuMemAllocAsync uses on the device from now on.
Napi::Value SetDevicePool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  CU_CHECK(env, cuDeviceSetMemPool, device, MemoryPool::fromSlot(info[1], "pool")->pool);
  return env.Undefined();
}

// locationPool(locationType, locationId, allocationType, current): cuMemGetDefaultMemPool / cuMemGetMemPool.
Napi::Value LocationPool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemGetMemPool);
  CUmemLocation location = locationArg(info[0], info[1]);
  auto type = static_cast<CUmemAllocationType>(uintArg(info[2], "allocationType"));
  CUmemoryPool pool = nullptr;
  if (boolArg(info[3], "current")) {
    CU_CHECK(env, cuMemGetMemPool, &pool, &location, type);
  } else {
    CU_CHECK(env, cuMemGetDefaultMemPool, &pool, &location, type);
  }
  return wrapPool(env, pool, location, locationContext(env, location), false);
}

// setLocationPool(locationType, locationId, allocationType, pool): cuMemSetMemPool.
Napi::Value SetLocationPool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemSetMemPool);
  CUmemLocation location = locationArg(info[0], info[1]);
  auto type = static_cast<CUmemAllocationType>(uintArg(info[2], "allocationType"));
  CU_CHECK(env, cuMemSetMemPool, &location, type, MemoryPool::fromSlot(info[3], "pool")->pool);
  return env.Undefined();
}

Napi::Value PoolHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), MemoryPool::fromSlot(info[0], "pool")->pool);
}

Napi::Value PoolOrdinal(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), MemoryPool::fromSlot(info[0], "pool")->context->ordinal);
}

// -> [locationType, locationId]
Napi::Value PoolLocation(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const CUmemLocation location = MemoryPool::fromSlot(info[0], "pool")->location;
  Napi::Array out = Napi::Array::New(env, 2);
  out.Set(0u, Napi::Number::New(env, location.type));
  out.Set(1u, Napi::Number::New(env, location.id));
  return out;
}
Napi::Value PoolOwned(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), MemoryPool::fromSlot(info[0], "pool")->owned);
}

// Reuse flags as numbers (0/1), sizes as bigints.
Napi::Value PoolGetAttribute(const Napi::CallbackInfo& info) {
  CUmemPool_attribute attribute = poolAttributeArg(info[1]);
  const PoolBox& box = *MemoryPool::fromSlot(info[0], "pool");
  if (is64BitAttribute(attribute)) {
    cuuint64_t value = 0;
    CU_CHECK(info.Env(), cuMemPoolGetAttribute, box.pool, attribute, &value);
    return bigint(info.Env(), value);
  }
  int value = 0;
  CU_CHECK(info.Env(), cuMemPoolGetAttribute, box.pool, attribute, &value);
  return Napi::Number::New(info.Env(), value);
}

Napi::Value PoolSetAttribute(const Napi::CallbackInfo& info) {
  CUmemPool_attribute attribute = poolAttributeArg(info[1]);
  if (is64BitAttribute(attribute)) {
    cuuint64_t value = u64Arg(info[2], "value");
    CU_CHECK(info.Env(), cuMemPoolSetAttribute, MemoryPool::fromSlot(info[0], "pool")->pool, attribute, &value);
  } else {
    int value = intArg(info[2], "value");
    CU_CHECK(info.Env(), cuMemPoolSetAttribute, MemoryPool::fromSlot(info[0], "pool")->pool, attribute, &value);
  }
  return info.Env().Undefined();
}

Napi::Value PoolTrimTo(const Napi::CallbackInfo& info) {
  uint64_t keep = u64Arg(info[1], "minBytesToKeep");
  CU_CHECK(info.Env(), cuMemPoolTrimTo, MemoryPool::fromSlot(info[0], "pool")->pool, keep);
  return info.Env().Undefined();
}

// [[locationType, locationId, flags], ...] in one cuMemPoolSetAccess call.
Napi::Value PoolSetAccess(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<CUmemAccessDesc> map = accessListArg(info[1], "entries");
  const PoolBox& box = *MemoryPool::fromSlot(info[0], "pool");
  CU_CHECK(env, cuMemPoolSetAccess, box.pool, map.data(), map.size());
  return env.Undefined();
}

// (locationType, locationId) -> flags
Napi::Value PoolGetAccess(const Napi::CallbackInfo& info) {
  CUmemLocation location = locationArg(info[1], info[2]);
  const PoolBox& box = *MemoryPool::fromSlot(info[0], "pool");
  CUmemAccess_flags flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  CU_CHECK(info.Env(), cuMemPoolGetAccess, &flags, box.pool, &location);
  return Napi::Number::New(info.Env(), flags);
}

}  // namespace cudrv
