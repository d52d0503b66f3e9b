// Memory pools for stream-ordered allocation: created ones (owned, destroyed
// with the box) and a device's default or current pool (not owned).
#pragma once

#include <napi.h>

#include "core/non_copyable.h"
#include "context.h"
#include "core/handle.h"

namespace cudrv {

struct PoolBox : NonCopyable {
  CUmemoryPool pool = nullptr;
  ContextRef context;
  // Where the pool's memory lives: the owning device's entry is implicit in access lists.
  CUmemLocation location{CU_MEM_LOCATION_TYPE_DEVICE, 0};
  bool owned = true;

  PoolBox() = default;
  ~PoolBox();
};
using PoolRef = std::shared_ptr<PoolBox>;

class MemoryPool : public Handle<MemoryPool, PoolBox> {
 public:
  static constexpr const char* kName = "MemoryPool";
};

}  // namespace cudrv
