#include "kernel/launch.h"

#include <cstring>

#include "core/args.h"
#include "core/hot_call.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

// The context a launch must find current: a module's function runs only in its
// module's context; a library's kernel takes the stream's context, except on
// the legacy and per-thread streams, where the driver uses the current one.
CUcontext launchContext(Napi::Env env, const KernelBox& kernel, const StreamBox& stream) {
  if (kernel.function) {
    if (stream.context->context != kernel.context()) {
      throw Napi::Error::New(env, kernel.name + " belongs to a module of another context than the stream's; "
                                  "load the module in the stream's context, or use a Library");
    }
    return kernel.context();
  }
  return stream.owned ? nullptr : stream.context->context;
}

void checkCurrent(Napi::Env env, CUcontext context) {
  if (context) makeCurrent(env, context);
}

}  // namespace

namespace {
// Whether offset is a pointer's place in bytes of parameters (written without
// offset + 8, which a bigint offset near 2^64 would wrap around).
bool pointerPlace(uint64_t offset, size_t bytes) { return offset % 8 == 0 && bytes >= 8 && offset <= bytes - 8; }
}  // namespace

uint64_t byteOffsetOf(Napi::Env env, double byteOffset) {
  if (!(byteOffset >= 0 && byteOffset < 9007199254740992.0) || byteOffset != static_cast<double>(static_cast<uint64_t>(byteOffset))) {
    rangeError(env, "byteOffset", "must be an integer from 0 to 2^53 - 1");
  }
  return static_cast<uint64_t>(byteOffset);
}

void writePointer(Napi::Env env, const MemoryBox* box, uint64_t byteOffset, uint64_t offset, uint8_t* buffer, size_t bytes) {
  if (!box) typeError(env, "memory", "a DeviceBuffer or a HostBuffer");
  if (box->parameter) {
    // Taken by value (a tensor map): its bytes, where they fit, in place of an address.
    const size_t size = box->parameterBytes;
    if (byteOffset != 0) rangeError(env, "byteOffset", "must be 0 for an argument passed by value");
    if (bytes < size || offset > bytes - size) {
      rangeError(env, "offset", std::to_string(offset) + " leaves no room for " + std::to_string(size) + " bytes in " +
                                    std::to_string(bytes) + " bytes of parameters");
    }
    std::memcpy(buffer + offset, box->parameter, size);
    return;
  }
  if (!pointerPlace(offset, bytes)) {
    rangeError(env, "offset", std::to_string(offset) + " is not a pointer's place in " + std::to_string(bytes) + " bytes of parameters");
  }
  if (box->device == 0) {
    typeError(env, "memory", "memory the device can reach (a HostBuffer mapped into the device's address space)");
  }
  if (byteOffset > box->size) {
    rangeError(env, "byteOffset", std::to_string(byteOffset) + " is past the end of memory of " + std::to_string(box->size) + " bytes");
  }
  const CUdeviceptr address = box->device + byteOffset;
  std::memcpy(buffer + offset, &address, sizeof(CUdeviceptr));
}

KernelParams::KernelParams(Napi::Env env, const KernelBox& kernel, uint8_t* args, size_t bytes) {
  const ParamLayout& layout = kernel.params;
  if (!layout.known) {
    packed_ = true;
    size_ = bytes;
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, args, CU_LAUNCH_PARAM_BUFFER_SIZE, &size_, CU_LAUNCH_PARAM_END};
    std::memcpy(extra_, extra, sizeof(extra));
    return;
  }
  if (bytes < layout.bytes) {
    rangeError(env, "args", "holds " + std::to_string(bytes) + " bytes; the parameters of " + kernel.name + " take " +
                                std::to_string(layout.bytes));
  }
  const size_t count = layout.offsets.size();
  if (count == 0) return;
  params_ = onStack_;
  if (count > kStackParams) {
    onHeap_.resize(count);
    params_ = onHeap_.data();
  }
  for (size_t i = 0; i < count; ++i) params_[i] = args + layout.offsets[i];
}

