#include "nvrtc/loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "core/shared_library.h"

namespace cudrv::nvrtc {

Api api;

namespace {

State state;
std::once_flag once;

std::vector<std::string> candidates() {
  const char* configured = std::getenv("NVRTC_LIBRARY");
  if (configured && *configured) return {configured};
  const char* cudaPath = std::getenv("CUDA_PATH");
  const std::string toolkit = std::string(cudaPath && *cudaPath ? cudaPath : "/usr/local/cuda") + "/lib64/";
  return {"libnvrtc.so.13", "libnvrtc.so.12", toolkit + "libnvrtc.so.13", toolkit + "libnvrtc.so.12"};
}

// Resolves every entry point; false (with detail) if one is missing.
bool resolve(void* library, std::string& missing) {
#define CUDRV_NVRTC_RESOLVE(name, ret, ...)                                          \
  api.name = reinterpret_cast<ret (*)(__VA_ARGS__)>(dlsym(library, #name));          \
  if (!api.name) {                                                                   \
    missing = #name;                                                                 \
    return false;                                                                    \
  }
  CUDRV_NVRTC_FUNCTIONS(CUDRV_NVRTC_RESOLVE)
#undef CUDRV_NVRTC_RESOLVE
  return true;
}

void loadOnce() {
  OpenedLibrary opened = openFirstLibrary(candidates());
  state.libraryPath = opened.path;
  state.detail = opened.detail;
  if (!opened.handle) return;
  std::string missing;
  if (!resolve(opened.handle, missing)) {
    api = Api();
    state.detail = opened.path + " lacks " + missing + "; it is older than NVRTC 11.2";
    return;
  }
  api.nvrtcVersion(&state.major, &state.minor);
  state.loaded = true;
}

}  // namespace

const State& load() {
  std::call_once(once, loadOnce);
  return state;
}

std::string resultName(Result result) {
  const char* name = api.nvrtcGetErrorString ? api.nvrtcGetErrorString(result) : nullptr;
  return name ? name : "NVRTC_ERROR_" + std::to_string(result);
}

}  // namespace cudrv::nvrtc
