// Turning driver results into JavaScript errors. The error classes live in
// TypeScript (lib/errors.ts), which registers a factory at load; these helpers
// call it and throw what it builds.
#pragma once

#include <napi.h>

#include <cstdint>
#include <string>

#include "core/driver_log.h"
#include "driver/call.h"

namespace cudrv {

// Throws a CudaError for a failed call. detail names the handle or argument that
// matters ("device 0", "bytes=4096"), or is empty.
[[noreturn]] void throwCudaError(Napi::Env env, CUresult result, Fn fn, const std::string& detail = {});
// The same error as a value, e.g. to reject a promise. Its driverLog is what the
// driver logged for the failure: log when the call ran on another thread (a
// wait's, which took it with takeDriverLog()), else this thread's own lines.
Napi::Value makeCudaError(Napi::Env env, CUresult result, Fn fn, const std::string& detail = {},
                          const DriverLogLines* log = nullptr);

// Throws the error that says why the driver cannot be used (library missing,
// cuInit failed, ...). Call only when loadDriver() is not Ready.
[[noreturn]] void throwDriverUnavailable(Napi::Env env, Fn fn);

// Throws the error for a handle used after dispose().
[[noreturn]] void throwDisposed(Napi::Env env, const char* what);
// The same error, built without throwing (to reject a promise with).
Napi::Value disposedError(Napi::Env env, const char* what);

// An operating-system call that failed with errno err (a SystemError); detail
// names the argument or object that matters ("path=/tmp/x", "fds[2]=17"), or is empty.
Napi::Value systemError(Napi::Env env, int err, const char* syscall, const std::string& detail = {});
[[noreturn]] void throwSystemError(Napi::Env env, int err, const char* syscall, const std::string& detail = {});

// A wait that ran out of time (a TimeoutError); operation is "accept", "receive", ...
Napi::Value timeoutError(Napi::Env env, const char* operation, int64_t timeoutMs);

// Errors of a descriptor channel that are not errnos: kind is "closed" (the peer
// went away; ChannelClosedError) or "protocol" (the peer broke the message format;
// ChannelProtocolError).
Napi::Value channelError(Napi::Env env, const char* kind, const char* operation, const std::string& message);

// A blocking wait on the JavaScript thread that a pending host callback would
// deadlock (HostCallbackPendingError); operation names the blocking call.
[[noreturn]] void throwHostCallbackPending(Napi::Env env, const char* operation, const std::string& message);

// Loads the driver if needed; throws unless it is usable. Every entry point that
// reaches the driver without a live handle starts with this.
inline void requireDriver(Napi::Env env, Fn fn) {
  if (loadDriver().stage != LoadStage::Ready) throwDriverUnavailable(env, fn);
}

// TypeError / RangeError built by TypeScript, so that they are the realm's own
// classes there (instanceof works in vm contexts such as jest's too).
[[noreturn]] void throwTypeError(Napi::Env env, const std::string& message);
[[noreturn]] void throwRangeError(Napi::Env env, const std::string& message);

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
