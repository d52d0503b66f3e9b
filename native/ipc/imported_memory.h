// Memory shared by another process, as this process sees it. An opening (a
// legacy IPC handle opened with cuIpcOpenMemHandle, a pointer imported from a
// shared pool, the imported pool itself) is made once per export and context
// (and pool, for a pool pointer) and shared by every holder: the driver maps an imported pool pointer anew on
// each import, and the first free would unmap every copy. A view
// (ImportedMemory) is a checked byte range of an opening, of virtual memory
// mapped from shared allocations, or, in the exporting process itself, of the
// exported memory (an alias).
#pragma once

#include <napi.h>

#include <functional>
#include <memory>
#include <string>

#include "core/non_copyable.h"
#include "context.h"
#include "core/handle.h"
#include "memory/memory.h"

namespace cudrv {

struct OpenedBox : NonCopyable {
  enum class Kind { LegacyIpc, PoolPointer };
  Kind kind = Kind::LegacyIpc;
  CUdeviceptr base = 0;        // what the driver returned
  size_t size = 0;             // bytes from base to the end of the allocation, as mapped here
  ContextRef context;
  std::shared_ptr<void> pool;  // pool pointers: the imported pool (released after the pointer)

  OpenedBox() = default;
  // Closes (cuIpcCloseMemHandle / cuMemFree) under its context. Neither call is
  // stream-ordered: views are held by the streams that use them until their work
  // is done, and every view holds its opening.
  ~OpenedBox();
};

// The live object registered under key (process-wide), or a new one made by
// make() and registered; the registry holds it weakly. make() may call findOrMake.
std::shared_ptr<void> findOrMake(const std::string& key, const std::function<std::shared_ptr<void>()>& make);

// A registry key: a kind, the context, and the export's bytes.
std::string openingKey(const char* kind, const ContextRef& context, const void* bytes, size_t size);

// The size of the allocation ptr lies in, from ptr to its end (cuMemGetAddressRange),
// or 0 when the driver does not say.
size_t bytesToAllocationEnd(CUdeviceptr ptr);

struct ImportedMemoryBox : MemoryBox {
  std::shared_ptr<void> source;  // what the view keeps open or alive
  const char* path = "alias";    // "legacy", "pool", "vmm" or "alias"
};

class ImportedMemory : public Handle<ImportedMemory, ImportedMemoryBox> {
 public:
  static constexpr const char* kName = "ImportedMemory";

  // A view [offset, offset + bytes) of `available` bytes at base; RangeError
  // (naming what the descriptor claimed) when it does not fit.
  static Napi::Value newRangeSlot(Napi::Env env, std::shared_ptr<void> source, ContextRef context, CUdeviceptr base,
                           size_t available, uint64_t offset, uint64_t bytes, const char* path);
};

}  // namespace cudrv
