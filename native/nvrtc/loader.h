// NVRTC opened at run time, like the driver: NVRTC_LIBRARY if set, else
// libnvrtc.so.13, then libnvrtc.so.12, from the loader's search path and then
// from the toolkit's lib64 (CUDA_PATH, else /usr/local/cuda). Nothing loads it
// before the first compile or status query.
#pragma once

#include <string>

#include "nvrtc/api.h"

namespace cudrv::nvrtc {

struct State {
  bool loaded = false;
  std::string libraryPath;  // what was opened, or every path tried
  std::string detail;       // why loading failed
  int major = 0;
  int minor = 0;
};

// Loads NVRTC on first call (thread-safe, once per process).
const State& load();

extern Api api;

// The name NVRTC gives a result ("NVRTC_ERROR_COMPILATION").
std::string resultName(Result result);

}  // namespace cudrv::nvrtc
