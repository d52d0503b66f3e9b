#include "memory/host_buffer.h"

#include <map>
#include <mutex>

#include "core/addon_data.h"
#include "core/args.h"
#include "core/release.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

// Every live box's memory by its first byte: views of it that reach a copy as
// plain bytes are found here (pinnedMemoryAt). Boxes come and go on their
// environment's thread; lookups come from every environment.
struct PinnedRanges {
  struct Entry {
    const HostMemoryBox* box;
    std::weak_ptr<HostMemoryBox> ref;
  };
  std::mutex mutex;
  std::map<uintptr_t, Entry> byStart;
};

PinnedRanges& pinnedRanges() {
  static auto* ranges = new PinnedRanges();  // never destroyed: boxes may end after static destructors
  return *ranges;
}

void notePinned(const std::shared_ptr<HostMemoryBox>& box) {
  PinnedRanges& ranges = pinnedRanges();
  std::lock_guard<std::mutex> lock(ranges.mutex);
  ranges.byStart[reinterpret_cast<uintptr_t>(box->host)] = {box.get(), box};
}

void forgetPinned(const HostMemoryBox* box) {
  PinnedRanges& ranges = pinnedRanges();
  std::lock_guard<std::mutex> lock(ranges.mutex);
  auto it = ranges.byStart.find(reinterpret_cast<uintptr_t>(box->host));
  if (it != ranges.byStart.end() && it->second.box == box) ranges.byStart.erase(it);
}

}  // namespace

MemoryRef pinnedMemoryAt(napi_env env, const void* host, size_t bytes) {
  const uintptr_t start = reinterpret_cast<uintptr_t>(host);
  PinnedRanges& ranges = pinnedRanges();
  std::shared_ptr<HostMemoryBox> box;
  {
    std::lock_guard<std::mutex> lock(ranges.mutex);
    auto it = ranges.byStart.upper_bound(start);
    if (it == ranges.byStart.begin()) return nullptr;
    box = std::prev(it)->second.ref.lock();
  }
  // Another environment's memory is not held from this one: its box must end on its own thread.
  if (!box || box->env != env) return nullptr;
  const uintptr_t base = reinterpret_cast<uintptr_t>(box->host);
  if (start - base > box->size || bytes > box->size - (start - base)) return nullptr;
  return box;
}

HostMemoryBox::~HostMemoryBox() {
  if (arrayBuffer) napi_delete_reference(env, arrayBuffer);
  if (!host) return;
  forgetPinned(this);
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
  // The memory may go once it is unregistered: a release deferred past a capture
  // leaves it to JavaScript earlier, but nothing of the library uses it then.
  if (source) napi_delete_reference(env, source);
}

namespace {

// The device address of page-locked memory, when the device can reach it.
void mapToDevice(HostMemoryBox& box) {
  CUdeviceptr device = 0;
  if (CU_CALL(cuMemHostGetDevicePointer, &device, box.host, 0) == CUDA_SUCCESS) box.device = device;
}

}  // namespace

// allocateHost(ordinal, bytes, flags, context | undefined): cuMemAllocHost when flags is 0, else cuMemHostAlloc.
Napi::Value AllocateHost(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  uint64_t bytes = u64Arg(info[1], "bytes");
  unsigned int flags = uintArg(info[2], "flags");
  if (bytes == 0) throwRangeError(env, "bytes must be at least 1");
  auto box = std::make_shared<HostMemoryBox>();
  box->kind = MemoryKind::Host;
  box->context = contextOrPrimary(env, info[3], ordinal);
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
  notePinned(box);
  return HostBuffer::newSlot(env, std::move(box));
}

