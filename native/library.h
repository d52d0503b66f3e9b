// Libraries (cuLibrary*): code loaded once for every context, whose kernels
// (CUkernel) are context-independent. The box is shared by the Library handle,
// its kernels and modules, prepared launches and graph executables; the library
// is unloaded when the last of them lets go and the work launched from it is done.
#pragma once

#include <napi.h>

#include <memory>
#include <string>

#include "handle.h"
#include "stream_uses.h"

namespace cudrv {

struct LibraryBox {
  CUlibrary library = nullptr;
  std::string jitLog;  // what the JIT said while loading (PTX), or ''
  StreamUses launches;

  LibraryBox() = default;
  LibraryBox(const LibraryBox&) = delete;
  LibraryBox& operator=(const LibraryBox&) = delete;
  ~LibraryBox();
};
using LibraryRef = std::shared_ptr<LibraryBox>;

class Library : public Handle<Library, LibraryBox> {
 public:
  static constexpr const char* kName = "Library";
  using Base::Base;
  static void init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value HandleValue(const Napi::CallbackInfo& info);
  Napi::Value JitLog(const Napi::CallbackInfo& info);
  Napi::Value Kernel(const Napi::CallbackInfo& info);
  Napi::Value KernelCount(const Napi::CallbackInfo& info);
  Napi::Value Kernels(const Napi::CallbackInfo& info);
  Napi::Value Global(const Napi::CallbackInfo& info);
  Napi::Value Managed(const Napi::CallbackInfo& info);
  Napi::Value UnifiedFunction(const Napi::CallbackInfo& info);
  Napi::Value Module(const Napi::CallbackInfo& info);
  Napi::Value HeldStreams(const Napi::CallbackInfo& info);
};

}  // namespace cudrv
