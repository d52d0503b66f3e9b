// Turning driver results into JavaScript errors. The error classes live in
// TypeScript (lib/errors.ts), which registers a factory at load; these helpers
// call it and throw what it builds.
#pragma once

#include <napi.h>

#include <string>

#include "driver/call.h"

namespace cudrv {

// Throws a CudaError for a failed call. detail names the handle or argument that
// matters ("device 0", "bytes=4096"), or is empty.
[[noreturn]] void throwCudaError(Napi::Env env, CUresult result, Fn fn, const std::string& detail = {});
// The same error as a value, e.g. to reject a promise.
Napi::Value makeCudaError(Napi::Env env, CUresult result, Fn fn, const std::string& detail = {});

// Throws the error that says why the driver cannot be used (library missing,
// cuInit failed, ...). Call only when loadDriver() is not Ready.
[[noreturn]] void throwDriverUnavailable(Napi::Env env, Fn fn);

// Throws the error for a handle used after dispose().
[[noreturn]] void throwDisposed(Napi::Env env, const char* what);

// Loads the driver if needed; throws unless it is usable. Every entry point that
// reaches the driver without a live handle starts with this.
inline void requireDriver(Napi::Env env, Fn fn) {
  if (loadDriver().stage != LoadStage::Ready) throwDriverUnavailable(env, fn);
}

// Registers the TypeScript error factory for this environment.
Napi::Value SetErrorFactory(const Napi::CallbackInfo& info);

}  // namespace cudrv

// CU_CHECK(env, cuMemAlloc, &ptr, bytes): call, and throw a CudaError on failure.
#define CU_CHECK(env, name, ...)                                                       \
  do {                                                                                 \
    CUresult cu_check_result_ = CU_CALL(name, ##__VA_ARGS__);                           \
    if (cu_check_result_ != CUDA_SUCCESS)                                              \
      ::cudrv::throwCudaError((env), cu_check_result_, ::cudrv::Fn::name);             \
  } while (0)

// The same with a detail string, built only on failure.
#define CU_CHECK_DETAIL(env, detail, name, ...)                                        \
  do {                                                                                 \
    CUresult cu_check_result_ = CU_CALL(name, ##__VA_ARGS__);                           \
    if (cu_check_result_ != CUDA_SUCCESS)                                              \
      ::cudrv::throwCudaError((env), cu_check_result_, ::cudrv::Fn::name, (detail));   \
  } while (0)
