#include "context.h"

#include <map>
#include <mutex>

#include "core/args.h"
#include "core/js_thread.h"
#include "core/release.h"
#include "event.h"
#include "generated/entries.h"

namespace cudrv {

namespace {
// Primary contexts, by ordinal, process-wide. Once retained, one stays retained
// (as the CUDA runtime does) until resetPrimaryContext: releasing it when the
// last handle goes would destroy the context and everything loaded in it, only
// to make it again at the next call.
std::mutex registryMutex;
std::map<int, ContextRef> primaries;
}  // namespace

ContextBox::~ContextBox() {
  if (!context) return;
  CUcontext ctx = context;
  CUdevice dev = device;
  if (green) {
    // The conversion names the green context: it must not stay current on
    // the thread that destroys it.
    CUgreenCtx g = green;
    releaseWhenSafe([g, ctx] {
      CUcontext current = nullptr;
      if (CU_CALL(cuCtxGetCurrent, &current) == CUDA_SUCCESS && current == ctx) CU_CALL(cuCtxSetCurrent, nullptr);
      CU_CALL(cuGreenCtxDestroy, g);
    });
  } else if (primary) {
    releaseWhenSafe([dev] { CU_CALL(cuDevicePrimaryCtxRelease, dev); });
  } else {
    releaseWhenSafe([ctx] { CU_CALL(cuCtxDestroy, ctx); });
  }
}

CUresult setCurrent(CUcontext context) {
  CUcontext current = nullptr;
  CUresult r = CU_CALL(cuCtxGetCurrent, &current);
  if (r != CUDA_SUCCESS || current == context) return r;
  return CU_CALL(cuCtxSetCurrent, context);
}

void makeCurrent(Napi::Env env, CUcontext context) {
  CUcontext current = nullptr;
  CU_CHECK(env, cuCtxGetCurrent, &current);
  if (current != context) CU_CHECK(env, cuCtxSetCurrent, context);
}

CUdevice deviceOf(Napi::Env env, Napi::Value ordinal, const char* param) {
  requireDriver(env, Fn::cuDeviceGet);
  int index = intArg(ordinal, param);
  CUdevice device = 0;
  CU_CHECK_DETAIL(env, std::string(param) + "=" + std::to_string(index), cuDeviceGet, &device, index);
  return device;
}

ContextRef primaryContext(Napi::Env env, int ordinal) {
  {
    // Retained already: the ordinal was checked then (most calls; no driver call).
    std::lock_guard<std::mutex> lock(registryMutex);
    auto found = primaries.find(ordinal);
    if (found != primaries.end() && found->second) return found->second;
  }
  CUdevice device = deviceOf(env, Napi::Number::New(env, ordinal), "ordinal");
  std::lock_guard<std::mutex> lock(registryMutex);
  if (ContextRef existing = primaries[ordinal]) return existing;
  auto box = std::make_shared<ContextBox>();
  CU_CHECK_DETAIL(env, "device " + std::to_string(ordinal), cuDevicePrimaryCtxRetain, &box->context, device);
  box->device = device;
  box->ordinal = ordinal;
  box->primary = true;
  primaries[ordinal] = box;
  return box;
}

ContextRef contextOrPrimary(Napi::Env env, Napi::Value context, int ordinal) {
  return context.IsUndefined() ? primaryContext(env, ordinal) : Context::fromSlot(context, "context");
}

namespace {

// True while a handle other than the registry holds the primary context.
bool primaryInUse(int ordinal) {
  std::lock_guard<std::mutex> lock(registryMutex);
  auto it = primaries.find(ordinal);
  return it != primaries.end() && it->second && it->second.use_count() > 1;
}

// Lets go of the registry's retain (the context is released now, as nothing else holds it).
void forgetPrimary(int ordinal) {
  ContextRef released;
  std::lock_guard<std::mutex> lock(registryMutex);
  auto it = primaries.find(ordinal);
  if (it != primaries.end()) {
    released = std::move(it->second);
    primaries.erase(it);
  }
}

// The live context a call names by slot.
const ContextBox& contextArg(Napi::Value slot) { return *Context::fromSlot(slot, "context"); }

}  // namespace

Napi::Value PrimaryContext(const Napi::CallbackInfo& info) {
  int ordinal = intArg(info[0], "ordinal");
  return Context::newSlot(info.Env(), primaryContext(info.Env(), ordinal));
}

Napi::Value CreateContext(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  unsigned int flags = uintArg(info[1], "flags");
  auto box = std::make_shared<ContextBox>();
  CU_CHECK_DETAIL(env, "device " + std::to_string(intArg(info[0], "ordinal")), cuCtxCreate, &box->context,
                  nullptr, flags, device);
  // cuCtxCreate pushed the new context on this thread; the library makes the
  // right context current for each call, so leave the stack as it was.
  CUcontext popped = nullptr;
  CU_CALL(cuCtxPopCurrent, &popped);
  box->device = device;
  box->ordinal = intArg(info[0], "ordinal");
  box->primary = false;
  return Context::newSlot(env, std::move(box));
}

Napi::Value CurrentContext(const Napi::CallbackInfo& info) {
  requireDriver(info.Env(), Fn::cuCtxGetCurrent);
  CUcontext current = nullptr;
  CU_CHECK(info.Env(), cuCtxGetCurrent, &current);
  return handleValue(info.Env(), current);
}

Napi::Value PopCurrentContext(const Napi::CallbackInfo& info) {
  requireDriver(info.Env(), Fn::cuCtxPopCurrent);
  CUcontext popped = nullptr;
  CU_CHECK(info.Env(), cuCtxPopCurrent, &popped);
  return handleValue(info.Env(), popped);
}

Napi::Value PrimaryContextState(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  unsigned int flags = 0;
  int active = 0;
  CU_CHECK(env, cuDevicePrimaryCtxGetState, device, &flags, &active);
  Napi::Object out = Napi::Object::New(env);
  out.Set("flags", flags);
  out.Set("active", active != 0);
  return out;
}

Napi::Value SetPrimaryContextFlags(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  CU_CHECK(env, cuDevicePrimaryCtxSetFlags, device, uintArg(info[1], "flags"));
  return env.Undefined();
}

// Destroys every allocation and module of the primary context. Refused while a
// handle of this library still lives on it: those handles would then point at
// memory that is gone or, worse, reused.
Napi::Value ResetPrimaryContext(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  int ordinal = intArg(info[0], "ordinal");
  if (primaryInUse(ordinal)) {
    throw Napi::Error::New(env, "the primary context of device " + std::to_string(ordinal) +
                                    " is still used by live handles (contexts, streams, buffers, ...); "
                                    "dispose them before resetting it");
  }
  forgetPrimary(ordinal);
  CU_CHECK(env, cuDevicePrimaryCtxReset, device);
  return env.Undefined();
}

Napi::Value ContextHandle(const Napi::CallbackInfo& info) { return handleValue(info.Env(), contextArg(info[0]).context); }
Napi::Value ContextOrdinal(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), contextArg(info[0]).ordinal); }
Napi::Value ContextIsPrimary(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), contextArg(info[0]).primary); }

