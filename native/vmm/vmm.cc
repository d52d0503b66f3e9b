#include "vmm/vmm.h"

#include <cstring>

#include "core/args.h"
#include "generated/entries.h"
#include "ipc/driver_fd.h"
#include "ipc/fd_channel.h"
#include "ipc/shareable_fd.h"
#include "core/release.h"

namespace cudrv {

AllocationBox::~AllocationBox() {
  if (!handle) return;
  CUmemGenericAllocationHandle h = handle;
  // Mappings made with the handle keep the memory until they are unmapped.
  releaseWhenSafe([h] { CU_CALL(cuMemRelease, h); });
}

ReservationBox::~ReservationBox() {
  if (!base) return;
  // Every mapping into the range held this box, so none is left; freed with
  // exactly the pointer and size reserved.
  CUdeviceptr ptr = base;
  size_t bytes = size;
  ContextRef ctx = context;
  releaseWhenSafe([ptr, bytes, ctx] {
    if (setCurrent(ctx->context) == CUDA_SUCCESS) CU_CALL(cuMemAddressFree, ptr, bytes);
  });
}

VirtualMemoryBox::~VirtualMemoryBox() {
  if (segments.empty()) return;
  struct Held {
    std::vector<Segment> segments;
    ReservationRef reservation;
  };
  struct Range {
    CUdeviceptr ptr;
    size_t bytes;
  };
  std::vector<Range> ranges;
  CUdeviceptr at = device;
  for (const Segment& s : segments) {
    ranges.push_back({at, s.bytes});
    at += s.bytes;
  }
  // The allocations and the reservation ride along, so that their releases
  // (cuMemRelease, then cuMemAddressFree) come after the unmaps.
  auto held = std::make_shared<Held>(Held{std::move(segments), std::move(reservation)});
  ContextRef ctx = context;
  releaseWhenSafe([ranges, ctx, held] {
    if (setCurrent(ctx->context) != CUDA_SUCCESS) {
      new auto(held);  // cannot unmap: leak the handles and range rather than free them while mapped
      return;
    }
    // cuMemUnmap is not stream-ordered: this runs once the work the library
    // queued on the memory is done (streams and graphs hold the box until then).
    // No context synchronize: a stream waiting on another process's event
    // would block the JavaScript thread, which that process may be waiting on.
    for (auto it = ranges.rbegin(); it != ranges.rend(); ++it) CU_CALL(cuMemUnmap, it->ptr, it->bytes);
    held->segments.clear();
    held->reservation.reset();
  });
}

namespace {

// Allocation properties as JavaScript passes them:
// [locationType, locationId, handleTypes, compressionType, gpuDirectRdmaCapable, usage].
CUmemAllocationProp propsArg(Napi::Value value) {
  Napi::Env env = value.Env();
  if (!value.IsArray() || value.As<Napi::Array>().Length() != 6) {
    throwTypeError(env, "properties must be [locationType, locationId, handleTypes, compression, gpuDirectRdma, usage]");
  }
  Napi::Array a = value.As<Napi::Array>();
  CUmemAllocationProp prop;
  std::memset(&prop, 0, sizeof(prop));
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = locationArg(a[0u], a[1u]);
  prop.requestedHandleTypes = static_cast<CUmemAllocationHandleType>(uintArg(a[2u], "handleTypes"));
  prop.allocFlags.compressionType = static_cast<unsigned char>(integerArg(a[3u], "compression", 0, 255));
  prop.allocFlags.gpuDirectRDMACapable = static_cast<unsigned char>(integerArg(a[4u], "gpuDirectRdma", 0, 1));
  prop.allocFlags.usage = static_cast<unsigned short>(integerArg(a[5u], "usage", 0, 0xffff));
  return prop;
}

// The same shape, plus the allocation type first.
Napi::Value propsValue(Napi::Env env, const CUmemAllocationProp& prop) {
  Napi::Array a = Napi::Array::New(env, 7);
  a.Set(0u, Napi::Number::New(env, prop.type));
  a.Set(1u, Napi::Number::New(env, prop.location.type));
  a.Set(2u, Napi::Number::New(env, prop.location.id));
  a.Set(3u, Napi::Number::New(env, prop.requestedHandleTypes));
  a.Set(4u, Napi::Number::New(env, prop.allocFlags.compressionType));
  a.Set(5u, Napi::Number::New(env, prop.allocFlags.gpuDirectRDMACapable));
  a.Set(6u, Napi::Number::New(env, prop.allocFlags.usage));
  return a;
}

// A new box for handle, whose properties the driver reports; releases handle
// (through the box) if that fails.
AllocationRef adoptAllocation(Napi::Env env, CUmemGenericAllocationHandle handle, size_t size) {
  auto box = std::make_shared<AllocationBox>();
  box->handle = handle;
  box->size = size;
  CU_CHECK(env, cuMemGetAllocationPropertiesFromHandle, &box->props, handle);
  box->context = locationContext(env, box->props.location);
  return box;
}

}  // namespace

// allocationGranularity(properties, recommended) -> bytes
Napi::Value AllocationGranularity(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemGetAllocationGranularity);
  CUmemAllocationProp prop = propsArg(info[0]);
  auto option = boolArg(info[1], "recommended") ? CU_MEM_ALLOC_GRANULARITY_RECOMMENDED : CU_MEM_ALLOC_GRANULARITY_MINIMUM;
  ContextRef context = locationContext(env, prop.location);  // held for the call
  makeCurrent(env, context);
  size_t granularity = 0;
  CU_CHECK(env, cuMemGetAllocationGranularity, &granularity, &prop, option);
  return Napi::Number::New(env, static_cast<double>(granularity));
}

