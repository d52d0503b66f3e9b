#include "kernel/kernel.h"

#include <exception>

#include "core/args.h"
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

void Kernel::init(Napi::Env env, Napi::Object exports) {
  exports.Set("Kernel", define(env, {
      InstanceAccessor("handle", &Kernel::HandleValue, nullptr),
      InstanceAccessor("name", &Kernel::Name, nullptr),
      InstanceAccessor("isLibraryKernel", &Kernel::IsLibraryKernel, nullptr),
      InstanceMethod("params", &Kernel::Params),
      InstanceMethod("getAttribute", &Kernel::GetAttribute),
      InstanceMethod("setAttribute", &Kernel::SetAttribute),
      InstanceMethod("isLoaded", &Kernel::IsLoaded),
      InstanceMethod("load", &Kernel::Load),
      InstanceMethod("maxActiveBlocksPerMultiprocessor", &Kernel::MaxActiveBlocksPerMultiprocessor),
      InstanceMethod("maxPotentialBlockSize", &Kernel::MaxPotentialBlockSize),
      InstanceMethod("availableDynamicSharedMemoryPerBlock", &Kernel::AvailableDynamicSharedMemoryPerBlock),
      InstanceMethod("maxPotentialClusterSize", &Kernel::MaxPotentialClusterSize),
      InstanceMethod("maxActiveClusters", &Kernel::MaxActiveClusters),
      InstanceMethod("prepare", &Kernel::Prepare),
  }));
}

Napi::Value Kernel::HandleValue(const Napi::CallbackInfo& info) {
  KernelBox& k = live();
  return k.function ? handleValue(info.Env(), k.function) : handleValue(info.Env(), k.kernel);
}

Napi::Value Kernel::Name(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), live().name); }

Napi::Value Kernel::IsLibraryKernel(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), live().function == nullptr);
}

// [[offset, size], ...], or null when the driver cannot say.
Napi::Value Kernel::Params(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held: setting the result's elements may run JavaScript (setters on Array.prototype) that disposes the kernel.
  const KernelRef kernel = shared();
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

// (attribute, device ordinal): a library's kernel has attributes per device; a
// module's function has those of its context's device, and the ordinal is not used.
Napi::Value Kernel::GetAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  KernelBox& k = live();
  auto attribute = static_cast<CUfunction_attribute>(intArg(info[0], "attribute"));
  std::string detail = k.name + " attribute=" + std::to_string(attribute);
  int value = 0;
  if (k.function) {
    CU_CHECK_DETAIL(env, detail, cuFuncGetAttribute, &value, attribute, k.function);
  } else {
    CUdevice device = deviceOf(env, info[1], "device");
    CU_CHECK_DETAIL(env, detail, cuKernelGetAttribute, &value, attribute, k.kernel, device);
  }
  return Napi::Number::New(env, value);
}

Napi::Value Kernel::SetAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  KernelBox& k = live();
  auto attribute = static_cast<CUfunction_attribute>(intArg(info[0], "attribute"));
  int value = intArg(info[1], "value");
  std::string detail = k.name + " attribute=" + std::to_string(attribute) + " value=" + std::to_string(value);
  if (k.function) {
    CU_CHECK_DETAIL(env, detail, cuFuncSetAttribute, k.function, attribute, value);
  } else {
    CUdevice device = deviceOf(env, info[2], "device");
    CU_CHECK_DETAIL(env, detail, cuKernelSetAttribute, attribute, value, k.kernel, device);
  }
  return env.Undefined();
}

CUcontext Kernel::queryContext(Napi::Value context) {
  Napi::Env env = context.Env();
  KernelBox& k = live();
  if (k.function) {
    if (!context.IsUndefined() && !context.IsNull() && Context::fromSlot(context, "context")->context != k.context()) {
      throw Napi::Error::New(env, k.name + " belongs to its module's context; it cannot be queried in another");
    }
    makeCurrent(env, k.context());
    return k.context();
  }
  const ContextRef& ref = Context::fromSlot(context, "context");
  makeCurrent(env, ref);
  return ref->context;
}

CUfunction Kernel::currentFunction(Napi::Env env) {
  KernelBox& k = live();
  if (k.function) return k.function;
  CUfunction function = nullptr;
  CU_CHECK_DETAIL(env, k.name, cuKernelGetFunction, &function, k.kernel);  // for the current context
  return function;
}

