// NCCL opened at run time, like the driver and NVRTC: NCCL_LIBRARY if set,
// else libnccl.so.2 from the loader's search path, then from the places Python
// wheels and environments put it (nvidia/nccl/lib under site-packages of
// virtual environments, conda, the system's and /opt/*/.venv's interpreters).
// Nothing loads it before the first NCCL call or status query.
#pragma once

#include <string>
#include <vector>

#include "nccl/api.h"

namespace cudrv::nccl {

struct State {
  bool loaded = false;
  std::string libraryPath;  // what was opened, or every path tried
  std::string detail;       // why loading failed
  int version = 0;          // ncclGetVersion's code (22803 for 2.28.3), 0 when unknown
};

// Loads NCCL on first call (thread-safe, once per process).
const State& load();

// The paths tried, in order, when NCCL_LIBRARY is not set.
std::vector<std::string> searchPaths();

extern Api api;

// NCCL's name for a result ("invalid argument"), or "NCCL result N".
std::string resultText(Result result);

}  // namespace cudrv::nccl
