// The driver's function table: libcuda.so.1 opened at run time and every entry
// point resolved through cuGetProcAddress at the ABI version of the header's
// prototype. Nothing here links against libcuda.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <string>

#include "driver/functions.h"

namespace cudrv {

// One index per driver function, in the order of functions.h.
enum class Fn : int {
#define CUDRV_ENUM(name, symbol, version) name,
  CUDA_DRIVER_FUNCTIONS(CUDRV_ENUM)
#undef CUDRV_ENUM
      Count
};
constexpr int kFunctionCount = static_cast<int>(Fn::Count);

struct FunctionTable {
#define CUDRV_MEMBER(name, symbol, version) PFN_##symbol##_v##version name = nullptr;
  CUDA_DRIVER_FUNCTIONS(CUDRV_MEMBER)
#undef CUDRV_MEMBER
};

// Where loading stopped, if it did. The driver is usable only at Ready.
enum class LoadStage {
  NotTried,        // nothing has needed the driver yet
  LibraryMissing,  // dlopen failed
  NoProcAddress,   // the library has no cuGetProcAddress (driver older than CUDA 11.3)
  InitFailed,      // cuInit returned an error (no device, driver/kernel mismatch, ...)
  Ready,
};

struct DriverState {
  LoadStage stage = LoadStage::NotTried;
  std::string libraryPath;  // what was (or would have been) opened
  std::string detail;       // dlerror() text or the like
  CUresult initResult = CUDA_SUCCESS;
  int driverVersion = 0;    // cuDriverGetVersion, 0 when unknown
};

// Loads the driver on first call (thread-safe, once per process) and returns the
// outcome. Later calls are a single atomic load.
const DriverState& loadDriver();
// The state without loading anything.
const DriverState& driverState();

extern FunctionTable driver;

const char* functionName(Fn fn);
int functionVersion(Fn fn);

}  // namespace cudrv
