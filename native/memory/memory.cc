#include "memory/memory.h"

#include <limits>

#include "args.h"
#include "graph/node_params.h"
#include "memory/device_buffer.h"
#include "memory/host_buffer.h"
#include "memory/pool.h"
#include "stream.h"
#include "ipc/imported_memory.h"
#include "vmm/vmm.h"

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

void waitForLegacyStream(Napi::Env env) { CU_CHECK(env, cuStreamSynchronize, CU_STREAM_LEGACY); }

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
  Napi::Array entries = arrayArg(value, param, 0, 1024, "has too many access entries");
  std::vector<CUmemAccessDesc> list(entries.Length());
  const std::string entryMessage = std::string("each entry of ") + param + " must be an array";
  for (uint32_t i = 0; i < entries.Length(); ++i) {
    Napi::Array e = arrayEntry(entries, i, entryMessage.c_str());
    list[i].location = locationArg(e[0u], e[1u]);
    list[i].flags = static_cast<CUmemAccess_flags>(uintArg(e[2u], "flags"));
  }
  return list;
}

namespace {

Span resolve(MemoryRef memory, Napi::Value value, const char* param, uint64_t offset, uint64_t bytes) {
  if (bytes == std::numeric_limits<uint64_t>::max()) bytes = offset <= memory->size ? memory->size - offset : 0;
  checkRange(value.Env(), param, offset, bytes, memory->size);
  Span span;
  span.kind = memory->kind;
  span.device = memory->device ? memory->device + offset : 0;
  span.host = memory->host ? static_cast<char*>(memory->host) + offset : nullptr;
  span.bytes = bytes;
  span.owner = std::move(memory);
  return span;
}

}  // namespace

Span deviceSpanOf(Napi::Value value, const char* param, uint64_t offset, uint64_t bytes) {
  MemoryRef memory = memoryOf(value);
  if (!memory) throwTypeError(value.Env(), std::string(param) + " must be " + kMemoryHandleNames);
  return resolve(std::move(memory), value, param, offset, bytes);
}

Span spanOf(Napi::Value value, const char* param, uint64_t offset, uint64_t bytes) {
  if (MemoryRef memory = memoryOf(value)) return resolve(std::move(memory), value, param, offset, bytes);
  void* data = nullptr;
  size_t length = 0;
  if (value.IsArrayBuffer()) {
    Napi::ArrayBuffer buffer = value.As<Napi::ArrayBuffer>();
    data = buffer.Data();
    length = buffer.ByteLength();
  } else if (value.IsTypedArray()) {
    Napi::TypedArray view = value.As<Napi::TypedArray>();
    data = static_cast<char*>(view.ArrayBuffer().Data()) + view.ByteOffset();
    length = view.ByteLength();
  } else if (value.IsDataView()) {
    Napi::DataView view = value.As<Napi::DataView>();
    data = static_cast<char*>(view.ArrayBuffer().Data()) + view.ByteOffset();
    length = view.ByteLength();
  } else {
    throwTypeError(value.Env(), std::string(param) + " must be " + kMemoryHandleNames +
                                    ", or an ArrayBuffer, typed array, DataView or Buffer");
  }
  if (bytes == std::numeric_limits<uint64_t>::max()) bytes = offset <= length ? length - offset : 0;
  checkRange(value.Env(), param, offset, bytes, length);
  Span span;
  span.kind = MemoryKind::Host;
  span.host = data ? static_cast<char*>(data) + offset : nullptr;
  span.bytes = bytes;
  return span;
}

// Host memory holds a JavaScript value while it is a registered buffer (the
// buffer itself) or has a view that was not detached (dispose() detaches it).
bool holdsJavaScript(const MemoryBox& memory) {
  if (memory.kind != MemoryKind::Host) return false;
  const auto* host = dynamic_cast<const HostMemoryBox*>(&memory);
  return host && (host->source || host->arrayBuffer);
}

void initMemory(Napi::Env env, Napi::Object exports) {
  DeviceBuffer::init(env, exports);
  HostBuffer::init(env, exports);
  MemoryPool::init(env, exports);
  initCopy(env, exports);
  initMemset(env, exports);
  initManaged(env, exports);
  initMemoryInfo(env, exports);
  initVmm(env, exports);
}

}  // namespace cudrv
