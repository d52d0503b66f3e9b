// Modules (cuModule*): code loaded into one context, whose functions
// (CUfunction) belong to that context. A module is either loaded here (and
// unloaded when its last holder lets go: handles, launches in flight through
// StreamBox::keepUntilIdle, graph executables) or a library's module for one
// context, which the library owns.
#pragma once

#include <napi.h>

#include <memory>
#include <string>

#include "core/non_copyable.h"
#include "context.h"
#include "core/handle.h"
#include "kernel/library.h"

namespace cudrv {

struct ModuleBox : NonCopyable {
  CUmodule module = nullptr;
  ContextRef context;
  LibraryRef library;  // set when the module is a library's: the library unloads it
  std::string jitLog;

  ModuleBox() = default;
  ~ModuleBox();
};
using ModuleRef = std::shared_ptr<ModuleBox>;

class Module : public Handle<Module, ModuleBox> {
 public:
  static constexpr const char* kName = "Module";
};

}  // namespace cudrv
