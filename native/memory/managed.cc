// Managed memory: prefetching, usage advice and range attributes, one range
// or a batch at a time.
#include <vector>

#include "core/args.h"
#include "generated/entries.h"
#include "memory/memory.h"
#include "stream.h"

namespace cudrv {

namespace {

Span managedSpan(Napi::Env env, Napi::Value target, Napi::Value offset, Napi::Value bytes) {
  Span span = deviceSpanOf(target, "buffer", u64Arg(offset, "offset"), u64Arg(bytes, "bytes"));
  if (span.kind != MemoryKind::Unified) throwTypeError(env, "buffer must be managed memory");
  return span;
}

CUmemLocation locationOf(Napi::Value type, Napi::Value id) {
  CUmemLocation location;
  location.type = static_cast<CUmemLocationType>(uintArg(type, "locationType"));
  location.id = intArg(id, "locationId");
  return location;
}

}  // namespace

// prefetch(buffer, offset, bytes, locationType, locationId, flags, stream)
Napi::Value Prefetch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Span span = managedSpan(env, info[0], info[1], info[2]);
  CUmemLocation location = locationOf(info[3], info[4]);
  unsigned int flags = uintArg(info[5], "flags");
  StreamBox& stream = streamArg(info[6]);
  makeCurrent(env, stream.context);
  CU_CHECK(env, cuMemPrefetchAsync, span.device, span.bytes, location, flags, stream.stream);
  stream.keepUntilIdle(span.owner);
  return env.Undefined();
}

// advise(buffer, offset, bytes, advice, locationType, locationId)
Napi::Value Advise(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Span span = managedSpan(env, info[0], info[1], info[2]);
  auto advice = static_cast<CUmem_advise>(uintArg(info[3], "advice"));
  CUmemLocation location = locationOf(info[4], info[5]);
  makeCurrent(env, span.owner->context);
  CU_CHECK_DETAIL(env, "advice=" + std::to_string(advice), cuMemAdvise, span.device, span.bytes, advice, location);
  return env.Undefined();
}

// rangeAttribute(buffer, offset, bytes, attribute, slots) -> Int32Array of slots values
// (1 for a scalar attribute; one per device for CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY).
Napi::Value RangeAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Span span = managedSpan(env, info[0], info[1], info[2]);
  auto attribute = static_cast<CUmem_range_attribute>(uintArg(info[3], "attribute"));
  uint32_t slots = uintArg(info[4], "slots");
  if (slots == 0 || slots > 1024) throwRangeError(env, "slots must be between 1 and 1024");
  Napi::Int32Array out = Napi::Int32Array::New(env, slots);
  makeCurrent(env, span.owner->context);
  CU_CHECK_DETAIL(env, "attribute=" + std::to_string(attribute), cuMemRangeGetAttribute, out.Data(),
                  slots * sizeof(int32_t), attribute, span.device, span.bytes);
  return out;
}

// rangeAttributes(buffer, offset, bytes, attributes[]) -> numbers, one per (scalar) attribute.
Napi::Value RangeAttributes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array list = arrayArg(info[3], "attributes", 1, 64, "must hold 1 to 64 entries");
  size_t n = list.Length();
  std::vector<CUmem_range_attribute> attributes(n);
  std::vector<int32_t> values(n, 0);
  std::vector<void*> data(n);
  std::vector<size_t> sizes(n, sizeof(int32_t));
  for (uint32_t i = 0; i < n; ++i) {
    attributes[i] = static_cast<CUmem_range_attribute>(uintArg(list[i], "attribute"));
    data[i] = &values[i];
  }
  Span span = managedSpan(env, info[0], info[1], info[2]);
  makeCurrent(env, span.owner->context);
  CU_CHECK(env, cuMemRangeGetAttributes, data.data(), sizes.data(), attributes.data(), n, span.device, span.bytes);
  Napi::Array out = Napi::Array::New(env, n);
  for (uint32_t i = 0; i < n; ++i) out.Set(i, values[i]);
  return out;
}

namespace {

struct Ranges {
  std::vector<CUdeviceptr> pointers;
  std::vector<size_t> sizes;
  std::vector<MemoryRef> owners;
};

// [[buffer, offset, bytes], ...] of managed memory
Ranges rangesArg(Napi::Env env, Napi::Value value) {
  const BatchValues list(arrayArg(value, "ranges", 1, 65536, "must hold 1 to 65536 entries"), 3, "each range must be an array");
  Ranges ranges;
  for (uint32_t i = 0; i < list.size(); ++i) {
    Span span = managedSpan(env, list(i, 0), list(i, 1), list(i, 2));
    ranges.pointers.push_back(span.device);
    ranges.sizes.push_back(span.bytes);
    ranges.owners.push_back(span.owner);
  }
  return ranges;
}

}  // namespace

// prefetchBatch(ranges, locationType, locationId, flags, stream, discardFirst):
// cuMemPrefetchBatchAsync, or cuMemDiscardAndPrefetchBatchAsync when discardFirst.
Napi::Value PrefetchBatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Ranges ranges = rangesArg(env, info[0]);
  CUmemLocation location = locationOf(info[1], info[2]);
  unsigned long long flags = u64Arg(info[3], "flags");
  StreamBox& stream = streamArg(info[4]);
  size_t locationIndex = 0;
  makeCurrent(env, stream.context);
  if (boolArg(info[5], "discardFirst")) {
    CU_CHECK(env, cuMemDiscardAndPrefetchBatchAsync, ranges.pointers.data(), ranges.sizes.data(),
             ranges.pointers.size(), &location, &locationIndex, 1, flags, stream.stream);
  } else {
    CU_CHECK(env, cuMemPrefetchBatchAsync, ranges.pointers.data(), ranges.sizes.data(), ranges.pointers.size(),
             &location, &locationIndex, 1, flags, stream.stream);
  }
  for (auto& owner : ranges.owners) stream.keepUntilIdle(owner);
  return env.Undefined();
}

// discardBatch(ranges, flags, stream): the contents of the ranges become undefined.
Napi::Value DiscardBatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Ranges ranges = rangesArg(env, info[0]);
  unsigned long long flags = u64Arg(info[1], "flags");
  StreamBox& stream = streamArg(info[2]);
  makeCurrent(env, stream.context);
  CU_CHECK(env, cuMemDiscardBatchAsync, ranges.pointers.data(), ranges.sizes.data(), ranges.pointers.size(), flags,
           stream.stream);
  for (auto& owner : ranges.owners) stream.keepUntilIdle(owner);
  return env.Undefined();
}

}  // namespace cudrv
