#include "kernel/module.h"

#include <vector>

#include "core/args.h"
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

namespace {

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
  return Module::newSlot(env, box);
}

// 'eager' or 'lazy': how this process loads module code (CUDA_MODULE_LOADING).
Napi::Value ModuleLoadingMode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuModuleGetLoadingMode);
  CUmoduleLoadingMode mode = CU_MODULE_EAGER_LOADING;
  CU_CHECK(env, cuModuleGetLoadingMode, &mode);
  return Napi::String::New(env, mode == CU_MODULE_LAZY_LOADING ? "lazy" : "eager");
}

}  // namespace

void Module::init(Napi::Env env, Napi::Object exports) {
  exports.Set("Module", define(env, {
      InstanceAccessor("handle", &Module::HandleValue, nullptr),
      InstanceAccessor("jitLog", &Module::JitLog, nullptr),
      InstanceAccessor("ownedByLibrary", &Module::OwnedByLibrary, nullptr),
      InstanceMethod("function", &Module::Function),
      InstanceMethod("functionCount", &Module::FunctionCount),
      InstanceMethod("functions", &Module::Functions),
      InstanceMethod("global", &Module::Global),
  }));
  exports.Set("loadModuleData", Napi::Function::New(env, LoadModuleData));
  exports.Set("moduleLoadingMode", Napi::Function::New(env, ModuleLoadingMode));
}

Napi::Value Module::HandleValue(const Napi::CallbackInfo& info) { return handleValue(info.Env(), live().module); }
Napi::Value Module::JitLog(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), live().jitLog); }
Napi::Value Module::OwnedByLibrary(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), live().library != nullptr);
}

Napi::Value Module::Function(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[0], "name");
  ModuleBox& m = live();
  makeCurrent(env, m.context);
  CUfunction function = nullptr;
  CU_CHECK_DETAIL(env, name, cuModuleGetFunction, &function, m.module, name.c_str());
  return Kernel::newSlot(env, makeModuleFunction(env, shared(), function, name));
}

Napi::Value Module::FunctionCount(const Napi::CallbackInfo& info) {
  unsigned count = 0;
  CU_CHECK(info.Env(), cuModuleGetFunctionCount, &count, live().module);
  return Napi::Number::New(info.Env(), count);
}

Napi::Value Module::Functions(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ModuleBox& m = live();
  makeCurrent(env, m.context);
  unsigned count = 0;
  CU_CHECK(env, cuModuleGetFunctionCount, &count, m.module);
  std::vector<CUfunction> functions(count);
  if (count) CU_CHECK(env, cuModuleEnumerateFunctions, functions.data(), count, m.module);
  Napi::Array out = Napi::Array::New(env, count);
  for (unsigned i = 0; i < count; ++i) {
    out.Set(i, Kernel::newSlot(env, makeModuleFunction(env, shared(), functions[i], "")));
  }
  return out;
}

// (name) -> { address, size }: a __device__ or __constant__ variable of the module.
Napi::Value Module::Global(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::string name = stringArg(info[0], "name");
  ModuleBox& m = live();
  makeCurrent(env, m.context);
  CUdeviceptr address = 0;
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, name, cuModuleGetGlobal, &address, &bytes, m.module, name.c_str());
  return variableSpan(env, address, bytes);
}

}  // namespace cudrv
