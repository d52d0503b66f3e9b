#include "green/green_context.h"

#include <vector>

#include "core/args.h"
#include "event.h"
#include "generated/entries.h"
#include "green/dev_resource.h"
#include "stream.h"

namespace cudrv {

namespace {

const ContextRef& greenArg(Napi::Value slot) { return GreenContext::fromSlot(slot, "green"); }

}  // namespace

// createGreenContext(ordinal, resources, flags): resources are DevResource
// slots, read (each element once, invariant 3) before any box is looked up.
Napi::Value CreateGreenContext(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int ordinal = intArg(info[0], "ordinal");
  Napi::Array list = arrayArg(info[1], "resources", 1, 1024, "must hold 1 to 1024 resources");
  std::vector<double> slots(list.Length());
  for (uint32_t i = 0; i < slots.size(); ++i) slots[i] = slotArg(list[i]);
  const unsigned int flags = uintArg(info[2], "flags");
  CUdevice device = deviceOf(env, info[0], "ordinal");
  ContextRef primary = primaryContext(env, ordinal);
  const SlotTable& table = slotTable(env);
  std::vector<CUdevResource> resources;
  resources.reserve(slots.size());
  for (double slot : slots) resources.push_back(DevResource::fromSlot(env, table, slot, "resources[i]")->resource);

  CUdevResourceDesc desc = nullptr;
  CU_CHECK(env, cuDevResourceGenerateDesc, &desc, resources.data(), static_cast<unsigned int>(resources.size()));
  CUgreenCtx green = nullptr;
  CU_CHECK_DETAIL(env, "device " + std::to_string(ordinal), cuGreenCtxCreate, &green, desc, device, flags);
  CUcontext converted = nullptr;
  CUresult r = CU_CALL(cuCtxFromGreenCtx, &converted, green);
  if (r != CUDA_SUCCESS) {
    CU_CALL(cuGreenCtxDestroy, green);
    throwCudaError(env, r, Fn::cuCtxFromGreenCtx);
  }
  auto box = std::make_shared<ContextBox>();
  box->context = converted;
  box->green = green;
  box->device = device;
  box->ordinal = ordinal;
  box->primary = false;
  box->primaryContext = std::move(primary);
  return GreenContext::newSlot(env, std::move(box));
}

Napi::Value GreenContextHandle(const Napi::CallbackInfo& info) { return handleValue(info.Env(), greenArg(info[0])->green); }
Napi::Value GreenContextOrdinal(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), greenArg(info[0])->ordinal); }

Napi::Value GreenContextId(const Napi::CallbackInfo& info) {
  unsigned long long id = 0;
  CU_CHECK(info.Env(), cuGreenCtxGetId, greenArg(info[0])->green, &id);
  return bigint(info.Env(), id);
}

Napi::Value GreenContextToContext(const Napi::CallbackInfo& info) {
  return Context::newSlot(info.Env(), greenArg(info[0]));
}

// greenContextCreateStream(green, flags, priority): the stream holds the green
// context's box, as any stream holds its context's.
Napi::Value GreenContextCreateStream(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const unsigned int flags = uintArg(info[1], "flags");
  const int priority = intArg(info[2], "priority");
  StreamRef box = newStreamBox(env, greenArg(info[0]));
  CU_CHECK_DETAIL(env, "priority=" + std::to_string(priority), cuGreenCtxStreamCreate, &box->stream,
                  box->context->green, flags, priority);
  return Stream::newSlot(env, std::move(box));
}

Napi::Value GreenContextRecordEvent(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const ContextBox& green = *GreenContext::fromSlot(table, info[0], "green");
  EventBox& event = *Event::fromSlot(table, info[1], "event");
  CU_CHECK(info.Env(), cuGreenCtxRecordEvent, green.green, event.event);
  event.recordedOn.reset();  // what it covers is no one stream's work
  return info.Env().Undefined();
}

Napi::Value GreenContextWaitEvent(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  const ContextBox& green = *GreenContext::fromSlot(table, info[0], "green");
  const EventBox& event = *Event::fromSlot(table, info[1], "event");
  CU_CHECK(info.Env(), cuGreenCtxWaitEvent, green.green, event.event);
  return info.Env().Undefined();
}

}  // namespace cudrv