namespace {

// A plain data property: defined, not assigned, so that no setter on a
// prototype runs.
void defineValue(Napi::Object object, Napi::Value name, Napi::Value value) {
  napi_property_descriptor property{nullptr, name, nullptr, nullptr, nullptr, value, napi_default_jsproperty, nullptr};
  NAPI_THROW_IF_FAILED_VOID(object.Env(), napi_define_properties(object.Env(), object, 1, &property));
}

bool isResizable(Napi::Env env, napi_value buffer) {
  const Napi::FunctionReference& resizable = addonData(env).arrayBufferResizable;
  return !resizable.IsEmpty() && resizable.Call(buffer, {}).ToBoolean().Value();
}

// Moves buffer's memory into a new ArrayBuffer only the registration will
// hold, through the structuredClone the addon found when it loaded: the
// caller's buffer, and every view of it, is detached. What Node does not let
// go of (its Buffer pool, an external buffer, a WebAssembly memory) it copies
// or refuses; neither is taken.
napi_value takeArrayBuffer(Napi::Env env, napi_value buffer, size_t length) {
  Napi::Object options = Napi::Object::New(env);
  Napi::Array transfer = Napi::Array::New(env);
  defineValue(transfer, Napi::String::New(env, "0"), Napi::Value(env, buffer));
  defineValue(options, Napi::String::New(env, "transfer"), transfer);
  const Napi::FunctionReference& structuredClone = addonData(env).structuredClone;
  if (structuredClone.IsEmpty()) throwTypeError(env, "buffer cannot be taken over: this Node.js has no structuredClone");
  napi_value taken = nullptr;
  try {
    taken = structuredClone.Call({buffer, options});
  } catch (const Napi::Error& e) {
    throwTypeError(env, "buffer cannot be taken over (" + e.Message() +
                            "); register an ArrayBuffer of its own, or use HostBuffer.alloc");
  }
  bool detached = false, plain = false;
  void* data = nullptr;
  size_t takenLength = 0;
  if (napi_is_detached_arraybuffer(env, buffer, &detached) != napi_ok || !detached ||
      napi_is_arraybuffer(env, taken, &plain) != napi_ok || !plain ||
      napi_get_arraybuffer_info(env, taken, &data, &takenLength) != napi_ok || takenLength != length ||
      isResizable(env, taken)) {
    throwTypeError(env, "buffer cannot be taken over (Node keeps it: a pooled Buffer, a view of other memory, ...); "
                        "register an ArrayBuffer of its own, or use HostBuffer.alloc");
  }
  return taken;
}

}  // namespace

// registerHost(ordinal, buffer, flags, context | undefined): page-locks the memory of an ArrayBuffer
// or of a view of one, after taking that ArrayBuffer from the caller
// (takeArrayBuffer): JavaScript can then neither free nor move it while it is
// registered. The view's range is what is registered.
Napi::Value RegisterHost(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  int ordinal = intArg(info[0], "ordinal");
  unsigned int flags = uintArg(info[2], "flags");
  JsBytes js;
  if (memoryOf(info[1]) || !jsBytesOf(info[1], &js)) {
    throwTypeError(env, "buffer must be an ArrayBuffer, typed array, DataView or Buffer");
  }
  if (js.shared) {
    throwTypeError(env, "buffer must not be a SharedArrayBuffer: other threads keep its memory, and a "
                        "registration cannot take it from them");
  }
  bool detached = false;
  if (napi_is_detached_arraybuffer(env, js.buffer, &detached) == napi_ok && detached) {
    throwTypeError(env, "buffer must not be detached");
  }
  if (isResizable(env, js.buffer)) throwTypeError(env, "buffer must not be resizable, nor a view of a resizable ArrayBuffer");
  if (js.length == 0) throwRangeError(env, "buffer must not be empty");
  auto box = std::make_shared<HostMemoryBox>();
  box->kind = MemoryKind::Host;
  box->context = contextOrPrimary(env, info[3], ordinal);
  box->env = env;
  makeCurrent(env, box->context);
  size_t length = 0;
  napi_get_arraybuffer_info(env, js.buffer, nullptr, &length);
  napi_value taken = takeArrayBuffer(env, js.buffer, length);
  void* data = nullptr;
  napi_get_arraybuffer_info(env, taken, &data, nullptr);
  void* host = static_cast<char*>(data) + js.offset;
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(js.length), cuMemHostRegister, host, js.length, flags);
  box->host = host;
  box->size = js.length;
  box->flags = flags;
  box->registered = true;
  napi_create_reference(env, taken, 1, &box->source);
  mapToDevice(*box);
  notePinned(box);
  return HostBuffer::newSlot(env, std::move(box));
}

namespace {

void finalizeView(napi_env, void*, void* hint) { delete static_cast<std::shared_ptr<ViewHold>*>(hint); }

// The ArrayBuffer's own getter of `resizable`, as it was when the addon loaded
// (absent where Node has no resizable buffers).
Napi::FunctionReference resizableGetter(Napi::Env env) {
  Napi::Object object = env.Global().Get("Object").As<Napi::Object>();
  Napi::Value prototype = env.Global().Get("ArrayBuffer").As<Napi::Object>().Get("prototype");
  Napi::Value descriptor = object.Get("getOwnPropertyDescriptor").As<Napi::Function>().Call(object, {prototype, Napi::String::New(env, "resizable")});
  if (!descriptor.IsObject()) return Napi::FunctionReference();
  Napi::Value getter = descriptor.As<Napi::Object>().Get("get");
  return getter.IsFunction() ? Napi::Persistent(getter.As<Napi::Function>()) : Napi::FunctionReference();
}

}  // namespace