Napi::Value ContextMakeCurrent(const Napi::CallbackInfo& info) {
  makeCurrent(info.Env(), contextArg(info[0]).context);
  return info.Env().Undefined();
}

Napi::Value ContextPushCurrent(const Napi::CallbackInfo& info) {
  CU_CHECK(info.Env(), cuCtxPushCurrent, contextArg(info[0]).context);
  return info.Env().Undefined();
}

// Blocks the calling thread until all work in the context is done.
Napi::Value ContextSynchronize(const Napi::CallbackInfo& info) {
  CUcontext context = contextArg(info[0]).context;
  BlockingWait blocking(info.Env(), "Context.synchronize()");
  CUresult r = CU_CALL(cuCtxSynchronize_v2, context);
  blocking.done();
  if (r != CUDA_SUCCESS) throwCudaError(info.Env(), r, Fn::cuCtxSynchronize_v2);
  return info.Env().Undefined();
}

Napi::Value ContextApiVersion(const Napi::CallbackInfo& info) {
  unsigned int version = 0;
  CU_CHECK(info.Env(), cuCtxGetApiVersion, contextArg(info[0]).context, &version);
  return Napi::Number::New(info.Env(), version);
}

Napi::Value ContextId(const Napi::CallbackInfo& info) {
  unsigned long long id = 0;
  CU_CHECK(info.Env(), cuCtxGetId, contextArg(info[0]).context, &id);
  return bigint(info.Env(), id);
}

// The device as the driver reports it for this context (cuCtxGetDevice_v2).
Napi::Value ContextDevice(const Napi::CallbackInfo& info) {
  CUdevice device = 0;
  CU_CHECK(info.Env(), cuCtxGetDevice_v2, &device, contextArg(info[0]).context);
  return Napi::Number::New(info.Env(), device);
}

// The calls below act on the current context: make this one current first.
Napi::Value ContextFlags(const Napi::CallbackInfo& info) {
  makeCurrent(info.Env(), contextArg(info[0]).context);
  unsigned int flags = 0;
  CU_CHECK(info.Env(), cuCtxGetFlags, &flags);
  return Napi::Number::New(info.Env(), flags);
}

Napi::Value ContextSetFlags(const Napi::CallbackInfo& info) {
  unsigned int flags = uintArg(info[1], "flags");
  makeCurrent(info.Env(), contextArg(info[0]).context);
  CU_CHECK(info.Env(), cuCtxSetFlags, flags);
  return info.Env().Undefined();
}

Napi::Value ContextGetLimit(const Napi::CallbackInfo& info) {
  CUlimit limit = static_cast<CUlimit>(uintArg(info[1], "limit"));
  makeCurrent(info.Env(), contextArg(info[0]).context);
  size_t value = 0;
  CU_CHECK_DETAIL(info.Env(), "limit=" + std::to_string(limit), cuCtxGetLimit, &value, limit);
  return Napi::Number::New(info.Env(), static_cast<double>(value));
}

