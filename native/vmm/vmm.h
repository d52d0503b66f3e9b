// Virtual memory management: physical allocations (cuMemCreate, imported or
// retained handles), address reservations, and virtual memory made of
// allocations mapped into a reservation with access granted.
//
// Release order is structural: a VirtualMemoryBox holds the allocations it maps
// and the reservation it maps them into, so its destructor unmaps first, then
// the allocation handles are released, then the address range is freed (by the
// last holder of the reservation, with the exact pointer and size reserved).
#pragma once

#include <napi.h>

#include <memory>
#include <vector>

#include "core/non_copyable.h"
#include "context.h"
#include "core/handle.h"
#include "memory/memory.h"

namespace cudrv {

// A CUmemGenericAllocationHandle this process holds one reference to.
struct AllocationBox : NonCopyable {
  CUmemGenericAllocationHandle handle = 0;
  size_t size = 0;         // bytes of the allocation (as known: see PhysicalAllocation.size)
  CUmemAllocationProp props{};
  ContextRef context;      // the primary context of its device (device 0 for host memory)

  AllocationBox() = default;
  ~AllocationBox();
};
using AllocationRef = std::shared_ptr<AllocationBox>;

// A virtual address range from cuMemAddressReserve.
struct ReservationBox : NonCopyable {
  CUdeviceptr base = 0;
  size_t size = 0;
  size_t alignment = 0;
  ContextRef context;

  ReservationBox() = default;
  ~ReservationBox();
};
using ReservationRef = std::shared_ptr<ReservationBox>;

// Allocations mapped one after another from reservation->base + offset, with
// access granted: device memory usable wherever a DeviceBuffer is.
struct VirtualMemoryBox : MemoryBox {
  struct Segment {
    AllocationRef allocation;
    size_t allocationOffset = 0;
    size_t bytes = 0;
  };
  ReservationRef reservation;  // declared before segments: destroyed after them
  size_t offset = 0;           // of the first segment within the reservation
  std::vector<Segment> segments;
  // Bytes mapped from device on. size, what operations may touch, is at most
  // this: all of it for a mapping, what a GrowableBuffer holds for that one.
  size_t mapped = 0;

  ~VirtualMemoryBox() override;
};
using VirtualMemoryRef = std::shared_ptr<VirtualMemoryBox>;

class PhysicalAllocation : public Handle<PhysicalAllocation, AllocationBox> {
 public:
  static constexpr const char* kName = "PhysicalAllocation";
};

class AddressReservation : public Handle<AddressReservation, ReservationBox> {
 public:
  static constexpr const char* kName = "AddressReservation";
};

class VirtualMemory : public Handle<VirtualMemory, VirtualMemoryBox> {
 public:
  static constexpr const char* kName = "VirtualMemory";
};

}  // namespace cudrv
