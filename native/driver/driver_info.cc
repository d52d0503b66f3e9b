// What JavaScript can learn about the driver without needing it: load status,
// versions, the function table and the call counters.
#include <cstdlib>
#include <cstring>

#include "core/args.h"
#include "driver/call.h"
#include "core/errors.h"
#include "generated/entries.h"

namespace cudrv {

Counters counters;

namespace {

// CUDA_DRIVER_COUNTERS (other than "0") counts from the start, before any call.
[[maybe_unused]] const bool countingFromStart = [] {
  const char* counting = std::getenv("CUDA_DRIVER_COUNTERS");
  if (counting && *counting && std::strcmp(counting, "0") != 0) counters.enabled.store(true);
  return true;
}();

const char* stageName(LoadStage stage) {
  switch (stage) {
    case LoadStage::NotTried: return "not-loaded";
    case LoadStage::LibraryMissing: return "library-missing";
    case LoadStage::NoProcAddress: return "driver-too-old";
    case LoadStage::InitFailed: return "init-failed";
    case LoadStage::Ready: return "ready";
  }
  return "unknown";
}

}  // namespace

// Tries to load the driver (never throws) and says what happened.
Napi::Value DriverStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const DriverState& s = loadDriver();
  Napi::Object out = Napi::Object::New(env);
  out.Set("stage", stageName(s.stage));
  out.Set("libraryPath", s.libraryPath);
  out.Set("detail", s.detail);
  out.Set("initResult", static_cast<int>(s.initResult));
  const char* name = nullptr;
  if (s.stage >= LoadStage::InitFailed && driver.cuGetErrorName) driver.cuGetErrorName(s.initResult, &name);
  out.Set("initResultName", name ? name : "");
  out.Set("driverVersion", s.driverVersion);
  out.Set("headerVersion", CUDA_VERSION);
  return out;
}

// [name, version, available] for every function in the table; available is
// false before the driver has been loaded.
Napi::Value DriverFunctions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const bool loaded = driverState().stage >= LoadStage::InitFailed;
  void* const* slots = reinterpret_cast<void* const*>(&driver);
  Napi::Array out = Napi::Array::New(env, kFunctionCount);
  for (int i = 0; i < kFunctionCount; ++i) {
    Napi::Array row = Napi::Array::New(env, 3);
    row.Set(0u, functionName(static_cast<Fn>(i)));
    row.Set(1u, functionVersion(static_cast<Fn>(i)));
    row.Set(2u, loaded && slots[i] != nullptr);
    out.Set(i, row);
  }
  return out;
}

Napi::Value SetCounting(const Napi::CallbackInfo& info) {
  counters.enabled.store(boolArg(info[0], "enabled"), std::memory_order_relaxed);
  return info.Env().Undefined();
}

Napi::Value IsCounting(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), counters.enabled.load(std::memory_order_relaxed));
}

// [name, calls, errors] for every function called at least once.
Napi::Value ReadCounters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array out = Napi::Array::New(env);
  uint32_t n = 0;
  for (int i = 0; i < kFunctionCount; ++i) {
    uint64_t calls = counters.calls[i].load(std::memory_order_relaxed);
    if (calls == 0) continue;
    Napi::Array row = Napi::Array::New(env, 3);
    row.Set(0u, functionName(static_cast<Fn>(i)));
    row.Set(1u, static_cast<double>(calls));
    row.Set(2u, static_cast<double>(counters.errors[i].load(std::memory_order_relaxed)));
    out.Set(n++, row);
  }
  return out;
}

Napi::Value ResetCounters(const Napi::CallbackInfo& info) {
  for (int i = 0; i < kFunctionCount; ++i) {
    counters.calls[i].store(0, std::memory_order_relaxed);
    counters.errors[i].store(0, std::memory_order_relaxed);
  }
  return info.Env().Undefined();
}

Napi::Value HeaderVersion(Napi::Env env) { return Napi::Number::New(env, CUDA_VERSION); }

}  // namespace cudrv