// createAllocation(properties, bytes) -> PhysicalAllocation (cuMemCreate)
Napi::Value CreateAllocation(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemCreate);
  CUmemAllocationProp prop = propsArg(info[0]);
  uint64_t bytes = u64Arg(info[1], "bytes");
  auto box = std::make_shared<AllocationBox>();
  box->context = locationContext(env, prop.location);
  makeCurrent(env, box->context);
  CUmemGenericAllocationHandle handle = 0;
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemCreate, &handle, bytes, &prop, 0);
  box->handle = handle;
  box->size = bytes;
  box->props = prop;
  return PhysicalAllocation::newSlot(env, std::move(box));
}

// retainAllocation(pointer, offset) -> PhysicalAllocation: the allocation mapped
// at an address (cuMemRetainAllocationHandle), one more reference to it. Its
// size is that of the mapping the address lies in.
Napi::Value RetainAllocation(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemRetainAllocationHandle);
  MemoryRef owner;
  CUdeviceptr address = addressOf(info[0], info[1], &owner);
  // A raw address names no device: device 0's context serves (the calls need one current).
  ContextRef context = owner && owner->context ? owner->context : primaryContext(env, 0);
  makeCurrent(env, context);
  size_t mappingSize = 0;
  CU_CHECK(env, cuPointerGetAttribute, &mappingSize, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, address);
  CUmemGenericAllocationHandle handle = 0;
  CU_CHECK(env, cuMemRetainAllocationHandle, &handle, reinterpret_cast<void*>(static_cast<uintptr_t>(address)));
  return PhysicalAllocation::newSlot(env, adoptAllocation(env, handle, mappingSize));
}

// importAllocation(handle, handleType, bytes) -> PhysicalAllocation: handle is a
// descriptor number (the caller keeps and closes it) or a fabric handle's 64
// bytes; bytes is the size the exporter announced (cuMemMap checks it).
Napi::Value ImportAllocation(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemImportFromShareableHandle);
  auto type = static_cast<CUmemAllocationHandleType>(uintArg(info[1], "handleType"));
  uint64_t bytes = u64Arg(info[2], "bytes");
  int fd = type == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ? shareableFdArg(info[0], "handle") : -1;
  ContextRef context = primaryContext(env, 0);  // held for the call
  makeCurrent(env, context);
  CUmemGenericAllocationHandle handle = 0;
  if (type == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
    CU_CHECK(env, cuMemImportFromShareableHandle, &handle, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)), type);
  } else if (type == CU_MEM_HANDLE_TYPE_FABRIC) {
    if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array ||
        info[0].As<Napi::Uint8Array>().ByteLength() != sizeof(CUmemFabricHandle)) {
      throwTypeError(env, "handle must be a fabric handle's 64 bytes");
    }
    CUmemFabricHandle fabric;
    std::memcpy(&fabric, info[0].As<Napi::Uint8Array>().Data(), sizeof(fabric));
    CU_CHECK(env, cuMemImportFromShareableHandle, &handle, &fabric, type);
  } else {
    throwRangeError(env, "handleType must be posixFileDescriptor or fabric");
  }
  return PhysicalAllocation::newSlot(env, adoptAllocation(env, handle, bytes));
}

