// Green contexts: a share of a device's SMs, with streams whose work runs only
// there. The handle's box is a ContextBox (context.h) holding the green context
// and its conversion to a CUcontext, so that its streams, events and the
// Context that toContext() makes all hold the same box.
#pragma once

#include "context.h"

namespace cudrv {

class GreenContext : public Handle<GreenContext, ContextBox> {
 public:
  static constexpr const char* kName = "GreenContext";
};

}  // namespace cudrv
