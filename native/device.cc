// Devices: enumeration and queries. A device is named by its ordinal in
// JavaScript; nothing here needs a context.
#include <vector>

#include "context.h"
#include "core/args.h"
#include "generated/entries.h"

namespace cudrv {

Napi::Value DeviceCount(const Napi::CallbackInfo& info) {
  requireDriver(info.Env(), Fn::cuDeviceGetCount);
  int count = 0;
  CU_CHECK(info.Env(), cuDeviceGetCount, &count);
  return Napi::Number::New(info.Env(), count);
}

// The ordinal of the device with this PCI bus id ("0000:65:00.0").
Napi::Value DeviceByPciBusId(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string busId = stringArg(info[0], "pciBusId");
  requireDriver(env, Fn::cuDeviceGetByPCIBusId);
  CUdevice device = 0;
  CU_CHECK_DETAIL(env, "pciBusId=" + busId, cuDeviceGetByPCIBusId, &device, busId.c_str());
  // CUdevice values are ordinals; confirm rather than assume.
  int count = 0;
  CU_CHECK(env, cuDeviceGetCount, &count);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice candidate = 0;
    CU_CHECK(env, cuDeviceGet, &candidate, ordinal);
    if (candidate == device) return Napi::Number::New(env, ordinal);
  }
  throw Napi::Error::New(env, "the driver returned a device for " + busId + " that has no ordinal");
}

Napi::Value DeviceName(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  char name[256] = {};
  CU_CHECK(info.Env(), cuDeviceGetName, name, sizeof(name) - 1, device);
  return Napi::String::New(info.Env(), name);
}

Napi::Value DeviceUuid(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  CUuuid uuid;
  CU_CHECK(info.Env(), cuDeviceGetUuid, &uuid, device);
  return Napi::Buffer<char>::Copy(info.Env(), uuid.bytes, sizeof(uuid.bytes));
}

Napi::Value DevicePciBusId(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  char busId[64] = {};
  CU_CHECK(info.Env(), cuDeviceGetPCIBusId, busId, sizeof(busId) - 1, device);
  return Napi::String::New(info.Env(), busId);
}

Napi::Value DeviceTotalMemory(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  size_t bytes = 0;
  CU_CHECK(info.Env(), cuDeviceTotalMem, &bytes, device);
  return Napi::Number::New(info.Env(), static_cast<double>(bytes));
}

Napi::Value DeviceAttribute(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  int attribute = intArg(info[1], "attribute");
  int value = 0;
  CU_CHECK_DETAIL(info.Env(), "attribute=" + std::to_string(attribute), cuDeviceGetAttribute, &value,
                  static_cast<CUdevice_attribute>(attribute), device);
  return Napi::Number::New(info.Env(), value);
}

Napi::Value DeviceCanAccessPeer(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  CUdevice peer = deviceOf(info.Env(), info[1], "peer");
  int can = 0;
  CU_CHECK(info.Env(), cuDeviceCanAccessPeer, &can, device, peer);
  return Napi::Boolean::New(info.Env(), can != 0);
}

Napi::Value DeviceP2PAttribute(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  CUdevice peer = deviceOf(info.Env(), info[1], "peer");
  int attribute = intArg(info[2], "attribute");
  int value = 0;
  CU_CHECK_DETAIL(info.Env(), "attribute=" + std::to_string(attribute), cuDeviceGetP2PAttribute, &value,
                  static_cast<CUdevice_P2PAttribute>(attribute), device, peer);
  return Napi::Number::New(info.Env(), value);
}

Napi::Value DeviceExecAffinitySupport(const Napi::CallbackInfo& info) {
  CUdevice device = deviceOf(info.Env(), info[0], "ordinal");
  unsigned int type = uintArg(info[1], "type");
  int supported = 0;
  CU_CHECK_DETAIL(info.Env(), "type=" + std::to_string(type), cuDeviceGetExecAffinitySupport, &supported,
                  static_cast<CUexecAffinityType>(type), device);
  return Napi::Boolean::New(info.Env(), supported != 0);
}

namespace {

// CU_ATOMIC_OPERATION_MAX: one query never asks about more operations than exist.
constexpr uint32_t kMaxAtomicOperations = 64;

std::vector<CUatomicOperation> atomicOperations(Napi::Value value) {
  Napi::Array list = arrayArg(value, "operations", 1, kMaxAtomicOperations, "must have 1 to 64 entries");
  std::vector<CUatomicOperation> out(list.Length());
  for (uint32_t i = 0; i < list.Length(); ++i) out[i] = static_cast<CUatomicOperation>(uintArg(list.Get(i), "operation"));
  return out;
}

Napi::Value capabilityList(Napi::Env env, const std::vector<unsigned int>& capabilities) {
  Napi::Array out = Napi::Array::New(env, capabilities.size());
  for (uint32_t i = 0; i < capabilities.size(); ++i) out.Set(i, Napi::Number::New(env, capabilities[i]));
  return out;
}

}  // namespace

Napi::Value DeviceHostAtomicCapabilities(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<CUatomicOperation> operations = atomicOperations(info[1]);
  CUdevice device = deviceOf(env, info[0], "ordinal");
  std::vector<unsigned int> capabilities(operations.size());
  CU_CHECK(env, cuDeviceGetHostAtomicCapabilities, capabilities.data(), operations.data(),
           static_cast<unsigned int>(operations.size()), device);
  return capabilityList(env, capabilities);
}

Napi::Value DeviceP2PAtomicCapabilities(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<CUatomicOperation> operations = atomicOperations(info[2]);
  CUdevice device = deviceOf(env, info[0], "ordinal");
  CUdevice peer = deviceOf(env, info[1], "peer");
  std::vector<unsigned int> capabilities(operations.size());
  CU_CHECK(env, cuDeviceGetP2PAtomicCapabilities, capabilities.data(), operations.data(),
           static_cast<unsigned int>(operations.size()), device, peer);
  return capabilityList(env, capabilities);
}

}  // namespace cudrv
