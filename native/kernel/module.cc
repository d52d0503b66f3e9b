#include "kernel/module.h"

#include <cstring>
#include <vector>

#include "core/args.h"
#include "generated/entries.h"
#include "kernel/code_load.h"
#include "kernel/kernel.h"
#include "core/release.h"

namespace cudrv {

ModuleBox::~ModuleBox() {
  if (!module || library) return;  // a library's module goes with the library
  CUmodule handle = module;
  CUcontext ctx = context->context;
  // The lambda holds the context's box, so the context outlives the unload.
  ContextRef keep = context;
  releaseWhenSafe([handle, ctx, keep] {
    if (setCurrent(ctx) == CUDA_SUCCESS) CU_CALL(cuModuleUnload, handle);
  });
}

// (context, code: Uint8Array, jit options) -> Module
Napi::Value LoadModuleData(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  JitOptions jit(info[2]);
  std::vector<char> code = codeImage(info[1], "code");
  const ContextRef& context = Context::fromSlot(info[0], "context");
  makeCurrent(env, context);
  auto box = std::make_shared<ModuleBox>();
  CUresult r = CU_CALL(cuModuleLoadDataEx, &box->module, code.data(), jit.count(), jit.keys(), jit.values());
  if (r != CUDA_SUCCESS) {
    box->module = nullptr;
    throwCudaError(env, r, Fn::cuModuleLoadDataEx, jit.errorDetail(std::to_string(code.size() - 1) + " bytes"));
  }
  box->context = context;
  box->jitLog = jit.infoLog();
  return Module::newSlot(env, std::move(box));
}

namespace {

// A module made by load (a driver call that fills in the CUmodule) in context.
template <typename Load>
Napi::Value loadModule(Napi::Env env, const ContextRef& context, Fn fn, const std::string& detail, Load load) {
  makeCurrent(env, context);
  auto box = std::make_shared<ModuleBox>();
  CUresult r = load(&box->module);
  if (r != CUDA_SUCCESS) {
    box->module = nullptr;
    throwCudaError(env, r, fn, detail);
  }
  box->context = context;
  return Module::newSlot(env, std::move(box));
}

}  // namespace

// (context, path) -> Module: cuModuleLoad, the driver reading the file itself.
Napi::Value LoadModuleFile(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string path = stringArg(info[1], "path");
  if (path.find('\0') != std::string::npos) rangeError(env, "path", "must not contain NUL characters");
  const ContextRef& context = Context::fromSlot(info[0], "context");
  return loadModule(env, context, Fn::cuModuleLoad, path,
                    [&path](CUmodule* module) { return CU_CALL(cuModuleLoad, module, path.c_str()); });
}

// (context, fatbin bytes) -> Module: cuModuleLoadFatBinary. The driver takes no
// length: it reads as far as the fat binary's header says, so the header is
// checked against the bytes given (magic, then header size plus body size).
Napi::Value LoadModuleFatBinary(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::vector<char> code = codeImage(info[1], "code");
  constexpr uint32_t kFatbinMagic = 0xBA55ED50;
  const size_t length = code.size() - 1;  // less codeImage's NUL
  uint32_t magic = 0;
  uint16_t headerSize = 0;
  uint64_t bodySize = 0;
  if (length >= 16) {
    std::memcpy(&magic, code.data(), 4);
    std::memcpy(&headerSize, code.data() + 6, 2);
    std::memcpy(&bodySize, code.data() + 8, 8);
  }
  if (magic != kFatbinMagic) rangeError(env, "code", "is not a fat binary (no fatbin header)");
  if (headerSize < 16 || bodySize > length || headerSize > length - bodySize) {
    rangeError(env, "code", "is shorter than its fatbin header says (" + std::to_string(length) + " bytes)");
  }
  const ContextRef& context = Context::fromSlot(info[0], "context");
  return loadModule(env, context, Fn::cuModuleLoadFatBinary, std::to_string(code.size() - 1) + " bytes",
                    [&code](CUmodule* module) { return CU_CALL(cuModuleLoadFatBinary, module, code.data()); });
}

// 'eager' or 'lazy': how this process loads module code (CUDA_MODULE_LOADING).
Napi::Value ModuleLoadingMode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuModuleGetLoadingMode);
  CUmoduleLoadingMode mode = CU_MODULE_EAGER_LOADING;
  CU_CHECK(env, cuModuleGetLoadingMode, &mode);
  return Napi::String::New(env, mode == CU_MODULE_LAZY_LOADING ? "lazy" : "eager");
}

Napi::Value ModuleHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), Module::fromSlot(info[0], "module")->module);
}

Napi::Value ModuleJitLog(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), Module::fromSlot(info[0], "module")->jitLog);
}

Napi::Value ModuleOwnedByLibrary(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), Module::fromSlot(info[0], "module")->library != nullptr);
}

Napi::Value ModuleFunction(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[1], "name");
  const ModuleRef& m = Module::fromSlot(info[0], "module");
  makeCurrent(env, m->context);
  CUfunction function = nullptr;
  CU_CHECK_DETAIL(env, name, cuModuleGetFunction, &function, m->module, name.c_str());
  return Kernel::newSlot(env, makeModuleFunction(env, m, function, name));
}

Napi::Value ModuleFunctionCount(const Napi::CallbackInfo& info) {
  unsigned count = 0;
  CU_CHECK(info.Env(), cuModuleGetFunctionCount, &count, Module::fromSlot(info[0], "module")->module);
  return Napi::Number::New(info.Env(), count);
}

Napi::Value ModuleFunctions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: setting the result's elements may run JavaScript that disposes the module.
  const ModuleRef m = Module::fromSlot(info[0], "module");
  makeCurrent(env, m->context);
  unsigned count = 0;
  CU_CHECK(env, cuModuleGetFunctionCount, &count, m->module);
  std::vector<CUfunction> functions(count);
  if (count) CU_CHECK(env, cuModuleEnumerateFunctions, functions.data(), count, m->module);
  Napi::Array out = Napi::Array::New(env, count);
  for (unsigned i = 0; i < count; ++i) {
    out.Set(i, Kernel::newSlot(env, makeModuleFunction(env, m, functions[i], "")));
  }
  return out;
}

// (module, name) -> { address, size }: a __device__ or __constant__ variable of the module.
Napi::Value ModuleGlobal(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[1], "name");
  const ModuleBox& m = *Module::fromSlot(info[0], "module");
  makeCurrent(env, m.context);
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, name, cuModuleGetGlobal, &address, &bytes, m.module, name.c_str());
  return variableSpan(env, address, bytes);
}

}  // namespace cudrv
