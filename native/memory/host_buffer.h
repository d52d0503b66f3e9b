// Page-locked host memory: allocated by the driver (cuMemHostAlloc,
// cuMemAllocHost) or the memory of a JavaScript ArrayBuffer registered with
// cuMemHostRegister. Either is shown to JavaScript as external ArrayBuffers
// (view()), each of which keeps the memory alive while its memory is reachable;
// dispose() detaches the one it handed out, so a view never outlives the memory.
#pragma once

#include <napi.h>

#include "core/handle.h"
#include "memory/memory.h"

namespace cudrv {

struct HostMemoryBox;

// What one view (an external ArrayBuffer) holds: the memory, until dispose()
// detaches that view. One per ArrayBuffer made: a view moved to another
// ArrayBuffer (ArrayBuffer.prototype.transfer, where Node has it) keeps its
// hold, and with it the memory, until that ArrayBuffer is collected.
struct ViewHold {
  std::shared_ptr<HostMemoryBox> box;
};

struct HostMemoryBox : MemoryBox {
  bool registered = false;
  unsigned int flags = 0;
  napi_env env = nullptr;
  // Registered: the ArrayBuffer whose memory this is, held strongly. The
  // registration took it from the caller (a transfer), so nothing else can
  // detach or free it.
  napi_ref source = nullptr;
  // The view handed out last (weak), and its hold (owned by the view's
  // finalizer: a strong reference here would keep the box for good).
  napi_ref arrayBuffer = nullptr;
  std::weak_ptr<ViewHold> hold;

  ~HostMemoryBox() override;
};

class HostBuffer : public Handle<HostBuffer, HostMemoryBox> {
 public:
  static constexpr const char* kName = "HostBuffer";
  static void disposing(HostMemoryBox& box);
};

// Finds, when the addon loads, the built-ins registerHost calls (structuredClone,
// ArrayBuffer's resizable getter), so that it never calls what JavaScript puts
// in their place later.
void findHostBuiltins(Napi::Env env);

// The live page-locked memory of env that holds [host, host + bytes), or null:
// how a view of it passed as plain bytes is known to be that memory.
MemoryRef pinnedMemoryAt(napi_env env, const void* host, size_t bytes);

}  // namespace cudrv
