#include "kernel/kernel.h"

#include <exception>

#include "core/args.h"
#include "generated/entries.h"
#include "kernel/launch.h"
#include "kernel/launch_config.h"

namespace cudrv {

namespace {

template <typename Query>
ParamLayout readParams(Napi::Env env, const std::string& name, Fn fn, Query query) {
  ParamLayout layout;
  // The loop ends at CUDA_ERROR_INVALID_VALUE, past the last parameter; no
  // kernel has more parameters than bytes of them.
  for (size_t i = 0; i < kMaxParamBytes; ++i) {
    size_t offset = 0, size = 0;
    CUresult r = query(i, &offset, &size);
    if (r == kFunctionMissing) return ParamLayout();
    if (r == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
    if (r != CUDA_SUCCESS) throwCudaError(env, r, fn, name + " parameter " + std::to_string(i));
    layout.offsets.push_back(offset);
    layout.sizes.push_back(size);
    if (offset + size > layout.bytes) layout.bytes = offset + size;
  }
  layout.known = true;
  return layout;
}

}  // namespace

KernelRef makeLibraryKernel(Napi::Env env, const LibraryRef& library, CUkernel kernel, std::string name) {
  auto box = std::make_shared<KernelBox>();
  box->library = library;
  box->kernel = kernel;
  if (name.empty()) {
    const char* found = nullptr;
    CU_CHECK(env, cuKernelGetName, &found, kernel);
    name = found ? found : "";
  }
  box->name = std::move(name);
  // A library's kernel belongs to no context, but the driver answers questions
  // about it only with one current: use device 0's primary context when none is.
  CUcontext current = nullptr;
  CU_CHECK(env, cuCtxGetCurrent, &current);
  if (!current) makeCurrent(env, primaryContext(env, 0));
  box->params = readParams(env, box->name, Fn::cuKernelGetParamInfo, [&](size_t i, size_t* offset, size_t* size) {
    return CU_CALL(cuKernelGetParamInfo, kernel, i, offset, size);
  });
  return box;
}

KernelRef makeModuleFunction(Napi::Env env, const ModuleRef& module, CUfunction function, std::string name) {
  auto box = std::make_shared<KernelBox>();
  box->module = module;
  box->function = function;
  if (name.empty()) {
    const char* found = nullptr;
    CU_CHECK(env, cuFuncGetName, &found, function);
    name = found ? found : "";
  }
  box->name = std::move(name);
  box->params = readParams(env, box->name, Fn::cuFuncGetParamInfo, [&](size_t i, size_t* offset, size_t* size) {
    return CU_CALL(cuFuncGetParamInfo, function, i, offset, size);
  });
  return box;
}

Napi::Value KernelHandle(const Napi::CallbackInfo& info) {
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  return k.function ? handleValue(info.Env(), k.function) : handleValue(info.Env(), k.kernel);
}

Napi::Value KernelName(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), Kernel::fromSlot(info[0], "kernel")->name);
}

Napi::Value KernelIsLibraryKernel(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), Kernel::fromSlot(info[0], "kernel")->function == nullptr);
}

// [[offset, size], ...], or null when the driver cannot say.
Napi::Value KernelParamInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: setting the result's elements may run JavaScript (setters on Array.prototype) that disposes the kernel.
  const KernelRef kernel = Kernel::fromSlot(info[0], "kernel");
  const ParamLayout& p = kernel->params;
  if (!p.known) return env.Null();
  Napi::Array out = Napi::Array::New(env, p.offsets.size());
  for (size_t i = 0; i < p.offsets.size(); ++i) {
    Napi::Array pair = Napi::Array::New(env, 2);
    pair.Set(0u, static_cast<double>(p.offsets[i]));
    pair.Set(1u, static_cast<double>(p.sizes[i]));
    out.Set(static_cast<uint32_t>(i), pair);
  }
  return out;
}

// (kernel, attribute, device ordinal): a library's kernel has attributes per device; a
// module's function has those of its context's device, and the ordinal is not used.
Napi::Value KernelAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto attribute = static_cast<CUfunction_attribute>(intArg(info[1], "attribute"));
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  std::string detail = k.name + " attribute=" + std::to_string(attribute);
  int value = 0;
  if (k.function) {
    CU_CHECK_DETAIL(env, detail, cuFuncGetAttribute, &value, attribute, k.function);
  } else {
    CUdevice device = deviceOf(env, info[2], "device");
    CU_CHECK_DETAIL(env, detail, cuKernelGetAttribute, &value, attribute, k.kernel, device);
  }
  return Napi::Number::New(env, value);
}

