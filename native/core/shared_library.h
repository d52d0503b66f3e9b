// Opening an optional NVIDIA library (NVRTC, NCCL) at run time: the first of a
// list of candidate paths that dlopen accepts. The driver itself has a loader
// of its own (native/driver/loader.cc): it has one name and no search.
#pragma once

#include <string>
#include <vector>

namespace cudrv {

struct OpenedLibrary {
  void* handle = nullptr;  // null when no candidate opened
  std::string path;        // the candidate that opened, or every candidate tried
  std::string detail;      // dlerror() of the first failure, when none opened
};

// Tries each candidate in order. RTLD_NODELETE: work may still run on other
// threads at exit, and the library's own teardown must find its code mapped.
OpenedLibrary openFirstLibrary(const std::vector<std::string>& candidates);

// The paths that match a glob(3) pattern (braces allowed), sorted; none when
// nothing matches.
std::vector<std::string> globPaths(const std::string& pattern);

}  // namespace cudrv
