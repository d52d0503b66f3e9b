// Libraries (cuLibrary*): code loaded once for every context, whose kernels
// (CUkernel) are context-independent. The box is shared by the Library handle,
// its kernels and modules, prepared launches, graph executables and the streams
// that ran its kernels (StreamBox::keepUntilIdle): the library is unloaded when
// the last of them lets go, so never under work still running its code.
#pragma once

#include <napi.h>

#include <memory>
#include <string>

#include "core/non_copyable.h"
#include "core/handle.h"

namespace cudrv {

struct LibraryBox : NonCopyable {
  CUlibrary library = nullptr;
  std::string jitLog;  // what the JIT said while loading (PTX), or ''

  LibraryBox() = default;
  ~LibraryBox();
};
using LibraryRef = std::shared_ptr<LibraryBox>;

class Library : public Handle<Library, LibraryBox> {
 public:
  static constexpr const char* kName = "Library";
};

}  // namespace cudrv
