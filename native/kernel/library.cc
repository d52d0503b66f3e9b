#include "kernel/library.h"

#include <vector>

#include "core/args.h"
#include "context.h"
#include "kernel/code_load.h"
#include "kernel/kernel.h"
#include "kernel/module.h"
#include "core/release.h"

namespace cudrv {

LibraryBox::~LibraryBox() {
  if (!library) return;
  CUlibrary handle = library;
  releaseWhenSafe([handle] { CU_CALL(cuLibraryUnload, handle); });
}

namespace {

// (code: Uint8Array, jit options) -> Library
Napi::Value LoadLibraryData(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<char> code = codeImage(info[0], "code");
  JitOptions jit(info[1]);
  requireDriver(env, Fn::cuLibraryLoadData);
  auto box = std::make_shared<LibraryBox>();
  CUresult r = CU_CALL(cuLibraryLoadData, &box->library, code.data(), jit.keys(), jit.values(), jit.count(), nullptr,
                       nullptr, 0);
  if (r != CUDA_SUCCESS) {
    box->library = nullptr;
    throwCudaError(env, r, Fn::cuLibraryLoadData, jit.errorDetail(std::to_string(code.size() - 1) + " bytes"));
  }
  box->jitLog = jit.infoLog();
  return Library::newSlot(env, box);
}

// (path, jit options) -> Library
Napi::Value LoadLibraryFile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string path = stringArg(info[0], "path");
  JitOptions jit(info[1]);
  requireDriver(env, Fn::cuLibraryLoadFromFile);
  auto box = std::make_shared<LibraryBox>();
  CUresult r = CU_CALL(cuLibraryLoadFromFile, &box->library, path.c_str(), jit.keys(), jit.values(), jit.count(),
                       nullptr, nullptr, 0);
  if (r != CUDA_SUCCESS) {
    box->library = nullptr;
    throwCudaError(env, r, Fn::cuLibraryLoadFromFile, jit.errorDetail(path));
  }
  box->jitLog = jit.infoLog();
  return Library::newSlot(env, box);
}

}  // namespace

void Library::init(Napi::Env env, Napi::Object exports) {
  exports.Set("Library", define(env, {
      InstanceAccessor("handle", &Library::HandleValue, nullptr),
      InstanceAccessor("jitLog", &Library::JitLog, nullptr),
      InstanceMethod("kernel", &Library::Kernel),
      InstanceMethod("kernelCount", &Library::KernelCount),
      InstanceMethod("kernels", &Library::Kernels),
      InstanceMethod("global", &Library::Global),
      InstanceMethod("managed", &Library::Managed),
      InstanceMethod("unifiedFunction", &Library::UnifiedFunction),
      InstanceMethod("module", &Library::Module),
  }));
  exports.Set("loadLibraryData", Napi::Function::New(env, LoadLibraryData));
  exports.Set("loadLibraryFile", Napi::Function::New(env, LoadLibraryFile));
}

Napi::Value Library::HandleValue(const Napi::CallbackInfo& info) { return handleValue(info.Env(), live().library); }
Napi::Value Library::JitLog(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), live().jitLog); }

Napi::Value Library::Kernel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[0], "name");
  CUkernel kernel = nullptr;
  CU_CHECK_DETAIL(env, name, cuLibraryGetKernel, &kernel, live().library, name.c_str());
  return Kernel::newSlot(env, makeLibraryKernel(env, shared(), kernel, name));
}

Napi::Value Library::KernelCount(const Napi::CallbackInfo& info) {
  unsigned count = 0;
  CU_CHECK(info.Env(), cuLibraryGetKernelCount, &count, live().library);
  return Napi::Number::New(info.Env(), count);
}

Napi::Value Library::Kernels(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  unsigned count = 0;
  CU_CHECK(env, cuLibraryGetKernelCount, &count, live().library);
  std::vector<CUkernel> kernels(count);
  if (count) CU_CHECK(env, cuLibraryEnumerateKernels, kernels.data(), count, live().library);
  Napi::Array out = Napi::Array::New(env, count);
  for (unsigned i = 0; i < count; ++i) out.Set(i, Kernel::newSlot(env, makeLibraryKernel(env, shared(), kernels[i], "")));
  return out;
}

// (name, context) -> { address, size }: a __device__ or __constant__ variable, in one context.
Napi::Value Library::Global(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[0], "name");
  makeCurrent(env, Context::fromSlot(info[1], "context"));
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, name, cuLibraryGetGlobal, &address, &bytes, live().library, name.c_str());
  return variableSpan(env, address, bytes);
}

// (name) -> { address, size }: a __managed__ variable, shared by every device.
Napi::Value Library::Managed(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[0], "name");
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, name, cuLibraryGetManaged, &address, &bytes, live().library, name.c_str());
  return variableSpan(env, address, bytes);
}

Napi::Value Library::UnifiedFunction(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string symbol = stringArg(info[0], "symbol");
  void* pointer = nullptr;
  CU_CHECK_DETAIL(env, symbol, cuLibraryGetUnifiedFunction, &pointer, live().library, symbol.c_str());
  return handleValue(env, pointer);
}

// (context) -> Module: the library's module in that context, owned by the library.
Napi::Value Library::Module(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const ContextRef& context = Context::fromSlot(info[0], "context");
  makeCurrent(env, context);
  auto box = std::make_shared<ModuleBox>();
  CU_CHECK(env, cuLibraryGetModule, &box->module, live().library);
  box->context = context;
  box->library = shared();
  return Module::newSlot(env, box);
}

}  // namespace cudrv