// reserveAddress(ordinal, bytes, alignment, hint) -> AddressReservation
Napi::Value ReserveAddress(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemAddressReserve);
  auto box = std::make_shared<ReservationBox>();
  box->context = primaryContext(env, intArg(info[0], "ordinal"));
  uint64_t bytes = u64Arg(info[1], "bytes");
  uint64_t alignment = u64Arg(info[2], "alignment");
  CUdeviceptr hint = u64Arg(info[3], "hint");
  makeCurrent(env, box->context);
  CUdeviceptr base = 0;
  CU_CHECK_DETAIL(env, "bytes=" + std::to_string(bytes), cuMemAddressReserve, &base, bytes, alignment, hint, 0);
  box->base = base;
  box->size = bytes;
  box->alignment = alignment;
  return AddressReservation::newSlot(env, std::move(box));
}

namespace {

// Segments as JavaScript passes them: [[PhysicalAllocation, allocationOffset, bytes], ...],
// read (segmentValues) before the call looks anything up, then resolved (segmentsOf).
BatchValues segmentValues(Napi::Value value) {
  return BatchValues(arrayArg(value, "segments", 0, 1024, "must hold at most 1024 entries"), 3,
                     "each segment must be [allocation, allocationOffset, bytes]", 3);
}

std::vector<VirtualMemoryBox::Segment> segmentsOf(Napi::Env env, const BatchValues& list) {
  std::vector<VirtualMemoryBox::Segment> segments(list.size());
  for (uint32_t i = 0; i < list.size(); ++i) {
    VirtualMemoryBox::Segment& s = segments[i];
    s.allocation = PhysicalAllocation::fromSlot(list(i, 0), "segment allocation");
    s.allocationOffset = u64Arg(list(i, 1), "allocationOffset");
    s.bytes = u64Arg(list(i, 2), "bytes");
    if (s.bytes == 0) throwRangeError(env, "a segment must map at least one byte");
    checkRange(env, "segment", s.allocationOffset, s.bytes, s.allocation->size);
  }
  return segments;
}

// Maps segments one after another at the end of box's range and grants access
// to the new part, all or nothing: on any failure what this call mapped is
// unmapped again (nothing used it yet) and the box is unchanged.
void mapAndGrant(Napi::Env env, VirtualMemoryBox& box, std::vector<VirtualMemoryBox::Segment> segments,
                 const std::vector<CUmemAccessDesc>& access) {
  const ReservationBox& reservation = *box.reservation;
  uint64_t total = 0;
  for (const auto& s : segments) {
    if (s.bytes > UINT64_MAX - total) throwRangeError(env, "segments are too large");
    total += s.bytes;
  }
  checkRange(env, "mapping", box.offset + box.mapped, total, reservation.size);
  makeCurrent(env, box.context);
  const CUdeviceptr start = box.device + box.mapped;
  std::vector<std::pair<CUdeviceptr, size_t>> mapped;
  auto undo = [&] {
    for (auto it = mapped.rbegin(); it != mapped.rend(); ++it) CU_CALL(cuMemUnmap, it->first, it->second);
  };
  CUdeviceptr at = start;
  for (const auto& s : segments) {
    CUresult r = CU_CALL(cuMemMap, at, s.bytes, s.allocationOffset, s.allocation->handle, 0);
    if (r != CUDA_SUCCESS) {
      undo();
      throwCudaError(env, r, Fn::cuMemMap,
                     "bytes=" + std::to_string(s.bytes) + " allocationOffset=" + std::to_string(s.allocationOffset));
    }
    mapped.emplace_back(at, s.bytes);
    at += s.bytes;
  }
  if (total > 0 && !access.empty()) {
    CUresult r = CU_CALL(cuMemSetAccess, start, total, access.data(), access.size());
    if (r != CUDA_SUCCESS) {
      undo();
      throwCudaError(env, r, Fn::cuMemSetAccess);
    }
  }
  for (auto& s : segments) box.segments.push_back(std::move(s));
  box.mapped += total;
}

}  // namespace

