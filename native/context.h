// Contexts: the primary context of each device (retained once, shared by every
// handle made on it, released when the last of them lets go), contexts created
// with cuCtxCreate, and green contexts (native/green/), whose box holds the
// green context and the CUcontext it converts to. Every handle that needs a
// context holds its box.
#pragma once

#include <napi.h>

#include <memory>

#include "core/non_copyable.h"
#include "core/handle.h"

namespace cudrv {

struct ContextBox : NonCopyable {
  CUcontext context = nullptr;
  CUdevice device = 0;
  int ordinal = 0;
  bool primary = true;
  // A green context's box: the green context, which context is the conversion
  // of (cuCtxFromGreenCtx), and the primary context it lives in, held so that
  // resetPrimaryContext refuses while it lives.
  CUgreenCtx green = nullptr;
  std::shared_ptr<ContextBox> primaryContext;

  ContextBox() = default;
  ~ContextBox();
};
using ContextRef = std::shared_ptr<ContextBox>;

// Makes context current on the calling thread unless it already is.
CUresult setCurrent(CUcontext context);
// The same, throwing a CudaError on failure.
void makeCurrent(Napi::Env env, CUcontext context);
inline void makeCurrent(Napi::Env env, const ContextRef& ref) { makeCurrent(env, ref->context); }

// The device of a JavaScript ordinal; throws for an invalid one.
CUdevice deviceOf(Napi::Env env, Napi::Value ordinal, const char* param);

// The retained primary context of a device ordinal.
ContextRef primaryContext(Napi::Env env, int ordinal);

class Context : public Handle<Context, ContextBox> {
 public:
  static constexpr const char* kName = "Context";
};

// The context a call that allocates names: context (a Context's slot) when it
// is given, else the device's primary context.
ContextRef contextOrPrimary(Napi::Env env, Napi::Value context, int ordinal);

}  // namespace cudrv
