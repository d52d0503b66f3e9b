#include "core/errors.h"

#include "core/addon_data.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

// kind: "cuda" | "unavailable" | "missing" | "disposed" | "system" | "timeout" |
// "closed" | "protocol"; the factory picks the class.
Napi::Value buildFromFactory(Napi::Env env, const char* kind, double code, const std::string& name,
                             const std::string& message, const char* call, const std::string& detail,
                             int requiredVersion = 0, const DriverLogLines& log = {}) {
  AddonData& data = addonData(env);
  if (data.errorFactory.IsEmpty()) return Napi::Error::New(env, message).Value();
  Napi::Array lines = Napi::Array::New(env, log.size());
  for (size_t i = 0; i < log.size(); ++i) lines.Set(static_cast<uint32_t>(i), Napi::String::New(env, log[i]));
  return data.errorFactory.Call({
      Napi::String::New(env, kind),
      Napi::Number::New(env, code),
      Napi::String::New(env, name),
      Napi::String::New(env, message),
      call ? Napi::String::New(env, call) : env.Null(),
      Napi::String::New(env, detail),
      Napi::Number::New(env, requiredVersion),
      lines,
  });
}

[[noreturn]] void throwFromFactory(Napi::Env env, const char* kind, int code, const std::string& name,
                                   const std::string& message, const char* call,
                                   const std::string& detail, int requiredVersion = 0) {
  Napi::Value error = buildFromFactory(env, kind, code, name, message, call, detail, requiredVersion);
  throw Napi::Error(env, error);
}

std::string versionText(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace

Napi::Value makeCudaError(Napi::Env env, CUresult result, Fn fn, const std::string& detail,
                          const DriverLogLines* log) {
  // Every entry point loads the driver before calling it; should one not, an
  // unusable driver still reads as unusable, not as one lacking this function.
  if (result == kFunctionMissing && driverState().stage != LoadStage::Ready) {
    try {
      throwDriverUnavailable(env, fn);
    } catch (const Napi::Error& unavailable) {
      return unavailable.Value();
    }
  }
  if (result == kFunctionMissing) {
    const DriverState& s = driverState();
    std::string installed = s.driverVersion ? "CUDA " + versionText(s.driverVersion) : "unknown version";
    return buildFromFactory(
        env, "missing", CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND",
        std::string(functionName(fn)) + " is not provided by the installed driver (" + installed +
            "); it needs a driver for CUDA " + versionText(functionVersion(fn)) + " or newer",
        functionName(fn), detail, functionVersion(fn));
  }
  const char* name = nullptr;
  const char* text = nullptr;
  if (driver.cuGetErrorName) driver.cuGetErrorName(result, &name);
  if (driver.cuGetErrorString) driver.cuGetErrorString(result, &text);
  DriverLogLines own = log ? DriverLogLines{} : takeDriverLog();
  return buildFromFactory(env, "cuda", result, name ? name : "", text ? text : "", functionName(fn), detail, 0,
                          log ? *log : own);
}

void throwCudaError(Napi::Env env, CUresult result, Fn fn, const std::string& detail) {
  throw Napi::Error(env, makeCudaError(env, result, fn, detail));
}

void throwDriverUnavailable(Napi::Env env, Fn fn) {
  const DriverState& s = driverState();
  switch (s.stage) {
    case LoadStage::LibraryMissing:
      throwFromFactory(env, "unavailable", CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
                       "the NVIDIA driver library could not be loaded (" + s.detail +
                           "); install the NVIDIA driver, or set CUDA_DRIVER_LIBRARY to the path of libcuda.so.1",
                       functionName(fn), "library-missing");
    case LoadStage::NoProcAddress:
      throwFromFactory(env, "unavailable", CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
                       s.detail + "; install a newer NVIDIA driver", functionName(fn), "driver-too-old");
    case LoadStage::InitFailed: {
      const char* name = nullptr;
      const char* text = nullptr;
      if (driver.cuGetErrorName) driver.cuGetErrorName(s.initResult, &name);
      if (driver.cuGetErrorString) driver.cuGetErrorString(s.initResult, &text);
      std::string why = s.initResult == CUDA_ERROR_NO_DEVICE
                            ? "no CUDA-capable device is visible (check CUDA_VISIBLE_DEVICES and the driver)"
                            : std::string("cuInit failed: ") + (text ? text : "unknown error");
      throwFromFactory(env, "unavailable", s.initResult, name ? name : "", why, functionName(fn), "init-failed");
    }
    default:
      throwFromFactory(env, "unavailable", CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
                       "the driver has not been loaded", functionName(fn), "not-loaded");
  }
}

void throwTypeError(Napi::Env env, const std::string& message) {
  throw Napi::Error(env, buildFromFactory(env, "type", 0, "", message, nullptr, ""));
}

void throwRangeError(Napi::Env env, const std::string& message) {
  throw Napi::Error(env, buildFromFactory(env, "range", 0, "", message, nullptr, ""));
}

void throwDisposed(Napi::Env env, const char* what) { throw Napi::Error(env, disposedError(env, what)); }

Napi::Value disposedError(Napi::Env env, const char* what) {
  return buildFromFactory(env, "disposed", 0, "", std::string(what) + " has been disposed", nullptr, what);
}

// The TypeScript factory names the errno and words the message (util.getSystemErrorMap).
Napi::Value systemError(Napi::Env env, int err, const char* syscall, const std::string& detail) {
  return buildFromFactory(env, "system", err, "", std::string(syscall) + " failed with errno " + std::to_string(err),
                          syscall, detail);
}

void throwSystemError(Napi::Env env, int err, const char* syscall, const std::string& detail) {
  throw Napi::Error(env, systemError(env, err, syscall, detail));
}

Napi::Value timeoutError(Napi::Env env, const char* operation, int64_t timeoutMs) {
  return buildFromFactory(env, "timeout", static_cast<double>(timeoutMs), "",
                          std::string(operation) + " timed out after " + std::to_string(timeoutMs) + " ms",
                          operation, "");
}

Napi::Value channelError(Napi::Env env, const char* kind, const char* operation, const std::string& message) {
  return buildFromFactory(env, kind, 0, "", message, operation, "");
}

void throwHostCallbackPending(Napi::Env env, const char* operation, const std::string& message) {
  throw Napi::Error(env, buildFromFactory(env, "host-callback-pending", 0, "", message, operation, ""));
}

Napi::Value SetErrorFactory(const Napi::CallbackInfo& info) {
  if (!info[0].IsFunction()) throwTypeError(info.Env(), "factory must be a function");
  addonData(info.Env()).errorFactory = Napi::Persistent(info[0].As<Napi::Function>());
  return info.Env().Undefined();
}

}  // namespace cudrv