// mapMemory(reservation, offset, segments, access) -> VirtualMemory: the
// segments mapped one after another from reservation + offset, with access.
Napi::Value MapMemory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const BatchValues segmentList = segmentValues(info[2]);
  auto access = accessListArg(info[3], "access");
  uint64_t offset = u64Arg(info[1], "offset");
  const ReservationRef& reservation = AddressReservation::fromSlot(info[0], "reservation");
  checkRange(env, "offset", offset, 0, reservation->size);
  auto segments = segmentsOf(env, segmentList);
  auto box = std::make_shared<VirtualMemoryBox>();
  box->reservation = reservation;
  box->offset = offset;
  box->device = reservation->base + offset;
  box->context = reservation->context;
  mapAndGrant(env, *box, std::move(segments), access);
  box->size = box->mapped;
  return VirtualMemory::newSlot(env, std::move(box));
}

// memoryAccess(pointer, offset, locationType, locationId) -> flags (cuMemGetAccess)
Napi::Value MemoryAccess(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemGetAccess);
  MemoryRef owner;
  CUdeviceptr address = addressOf(info[0], info[1], &owner);
  CUmemLocation location = locationArg(info[2], info[3]);
  ContextRef context = owner && owner->context ? owner->context : locationContext(env, location);
  makeCurrent(env, context);
  unsigned long long flags = 0;
  CU_CHECK(env, cuMemGetAccess, &flags, &location, address);
  return Napi::Number::New(env, static_cast<double>(flags));
}

// dmaBufOf(memory, offset, bytes, flags) -> ReceivedFd: a dma_buf descriptor for
// a range of device memory (cuMemGetHandleForAddressRange).
Napi::Value DmaBufOf(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Span span = deviceSpanOf(info[0], "memory", u64Arg(info[1], "offset"), u64Arg(info[2], "bytes"));
  if (!span.device) throwTypeError(env, "memory must be device memory");
  unsigned long long flags = u64Arg(info[3], "flags");
  makeCurrent(env, span.owner->context);
  int fd = -1;
  CUresult result = makeDriverFd(&fd, [&] {
    return CU_CALL(cuMemGetHandleForAddressRange, &fd, span.device, span.bytes, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, flags);
  });
  if (result != CUDA_SUCCESS) throwCudaError(env, result, Fn::cuMemGetHandleForAddressRange);
  return newOwnedFdSlot(env, fd);
}

Napi::Value PhysicalAllocationHandle(const Napi::CallbackInfo& info) {
  return bigint(info.Env(), PhysicalAllocation::fromSlot(info[0], "allocation")->handle);
}

Napi::Value PhysicalAllocationSize(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(PhysicalAllocation::fromSlot(info[0], "allocation")->size));
}

Napi::Value PhysicalAllocationOrdinal(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), PhysicalAllocation::fromSlot(info[0], "allocation")->context->ordinal);
}

// [type, locationType, locationId, handleTypes, compression, gpuDirectRdma, usage],
// as the driver reports them now (cuMemGetAllocationPropertiesFromHandle).
Napi::Value PhysicalAllocationProperties(const Napi::CallbackInfo& info) {
  const AllocationBox& box = *PhysicalAllocation::fromSlot(info[0], "allocation");
  CUmemAllocationProp prop;
  CU_CHECK(info.Env(), cuMemGetAllocationPropertiesFromHandle, &prop, box.handle);
  return propsValue(info.Env(), prop);
}

// (handleType) -> ReceivedFd (POSIX file descriptor) | Uint8Array(64) (fabric handle)
Napi::Value PhysicalAllocationExport(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto type = static_cast<CUmemAllocationHandleType>(uintArg(info[1], "handleType"));
  const AllocationBox& box = *PhysicalAllocation::fromSlot(info[0], "allocation");
  if (type == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
    int fd = -1;
    CUresult result = makeDriverFd(&fd, [&] { return CU_CALL(cuMemExportToShareableHandle, &fd, box.handle, type, 0); });
    if (result != CUDA_SUCCESS) throwCudaError(env, result, Fn::cuMemExportToShareableHandle);
    return newOwnedFdSlot(env, fd);
  }
  if (type == CU_MEM_HANDLE_TYPE_FABRIC) {
    CUmemFabricHandle fabric;
    CU_CHECK(env, cuMemExportToShareableHandle, &fabric, box.handle, type, 0);
    return Napi::Buffer<unsigned char>::Copy(env, fabric.data, sizeof(fabric.data));
  }
  throwRangeError(env, "handleType must be posixFileDescriptor or fabric");
}

