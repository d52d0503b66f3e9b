// Device memory: cuMemAlloc, pitched, stream-ordered (from a pool) and managed.
#pragma once

#include <napi.h>

#include "core/handle.h"
#include "memory/memory.h"
#include "stream.h"

namespace cudrv {

struct DeviceMemoryBox : MemoryBox {
  enum class Allocation { Plain, Pitched, StreamOrdered, Managed };
  Allocation allocation = Allocation::Plain;
  size_t pitch = 0;             // pitched: bytes per row
  StreamRef releaseStream;      // stream-ordered: the free is queued here
  std::shared_ptr<void> pool;   // stream-ordered from an explicit pool: keeps it alive
  bool freed = false;           // freed by freeAsync: the box frees nothing more

  ~DeviceMemoryBox() override;
};

class DeviceBuffer : public Handle<DeviceBuffer, DeviceMemoryBox> {
 public:
  static constexpr const char* kName = "DeviceBuffer";
};

}  // namespace cudrv