void findHostBuiltins(Napi::Env env) {
  AddonData& data = addonData(env);
  if (data.structuredClone.IsEmpty()) {
    Napi::Value structuredClone = env.Global().Get("structuredClone");
    if (structuredClone.IsFunction()) data.structuredClone = Napi::Persistent(structuredClone.As<Napi::Function>());
  }
  if (data.arrayBufferResizable.IsEmpty()) data.arrayBufferResizable = resizableGetter(env);
}

// dispose(): detach the ArrayBuffer handed out, and let go of the memory it
// held. One that is detached already was moved to another ArrayBuffer
// (transfer()): that one keeps its hold, and the memory, until it is collected.
void HostBuffer::disposing(HostMemoryBox& box) {
  if (!box.arrayBuffer) return;
  napi_value buffer = nullptr;
  bool detached = true;
  if (napi_get_reference_value(box.env, box.arrayBuffer, &buffer) == napi_ok && buffer) {
    napi_is_detached_arraybuffer(box.env, buffer, &detached);
  }
  if (!detached && napi_detach_arraybuffer(box.env, buffer) == napi_ok) {
    if (std::shared_ptr<ViewHold> hold = box.hold.lock()) hold->box.reset();
  }
  napi_delete_reference(box.env, box.arrayBuffer);
  box.arrayBuffer = nullptr;
}

Napi::Value HostBufferFlags(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), HostBuffer::fromSlot(info[0], "buffer")->flags);
}

Napi::Value HostBufferRegistered(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), HostBuffer::fromSlot(info[0], "buffer")->registered);
}

// cuMemHostGetFlags: what the driver says of allocated memory (it refuses registered memory).
Napi::Value HostBufferAllocationFlags(const Napi::CallbackInfo& info) {
  const HostMemoryBox& box = *HostBuffer::fromSlot(info[0], "buffer");
  makeCurrent(info.Env(), box.context);
  unsigned int flags = 0;
  CU_CHECK(info.Env(), cuMemHostGetFlags, &flags, box.host);
  return Napi::Number::New(info.Env(), flags);
}

// The address device code uses for this memory (cuMemHostGetDevicePointer).
Napi::Value HostBufferDevicePointer(const Napi::CallbackInfo& info) {
  const HostMemoryBox& box = *HostBuffer::fromSlot(info[0], "buffer");
  makeCurrent(info.Env(), box.context);
  CUdeviceptr device = 0;
  CU_CHECK(info.Env(), cuMemHostGetDevicePointer, &device, box.host, 0);
  return bigint(info.Env(), device);
}

// The memory as an ArrayBuffer, the same one while it lives and keeps the
// memory (a new one after it was collected or moved away).
Napi::Value HostBufferView(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::shared_ptr<HostMemoryBox>& shared = HostBuffer::fromSlot(info[0], "buffer");
  HostMemoryBox& box = *shared;
  if (box.arrayBuffer) {
    napi_value existing = nullptr;
    bool detached = true;
    if (napi_get_reference_value(env, box.arrayBuffer, &existing) == napi_ok && existing) {
      napi_is_detached_arraybuffer(env, existing, &detached);
    }
    if (!detached) return Napi::Value(env, existing);
    napi_delete_reference(env, box.arrayBuffer);
    box.arrayBuffer = nullptr;
  }
  auto hold = std::make_shared<ViewHold>(ViewHold{shared});
  auto* hint = new std::shared_ptr<ViewHold>(hold);
  napi_value buffer = nullptr;
  if (napi_create_external_arraybuffer(env, box.host, box.size, finalizeView, hint, &buffer) != napi_ok) {
    delete hint;
    throw Napi::Error::New(env, "this Node.js does not allow external ArrayBuffers; copy through a Buffer instead");
  }
  box.hold = hold;
  napi_create_reference(env, buffer, 0, &box.arrayBuffer);
  return Napi::Value(env, buffer);
}

}  // namespace cudrv