Napi::Value ContextSetLimit(const Napi::CallbackInfo& info) {
  CUlimit limit = static_cast<CUlimit>(uintArg(info[1], "limit"));
  uint64_t value = u64Arg(info[2], "value");
  makeCurrent(info.Env(), contextArg(info[0]).context);
  CU_CHECK_DETAIL(info.Env(), "limit=" + std::to_string(limit), cuCtxSetLimit, limit, static_cast<size_t>(value));
  return info.Env().Undefined();
}

Napi::Value ContextStreamPriorityRange(const Napi::CallbackInfo& info) {
  makeCurrent(info.Env(), contextArg(info[0]).context);
  int least = 0, greatest = 0;
  CU_CHECK(info.Env(), cuCtxGetStreamPriorityRange, &least, &greatest);
  Napi::Object out = Napi::Object::New(info.Env());
  out.Set("least", least);
  out.Set("greatest", greatest);
  return out;
}

Napi::Value ContextResetPersistingL2Cache(const Napi::CallbackInfo& info) {
  makeCurrent(info.Env(), contextArg(info[0]).context);
  CU_CHECK(info.Env(), cuCtxResetPersistingL2Cache);
  return info.Env().Undefined();
}

Napi::Value ContextEnablePeerAccess(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const ContextBox& context = *Context::fromSlot(table, info[0], "context");
  const ContextBox& peer = *Context::fromSlot(table, info[1], "peer");
  makeCurrent(info.Env(), context.context);
  CU_CHECK_DETAIL(info.Env(), "peer device " + std::to_string(peer.ordinal), cuCtxEnablePeerAccess, peer.context, 0);
  return info.Env().Undefined();
}

Napi::Value ContextDisablePeerAccess(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const ContextBox& context = *Context::fromSlot(table, info[0], "context");
  const ContextBox& peer = *Context::fromSlot(table, info[1], "peer");
  makeCurrent(info.Env(), context.context);
  CU_CHECK_DETAIL(info.Env(), "peer device " + std::to_string(peer.ordinal), cuCtxDisablePeerAccess, peer.context);
  return info.Env().Undefined();
}

// cuCtxRecordEvent / cuCtxWaitEvent: the event is recorded against, or waited
// for by, the context's work as a whole rather than one stream's.
Napi::Value ContextRecordEvent(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const ContextBox& context = *Context::fromSlot(table, info[0], "context");
  EventBox& event = *Event::fromSlot(table, info[1], "event");
  CU_CHECK(info.Env(), cuCtxRecordEvent, context.context, event.event);
  ++event.records;
  event.recordedOn.reset();  // what it covers is no one stream's work
  return info.Env().Undefined();
}

Napi::Value ContextWaitEvent(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const ContextBox& context = *Context::fromSlot(table, info[0], "context");
  const EventBox& event = *Event::fromSlot(table, info[1], "event");
  CU_CHECK(info.Env(), cuCtxWaitEvent, context.context, event.event);
  return info.Env().Undefined();
}

// The driver answers for the current context only: this one is made current.
Napi::Value ContextExecAffinity(const Napi::CallbackInfo& info) {
  const unsigned int type = uintArg(info[1], "type");
  makeCurrent(info.Env(), contextArg(info[0]).context);
  CUexecAffinityParam param{};
  CU_CHECK_DETAIL(info.Env(), "type=" + std::to_string(type), cuCtxGetExecAffinity, &param,
                  static_cast<CUexecAffinityType>(type));
  return Napi::Number::New(info.Env(), param.param.smCount.val);
}

Napi::Value ContextCacheConfig(const Napi::CallbackInfo& info) {
  makeCurrent(info.Env(), contextArg(info[0]).context);
  CUfunc_cache config = CU_FUNC_CACHE_PREFER_NONE;
  CU_CHECK(info.Env(), cuCtxGetCacheConfig, &config);
  return Napi::Number::New(info.Env(), config);
}

Napi::Value ContextSetCacheConfig(const Napi::CallbackInfo& info) {
  auto config = static_cast<CUfunc_cache>(intArg(info[1], "config"));
  makeCurrent(info.Env(), contextArg(info[0]).context);
  CU_CHECK_DETAIL(info.Env(), "config=" + std::to_string(config), cuCtxSetCacheConfig, config);
  return info.Env().Undefined();
}

// The driver flushes for the current context only (its one target), so the context is made current.
Napi::Value ContextFlushGpuDirectRdmaWrites(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto scope = static_cast<CUflushGPUDirectRDMAWritesScope>(intArg(info[1], "scope"));
  makeCurrent(env, contextArg(info[0]).context);
  CU_CHECK_DETAIL(env, "scope=" + std::to_string(scope), cuFlushGPUDirectRDMAWrites,
                  CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX, scope);
  return env.Undefined();
}

}  // namespace cudrv
