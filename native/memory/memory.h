// What every kind of memory the library hands out has in common, and how an
// operation finds the bytes it reads or writes from a JavaScript argument,
// bounds-checked before the driver sees a pointer.
#pragma once

#include <napi.h>

#include <memory>
#include <vector>

#include "core/non_copyable.h"
#include "core/slots.h"
#include "context.h"

namespace cudrv {

enum class MemoryKind {
  Device,   // device memory: reached through CUdeviceptr only
  Host,     // host memory (pinned or a JavaScript buffer): reached through a host pointer
  Unified,  // managed or host-pool memory: one address valid on both sides, copied with cuMemcpy
};

// The base of every memory box (device buffers, pinned host memory, ...).
struct MemoryBox : NonCopyable {
  MemoryBox() = default;
  virtual ~MemoryBox() = default;

  MemoryKind kind = MemoryKind::Device;
  CUdeviceptr device = 0;  // device address (0 for host memory not mapped to the device)
  void* host = nullptr;    // host address (nullptr for device memory)
  size_t size = 0;
  ContextRef context;      // the context the memory belongs to (null for JavaScript buffers)
  bool holdsJavaScript = false;  // it keeps something only the JavaScript thread may let go of (see stream.h)
  // What a kernel takes by value rather than by address (a tensor map's
  // descriptor, kernel/tensor_map.cc): as a kernel argument, these bytes are
  // its parameter. Null for memory, whose argument is its address.
  const void* parameter = nullptr;
  size_t parameterBytes = 0;
  // Memory that can end before its box does (a graph allocation: its graph or
  // its allocation node destroyed) says here whether it has; null for memory
  // that lives as long as its box. Every use by slot asks (core/slots.cc).
  bool (*ended)(const MemoryBox&) = nullptr;
};
using MemoryRef = std::shared_ptr<MemoryBox>;

// A checked byte range of some memory.
struct Span {
  MemoryKind kind = MemoryKind::Host;
  CUdeviceptr device = 0;
  void* host = nullptr;
  size_t bytes = 0;
  MemoryRef owner;  // null for JavaScript buffers (pageable memory the driver copies synchronously)

  CUdeviceptr address() const { return device ? device : reinterpret_cast<CUdeviceptr>(host); }
};

// Throws a RangeError unless [offset, offset + bytes) lies within size.
void checkRange(Napi::Env env, const char* param, uint64_t offset, uint64_t bytes, uint64_t size);

// The memory behind a library handle's slot number (DeviceBuffer, HostBuffer,
// ...), or null when value names none.
MemoryRef memoryOf(Napi::Value value);

// The memory of a JavaScript ArrayBuffer, or of a typed array, DataView or
// Buffer viewing an ArrayBuffer or a SharedArrayBuffer, as it is now: its
// length is the current one (a view of a resizable buffer that shrank sees
// less, or nothing). Valid until JavaScript runs.
struct JsBytes {
  void* data = nullptr;
  size_t length = 0;
  napi_value buffer = nullptr;  // the ArrayBuffer or SharedArrayBuffer
  size_t offset = 0;            // where data lies in it
  bool shared = false;          // buffer is a SharedArrayBuffer
};
// False when value is none of those (a bare SharedArrayBuffer among them:
// Node-API reaches its memory only through a view).
bool jsBytesOf(Napi::Value value, JsBytes* out);

// [offset, offset + bytes) of a memory handle or of JavaScript bytes (jsBytesOf).
// bytes == UINT64_MAX means "to the end". A view of page-locked memory the
// library handed out (HostBuffer.view()) is that memory: the span holds it, as
// it would the HostBuffer, so queued work keeps it alive.
Span spanOf(Napi::Value value, const char* param, uint64_t offset, uint64_t bytes);

// A span of a memory handle only (device-reachable memory; JavaScript buffers refused).
Span deviceSpanOf(Napi::Value value, const char* param, uint64_t offset, uint64_t bytes);
// The same for a slot number already read (hot entries, which have the table at hand).
Span deviceSpanOf(Napi::Env env, const SlotTable& table, double id, const char* param, uint64_t offset, uint64_t bytes);

// Throws a RangeError when two spans of one memory overlap (a copy's result would be undefined).
void refuseOverlap(Napi::Env env, const Span& dst, const Span& src);

// Waits for the legacy stream of the current context. A copy or fill made
// without a stream must have completed when the call returns, but the driver
// may return before it has run on the legacy stream, which the library's
// non-blocking streams do not wait for; copies and fills share this wait.
void waitForLegacyStream(Napi::Env env);

// A pointer argument of a query: a memory handle (its start plus offset, which
// must lie within it; *owner is set to its memory) or a bigint address. Only
// queries and driver calls that validate addresses themselves take raw ones;
// nothing is read or written through them.
CUdeviceptr addressOf(Napi::Value value, Napi::Value offset, MemoryRef* owner);

// A CUmemLocation from its two JavaScript numbers.
CUmemLocation locationArg(Napi::Value type, Napi::Value id);

// The context calls about memory at location run under: its device's primary
// context (device 0's for host locations).
ContextRef locationContext(Napi::Env env, const CUmemLocation& location);

// An access list: [[locationType, locationId, flags], ...] (at most 1024 entries).
std::vector<CUmemAccessDesc> accessListArg(Napi::Value value, const char* param);

}  // namespace cudrv
