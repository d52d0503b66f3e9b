// Legacy CUDA IPC: cuMemAlloc memory and interprocess events, shared as 64-byte
// handles. The handle names a whole allocation, so an interior pointer is
// shared as its allocation's handle plus an offset.

#include "core/args.h"
#include "event.h"
#include "generated/entries.h"
#include "ipc/imported_memory.h"

namespace cudrv {

namespace {

constexpr size_t kHandleBytes = CU_IPC_HANDLE_SIZE;

static_assert(sizeof(CUipcMemHandle) == CU_IPC_HANDLE_SIZE && sizeof(CUipcEventHandle) == CU_IPC_HANDLE_SIZE,
              "IPC handles are 64 bytes");

}  // namespace

// ipcMemoryHandle(memory, offset) -> { handle, offset, allocationSize }: the
// handle of the allocation holding memory + offset, and that point's offset in it.
Napi::Value IpcMemoryHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  MemoryRef memory = memoryOf(info[0]);
  if (!memory || !memory->device) throwTypeError(env, "memory must be device memory of this library");
  MemoryRef owner;
  CUdeviceptr ptr = addressOf(info[0], info[1], &owner);
  makeCurrent(env, memory->context);
  CUdeviceptr base = 0;
  size_t size = 0;
  CU_CHECK(env, cuMemGetAddressRange, &base, &size, ptr);
  CUipcMemHandle handle;
  CU_CHECK(env, cuIpcGetMemHandle, &handle, base);
  Napi::Object out = Napi::Object::New(env);
  out.Set("handle", bytesValue(env, handle));
  out.Set("offset", static_cast<double>(ptr - base));
  out.Set("allocationSize", static_cast<double>(size));
  return out;
}

// openIpcMemory(ordinal, handle, offset, bytes?) -> ImportedMemory: a view of
// the allocation another process exported, opened once per context and handle
// (the driver would count a reference per open, each to be closed). Without
// bytes the view runs to the end of the allocation as mapped here.
Napi::Value OpenIpcMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuIpcOpenMemHandle);
  ContextRef context = primaryContext(env, intArg(info[0], "ordinal"));
  CUipcMemHandle handle = bytesArg<CUipcMemHandle>(info[1], "handle");
  uint64_t offset = u64Arg(info[2], "offset");
  const bool toEnd = info[3].IsUndefined();
  uint64_t bytes = toEnd ? 0 : u64Arg(info[3], "bytes");
  makeCurrent(env, context);
  std::string key = openingKey("ipc", context, handle.reserved, kHandleBytes);
  auto opened = std::static_pointer_cast<OpenedBox>(findOrMake(key, [&] {
    CUdeviceptr base = 0;
    CU_CHECK(env, cuIpcOpenMemHandle, &base, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    auto box = std::make_shared<OpenedBox>();
    box->kind = OpenedBox::Kind::LegacyIpc;
    box->base = base;
    box->context = context;
    box->size = bytesToAllocationEnd(base);
    return box;
  }));
  if (toEnd) {
    if (opened->size == 0) throwRangeError(env, "the driver does not say how large the opened allocation is: pass bytes");
    bytes = offset <= opened->size ? opened->size - offset : 0;
  }
  return ImportedMemory::newRangeSlot(env, opened, context, opened->base, opened->size, offset, bytes, "legacy");
}

// ipcEventHandle(event) -> { handle: Uint8Array(64), ordinal }
Napi::Value IpcEventHandle(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const EventRef& event = Event::fromSlot(info[0], "event");
  CUipcEventHandle handle;
  CU_CHECK(env, cuIpcGetEventHandle, &handle, event->event);
  const int ordinal = event->context->ordinal;  // read first: setting properties may run JavaScript
  Napi::Object out = Napi::Object::New(env);
  out.Set("handle", bytesValue(env, handle));
  out.Set("ordinal", ordinal);
  return out;
}

// openIpcEvent(ordinal, handle) -> Event: behaves as an event created with
// timing disabled; destroyed with cuEventDestroy like any other.
Napi::Value OpenIpcEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuIpcOpenEventHandle);
  auto box = std::make_shared<EventBox>();
  box->context = primaryContext(env, intArg(info[0], "ordinal"));
  CUipcEventHandle handle = bytesArg<CUipcEventHandle>(info[1], "handle");
  makeCurrent(env, box->context);
  CU_CHECK(env, cuIpcOpenEventHandle, &box->event, handle);
  box->flags = CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
  return Event::newSlot(env, std::move(box));
}

// aliasEvent(event) -> a second Event object for the same event (what opening
// an event's descriptor gives in the process that exported it).
Napi::Value AliasEvent(const Napi::CallbackInfo& info) {
  return Event::newSlot(info.Env(), Event::fromSlot(info[0], "event"));
}

}  // namespace cudrv
