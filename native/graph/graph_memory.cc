// The memory graphs allocate (memory nodes): per-device usage and trimming,
// and frees of an allocation outside a graph.
#include "core/args.h"
#include "generated/entries.h"
#include "context.h"
#include "graph/node_params.h"
#include "stream.h"

namespace cudrv {

// graphMemoryAttribute(ordinal, attribute) -> bytes (cuDeviceGetGraphMemAttribute)
Napi::Value GraphMemoryAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  auto attribute = static_cast<CUgraphMem_attribute>(uintArg(info[1], "attribute"));
  if (attribute > CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) throwRangeError(env, "attribute is not a graph memory attribute");
  cuuint64_t value = 0;
  CU_CHECK(env, cuDeviceGetGraphMemAttribute, device, attribute, &value);
  return Napi::Number::New(env, static_cast<double>(value));
}

// resetGraphMemoryHigh(ordinal, attribute): only the high watermarks can be set, to 0.
Napi::Value ResetGraphMemoryHigh(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  auto attribute = static_cast<CUgraphMem_attribute>(uintArg(info[1], "attribute"));
  if (attribute != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH && attribute != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) {
    throwRangeError(env, "only the high watermarks can be reset");
  }
  cuuint64_t zero = 0;
  CU_CHECK(env, cuDeviceSetGraphMemAttribute, device, attribute, &zero);
  return env.Undefined();
}

// trimGraphMemory(ordinal): gives memory graphs hold but do not use back to the system.
Napi::Value TrimGraphMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUdevice device = deviceOf(env, info[0], "ordinal");
  CU_CHECK(env, cuDeviceGraphMemTrim, device);
  return env.Undefined();
}

// freeGraphAllocation(allocation, stream | undefined): as C frees an allocation
// no free node of its graph frees: cuMemFreeAsync on stream (captured as a free
// node while it captures), or cuMemFree. The box frees nothing itself; on a
// stream it stays with the work there until the free has run. The handle is
// disposed by the call: no copy, fill or launch can name memory that is freed.
Napi::Value FreeGraphAllocation(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SlotTable& table = slotTable(env);
  StreamBox* stream = info[1].IsUndefined() ? nullptr : &streamArg(info[1]);
  const double slot = slotArg(info[0]);
  const auto& allocation = GraphAllocation::fromSlot(env, table, slot, "allocation");
  if (stream) {
    CU_CHECK(env, cuMemFreeAsync, allocation->device, stream->stream);
    stream->keepUntilIdle(allocation);
  } else {
    makeCurrent(env, allocation->context);
    CU_CHECK(env, cuMemFree, allocation->device);
  }
  table.dispose(slot);
  return env.Undefined();
}

Napi::Value GraphAllocationFreedInGraph(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), GraphAllocation::fromSlot(info[0], "allocation")->freedInGraph);
}

}  // namespace cudrv
