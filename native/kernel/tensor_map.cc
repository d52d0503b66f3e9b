// Tensor maps: the descriptors the Tensor Memory Accelerator (TMA) reads,
// encoded by the driver from a tensor's shape in memory of the library.
//
// A TensorMap's box points at its current descriptor. The descriptor lives in
// a memory box of its own (TensorMapArgument): to launches and kernel nodes it
// is memory whose parameter is its 128 bytes (MemoryBox::parameter), so they
// keep it, and through it the tensor's memory, as they keep any memory
// argument (invariants 11 and 12). Replacing the address makes a new
// descriptor: what holds the old one keeps the memory it points at.
#include <cstring>
#include <memory>
#include <string>

#include "core/args.h"
#include "core/handle.h"
#include "generated/entries.h"
#include "memory/memory.h"

namespace cudrv {

namespace {

constexpr size_t kMaxRank = 5;

// The descriptor (aligned as cuda.h declares CUtensorMap, past the 64 bytes
// the encoders require) and the memory it addresses. Size 0: no copy or fill
// reaches it; the tensor's memory is reached through the descriptor only.
struct TensorMapArgumentBox : MemoryBox {
  CUtensorMap map;
  MemoryRef memory;
};
using ArgumentRef = std::shared_ptr<TensorMapArgumentBox>;

struct TensorMapBox : NonCopyable {
  ArgumentRef current;
};

class TensorMap : public Handle<TensorMap, TensorMapBox> {
 public:
  static constexpr const char* kName = "TensorMap";
};

// Named apart from its class in JavaScript: TensorMapArgument is the entry that makes one.
class ArgumentHandle : public Handle<ArgumentHandle, TensorMapArgumentBox> {
 public:
  static constexpr const char* kName = "TensorMapArgument";
};

// The elements of a typed array of `kind`, between min and max of them.
template <typename T>
const T* listArg(Napi::Value v, napi_typedarray_type kind, const char* name, const char* what, size_t min, size_t max,
                 size_t* count) {
  const T* data = typedArrayArg<T>(v, kind, name, what, count);
  if (*count < min || *count > max) {
    rangeError(v.Env(), name, "must have " + std::to_string(min) + " to " + std::to_string(max) + " entries");
  }
  return data;
}

// What every encoder reads: the shape and the enums shared by all three. The
// arrays are copied out of their typed arrays before any handle is looked up.
struct Shape {
  uint32_t rank = 0;
  cuuint64_t dims[kMaxRank] = {};
  cuuint64_t strides[kMaxRank] = {};  // rank - 1 of them
  cuuint32_t elementStrides[kMaxRank] = {};
};

void readShape(const Napi::CallbackInfo& info, size_t dimsAt, size_t elementStridesAt, uint32_t minRank, Shape& shape) {
  Napi::Env env = info.Env();
  size_t rank = 0;
  const double* dims = listArg<double>(info[dimsAt], napi_float64_array, "dims", "a Float64Array", minRank, kMaxRank, &rank);
  size_t count = 0;
  const double* strides = listArg<double>(info[dimsAt + 1], napi_float64_array, "strides", "a Float64Array", 0, kMaxRank, &count);
  if (count != rank - 1) rangeError(env, "strides", "must have one entry fewer than dims");
  const uint32_t* elementStrides = listArg<uint32_t>(info[elementStridesAt], napi_uint32_array, "elementStrides",
                                                     "a Uint32Array", rank, rank, &count);
  shape.rank = static_cast<uint32_t>(rank);
  for (size_t i = 0; i < rank; ++i) {
    shape.dims[i] = static_cast<cuuint64_t>(checkedInteger(env, dims[i], "dims", 0, (int64_t{1} << 53) - 1));
    if (i + 1 < rank) shape.strides[i] = static_cast<cuuint64_t>(checkedInteger(env, strides[i], "strides", 0, (int64_t{1} << 53) - 1));
    shape.elementStrides[i] = elementStrides[i];
  }
}

// The enums after the shape that every encoder takes: interleave, then (after
// the im2col-wide mode, where there is one) swizzle, L2 promotion and
// out-of-bounds fill, one after another.
struct Modes {
  CUtensorMapInterleave interleave;
  CUtensorMapSwizzle swizzle;
  CUtensorMapL2promotion l2Promotion;
  CUtensorMapFloatOOBfill oobFill;
};

Modes readModes(const Napi::CallbackInfo& info, size_t interleaveAt, size_t swizzleAt) {
  return {static_cast<CUtensorMapInterleave>(uintArg(info[interleaveAt], "interleave")),
          static_cast<CUtensorMapSwizzle>(uintArg(info[swizzleAt], "swizzle")),
          static_cast<CUtensorMapL2promotion>(uintArg(info[swizzleAt + 1], "l2Promotion")),
          static_cast<CUtensorMapFloatOOBfill>(uintArg(info[swizzleAt + 2], "oobFill"))};
}

// The memory a map addresses, and the address: its device address plus byteOffset (at most its size).
struct Place {
  MemoryRef memory;
  CUdeviceptr address = 0;
};

Place placeOf(Napi::Env env, double slot, uint64_t byteOffset) {
  Place place;
  place.memory = memoryOfSlot(env, slotTable(env), slot);
  if (!place.memory) typeError(env, "memory", "memory of the library (DeviceBuffer, HostBuffer, Mapping, ...)");
  if (!place.memory->device || place.memory->parameter) {
    typeError(env, "memory", "memory the device can reach (a HostBuffer must be mapped into the device's address space)");
  }
  if (byteOffset > place.memory->size) {
    rangeError(env, "byteOffset", std::to_string(byteOffset) + " is past the end of memory of " +
                                      std::to_string(place.memory->size) + " bytes");
  }
  place.address = place.memory->device + byteOffset;
  return place;
}

// A new descriptor box for place, to be encoded by the caller; the memory's context is made current.
ArgumentRef newArgument(Napi::Env env, const Place& place) {
  auto box = std::make_shared<TensorMapArgumentBox>();
  std::memset(&box->map, 0, sizeof(box->map));
  box->parameter = &box->map;
  box->parameterBytes = sizeof(box->map);
  box->context = place.memory->context;
  // The tensor's memory may hold JavaScript values (a registered buffer); its last release then belongs on that thread.
  box->holdsJavaScript = true;
  box->memory = place.memory;
  if (box->context) makeCurrent(env, box->context);
  return box;
}

Napi::Value newMap(Napi::Env env, ArgumentRef argument) {
  auto box = std::make_shared<TensorMapBox>();
  box->current = std::move(argument);
  return TensorMap::newSlot(env, std::move(box));
}

void* pointerOf(CUdeviceptr address) { return reinterpret_cast<void*>(static_cast<uintptr_t>(address)); }

}  // namespace

// (memory, byteOffset, dataType, dims, strides, box, elementStrides, interleave, swizzle, l2Promotion, oobFill) -> TensorMap
Napi::Value TensorMapEncodeTiled(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double slot = slotArg(info[0]);
  const uint64_t byteOffset = u64Arg(info[1], "byteOffset");
  const uint32_t dataType = uintArg(info[2], "dataType");
  Shape shape;
  readShape(info, 3, 6, 1, shape);
  size_t count = 0;
  const uint32_t* boxIn = listArg<uint32_t>(info[5], napi_uint32_array, "box", "a Uint32Array", shape.rank, shape.rank, &count);
  cuuint32_t box[kMaxRank] = {};
  for (size_t i = 0; i < count; ++i) box[i] = boxIn[i];
  const Modes modes = readModes(info, 7, 8);
  const Place place = placeOf(env, slot, byteOffset);
  ArgumentRef argument = newArgument(env, place);
  CU_CHECK(env, cuTensorMapEncodeTiled, &argument->map, static_cast<CUtensorMapDataType>(dataType), shape.rank,
           pointerOf(place.address), shape.dims, shape.strides, box, shape.elementStrides, modes.interleave,
           modes.swizzle, modes.l2Promotion, modes.oobFill);
  return newMap(env, std::move(argument));
}

// (memory, byteOffset, dataType, dims, strides, lowerCorner, upperCorner, channelsPerPixel, pixelsPerColumn,
//  elementStrides, interleave, swizzle, l2Promotion, oobFill) -> TensorMap
Napi::Value TensorMapEncodeIm2col(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double slot = slotArg(info[0]);
  const uint64_t byteOffset = u64Arg(info[1], "byteOffset");
  const uint32_t dataType = uintArg(info[2], "dataType");
  Shape shape;
  readShape(info, 3, 9, 3, shape);
  const size_t corners = shape.rank - 2;
  size_t count = 0;
  const int32_t* lowerIn = listArg<int32_t>(info[5], napi_int32_array, "lowerCorner", "an Int32Array", corners, corners, &count);
  int lower[kMaxRank] = {};
  for (size_t i = 0; i < count; ++i) lower[i] = lowerIn[i];
  const int32_t* upperIn = listArg<int32_t>(info[6], napi_int32_array, "upperCorner", "an Int32Array", corners, corners, &count);
  int upper[kMaxRank] = {};
  for (size_t i = 0; i < count; ++i) upper[i] = upperIn[i];
  const uint32_t channelsPerPixel = uintArg(info[7], "channelsPerPixel");
  const uint32_t pixelsPerColumn = uintArg(info[8], "pixelsPerColumn");
  const Modes modes = readModes(info, 10, 11);
  const Place place = placeOf(env, slot, byteOffset);
  ArgumentRef argument = newArgument(env, place);
  CU_CHECK(env, cuTensorMapEncodeIm2col, &argument->map, static_cast<CUtensorMapDataType>(dataType), shape.rank,
           pointerOf(place.address), shape.dims, shape.strides, lower, upper, channelsPerPixel, pixelsPerColumn,
           shape.elementStrides, modes.interleave, modes.swizzle, modes.l2Promotion, modes.oobFill);
  return newMap(env, std::move(argument));
}

// (memory, byteOffset, dataType, dims, strides, lowerCornerWidth, upperCornerWidth, channelsPerPixel,
//  pixelsPerColumn, elementStrides, interleave, mode, swizzle, l2Promotion, oobFill) -> TensorMap
Napi::Value TensorMapEncodeIm2colWide(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double slot = slotArg(info[0]);
  const uint64_t byteOffset = u64Arg(info[1], "byteOffset");
  const uint32_t dataType = uintArg(info[2], "dataType");
  Shape shape;
  readShape(info, 3, 9, 3, shape);
  const int32_t lower = intArg(info[5], "lowerCornerWidth");
  const int32_t upper = intArg(info[6], "upperCornerWidth");
  const uint32_t channelsPerPixel = uintArg(info[7], "channelsPerPixel");
  const uint32_t pixelsPerColumn = uintArg(info[8], "pixelsPerColumn");
  const uint32_t mode = uintArg(info[11], "mode");
  const Modes modes = readModes(info, 10, 12);
  const Place place = placeOf(env, slot, byteOffset);
  ArgumentRef argument = newArgument(env, place);
  CU_CHECK(env, cuTensorMapEncodeIm2colWide, &argument->map, static_cast<CUtensorMapDataType>(dataType), shape.rank,
           pointerOf(place.address), shape.dims, shape.strides, lower, upper, channelsPerPixel, pixelsPerColumn,
           shape.elementStrides, modes.interleave, static_cast<CUtensorMapIm2ColWideMode>(mode), modes.swizzle,
           modes.l2Promotion, modes.oobFill);
  return newMap(env, std::move(argument));
}

// (map, memory, byteOffset): a copy of the descriptor is pointed at the new
// place and becomes the map's; the old one stays with whatever holds it.
Napi::Value TensorMapReplaceAddress(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double slot = slotArg(info[1]);
  const uint64_t byteOffset = u64Arg(info[2], "byteOffset");
  const std::shared_ptr<TensorMapBox>& map = TensorMap::fromSlot(info[0], "map");
  const Place place = placeOf(env, slot, byteOffset);
  ArgumentRef argument = newArgument(env, place);
  std::memcpy(&argument->map, &map->current->map, sizeof(argument->map));
  CU_CHECK(env, cuTensorMapReplaceAddress, &argument->map, pointerOf(place.address));
  map->current = std::move(argument);
  return env.Undefined();
}

Napi::Value TensorMapArgument(const Napi::CallbackInfo& info) {
  return ArgumentHandle::newSlot(info.Env(), TensorMap::fromSlot(info[0], "map")->current);
}

}  // namespace cudrv