void readKernelCall(Napi::Value record, KernelCall& call) {
  Napi::Env env = record.Env();
  size_t length = 0;
  void* bytes = nullptr;
  // An ArrayBuffer: its data and length are read directly, where a typed array's
  // info took dispatch on its type and its buffer, twice the cost.
  if (napi_get_arraybuffer_info(env, record, &bytes, &length) != napi_ok) typeError(env, "record", "an ArrayBuffer");
  uint8_t* data = static_cast<uint8_t*>(bytes);
  if (length < kKernelCallHeaderBytes) rangeError(env, "record", "is shorter than a launch configuration");
  KernelCallHeader header;
  std::memcpy(&header, data, sizeof(header));  // the record may sit at any byte of its buffer
  decodeLaunchPlan(env, header.config, "config", call.plan);
  const size_t room = length - kKernelCallHeaderBytes;
  const int32_t argBytes = header.fields.argBytes;
  if (argBytes < 0 || static_cast<size_t>(argBytes) > room) rangeError(env, "argBytes", "exceeds the record");
  call.argBytes = static_cast<size_t>(argBytes);
  call.args = data + kKernelCallHeaderBytes;
  constexpr size_t kAlign = alignof(MemoryArgument);
  const size_t pairsAt = (call.argBytes + kAlign - 1) & ~(kAlign - 1);
  const int32_t pointerCount = header.fields.pointerCount;
  if (pointerCount < 0 || pairsAt > room || static_cast<size_t>(pointerCount) > (room - pairsAt) / sizeof(MemoryArgument)) {
    rangeError(env, "pointerCount", "exceeds the record");
  }
  call.pointerCount = static_cast<uint32_t>(pointerCount);
  call.ordinal = header.fields.ordinal;
  call.kernelSlot = header.launch.kernel;
  call.streamSlot = header.launch.stream;
  call.pointers = call.args + pairsAt;
}

// kernelLaunch(record): the record as readKernelCall reads it, the kernel and
// stream by slot number in its header. No JavaScript object is unwrapped or
// read property by property, and nothing JavaScript can run between reading
// where the argument bytes are and writing the memory addresses into them.
napi_value KernelLaunch(Napi::Env env, SlotTable& table, const HotArgs<1>& args) {
  KernelCall call;
  readKernelCall(Napi::Value(env, args[0]), call);
  const KernelRef& kernel = Kernel::fromSlot(env, table, call.kernelSlot, "kernel");
  const StreamRef& stream = Stream::fromSlot(env, table, call.streamSlot, "stream");
  checkCurrent(env, launchContext(env, *kernel, *stream));
  // The memory is stamped at once: if the driver refuses the launch, the stream
  // only holds it until its work so far is done.
  StreamBox& queue = *stream;
  writeMemoryArguments(env, table, call, call.args, [&queue](const MemoryInSlot& memory) {
    queue.keepUntilIdle(memory.box, [&memory] { return memory.ref(); });
  });
  KernelParams params(env, *kernel, call.args, call.argBytes);
  const LaunchPlan& plan = call.plan;
  CUresult r = launchWithPlan(plan, kernel->launchable(), stream->stream, params.kernelParams(), params.extra());
  if (r != CUDA_SUCCESS) throwCudaError(env, r, launchFunction(plan, params.packed()), kernel->name);

  stream->keepUntilIdle(kernel);
  return nullptr;
}

void launchPrepared(Napi::Env env, const std::shared_ptr<PreparedLaunchBox>& box, int64_t item) {
  PreparedLaunchBox& p = *box;
  // The stream would keep this launch, and the launch the stream, for good.
  if (p.stream->disposed) throwDisposed(env, "the prepared launch's Stream");
  if (p.context) {
    CUresult current = setCurrent(p.context);
    if (current != CUDA_SUCCESS) throwCudaError(env, current, Fn::cuCtxSetCurrent);
  }
  const bool packed = !p.kernel->params.known;
  CUresult r = launchWithPlan(p.plan, p.kernel->launchable(), p.stream->stream,
                              packed || p.params.empty() ? nullptr : p.params.data(),
                              packed && p.bytes ? p.extra : nullptr);
  if (r != CUDA_SUCCESS) {
    throwCudaError(env, r, launchFunction(p.plan, packed), itemDetail(item, p.kernel->name));
  }
  p.stream->keepUntilIdle(box);  // the kernel and the memory its arguments name
}

// preparedLaunch(slot): one driver call with what kernelPrepare fixed.
napi_value PreparedLaunch(Napi::Env env, SlotTable& table, const HotArgs<1>& args) {
  launchPrepared(env, PreparedLaunchHandle::fromSlot(table, Napi::Value(env, args[0]), "launch"));
  return nullptr;
}

