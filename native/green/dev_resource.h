// Device resources (CUdevResource): what a device, a context or a green
// context has of a kind (SMs today), and the groups a split makes of it. The
// record is the driver's and opaque: JavaScript sees its numbers, never its
// bytes, and hands it back by slot.
#pragma once

#include <napi.h>

#include <memory>

#include "core/handle.h"
#include "core/non_copyable.h"

namespace cudrv {

struct DevResourceBox : NonCopyable {
  CUdevResource resource{};
  int ordinal = 0;
  // The context or green context the resource was read from, or split from:
  // the driver's record may refer to it.
  std::shared_ptr<const void> source;
};
using DevResourceRef = std::shared_ptr<DevResourceBox>;

class DevResource : public Handle<DevResource, DevResourceBox> {
 public:
  static constexpr const char* kName = "DevResource";
};

}  // namespace cudrv
