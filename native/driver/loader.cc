#include "driver/loader.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <type_traits>

#include "core/driver_log.h"

namespace cudrv {

// Each pointer type from cudaTypedefs.h must be the header's own prototype, so
// that the documentation in cuda.h describes what we call.
#define CUDRV_CHECK(name, symbol, version)                                 \
  static_assert(std::is_same_v<decltype(&name), PFN_##symbol##_v##version>, \
                #name ": functions.h names the wrong ABI version");
CUDA_DRIVER_FUNCTIONS(CUDRV_CHECK)
#undef CUDRV_CHECK

FunctionTable driver;

namespace {

struct FunctionInfo {
  const char* name;
  const char* symbol;
  int version;
};

const FunctionInfo kFunctions[] = {
#define CUDRV_INFO(name, symbol, version) {#name, #symbol, version},
    CUDA_DRIVER_FUNCTIONS(CUDRV_INFO)
#undef CUDRV_INFO
};

DriverState state;
std::atomic<bool> attempted{false};
std::mutex loadMutex;

using GetProcAddressV1 = CUresult(CUDAAPI*)(const char*, void**, int, cuuint64_t);

void resolveAll(void* library) {
  auto v2 = reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(library, "cuGetProcAddress_v2"));
  auto v1 = reinterpret_cast<GetProcAddressV1>(dlsym(library, "cuGetProcAddress"));
  void** slots = reinterpret_cast<void**>(&driver);
  static_assert(sizeof(FunctionTable) == sizeof(void*) * kFunctionCount,
                "the table holds exactly one pointer per function");
  for (int i = 0; i < kFunctionCount; ++i) {
    const FunctionInfo& f = kFunctions[i];
    void* pfn = nullptr;
    CUresult r;
    if (v2) {
      CUdriverProcAddressQueryResult status;
      r = v2(f.symbol, &pfn, f.version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status);
      if (status != CU_GET_PROC_ADDRESS_SUCCESS) pfn = nullptr;
    } else {
      r = v1(f.symbol, &pfn, f.version, CU_GET_PROC_ADDRESS_LEGACY_STREAM);
    }
    slots[i] = r == CUDA_SUCCESS ? pfn : nullptr;
  }
  // Our own table entry for cuGetProcAddress is the loader's bootstrap symbol.
  if (v2) driver.cuGetProcAddress = v2;
}

void load() {
  const char* configured = std::getenv("CUDA_DRIVER_LIBRARY");
  state.libraryPath = configured && *configured ? configured : "libcuda.so.1";
  // RTLD_NODELETE: the driver's own atexit teardown must find its code mapped.
  void* library = dlopen(state.libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!library) {
    const char* why = dlerror();
    state.detail = why ? why : "dlopen failed";
    state.stage = LoadStage::LibraryMissing;
    return;
  }
  if (!dlsym(library, "cuGetProcAddress_v2") && !dlsym(library, "cuGetProcAddress")) {
    state.detail = state.libraryPath + " has no cuGetProcAddress; the driver is older than CUDA 11.3";
    state.stage = LoadStage::NoProcAddress;
    return;
  }
  resolveAll(library);
  if (driver.cuDriverGetVersion) driver.cuDriverGetVersion(&state.driverVersion);
  state.initResult = driver.cuInit ? driver.cuInit(0) : CUDA_ERROR_NOT_FOUND;
  state.stage = state.initResult == CUDA_SUCCESS ? LoadStage::Ready : LoadStage::InitFailed;
  if (state.stage == LoadStage::Ready) startDriverLog();
}

}  // namespace

const DriverState& loadDriver() {
  if (attempted.load(std::memory_order_acquire)) return state;
  std::lock_guard<std::mutex> lock(loadMutex);
  if (!attempted.load(std::memory_order_relaxed)) {
    load();
    attempted.store(true, std::memory_order_release);
  }
  return state;
}

const DriverState& driverState() {
  static const DriverState notTried;
  return attempted.load(std::memory_order_acquire) ? state : notTried;
}

const char* functionName(Fn fn) { return kFunctions[static_cast<int>(fn)].name; }
int functionVersion(Fn fn) { return kFunctions[static_cast<int>(fn)].version; }

}  // namespace cudrv