// Only the attributes the headers name reach the driver: cuFuncSetAttribute
// faults on some numbers outside its enum (-1 and 2^31-1 on driver 580)
// instead of refusing them.
Napi::Value KernelSetAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto attribute = static_cast<CUfunction_attribute>(integerArg(info[1], "attribute", 0, CU_FUNC_ATTRIBUTE_MAX - 1));
  int value = intArg(info[2], "value");
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  std::string detail = k.name + " attribute=" + std::to_string(attribute) + " value=" + std::to_string(value);
  if (k.function) {
    CU_CHECK_DETAIL(env, detail, cuFuncSetAttribute, k.function, attribute, value);
  } else {
    CUdevice device = deviceOf(env, info[3], "device");
    CU_CHECK_DETAIL(env, detail, cuKernelSetAttribute, attribute, value, k.kernel, device);
  }
  return env.Undefined();
}

Napi::Value KernelSetCacheConfig(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto config = static_cast<CUfunc_cache>(intArg(info[1], "config"));
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  std::string detail = k.name + " config=" + std::to_string(config);
  if (k.function) {
    CU_CHECK_DETAIL(env, detail, cuFuncSetCacheConfig, k.function, config);
  } else {
    CUdevice device = deviceOf(env, info[2], "device");
    CU_CHECK_DETAIL(env, detail, cuKernelSetCacheConfig, k.kernel, config, device);
  }
  return env.Undefined();
}

namespace {

// The context occupancy and loading queries run in, made current: the
// module's for a module's function (a context given must be it), else the
// Context slot given.
void queryContext(Napi::Env env, const KernelBox& k, Napi::Value context) {
  if (k.function) {
    if (!context.IsUndefined() && !context.IsNull() && Context::fromSlot(context, "context")->context != k.context()) {
      throw Napi::Error::New(env, k.name + " belongs to its module's context; it cannot be queried in another");
    }
    makeCurrent(env, k.context());
    return;
  }
  makeCurrent(env, Context::fromSlot(context, "context"));
}

// The CUfunction of the kernel in the current context.
CUfunction currentFunction(Napi::Env env, const KernelBox& k) {
  if (k.function) return k.function;
  CUfunction function = nullptr;
  CU_CHECK_DETAIL(env, k.name, cuKernelGetFunction, &function, k.kernel);  // for the current context
  return function;
}

}  // namespace

// Whether the kernel's code is loaded in a context (with lazy loading it is
// loaded on first use); kernelLoad loads it now, e.g. before timing a launch.
Napi::Value KernelIsLoaded(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  queryContext(env, k, info[1]);
  CUfunction function = currentFunction(env, k);
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  CU_CHECK_DETAIL(env, k.name, cuFuncIsLoaded, &state, function);
  return Napi::Boolean::New(env, state == CU_FUNCTION_LOADING_STATE_LOADED);
}

Napi::Value KernelLoad(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  queryContext(env, k, info[1]);
  CUfunction function = currentFunction(env, k);
  CU_CHECK_DETAIL(env, k.name, cuFuncLoad, function);
  return env.Undefined();
}

// (kernel, context, blockSize, dynamicSharedMemoryBytes, flags)
Napi::Value KernelMaxActiveBlocksPerMultiprocessor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int blockSize = intArg(info[2], "blockSize");
  uint64_t sharedBytes = u64Arg(info[3], "dynamicSharedMemory");
  unsigned flags = uintArg(info[4], "flags");
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  queryContext(env, k, info[1]);
  int blocks = 0;
  CU_CHECK_DETAIL(env, k.name, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, &blocks, k.launchable(),
                  blockSize, static_cast<size_t>(sharedBytes), flags);
  return Napi::Number::New(env, blocks);
}

