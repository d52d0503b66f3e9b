#include "memory/host_buffer.h"

#include "args.h"
#include "release.h"

namespace cudrv {

HostMemoryBox::~HostMemoryBox() {
  // The JavaScript buffer may go once nothing holds this box; the driver lets go of it below.
  if (source) napi_delete_reference(env, source);
  if (arrayBuffer) napi_delete_reference(env, arrayBuffer);
  if (!host) return;
  void* ptr = host;
  ContextRef ctx = context;
  if (registered) {
    releaseWhenSafe([ptr, ctx] {
      if (setCurrent(ctx->context) == CUDA_SUCCESS) CU_CALL(cuMemHostUnregister, ptr);
    });
  } else {
    releaseWhenSafe([ptr, ctx] {
      if (setCurrent(ctx->context) == CUDA_SUCCESS) CU_CALL(cuMemFreeHost, ptr);
    });
  }
}

namespace {

// The device address of page-locked memory, when the device can reach it.
void mapToDevice(HostMemoryBox& box) {
  CUdeviceptr device = 0;
  if (CU_CALL(cuMemHostGetDevicePointer, &device, box.host, 0) == CUDA_SUCCESS) box.device = device;
}

// allocateHost(ordinal, bytes, flags): cuMemAllocHost when flags is 0, else cuMemHostAlloc.
Napi::Value AllocateHost(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t bytes = u64Arg(info[1], "bytes");
  unsigned int flags = uintArg(info[2], "flags");
  if (bytes == 0) throwRangeError(env, "bytes must be at least 1");
  auto box = std::make_shared<HostMemoryBox>();
  box->kind = MemoryKind::Host;
  box->context = primaryContext(env, ordinal);
  box->env = env;
  makeCurrent(env, box->context);
  if (flags == 0) {
    CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAllocHost, &box->host, bytes);
  } else {
    CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemHostAlloc, &box->host, bytes, flags);
  }
  box->size = bytes;
  box->flags = flags;
  mapToDevice(*box);
  return HostBuffer::newSlot(env, box);
}

// registerHost(ordinal, buffer, flags): page-locks the memory of an ArrayBuffer or view.
Napi::Value RegisterHost(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  Span span = spanOf(info[1], "buffer", 0, UINT64_MAX);
  if (span.owner) throwTypeError(env, "buffer must be an ArrayBuffer, typed array, DataView or Buffer");
  if (span.bytes == 0) throwRangeError(env, "buffer must not be empty");
  unsigned int flags = uintArg(info[2], "flags");
  auto box = std::make_shared<HostMemoryBox>();
  box->kind = MemoryKind::Host;
  box->context = primaryContext(env, ordinal);
  box->env = env;
  makeCurrent(env, box->context);
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(span.bytes), cuMemHostRegister, span.host, span.bytes, flags);
  box->host = span.host;
  box->size = span.bytes;
  box->flags = flags;
  box->registered = true;
  napi_create_reference(env, info[1], 1, &box->source);
  mapToDevice(*box);
  return HostBuffer::newSlot(env, box);
}

void finalizeView(napi_env, void*, void* hint) { delete static_cast<std::shared_ptr<ViewHold>*>(hint); }

}  // namespace

void HostBuffer::init(Napi::Env env, Napi::Object exports) {
  exports.Set("HostBuffer", define(env, {
      InstanceAccessor("address", &HostBuffer::Address, nullptr),
      InstanceAccessor("size", &HostBuffer::Size, nullptr),
      InstanceAccessor("flags", &HostBuffer::Flags, nullptr),
      InstanceAccessor("registered", &HostBuffer::IsRegistered, nullptr),
      InstanceMethod("devicePointer", &HostBuffer::DevicePointer),
      InstanceMethod("view", &HostBuffer::View),
  }));
  exports.Set("allocateHost", Napi::Function::New(env, AllocateHost));
  exports.Set("registerHost", Napi::Function::New(env, RegisterHost));
}

// dispose(): detach the ArrayBuffer handed out, then let go of the memory it held.
void HostBuffer::disposing(HostMemoryBox& box) {
  if (box.arrayBuffer) {
    napi_value buffer = nullptr;
    if (napi_get_reference_value(box.env, box.arrayBuffer, &buffer) == napi_ok && buffer) napi_detach_arraybuffer(box.env, buffer);
    napi_delete_reference(box.env, box.arrayBuffer);
    box.arrayBuffer = nullptr;
  }
  if (std::shared_ptr<ViewHold> hold = box.hold.lock()) hold->box.reset();
}

Napi::Value HostBuffer::Address(const Napi::CallbackInfo& info) { return handleValue(info.Env(), live().host); }
Napi::Value HostBuffer::Size(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(live().size));
}
Napi::Value HostBuffer::Flags(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), live().flags); }
Napi::Value HostBuffer::IsRegistered(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), live().registered);
}

// devicePointer(): the address device code uses for this memory (cuMemHostGetDevicePointer).
Napi::Value HostBuffer::DevicePointer(const Napi::CallbackInfo& info) {
  HostMemoryBox& box = live();
  makeCurrent(info.Env(), box.context);
  CUdeviceptr device = 0;
  CU_CHECK(info.Env(), cuMemHostGetDevicePointer, &device, box.host, 0);
  return bigint(info.Env(), device);
}

// view(): the memory as an ArrayBuffer (the same one each time while it lives).
// A registered buffer is the caller's own ArrayBuffer already.
Napi::Value HostBuffer::View(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  HostMemoryBox& box = live();
  if (box.registered) {
    napi_value source = nullptr;
    napi_get_reference_value(env, box.source, &source);
    return Napi::Value(env, source);
  }
  if (box.arrayBuffer) {
    napi_value existing = nullptr;
    if (napi_get_reference_value(env, box.arrayBuffer, &existing) == napi_ok && existing) return Napi::Value(env, existing);
    napi_delete_reference(env, box.arrayBuffer);
    box.arrayBuffer = nullptr;
  }
  std::shared_ptr<ViewHold> hold = box.hold.lock();
  if (!hold) box.hold = hold = std::make_shared<ViewHold>(ViewHold{shared()});
  auto* hint = new std::shared_ptr<ViewHold>(hold);
  napi_value buffer = nullptr;
  if (napi_create_external_arraybuffer(env, box.host, box.size, finalizeView, hint, &buffer) != napi_ok) {
    delete hint;
    throw Napi::Error::New(env, "this Node.js does not allow external ArrayBuffers; copy through a Buffer instead");
  }
  napi_create_reference(env, buffer, 0, &box.arrayBuffer);
  return Napi::Value(env, buffer);
}

}  // namespace cudrv
