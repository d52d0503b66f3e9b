// Launching kernels. A plain launch (Kernel.launch) takes its configuration,
// stream and packed arguments per call; a prepared launch fixes the kernel,
// stream, configuration and argument layout once, and launching it is one
// driver call with nothing allocated: the arguments live in native memory that
// JavaScript writes through an ArrayBuffer, at the offsets the driver reported.
//
// Pointer arguments naming memory of the library (DeviceBuffer, HostBuffer) are
// written here, from the memory's box: the native layer knows the address
// without a call back into JavaScript, and holds the memory.
//
// Lifetime: every launch stamps what it uses on its stream (StreamBox::keepUntilIdle):
// the kernel (and so its library or module) and the memory its pointer
// arguments name, so none of it is released while the launch may still run.
#pragma once

#include <napi.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "handle.h"
#include "kernel.h"
#include "launch_config.h"
#include "memory/memory.h"
#include "stream.h"

namespace cudrv {

struct PreparedLaunchBox {
  KernelRef kernel;
  StreamRef stream;
  LaunchPlan plan;
  CUcontext context = nullptr;  // made current before each launch, when the launch needs it
  // The parameter buffer, aligned for any parameter; shared with the
  // ArrayBuffer JavaScript writes it through.
  using Storage = std::vector<std::max_align_t>;
  std::shared_ptr<Storage> storage;
  size_t bytes = 0;
  std::vector<void*> params;  // kernelParams: pointers into storage (known layout)
  size_t extraBytes = 0;      // the buffer size passed through extra (unknown layout)
  void* extra[5] = {};
  std::vector<MemoryRef> owners;  // by offset / 8: the memory a pointer argument names

  PreparedLaunchBox() = default;
  PreparedLaunchBox(const PreparedLaunchBox&) = delete;
  PreparedLaunchBox& operator=(const PreparedLaunchBox&) = delete;
};

class PreparedLaunch : public Handle<PreparedLaunch, PreparedLaunchBox> {
 public:
  static constexpr const char* kName = "PreparedLaunch";
  using Base::Base;
  static void init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value Arguments(const Napi::CallbackInfo& info);
  Napi::Value SetPointer(const Napi::CallbackInfo& info);
};

// The device address of memory (TypeError when null: not library memory),
// written at offset into a parameter buffer of `bytes`; the memory, to be kept alive.
MemoryRef writePointer(Napi::Env env, MemoryRef memory, uint64_t offset, uint8_t* buffer, size_t bytes);
// Kernel.prepare(stream, config, bytes). Launches are the module-level
// kernelLaunch and preparedLaunch, which take handles by slot (slots.h).
Napi::Value prepareLaunch(const Napi::CallbackInfo& info, const KernelRef& kernel);

}  // namespace cudrv