namespace {

// The JavaScript function asked for the dynamic shared memory of a block size,
// while cuOccupancyMaxPotentialBlockSize* runs on this thread. The driver's
// callback takes no user data, so the function is found through a
// thread-local; an exception it throws is kept and rethrown after the driver
// returns, never unwound through the driver's frames.
struct SharedMemoryCallback {
  Napi::Function function;
  std::exception_ptr error;
};
thread_local SharedMemoryCallback* currentCallback = nullptr;

size_t CUDA_CB sharedMemoryForBlockSize(int blockSize) {
  SharedMemoryCallback* callback = currentCallback;
  if (!callback || callback->error) return 0;
  try {
    Napi::Env env = callback->function.Env();
    Napi::Value bytes = callback->function.Call({Napi::Number::New(env, blockSize)});
    return static_cast<size_t>(u64Arg(bytes, "the dynamic shared memory for a block size"));
  } catch (...) {
    callback->error = std::current_exception();
    return 0;
  }
}

}  // namespace

// (kernel, context, dynamicSharedMemoryBytes | (blockSize) => bytes, blockSizeLimit, flags) -> { minGridSize, blockSize }
Napi::Value KernelMaxPotentialBlockSize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int limit = intArg(info[3], "blockSizeLimit");
  unsigned flags = uintArg(info[4], "flags");
  const bool byFunction = info[2].IsFunction();
  uint64_t sharedBytes = byFunction ? 0 : u64Arg(info[2], "dynamicSharedMemory");
  // Held for the call: the JavaScript callback could dispose this kernel, its
  // library, or the context it is asked about.
  KernelRef keep = Kernel::fromSlot(info[0], "kernel");
  ContextRef context = keep->function ? nullptr : Context::fromSlot(info[1], "context");
  queryContext(env, *keep, info[1]);
  int minGridSize = 0, blockSize = 0;
  CUresult r;
  if (byFunction) {
    SharedMemoryCallback callback{info[2].As<Napi::Function>(), nullptr};
    SharedMemoryCallback* outer = currentCallback;  // a callback may itself ask (nested)
    currentCallback = &callback;
    r = CU_CALL(cuOccupancyMaxPotentialBlockSizeWithFlags, &minGridSize, &blockSize, keep->launchable(),
                sharedMemoryForBlockSize, 0, limit, flags);
    currentCallback = outer;
    if (callback.error) std::rethrow_exception(callback.error);
  } else {
    r = CU_CALL(cuOccupancyMaxPotentialBlockSizeWithFlags, &minGridSize, &blockSize, keep->launchable(), nullptr,
                static_cast<size_t>(sharedBytes), limit, flags);
  }
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuOccupancyMaxPotentialBlockSizeWithFlags, keep->name);
  Napi::Object out = Napi::Object::New(env);
  out.Set("minGridSize", minGridSize);
  out.Set("blockSize", blockSize);
  return out;
}

// (kernel, context, blocksPerMultiprocessor, blockSize)
Napi::Value KernelAvailableDynamicSharedMemoryPerBlock(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int blocks = intArg(info[2], "blocksPerMultiprocessor");
  int blockSize = intArg(info[3], "blockSize");
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  queryContext(env, k, info[1]);
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, k.name, cuOccupancyAvailableDynamicSMemPerBlock, &bytes, k.launchable(), blocks, blockSize);
  return Napi::Number::New(env, static_cast<double>(bytes));
}

// (kernel, context, encoded launch configuration): the cluster dimension in it is ignored.
Napi::Value KernelMaxPotentialClusterSize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LaunchPlan plan = readLaunchPlan(info[2], "config");
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  queryContext(env, k, info[1]);
  int size = 0;
  CU_CHECK_DETAIL(env, k.name, cuOccupancyMaxPotentialClusterSize, &size, k.launchable(), &plan.config);
  return Napi::Number::New(env, size);
}

Napi::Value KernelMaxActiveClusters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LaunchPlan plan = readLaunchPlan(info[2], "config");
  const KernelBox& k = *Kernel::fromSlot(info[0], "kernel");
  queryContext(env, k, info[1]);
  int clusters = 0;
  CU_CHECK_DETAIL(env, k.name, cuOccupancyMaxActiveClusters, &clusters, k.launchable(), &plan.config);
  return Napi::Number::New(env, clusters);
}

// Its code and parameter layout only.
bool holdsJavaScript(const KernelBox&) { return false; }

}  // namespace cudrv
