#include "nccl/loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "core/shared_library.h"

namespace cudrv::nccl {

Api api;

namespace {

State state;
std::once_flag once;

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

std::vector<std::string> candidates() {
  if (const char* configured = env("NCCL_LIBRARY")) return {configured};
  return searchPaths();
}

// Resolves every required entry point; false (with missing) if one is absent.
bool resolve(void* library, std::string& missing) {
#define CUDRV_NCCL_RESOLVE(name, ret, ...)                                   \
  api.name = reinterpret_cast<ret (*)(__VA_ARGS__)>(dlsym(library, #name));  \
  if (!api.name) {                                                           \
    missing = #name;                                                         \
    return false;                                                            \
  }
  CUDRV_NCCL_FUNCTIONS(CUDRV_NCCL_RESOLVE)
#undef CUDRV_NCCL_RESOLVE
#define CUDRV_NCCL_OPTIONAL(name, ret, ...) api.name = reinterpret_cast<ret (*)(__VA_ARGS__)>(dlsym(library, #name));
  CUDRV_NCCL_OPTIONAL_FUNCTIONS(CUDRV_NCCL_OPTIONAL)
#undef CUDRV_NCCL_OPTIONAL
  return true;
}

std::string versionText(int code) {
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." + std::to_string(code % 100);
}

void loadOnce() {
  OpenedLibrary opened = openFirstLibrary(candidates());
  state.libraryPath = opened.path;
  state.detail = opened.detail;
  if (!opened.handle) return;
  // The version first: a library too old to have an entry point is better
  // told by its version than by the name of what it lacks.
  auto getVersion = reinterpret_cast<Result (*)(int*)>(dlsym(opened.handle, "ncclGetVersion"));
  if (!getVersion || getVersion(&state.version) != kSuccess) {
    state.detail = opened.path + " has no working ncclGetVersion; it is not NCCL";
    return;
  }
  if (state.version < kOldestVersion) {
    state.detail = opened.path + " is NCCL " + versionText(state.version) + "; NCCL " +
                   versionText(kOldestVersion) + " or newer is needed";
    return;
  }
  std::string missing;
  if (!resolve(opened.handle, missing)) {
    api = Api();
    state.detail = opened.path + " lacks " + missing;
    return;
  }
  state.loaded = true;
}

}  // namespace

std::vector<std::string> searchPaths() {
  const std::string wheel = "/nvidia/nccl/lib/libnccl.so.2";
  const std::string sitePackages = "/lib/python3*/{site,dist}-packages";
  std::vector<std::string> paths{"libnccl.so.2"};
  auto add = [&](const std::string& pattern) {
    for (std::string& path : globPaths(pattern)) paths.push_back(std::move(path));
  };
  if (const char* venv = env("VIRTUAL_ENV")) add(venv + sitePackages + wheel);
  if (const char* conda = env("CONDA_PREFIX")) {
    add(std::string(conda) + "/lib/libnccl.so.2");
    add(conda + sitePackages + wheel);
  }
  if (const char* home = env("HOME")) add(home + std::string("/.local") + sitePackages + wheel);
  add("/usr/local" + sitePackages + wheel);
  add("/usr" + sitePackages + wheel);
  add("/opt/*/.venv" + sitePackages + wheel);
  add("/opt/*/venv" + sitePackages + wheel);
  add("/opt/conda" + sitePackages + wheel);
  return paths;
}

const State& load() {
  std::call_once(once, loadOnce);
  return state;
}

std::string resultText(Result result) {
  const char* text = api.ncclGetErrorString ? api.ncclGetErrorString(result) : nullptr;
  return text ? text : "NCCL result " + std::to_string(result);
}

}  // namespace cudrv::nccl
