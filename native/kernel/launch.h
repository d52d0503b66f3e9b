// Launching kernels. A plain launch (Kernel.launch) takes its configuration,
// stream and packed arguments per call; a prepared launch fixes the kernel,
// stream, configuration and argument layout once, and launching it is one
// driver call with nothing allocated: the arguments live in native memory that
// JavaScript writes through an ArrayBuffer, at the offsets the driver reported.
//
// Pointer arguments naming memory of the library (DeviceBuffer, HostBuffer) are
// written here, from the memory's box: the native layer knows the address
// without a call back into JavaScript, and holds the memory.
//
// Lifetime: every launch stamps what it uses on its stream (StreamBox::keepUntilIdle):
// the kernel (and so its library or module) and the memory its pointer
// arguments name, so none of it is released while the launch may still run.
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <vector>

#include "core/non_copyable.h"
#include "core/args.h"
#include "core/handle.h"
#include "core/item_detail.h"
#include "generated/layouts.h"
#include "kernel/kernel.h"
#include "kernel/launch_config.h"
#include "memory/memory.h"
#include "stream.h"

namespace cudrv {

struct PreparedLaunchBox : NonCopyable {
  KernelRef kernel;
  StreamRef stream;
  LaunchPlan plan;
  CUcontext context = nullptr;  // made current before each launch, when the launch needs it
  // The parameter buffer, aligned for any parameter; shared with the
  // ArrayBuffer JavaScript writes it through.
  using Storage = std::vector<std::max_align_t>;
  std::shared_ptr<Storage> storage;
  size_t bytes = 0;
  std::vector<void*> params;  // kernelParams: pointers into storage (known layout)
  size_t extraBytes = 0;      // the buffer size passed through extra (unknown layout)
  void* extra[5] = {};
  std::vector<MemoryRef> owners;  // by offset / 8: the memory a pointer argument names

  PreparedLaunchBox() = default;
};

// Named apart from its class in JavaScript: PreparedLaunch is the entry that launches one.
class PreparedLaunchHandle : public Handle<PreparedLaunchHandle, PreparedLaunchBox> {
 public:
  static constexpr const char* kName = "PreparedLaunch";
};

// One launch of box on its stream (its context made current first, where the
// launch needs it), stamped on the stream. item: its index in a batch, said
// in the driver's error (itemDetail), or -1.
void launchPrepared(Napi::Env env, const std::shared_ptr<PreparedLaunchBox>& box, int64_t item = -1);

// The device address of memory plus byteOffset (TypeError when memory is null:
// not library memory), written at offset into a parameter buffer of `bytes`;
// the caller keeps the memory alive. byteOffset may be the memory's size (an
// end pointer, as C allows one past the last byte) and no more. Memory taken
// by value (MemoryBox::parameter: a tensor map) writes its bytes instead.
void writePointer(Napi::Env env, const MemoryBox* memory, uint64_t byteOffset, uint64_t offset, uint8_t* buffer, size_t bytes);
// A MemoryArgument's or setter's byteOffset, as a double: a RangeError unless an integer in [0, 2^53).
uint64_t byteOffsetOf(Napi::Env env, double byteOffset);

// A kernel call as lib/kernel/kernel.ts packs it for a plain launch or a kernel
// node: one ArrayBuffer holding a KernelCallHeader (generated/layouts.h: the
// encoded configuration, the counts, a plain launch's kernel and stream by
// slot), the argument bytes, and from the next multiple of 8 a MemoryArgument
// per memory argument. One N-API read finds all of it, where typed arrays or
// numbers for its parts would each cost one.
static_assert(kKernelCallHeaderBytes % 16 == 0, "the arguments stay 16-byte aligned");

struct KernelCall {
  LaunchPlan plan;
  uint8_t* args = nullptr;  // in the caller's record
  size_t argBytes = 0;
  const uint8_t* pointers = nullptr;  // pointerCount MemoryArguments, any alignment
  uint32_t pointerCount = 0;
  int ordinal = 0;
  double kernelSlot = -1;  // a plain launch's
  double streamSlot = -1;
};
// Reads record (an ArrayBuffer) into call, its counts checked against the record's length.
void readKernelCall(Napi::Value record, KernelCall& call);
// Writes the device address (plus byte offset) of each of the call's memory arguments into args
// (the call's bytes or a copy of them, argBytes long) and hands the memory to
// keep(const MemoryInSlot&), for the caller to keep alive.
template <typename Keep>
void writeMemoryArguments(Napi::Env env, const SlotTable& table, const KernelCall& call, uint8_t* args, Keep keep) {
  for (uint32_t i = 0; i < call.pointerCount; ++i) {
    MemoryArgument pair;
    std::memcpy(&pair, call.pointers + sizeof(MemoryArgument) * i, sizeof(pair));
    if (!(pair.offset >= 0) || pair.offset > static_cast<double>(call.argBytes)) rangeError(env, "offset", "is outside the parameters");
    const uint64_t byteOffset = byteOffsetOf(env, pair.byteOffset);
    const MemoryInSlot memory = memoryInSlot(env, table, pair.memory);
    writePointer(env, memory.box, byteOffset, static_cast<uint64_t>(pair.offset), args, call.argBytes);
    keep(memory);
  }
}
// A kernel call's parameters as the driver takes them, pointing into the
// call's argument bytes: kernelParams (pointers at the parameter offsets the
// driver reported; on the stack up to kStackParams), or for a kernel whose
// layout is unknown, extra passing the bytes as one buffer. Valid while the
// bytes are and this object does not move (extra points at its size).
class KernelParams {
 public:
  static constexpr size_t kStackParams = 32;
  // RangeError when the bytes are fewer than the kernel's parameters take.
  KernelParams(Napi::Env env, const KernelBox& kernel, uint8_t* args, size_t bytes);
  KernelParams(const KernelParams&) = delete;
  KernelParams& operator=(const KernelParams&) = delete;
  void** kernelParams() const { return params_; }
  void** extra() { return packed_ && size_ ? extra_ : nullptr; }
  bool packed() const { return packed_; }  // extra, not kernelParams

 private:
  void* onStack_[kStackParams];
  std::vector<void*> onHeap_;
  void** params_ = nullptr;
  bool packed_ = false;
  size_t size_ = 0;
  void* extra_[5] = {};
};

}  // namespace cudrv
