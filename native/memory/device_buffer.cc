#include "memory/device_buffer.h"

#include "core/args.h"
#include "core/hot_call.h"
#include "generated/entries.h"
#include "memory/pool.h"
#include "core/release.h"

namespace cudrv {

DeviceMemoryBox::~DeviceMemoryBox() {
  if (!device || freed) return;
  CUdeviceptr ptr = device;
  // The release takes the box's references over (moved, not copied: each copy
  // of a reference is an atomic operation on a hot path).
  if (allocation == Allocation::StreamOrdered) {
    // Freed in stream order, after the work queued on its release stream (a
    // special stream's context made current: it names that context's stream).
    releaseWhenSafe([ptr, stream = std::move(releaseStream)] {
      if (stream->owned || setCurrent(stream->context->context) == CUDA_SUCCESS) CU_CALL(cuMemFreeAsync, ptr, stream->stream);
    });
  } else {
    releaseWhenSafe([ptr, ctx = std::move(context)] {
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

}  // namespace

// allocate(ordinal, bytes, context | undefined): in the device's primary context, or in context.
Napi::Value Allocate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t bytes = u64Arg(info[1], "bytes");
  auto box = newDeviceBox(env, contextOrPrimary(env, info[2], ordinal));
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAlloc, &box->device, bytes);
  box->size = bytes;
  return DeviceBuffer::newSlot(env, std::move(box));
}

// allocatePitched(ordinal, widthBytes, height, elementBytes, context | undefined): rows padded to the pitch the driver picks.
Napi::Value AllocatePitched(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t width = u64Arg(info[1], "widthBytes");
  uint64_t height = u64Arg(info[2], "height");
  unsigned int element = uintArg(info[3], "elementBytes");
  auto box = newDeviceBox(env, contextOrPrimary(env, info[4], ordinal));
  size_t pitch = 0;
  CU_CHECK_DETAIL(env, "width=" + std::to_string(width) + " height=" + std::to_string(height), cuMemAllocPitch,
                  &box->device, &pitch, width, height, element);
  box->allocation = DeviceMemoryBox::Allocation::Pitched;
  box->pitch = pitch;
  box->size = pitch * height;
  return DeviceBuffer::newSlot(env, std::move(box));
}

// allocateManaged(ordinal, bytes, flags, context | undefined)
Napi::Value AllocateManaged(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t bytes = u64Arg(info[1], "bytes");
  unsigned int flags = uintArg(info[2], "flags");
  auto box = newDeviceBox(env, contextOrPrimary(env, info[3], ordinal));
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAllocManaged, &box->device, bytes, flags);
  box->allocation = DeviceMemoryBox::Allocation::Managed;
  box->kind = MemoryKind::Unified;
  box->size = bytes;
  return DeviceBuffer::newSlot(env, std::move(box));
}

// allocateAsync(bytes, stream, pool | undefined): stream-ordered; the box frees
// it on the same stream, unless freeAsync (or a graph's free node) did.
// Zero bytes take nothing: the driver would hand back a null pointer, with
// nothing to free.
napi_value AllocateAsync(Napi::Env env, SlotTable& table, const HotArgs<3>& args) {
  uint64_t bytes = u64Arg(Napi::Value(env, args[0]), "bytes");
  const StreamRef& stream = Stream::fromSlot(table, Napi::Value(env, args[1]), "stream");
  const Napi::Value poolArg(env, args[2]);
  auto box = newDeviceBox(env, stream->context);
  if (poolArg.IsUndefined()) {
    if (bytes) CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAllocAsync, &box->device, bytes, stream->stream);
  } else {
    const PoolRef& pool = MemoryPool::fromSlot(table, poolArg, "pool");
    box->pool = pool;
    if (bytes) {
      CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAllocFromPoolAsync, &box->device, bytes, pool->pool,
                      stream->stream);
    }
    // A host-located pool hands out host memory: the copy-engine calls for device
    // pointers (cuMemcpyDtoH, ...) refuse it, cuMemcpy takes it.
    if (pool->location.type != CU_MEM_LOCATION_TYPE_DEVICE) box->kind = MemoryKind::Unified;
  }
  box->allocation = DeviceMemoryBox::Allocation::StreamOrdered;
  box->releaseStream = stream;
  box->size = bytes;
  return DeviceBuffer::newSlot(env, std::move(box));
}

// freeAsync(buffer, stream): cuMemFreeAsync on any stream, now: a call the
// user makes, not a release, so an open capture does not defer it (invariant
// 10) but records it, as a free node, when stream is capturing. The box frees
// nothing afterwards and stays with the work on stream (or the capture's graph)
// until the free has run: what it holds (its pool, its release stream) with it.
// The handle is disposed by the call: no copy, fill or launch can name memory
// that is freed.
Napi::Value FreeAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  SlotTable& table = slotTable(env);
  const double slot = slotArg(info[0]);
  const auto& buffer = DeviceBuffer::fromSlot(env, table, slot, "buffer");
  StreamBox& stream = streamArg(info[1]);
  if (buffer->allocation != DeviceMemoryBox::Allocation::StreamOrdered) {
    throwTypeError(env, "buffer must be stream-ordered memory (DeviceBuffer.allocAsync)");
  }
  // Only a graph's free node leaves a live handle on freed memory (memFreeAdded).
  if (buffer->freed) throw Napi::Error::New(env, "a graph's free node frees this buffer (Graph.addFree): it is the graph's to free");
  if (buffer->device) CU_CHECK(env, cuMemFreeAsync, buffer->device, stream.stream);
  buffer->freed = true;
  stream.keepUntilIdle(buffer);
  table.dispose(slot);
  return env.Undefined();
}

Napi::Value DeviceBufferPitch(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(DeviceBuffer::fromSlot(info[0], "buffer")->pitch));
}

Napi::Value DeviceBufferAllocation(const Napi::CallbackInfo& info) {
  static const char* names[] = {"plain", "pitched", "stream-ordered", "managed"};
  const DeviceMemoryBox& box = *DeviceBuffer::fromSlot(info[0], "buffer");
  return Napi::String::New(info.Env(), names[static_cast<int>(box.allocation)]);
}

}  // namespace cudrv
