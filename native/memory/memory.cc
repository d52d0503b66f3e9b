#include "memory/memory.h"

#include <limits>

#include "core/args.h"
#include "core/js_thread.h"
#include "generated/entries.h"
#include "memory/host_buffer.h"

namespace cudrv {

namespace {
constexpr const char* kMemoryHandleNames = "a memory handle (DeviceBuffer, HostBuffer, Mapping, GrowableBuffer or SharedMemory)";
}  // namespace

void checkRange(Napi::Env env, const char* param, uint64_t offset, uint64_t bytes, uint64_t size) {
  if (offset > size || bytes > size - offset) {
    throwRangeError(env, std::string(param) + ": range [" + std::to_string(offset) + ", " +
                                         std::to_string(offset) + "+" + std::to_string(bytes) +
                                         ") exceeds its " + std::to_string(size) + " bytes");
  }
}

// Memory operands arrive as slot numbers (lib/memory/bytes.ts): one table
// lookup, whichever memory class it is.
MemoryRef memoryOf(Napi::Value value) {
  Napi::Env env = value.Env();
  return memoryOfSlot(env, slotTable(env), slotArg(value));
}

void refuseOverlap(Napi::Env env, const Span& dst, const Span& src) {
  if (!dst.owner || dst.owner != src.owner) return;
  CUdeviceptr d = dst.address(), s = src.address();
  if (d < s + src.bytes && s < d + dst.bytes) {
    throwRangeError(env, "source and destination ranges of one buffer overlap");
  }
}

void waitForLegacyStream(Napi::Env env) {
  BlockingWait blocking(env, "a synchronous fill");
  CUresult r = CU_CALL(cuStreamSynchronize, CU_STREAM_LEGACY);
  blocking.done();
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuStreamSynchronize);
}

CUdeviceptr addressOf(Napi::Value value, Napi::Value offset, MemoryRef* owner) {
  if (MemoryRef memory = memoryOf(value)) {
    uint64_t off = offset.IsUndefined() ? 0 : u64Arg(offset, "offset");
    checkRange(value.Env(), "pointer", off, 0, memory->size);
    *owner = memory;
    return (memory->device ? memory->device : reinterpret_cast<CUdeviceptr>(memory->host)) + off;
  }
  if (value.IsBigInt()) return u64Arg(value, "pointer");
  throwTypeError(value.Env(), std::string("pointer must be ") + kMemoryHandleNames + " or a bigint address");
}

CUmemLocation locationArg(Napi::Value type, Napi::Value id) {
  CUmemLocation location;
  location.type = static_cast<CUmemLocationType>(uintArg(type, "locationType"));
  location.id = intArg(id, "locationId");
  return location;
}

ContextRef locationContext(Napi::Env env, const CUmemLocation& location) {
  return primaryContext(env, location.type == CU_MEM_LOCATION_TYPE_DEVICE ? location.id : 0);
}

std::vector<CUmemAccessDesc> accessListArg(Napi::Value value, const char* param) {
  const std::string entryMessage = std::string("each entry of ") + param + " must be an array";
  const BatchValues entries(arrayArg(value, param, 0, 1024, "has too many access entries"), 3, entryMessage.c_str());
  std::vector<CUmemAccessDesc> list(entries.size());
  for (uint32_t i = 0; i < entries.size(); ++i) {
    list[i].location = locationArg(entries(i, 0), entries(i, 1));
    list[i].flags = static_cast<CUmemAccess_flags>(uintArg(entries(i, 2), "flags"));
  }
  return list;
}

namespace {

Span resolve(Napi::Env env, MemoryRef memory, const char* param, uint64_t offset, uint64_t bytes) {
  if (bytes == std::numeric_limits<uint64_t>::max()) bytes = offset <= memory->size ? memory->size - offset : 0;
  checkRange(env, param, offset, bytes, memory->size);
  Span span;
  span.kind = memory->kind;
  span.device = memory->device ? memory->device + offset : 0;
  span.host = memory->host ? static_cast<char*>(memory->host) + offset : nullptr;
  span.bytes = bytes;
  span.owner = std::move(memory);
  return span;
}

}  // namespace

Span deviceSpanOf(Napi::Env env, const SlotTable& table, double id, const char* param, uint64_t offset, uint64_t bytes) {
  MemoryRef memory = memoryOfSlot(env, table, id);
  if (!memory) throwTypeError(env, std::string(param) + " must be " + kMemoryHandleNames);
  return resolve(env, std::move(memory), param, offset, bytes);
}

