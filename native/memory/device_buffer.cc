#include "memory/device_buffer.h"

#include "core/args.h"
#include "core/hot_call.h"
#include "memory/pool.h"
#include "core/release.h"

namespace cudrv {

DeviceMemoryBox::~DeviceMemoryBox() {
  if (!device) return;
  CUdeviceptr ptr = device;
  if (allocation == Allocation::StreamOrdered) {
    // Freed in stream order, after the work queued on its release stream (a
    // special stream's context made current: it names that context's stream).
    StreamRef stream = releaseStream;
    releaseWhenSafe([ptr, stream] {
      if (stream->owned || setCurrent(stream->context->context) == CUDA_SUCCESS) CU_CALL(cuMemFreeAsync, ptr, stream->stream);
    });
  } else {
    ContextRef ctx = context;
    releaseWhenSafe([ptr, ctx] {
      if (setCurrent(ctx->context) == CUDA_SUCCESS) CU_CALL(cuMemFree, ptr);
    });
  }
}

namespace {

// A box for memory about to be allocated in context, made current for the
// allocation call (every allocation here starts this way, whichever context).
std::shared_ptr<DeviceMemoryBox> newDeviceBox(Napi::Env env, ContextRef context) {
  auto box = std::make_shared<DeviceMemoryBox>();
  box->context = std::move(context);
  makeCurrent(env, box->context);
  return box;
}

// allocate(ordinal, bytes, context | undefined): in the device's primary context, or in context.
Napi::Value Allocate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t bytes = u64Arg(info[1], "bytes");
  auto box = newDeviceBox(env, info[2].IsUndefined() ? primaryContext(env, ordinal) : Context::fromSlot(info[2], "context"));
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAlloc, &box->device, bytes);
  box->size = bytes;
  return DeviceBuffer::newSlot(env, box);
}

// allocatePitched(ordinal, widthBytes, height, elementBytes): rows padded to the pitch the driver picks.
Napi::Value AllocatePitched(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t width = u64Arg(info[1], "widthBytes");
  uint64_t height = u64Arg(info[2], "height");
  unsigned int element = uintArg(info[3], "elementBytes");
  auto box = newDeviceBox(env, primaryContext(env, ordinal));
  size_t pitch = 0;
  CU_CHECK_DETAIL(env, "width=" + std::to_string(width) + " height=" + std::to_string(height), cuMemAllocPitch,
                  &box->device, &pitch, width, height, element);
  box->allocation = DeviceMemoryBox::Allocation::Pitched;
  box->pitch = pitch;
  box->size = pitch * height;
  return DeviceBuffer::newSlot(env, box);
}

// allocateManaged(ordinal, bytes, flags)
Napi::Value AllocateManaged(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t bytes = u64Arg(info[1], "bytes");
  unsigned int flags = uintArg(info[2], "flags");
  auto box = newDeviceBox(env, primaryContext(env, ordinal));
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAllocManaged, &box->device, bytes, flags);
  box->allocation = DeviceMemoryBox::Allocation::Managed;
  box->kind = MemoryKind::Unified;
  box->size = bytes;
  return DeviceBuffer::newSlot(env, box);
}

// allocateAsync(bytes, stream, pool | undefined): stream-ordered; freed on the same stream.
napi_value AllocateAsync(Napi::Env env, SlotTable& table, const HotArgs<3>& args) {
  uint64_t bytes = u64Arg(Napi::Value(env, args[0]), "bytes");
  const StreamRef& stream = Stream::fromSlot(table, Napi::Value(env, args[1]), "stream");
  const Napi::Value poolArg(env, args[2]);
  auto box = newDeviceBox(env, stream->context);
  if (poolArg.IsUndefined()) {
    CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAllocAsync, &box->device, bytes, stream->stream);
  } else {
    const PoolRef& pool = MemoryPool::from(poolArg, "pool");
    box->pool = pool;
    CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAllocFromPoolAsync, &box->device, bytes, pool->pool,
                    stream->stream);
    // A host-located pool hands out host memory: the copy-engine calls for device
    // pointers (cuMemcpyDtoH, ...) refuse it, cuMemcpy takes it.
    if (pool->location.type != CU_MEM_LOCATION_TYPE_DEVICE) box->kind = MemoryKind::Unified;
  }
  box->allocation = DeviceMemoryBox::Allocation::StreamOrdered;
  box->releaseStream = stream;
  box->size = bytes;
  return DeviceBuffer::newSlot(env, box);
}

}  // namespace

void DeviceBuffer::init(Napi::Env env, Napi::Object exports) {
  exports.Set("DeviceBuffer", define(env, {
      InstanceAccessor("address", &DeviceBuffer::Address, nullptr),
      InstanceAccessor("size", &DeviceBuffer::Size, nullptr),
      InstanceAccessor("pitch", &DeviceBuffer::Pitch, nullptr),
      InstanceAccessor("ordinal", &DeviceBuffer::Ordinal, nullptr),
      InstanceAccessor("allocation", &DeviceBuffer::AllocationKind, nullptr),
  }));
  exports.Set("allocate", Napi::Function::New(env, Allocate));
  exports.Set("allocatePitched", Napi::Function::New(env, AllocatePitched));
  exports.Set("allocateManaged", Napi::Function::New(env, AllocateManaged));
  exports.Set("allocateAsync", hotFunction<3, AllocateAsync>(env, "allocateAsync"));
}

Napi::Value DeviceBuffer::Address(const Napi::CallbackInfo& info) { return bigint(info.Env(), live().device); }
Napi::Value DeviceBuffer::Size(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(live().size));
}
Napi::Value DeviceBuffer::Pitch(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(live().pitch));
}
Napi::Value DeviceBuffer::Ordinal(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), live().context->ordinal);
}
Napi::Value DeviceBuffer::AllocationKind(const Napi::CallbackInfo& info) {
  static const char* names[] = {"plain", "pitched", "stream-ordered", "managed"};
  return Napi::String::New(info.Env(), names[static_cast<int>(live().allocation)]);
}

}  // namespace cudrv