// (kernel, stream, config, bytes) -> PreparedLaunch. bytes is the caller's
// packed size, used only when the driver cannot report the layout.
Napi::Value KernelPrepare(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  LaunchPlan plan = readLaunchPlan(info[2], "config");
  const SlotTable& table = slotTable(env);
  const KernelRef& kernel = Kernel::fromSlot(table, info[0], "kernel");
  auto box = std::make_shared<PreparedLaunchBox>();
  box->kernel = kernel;
  box->stream = Stream::fromSlot(table, info[1], "stream");
  box->plan = plan;
  box->context = launchContext(env, *kernel, *box->stream);
  const ParamLayout& layout = kernel->params;
  box->bytes = layout.known ? layout.bytes : static_cast<size_t>(u64Arg(info[3], "bytes"));
  if (box->bytes > kMaxParamBytes) {
    rangeError(env, "bytes", "is more than a kernel's parameters can take (" + std::to_string(kMaxParamBytes) + ")");
  }
  const size_t words = (box->bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
  box->storage = std::make_shared<PreparedLaunchBox::Storage>(words ? words : 1);
  std::memset(box->storage->data(), 0, box->storage->size() * sizeof(std::max_align_t));
  auto* base = reinterpret_cast<uint8_t*>(box->storage->data());
  if (layout.known) {
    for (size_t offset : layout.offsets) box->params.push_back(base + offset);
  } else {
    box->extraBytes = box->bytes;
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, base, CU_LAUNCH_PARAM_BUFFER_SIZE, &box->extraBytes,
                     CU_LAUNCH_PARAM_END};
    std::memcpy(box->extra, extra, sizeof(extra));
  }
  return PreparedLaunchHandle::newSlot(env, std::move(box));
}

// The parameter buffer as an ArrayBuffer over the native storage. The buffer
// holds the storage too, so detaching or outliving the launch cannot leave
// either side with freed memory.
Napi::Value PreparedLaunchArguments(const Napi::CallbackInfo& info) {
  const PreparedLaunchBox& p = *PreparedLaunchHandle::fromSlot(info[0], "launch");
  auto* hold = new std::shared_ptr<PreparedLaunchBox::Storage>(p.storage);
  return Napi::ArrayBuffer::New(
      info.Env(), p.storage->data(), p.bytes,
      [](Napi::Env, void*, std::shared_ptr<PreparedLaunchBox::Storage>* held) { delete held; }, hold);
}

// (launch, offset, memory | null, byteOffset): memory's device address plus
// byteOffset goes at offset and the memory is kept for the launches; null only lets go of the memory
// there (the caller wrote another address). Memory it named before stays
// alive until launches already queued are done.
Napi::Value PreparedLaunchSetPointer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint64_t offset = u64Arg(info[1], "offset");
  const bool none = info[2].IsNull() || info[2].IsUndefined();
  uint64_t byteOffset = u64Arg(info[3], "byteOffset");
  MemoryRef next = none ? nullptr : memoryOf(info[2]);
  PreparedLaunchBox& p = *PreparedLaunchHandle::fromSlot(info[0], "launch");
  if (!none) {
    writePointer(env, next.get(), byteOffset, offset, reinterpret_cast<uint8_t*>(p.storage->data()), p.bytes);
  } else if (!pointerPlace(offset, p.bytes)) {
    rangeError(env, "offset", std::to_string(offset) + " is not a pointer's place in the parameters of " + p.kernel->name);
  }
  const size_t slot = offset / 8;
  if (slot >= p.owners.size()) p.owners.resize(slot + 1);
  if (p.owners[slot] && p.owners[slot] != next) p.stream->keepUntilIdle(p.owners[slot]);
  p.owners[slot] = std::move(next);
  return env.Undefined();
}

// Its kernel, its stream, and the memory its pointer arguments name. (Its
// parameter buffer is shared with an ArrayBuffer through a shared_ptr that
// either side may let go of anywhere.)
bool holdsJavaScript(const PreparedLaunchBox& launch) {
  for (const MemoryRef& owner : launch.owners) {
    if (owner && holdsJavaScript(*owner)) return true;
  }
  return false;
}

}  // namespace cudrv