// Whether the kernel's code is loaded in a context (with lazy loading it is
// loaded on first use); load() loads it now, e.g. before timing a launch.
Napi::Value Kernel::IsLoaded(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  queryContext(info[0]);
  CUfunction function = currentFunction(env);
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  CU_CHECK_DETAIL(env, live().name, cuFuncIsLoaded, &state, function);
  return Napi::Boolean::New(env, state == CU_FUNCTION_LOADING_STATE_LOADED);
}

Napi::Value Kernel::Load(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  queryContext(info[0]);
  CUfunction function = currentFunction(env);
  CU_CHECK_DETAIL(env, live().name, cuFuncLoad, function);
  return env.Undefined();
}

// (context, blockSize, dynamicSharedMemoryBytes, flags)
Napi::Value Kernel::MaxActiveBlocksPerMultiprocessor(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  queryContext(info[0]);
  int blockSize = intArg(info[1], "blockSize");
  uint64_t sharedBytes = u64Arg(info[2], "dynamicSharedMemory");
  unsigned flags = uintArg(info[3], "flags");
  int blocks = 0;
  CU_CHECK_DETAIL(env, live().name, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, &blocks, live().launchable(),
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

// (context, dynamicSharedMemoryBytes | (blockSize) => bytes, blockSizeLimit, flags) -> { minGridSize, blockSize }
Napi::Value Kernel::MaxPotentialBlockSize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Held for the call: the JavaScript callback could dispose this kernel, its
  // library, or the context it is asked about.
  KernelRef keep = shared();
  ContextRef context = keep->function ? nullptr : Context::fromSlot(info[0], "context");
  queryContext(info[0]);
  int limit = intArg(info[2], "blockSizeLimit");
  unsigned flags = uintArg(info[3], "flags");
  int minGridSize = 0, blockSize = 0;
  CUresult r;
  if (info[1].IsFunction()) {
    SharedMemoryCallback callback{info[1].As<Napi::Function>(), nullptr};
    SharedMemoryCallback* outer = currentCallback;  // a callback may itself ask (nested)
    currentCallback = &callback;
    r = CU_CALL(cuOccupancyMaxPotentialBlockSizeWithFlags, &minGridSize, &blockSize, keep->launchable(),
                sharedMemoryForBlockSize, 0, limit, flags);
    currentCallback = outer;
    if (callback.error) std::rethrow_exception(callback.error);
  } else {
    uint64_t sharedBytes = u64Arg(info[1], "dynamicSharedMemory");
    r = CU_CALL(cuOccupancyMaxPotentialBlockSizeWithFlags, &minGridSize, &blockSize, keep->launchable(), nullptr,
                static_cast<size_t>(sharedBytes), limit, flags);
  }
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuOccupancyMaxPotentialBlockSizeWithFlags, keep->name);
  Napi::Object out = Napi::Object::New(env);
  out.Set("minGridSize", minGridSize);
  out.Set("blockSize", blockSize);
  return out;
}

// (context, blocksPerMultiprocessor, blockSize)
Napi::Value Kernel::AvailableDynamicSharedMemoryPerBlock(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  queryContext(info[0]);
  int blocks = intArg(info[1], "blocksPerMultiprocessor");
  int blockSize = intArg(info[2], "blockSize");
  size_t bytes = 0;
  CU_CHECK_DETAIL(env, live().name, cuOccupancyAvailableDynamicSMemPerBlock, &bytes, live().launchable(), blocks, blockSize);
  return Napi::Number::New(env, static_cast<double>(bytes));
}

// (context, encoded launch configuration): the cluster dimension in it is ignored.
Napi::Value Kernel::MaxPotentialClusterSize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  queryContext(info[0]);
  LaunchPlan plan = readLaunchPlan(info[1], "config");
  int size = 0;
  CU_CHECK_DETAIL(env, live().name, cuOccupancyMaxPotentialClusterSize, &size, live().launchable(), &plan.config);
  return Napi::Number::New(env, size);
}

Napi::Value Kernel::MaxActiveClusters(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  queryContext(info[0]);
  LaunchPlan plan = readLaunchPlan(info[1], "config");
  int clusters = 0;
  CU_CHECK_DETAIL(env, live().name, cuOccupancyMaxActiveClusters, &clusters, live().launchable(), &plan.config);
  return Napi::Number::New(env, clusters);
}

Napi::Value Kernel::Prepare(const Napi::CallbackInfo& info) { return prepareLaunch(info, shared()); }

// Its code and parameter layout only.
bool holdsJavaScript(const KernelBox&) { return false; }

}  // namespace cudrv
