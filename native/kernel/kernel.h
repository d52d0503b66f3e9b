// Kernels: a library's context-independent CUkernel or a module's CUfunction,
// behind one JavaScript class. The box holds the code's box (so the code stays
// loaded while the kernel is referenced) and the parameter layout the driver
// reports, read once, against which every launch's arguments are checked.
#pragma once

#include <napi.h>

#include <memory>
#include <string>
#include <vector>

#include "core/non_copyable.h"
#include "core/handle.h"
#include "kernel/library.h"
#include "kernel/module.h"

namespace cudrv {

// The most bytes of parameters a kernel can take (CUDA 12.1+).
constexpr size_t kMaxParamBytes = 32764;

// Where each parameter lives in the kernel's parameter buffer.
struct ParamLayout {
  // False when the driver cannot say (cuKernelGetParamInfo / cuFuncGetParamInfo
  // came with CUDA 12.4): launches then pass the caller's packed buffer as is.
  bool known = false;
  std::vector<size_t> offsets;
  std::vector<size_t> sizes;
  size_t bytes = 0;  // the end of the last parameter
};

struct KernelBox : NonCopyable {
  LibraryRef library;  // a library's kernel ...
  ModuleRef module;    // ... or a module's function
  CUkernel kernel = nullptr;
  CUfunction function = nullptr;
  std::string name;
  ParamLayout params;

  // What cuLaunchKernel* and cuOccupancy* take: the CUfunction, or the CUkernel
  // cast to one as the driver documents (its context then comes from the stream
  // or the current context).
  CUfunction launchable() const { return function ? function : reinterpret_cast<CUfunction>(kernel); }
  // The one context a module's function runs in; null for a library's kernel.
  CUcontext context() const { return module ? module->context->context : nullptr; }
};
using KernelRef = std::shared_ptr<KernelBox>;

// A library's kernel, with its name and parameter layout read from the driver.
KernelRef makeLibraryKernel(Napi::Env env, const LibraryRef& library, CUkernel kernel, std::string name);
// A module's function, the same way.
KernelRef makeModuleFunction(Napi::Env env, const ModuleRef& module, CUfunction function, std::string name);

class Kernel : public Handle<Kernel, KernelBox> {
 public:
  static constexpr const char* kName = "Kernel";
};

}  // namespace cudrv
