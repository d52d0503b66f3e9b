// Questions about memory: free and total device memory, the allocation an
// address belongs to, and pointer attributes.
#include <cstring>
#include <vector>

#include "core/args.h"
#include "generated/entries.h"
#include "memory/memory.h"

namespace cudrv {

// memoryInfo(ordinal) -> {free, total}
Napi::Value MemoryInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ContextRef context = primaryContext(env, intArg(info[0], "ordinal"));
  makeCurrent(env, context);
  size_t free = 0, total = 0;
  CU_CHECK(env, cuMemGetInfo, &free, &total);
  Napi::Object out = Napi::Object::New(env);
  out.Set("free", static_cast<double>(free));
  out.Set("total", static_cast<double>(total));
  return out;
}

namespace {

void makeOwnerCurrent(Napi::Env env, const MemoryRef& owner) {
  if (owner && owner->context) makeCurrent(env, owner->context);
}

}  // namespace

// addressRange(pointer, offset) -> {base, size} of the allocation holding it.
Napi::Value AddressRange(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemGetAddressRange);
  MemoryRef owner;
  CUdeviceptr address = addressOf(info[0], info[1], &owner);
  makeOwnerCurrent(env, owner);
  CUdeviceptr base = 0;
  size_t size = 0;
  CU_CHECK(env, cuMemGetAddressRange, &base, &size, address);
  Napi::Object out = Napi::Object::New(env);
  out.Set("base", bigint(env, base));
  out.Set("size", static_cast<double>(size));
  return out;
}

namespace {

constexpr size_t kAttributeBytes = 64;  // larger than any attribute value (P2P tokens: 16)

}  // namespace

// pointerAttribute(pointer, offset, attribute) -> the value's raw bytes; lib/ decodes per attribute.
Napi::Value PointerAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuPointerGetAttribute);
  MemoryRef owner;
  CUdeviceptr address = addressOf(info[0], info[1], &owner);
  auto attribute = static_cast<CUpointer_attribute>(uintArg(info[2], "attribute"));
  makeOwnerCurrent(env, owner);
  unsigned char value[kAttributeBytes] = {};
  CU_CHECK_DETAIL(env, "attribute=" + std::to_string(attribute), cuPointerGetAttribute, value, attribute, address);
  return Napi::Buffer<unsigned char>::Copy(env, value, kAttributeBytes);
}

// pointerAttributes(pointer, offset, attributes[]) -> one raw 64-byte value per
// attribute, in a single Buffer, through cuPointerGetAttributes.
Napi::Value PointerAttributes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuPointerGetAttributes);
  Napi::Array list = arrayArg(info[2], "attributes", 1, 64, "must hold 1 to 64 entries");
  unsigned int n = list.Length();
  std::vector<CUpointer_attribute> attributes(n);
  std::vector<unsigned char> values(n * kAttributeBytes, 0);
  std::vector<void*> data(n);
  for (unsigned int i = 0; i < n; ++i) {
    attributes[i] = static_cast<CUpointer_attribute>(uintArg(list[i], "attribute"));
    data[i] = values.data() + i * kAttributeBytes;
  }
  MemoryRef owner;
  CUdeviceptr address = addressOf(info[0], info[1], &owner);
  makeOwnerCurrent(env, owner);
  CU_CHECK(env, cuPointerGetAttributes, n, attributes.data(), data.data(), address);
  return Napi::Buffer<unsigned char>::Copy(env, values.data(), values.size());
}

// setSyncMemops(pointer, enabled): the one settable pointer attribute.
Napi::Value SetSyncMemops(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  MemoryRef memory = memoryOf(info[0]);
  if (!memory || memory->device == 0) throwTypeError(env, "pointer must be a DeviceBuffer");
  unsigned int enabled = boolArg(info[1], "enabled") ? 1 : 0;
  makeCurrent(env, memory->context);
  CU_CHECK(env, cuPointerSetAttribute, &enabled, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, memory->device);
  return env.Undefined();
}

}  // namespace cudrv
