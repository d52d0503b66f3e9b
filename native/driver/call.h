// Calling the driver: one inline wrapper that counts calls and errors when
// counting is on (a relaxed load when off) and answers kFunctionMissing when the
// installed driver lacks the entry point.
#pragma once

#include <atomic>
#include <cstdint>

#include "driver/loader.h"

namespace cudrv {

// Not a driver code: the entry point is absent from the installed driver.
constexpr CUresult kFunctionMissing = static_cast<CUresult>(-1);

struct Counters {
  std::atomic<bool> enabled{false};
  std::atomic<uint64_t> calls[kFunctionCount] = {};
  std::atomic<uint64_t> errors[kFunctionCount] = {};
};
extern Counters counters;

template <typename F, typename... Args>
inline CUresult invoke(Fn fn, F f, Args... args) {
  CUresult result = f ? f(args...) : kFunctionMissing;
  if (counters.enabled.load(std::memory_order_relaxed)) {
    const int i = static_cast<int>(fn);
    counters.calls[i].fetch_add(1, std::memory_order_relaxed);
    if (result != CUDA_SUCCESS) counters.errors[i].fetch_add(1, std::memory_order_relaxed);
  }
  return result;
}

}  // namespace cudrv

// CU_CALL(cuMemAlloc, &ptr, bytes) -> CUresult. The name is the header's (it may
// expand to a _v2 name; the table's member and enum expand the same way).
#define CU_CALL(name, ...) ::cudrv::invoke(::cudrv::Fn::name, ::cudrv::driver.name, ##__VA_ARGS__)
