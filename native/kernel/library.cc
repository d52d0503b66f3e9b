#include "kernel/library.h"

#include <vector>

#include "core/args.h"
#include "generated/entries.h"
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
  return Library::newSlot(env, std::move(box));
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
  return Library::newSlot(env, std::move(box));
}

Napi::Value LibraryHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), Library::fromSlot(info[0], "library")->library);
}

Napi::Value LibraryJitLog(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), Library::fromSlot(info[0], "library")->jitLog);
}

Napi::Value LibraryKernel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[1], "name");
  const LibraryRef& library = Library::fromSlot(info[0], "library");
  CUkernel kernel = nullptr;
  CU_CHECK_DETAIL(env, name, cuLibraryGetKernel, &kernel, library->library, name.c_str());
  return Kernel::newSlot(env, makeLibraryKernel(env, library, kernel, name));
}

Napi::Value LibraryKernelCount(const Napi::CallbackInfo& info) {
  unsigned count = 0;
  CU_CHECK(info.Env(), cuLibraryGetKernelCount, &count, Library::fromSlot(info[0], "library")->library);
  return Napi::Number::New(info.Env(), count);
}

Napi::Value LibraryKernels(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: setting the result's elements may run JavaScript that disposes the library.
  const LibraryRef library = Library::fromSlot(info[0], "library");
  unsigned count = 0;
  CU_CHECK(env, cuLibraryGetKernelCount, &count, library->library);
  std::vector<CUkernel> kernels(count);
  if (count) CU_CHECK(env, cuLibraryEnumerateKernels, kernels.data(), count, library->library);
  Napi::Array out = Napi::Array::New(env, count);
  for (unsigned i = 0; i < count; ++i) out.Set(i, Kernel::newSlot(env, makeLibraryKernel(env, library, kernels[i], "")));
  return out;
}

// (library, name, context) -> { address, size }: a __device__ or __constant__ variable, in one context.
Napi::Value LibraryGlobal(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[1], "name");
  const SlotTable& table = slotTable(env);
  makeCurrent(env, Context::fromSlot(table, info[2], "context"));
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, name, cuLibraryGetGlobal, &address, &bytes, Library::fromSlot(table, info[0], "library")->library,
                  name.c_str());
  return variableSpan(env, address, bytes);
}

// (library, name) -> { address, size }: a __managed__ variable, shared by every device.
Napi::Value LibraryManaged(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[1], "name");
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, name, cuLibraryGetManaged, &address, &bytes, Library::fromSlot(info[0], "library")->library,
                  name.c_str());
  return variableSpan(env, address, bytes);
}

Napi::Value LibraryUnifiedFunction(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string symbol = stringArg(info[1], "symbol");
  void* pointer = nullptr;
  CU_CHECK_DETAIL(env, symbol, cuLibraryGetUnifiedFunction, &pointer, Library::fromSlot(info[0], "library")->library,
                  symbol.c_str());
  return handleValue(env, pointer);
}

// (library, context) -> Module: the library's module in that context, owned by the library.
Napi::Value LibraryModule(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const SlotTable& table = slotTable(env);
  const ContextRef& context = Context::fromSlot(table, info[1], "context");
  const LibraryRef& library = Library::fromSlot(table, info[0], "library");
  makeCurrent(env, context);
  auto box = std::make_shared<ModuleBox>();
  CU_CHECK(env, cuLibraryGetModule, &box->module, library->library);
  box->context = context;
  box->library = library;
  return Module::newSlot(env, std::move(box));
}

}  // namespace cudrv
