// Filling device-reachable memory with 8-, 16- or 32-bit values, in 1D or 2D
// (pitched), synchronously or on a stream.
#include "core/args.h"
#include "generated/entries.h"
#include "memory/memory.h"
#include "stream.h"

namespace cudrv {

namespace {

unsigned int elementArg(Napi::Value value) {
  unsigned int element = uintArg(value, "elementBytes");
  if (element != 1 && element != 2 && element != 4) {
    throwRangeError(value.Env(), "elementBytes must be 1, 2 or 4");
  }
  return element;
}

void checkAligned(Napi::Env env, CUdeviceptr address, uint64_t pitch, unsigned int element) {
  if (address % element != 0 || pitch % element != 0) {
    throwRangeError(env, "a " + std::to_string(element * 8) + "-bit fill needs " +
                                         std::to_string(element) + "-byte aligned addresses and pitch");
  }
}

Span fillTarget(Napi::Env env, Napi::Value target, uint64_t offset, uint64_t bytes) {
  Span span = deviceSpanOf(target, "target", offset, bytes);
  if (span.device == 0) throwTypeError(env, "target must be memory the device can reach");
  return span;
}

}  // namespace

// memset(target, offset, value, count | undefined, elementBytes, stream | undefined):
// count elements, by default as many as fit from offset to the end.
Napi::Value Memset(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  unsigned int element = elementArg(info[4]);
  uint64_t bytes = UINT64_MAX;  // spanOf's "to the end"
  if (!info[3].IsUndefined()) {
    uint64_t count = u64Arg(info[3], "count");
    if (count >= UINT64_MAX / element) throwRangeError(env, "count is too large");
    bytes = count * element;
  }
  Span span = fillTarget(env, info[0], u64Arg(info[1], "offset"), bytes);
  const uint64_t count = span.bytes / element;
  uint32_t value = uintArg(info[2], "value");
  StreamBox* stream = info[5].IsUndefined() ? nullptr : &streamArg(info[5]);
  checkAligned(env, span.device, 0, element);
  if (count == 0) return env.Undefined();
  makeCurrent(env, stream ? stream->context : span.owner->context);
  CUdeviceptr d = span.device;
  if (stream) {
    CUstream s = stream->stream;
    if (element == 1) CU_CHECK(env, cuMemsetD8Async, d, static_cast<unsigned char>(value), count, s);
    else if (element == 2) CU_CHECK(env, cuMemsetD16Async, d, static_cast<unsigned short>(value), count, s);
    else CU_CHECK(env, cuMemsetD32Async, d, value, count, s);
    stream->keepUntilIdle(span.owner);
  } else {
    if (element == 1) CU_CHECK(env, cuMemsetD8, d, static_cast<unsigned char>(value), count);
    else if (element == 2) CU_CHECK(env, cuMemsetD16, d, static_cast<unsigned short>(value), count);
    else CU_CHECK(env, cuMemsetD32, d, value, count);
    waitForLegacyStream(env);
  }
  return env.Undefined();
}

// memset2D(target, offset, pitch, value, width, height, elementBytes, stream | undefined):
// width elements in each of height rows, pitch bytes apart.
Napi::Value Memset2D(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  unsigned int element = elementArg(info[6]);
  uint64_t pitch = u64Arg(info[2], "pitch");
  uint64_t width = u64Arg(info[4], "width");
  uint64_t height = u64Arg(info[5], "height");
  uint32_t value = uintArg(info[3], "value");
  uint64_t extent = 0;
  if (width != 0 && height != 0) {
    if (width > pitch / element) throwRangeError(env, "pitch must hold width elements");
    if (__builtin_mul_overflow(height - 1, pitch, &extent) || __builtin_add_overflow(extent, width * element, &extent)) {
      throwRangeError(env, "region is too large");
    }
  }
  Span span = fillTarget(env, info[0], u64Arg(info[1], "offset"), extent);
  StreamBox* stream = info[7].IsUndefined() ? nullptr : &streamArg(info[7]);
  checkAligned(env, span.device, pitch, element);
  if (extent == 0) return env.Undefined();
  makeCurrent(env, stream ? stream->context : span.owner->context);
  CUdeviceptr d = span.device;
  if (stream) {
    CUstream s = stream->stream;
    if (element == 1) CU_CHECK(env, cuMemsetD2D8Async, d, pitch, static_cast<unsigned char>(value), width, height, s);
    else if (element == 2) CU_CHECK(env, cuMemsetD2D16Async, d, pitch, static_cast<unsigned short>(value), width, height, s);
    else CU_CHECK(env, cuMemsetD2D32Async, d, pitch, value, width, height, s);
    stream->keepUntilIdle(span.owner);
  } else {
    if (element == 1) CU_CHECK(env, cuMemsetD2D8, d, pitch, static_cast<unsigned char>(value), width, height);
    else if (element == 2) CU_CHECK(env, cuMemsetD2D16, d, pitch, static_cast<unsigned short>(value), width, height);
    else CU_CHECK(env, cuMemsetD2D32, d, pitch, value, width, height);
    waitForLegacyStream(env);
  }
  return env.Undefined();
}

}  // namespace cudrv