Napi::Value AddressReservationAddress(const Napi::CallbackInfo& info) {
  return bigint(info.Env(), AddressReservation::fromSlot(info[0], "reservation")->base);
}

Napi::Value AddressReservationSize(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(AddressReservation::fromSlot(info[0], "reservation")->size));
}

Napi::Value AddressReservationAlignment(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(),
                           static_cast<double>(AddressReservation::fromSlot(info[0], "reservation")->alignment));
}

Napi::Value AddressReservationOrdinal(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), AddressReservation::fromSlot(info[0], "reservation")->context->ordinal);
}

Napi::Value VirtualMemoryMapped(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(VirtualMemory::fromSlot(info[0], "memory")->mapped));
}

// (segments, access): maps more allocations after the end, all or nothing.
// The address and what is already mapped stay as they are.
Napi::Value VirtualMemoryExtend(const Napi::CallbackInfo& info) {
  const BatchValues segmentList = segmentValues(info[1]);
  auto access = accessListArg(info[2], "access");
  const VirtualMemoryRef& box = VirtualMemory::fromSlot(info[0], "memory");
  mapAndGrant(info.Env(), *box, segmentsOf(info.Env(), segmentList), access);
  return info.Env().Undefined();
}

// (bytes): what operations may touch from now on (a GrowableBuffer's size),
// within what is mapped.
Napi::Value VirtualMemoryResize(const Napi::CallbackInfo& info) {
  uint64_t bytes = u64Arg(info[1], "bytes");
  VirtualMemoryBox& box = *VirtualMemory::fromSlot(info[0], "memory");
  checkRange(info.Env(), "size", 0, bytes, box.mapped);
  box.size = bytes;
  return info.Env().Undefined();
}

// (access): cuMemSetAccess over the whole mapped range.
Napi::Value VirtualMemorySetAccess(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto access = accessListArg(info[1], "access");
  const VirtualMemoryBox& box = *VirtualMemory::fromSlot(info[0], "memory");
  if (box.mapped == 0) throwRangeError(env, "nothing is mapped yet");
  if (access.empty()) return env.Undefined();
  makeCurrent(env, box.context);
  CU_CHECK(env, cuMemSetAccess, box.device, box.mapped, access.data(), access.size());
  return env.Undefined();
}

// (locationType, locationId, offset) -> flags
Napi::Value VirtualMemoryGetAccess(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUmemLocation location = locationArg(info[1], info[2]);
  uint64_t offset = info[3].IsUndefined() ? 0 : u64Arg(info[3], "offset");
  const VirtualMemoryBox& box = *VirtualMemory::fromSlot(info[0], "memory");
  if (offset >= box.mapped) throwRangeError(env, "offset must lie within the mapped range");
  makeCurrent(env, box.context);
  unsigned long long flags = 0;
  CU_CHECK(env, cuMemGetAccess, &flags, &location, box.device + offset);
  return Napi::Number::New(env, static_cast<double>(flags));
}

// -> [[PhysicalAllocation, allocationOffset, bytes], ...]: new handles on the
// same allocations (each one more holder, not one more driver reference).
Napi::Value VirtualMemorySegments(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // A copy: setting the result's elements may run JavaScript (setters on
  // Array.prototype) that disposes or extends this mapping.
  const std::vector<VirtualMemoryBox::Segment> segments = VirtualMemory::fromSlot(info[0], "memory")->segments;
  Napi::Array out = Napi::Array::New(env, segments.size());
  for (size_t i = 0; i < segments.size(); ++i) {
    const auto& s = segments[i];
    Napi::Array e = Napi::Array::New(env, 3);
    e.Set(0u, PhysicalAllocation::newSlot(env, s.allocation));
    e.Set(1u, Napi::Number::New(env, static_cast<double>(s.allocationOffset)));
    e.Set(2u, Napi::Number::New(env, static_cast<double>(s.bytes)));
    out.Set(static_cast<uint32_t>(i), e);
  }
  return out;
}

}  // namespace cudrv
