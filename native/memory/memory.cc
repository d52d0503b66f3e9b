#include "memory/memory.h"

#include <limits>

#include "args.h"
#include "memory/device_buffer.h"
#include "memory/host_buffer.h"
#include "memory/pool.h"

namespace cudrv {

void checkRange(Napi::Env env, const char* param, uint64_t offset, uint64_t bytes, uint64_t size) {
  if (offset > size || bytes > size - offset) {
    throwRangeError(env, std::string(param) + ": range [" + std::to_string(offset) + ", " +
                                         std::to_string(offset) + "+" + std::to_string(bytes) +
                                         ") exceeds its " + std::to_string(size) + " bytes");
  }
}

MemoryRef memoryOf(Napi::Value value) {
  if (auto* device = DeviceBuffer::tryFrom(value)) return *device;
  if (auto* host = HostBuffer::tryFrom(value)) return *host;
  return nullptr;
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
  if (!memory) throwTypeError(value.Env(), std::string(param) + " must be a DeviceBuffer or HostBuffer");
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
    throwTypeError(value.Env(), std::string(param) +
                                                " must be a DeviceBuffer, HostBuffer, ArrayBuffer, typed array, DataView or Buffer");
  }
  if (bytes == std::numeric_limits<uint64_t>::max()) bytes = offset <= length ? length - offset : 0;
  checkRange(value.Env(), param, offset, bytes, length);
  Span span;
  span.kind = MemoryKind::Host;
  span.host = data ? static_cast<char*>(data) + offset : nullptr;
  span.bytes = bytes;
  return span;
}

void initMemory(Napi::Env env, Napi::Object exports) {
  DeviceBuffer::init(env, exports);
  HostBuffer::init(env, exports);
  MemoryPool::init(env, exports);
  initCopy(env, exports);
  initMemset(env, exports);
  initManaged(env, exports);
  initMemoryInfo(env, exports);
}

}  // namespace cudrv
