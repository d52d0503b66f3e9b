#include "core/shared_library.h"

#include <dlfcn.h>
#include <glob.h>

#include <algorithm>

namespace cudrv {

OpenedLibrary openFirstLibrary(const std::vector<std::string>& candidates) {
  OpenedLibrary out;
  std::string tried;
  for (const std::string& path : candidates) {
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library) {
      out.handle = library;
      out.path = path;
      out.detail.clear();
      return out;
    }
    const char* why = dlerror();
    if (out.detail.empty()) out.detail = why ? why : "dlopen failed";
    tried += (tried.empty() ? "" : ", ") + path;
  }
  out.path = tried;
  return out;
}

std::vector<std::string> globPaths(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t found{};
  if (glob(pattern.c_str(), GLOB_BRACE | GLOB_NOSORT, nullptr, &found) == 0) {
    for (size_t i = 0; i < found.gl_pathc; ++i) out.emplace_back(found.gl_pathv[i]);
  }
  globfree(&found);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace cudrv