Span deviceSpanOf(Napi::Value value, const char* param, uint64_t offset, uint64_t bytes) {
  Napi::Env env = value.Env();
  return deviceSpanOf(env, slotTable(env), slotArg(value), param, offset, bytes);
}

namespace {

size_t elementBytes(napi_typedarray_type type) {
  switch (type) {
    case napi_int16_array:
    case napi_uint16_array: return 2;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array: return 4;
    case napi_float64_array:
    case napi_bigint64_array:
    case napi_biguint64_array: return 8;
    default: return 1;
  }
}

}  // namespace

bool jsBytesOf(Napi::Value value, JsBytes* out) {
  napi_env env = value.Env();
  bool is = false;
  if (napi_is_arraybuffer(env, value, &is) == napi_ok && is) {
    out->buffer = value;
    out->offset = 0;
    out->shared = false;
    return napi_get_arraybuffer_info(env, value, &out->data, &out->length) == napi_ok;
  }
  // The views' own info gives their data, also over a SharedArrayBuffer, whose
  // memory napi_get_arraybuffer_info does not give.
  if (napi_is_typedarray(env, value, &is) == napi_ok && is) {
    napi_typedarray_type type;
    size_t count = 0;
    if (napi_get_typedarray_info(env, value, &type, &count, &out->data, &out->buffer, &out->offset) != napi_ok) return false;
    out->length = count * elementBytes(type);
  } else if (napi_is_dataview(env, value, &is) == napi_ok && is) {
    if (napi_get_dataview_info(env, value, &out->length, &out->data, &out->buffer, &out->offset) != napi_ok) return false;
  } else {
    return false;
  }
  bool plain = false;
  out->shared = napi_is_arraybuffer(env, out->buffer, &plain) == napi_ok && !plain;
  return true;
}

Span spanOf(Napi::Value value, const char* param, uint64_t offset, uint64_t bytes) {
  if (MemoryRef memory = memoryOf(value)) return resolve(value.Env(), std::move(memory), param, offset, bytes);
  JsBytes js;
  if (!jsBytesOf(value, &js)) {
    throwTypeError(value.Env(), std::string(param) + " must be " + kMemoryHandleNames +
                                    ", or an ArrayBuffer, typed array, DataView or Buffer (a view, for a SharedArrayBuffer)");
  }
  if (bytes == std::numeric_limits<uint64_t>::max()) bytes = offset <= js.length ? js.length - offset : 0;
  checkRange(value.Env(), param, offset, bytes, js.length);
  Span span;
  span.kind = MemoryKind::Host;
  span.host = js.data ? static_cast<char*>(js.data) + offset : nullptr;
  span.bytes = bytes;
  if (span.host) {
    if (MemoryRef pinned = pinnedMemoryAt(value.Env(), span.host, span.bytes)) {
      const size_t at = static_cast<char*>(span.host) - static_cast<char*>(pinned->host);
      span.device = pinned->device ? pinned->device + at : 0;
      span.owner = std::move(pinned);
    }
  }
  return span;
}

// Host memory holds a JavaScript value while it is a registered buffer (the
// buffer itself) or has a view that was not detached (dispose() detaches it).
bool holdsJavaScript(const MemoryBox& memory) {
  if (memory.holdsJavaScript) return true;
  if (memory.kind != MemoryKind::Host) return false;
  const auto* host = dynamic_cast<const HostMemoryBox*>(&memory);
  return host && (host->source || host->arrayBuffer);
}

namespace {

// The memory a slot argument names: one lookup whichever memory class it is.
const MemoryBox& memoryArg(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const MemoryInSlot memory = memoryInSlot(env, slotTable(env), slotArg(info[0]));
  if (!memory.box) throwTypeError(env, std::string("memory must be ") + kMemoryHandleNames);
  return *memory.box;
}

}  // namespace

// Host memory is known by its host address, the rest by the device address.
Napi::Value MemoryAddress(const Napi::CallbackInfo& info) {
  const MemoryBox& memory = memoryArg(info);
  return memory.kind == MemoryKind::Host ? handleValue(info.Env(), memory.host) : bigint(info.Env(), memory.device);
}

Napi::Value MemorySize(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(memoryArg(info).size));
}

Napi::Value MemoryOrdinal(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), memoryArg(info).context->ordinal);
}

}  // namespace cudrv
