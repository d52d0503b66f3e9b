// Copies between any two of: device buffers, page-locked host buffers, managed
// memory and JavaScript buffers. Every operand's range is checked against its
// memory before the driver sees a pointer.
#include <cstring>
#include <optional>
#include <vector>

#include "core/args.h"
#include "core/hot_call.h"
#include "core/js_thread.h"
#include "generated/entries.h"
#include "memory/memory.h"
#include "stream.h"

namespace cudrv {

namespace {

// The stream of an async copy, or nullptr for a synchronous one.
StreamBox* optionalStream(Napi::Value value) { return value.IsUndefined() ? nullptr : &streamArg(value); }

// A copy made without a stream has completed when the call returns. The driver
// returns from device-to-device copies, and from pageable host-to-device ones
// once the bytes are staged, before the DMA has run: so wait for the legacy
// stream. Copies into host memory, and from pinned host memory (a HostBuffer:
// it has an owner, JavaScript bytes do not), have completed when the driver returns.
void finishSynchronous(Napi::Env env, StreamBox* stream, const Span& dst, const Span& src) {
  if (stream || dst.kind == MemoryKind::Host || (src.kind == MemoryKind::Host && src.owner)) return;
  waitForLegacyStream(env);
}

// A copy queued on a capturing stream becomes a graph node that reads or
// writes its host memory at every launch of the graph, long after this call.
// The memory of a JavaScript buffer cannot be held that long: nothing stops a
// collection, a detach or a transfer (postMessage, ArrayBuffer.prototype.transfer)
// from freeing it, and a reference to the ArrayBuffer does not keep its memory.
// So such a copy is refused; page-locked memory the library hands out (a
// HostBuffer, its view, a registered buffer) has an owner the graph keeps.
void refuseCapturedJsBytes(Napi::Env env, StreamBox* stream, const Span& dst, const Span& src) {
  if (!stream) return;
  const Span* js = !dst.owner && dst.kind == MemoryKind::Host ? &dst : !src.owner && src.kind == MemoryKind::Host ? &src : nullptr;
  if (!js || !stream->isCapturing()) return;
  throwTypeError(env, std::string(js == &dst ? "dst" : "src") +
                          " is a JavaScript buffer, and the stream is capturing: the graph would reach its memory at every "
                          "launch, after JavaScript may have freed or moved it. Copy through a HostBuffer (HostBuffer.alloc, "
                          "or HostBuffer.register to pin the buffer) instead");
}

// Work that runs later must keep the memory it touches.
void keep(StreamBox* stream, const Span& a, const Span& b) {
  if (!stream) return;
  if (a.owner) stream->keepUntilIdle(a.owner);
  if (b.owner) stream->keepUntilIdle(b.owner);
}

// The context synchronous copies run under: that of a device-side operand, or
// (two JavaScript buffers) device 0's primary one, as the driver needs one current.
void makeCopyContextCurrent(Napi::Env env, StreamBox* stream, const Span& dst, const Span& src) {
  if (stream) makeCurrent(env, stream->context);
  else if (dst.owner && dst.owner->context) makeCurrent(env, dst.owner->context);
  else if (src.owner && src.owner->context) makeCurrent(env, src.owner->context);
  else makeCurrent(env, primaryContext(env, 0));
}

// The driver refuses its peer copies (cuMemcpyPeerAsync, cuMemcpy3DPeerAsync)
// on a capturing stream: there the plain calls, which reach both devices
// through unified addressing, make the copy node instead.
bool peerCallsRefused(StreamBox* stream) { return stream && stream->isCapturing(); }

}  // namespace

namespace {

// The copy of checked spans, bytes of each, synchronous without a stream
// (then done when this returns), queued on stream with one.
void copySpans(Napi::Env env, StreamBox* stream, const Span& dst, const Span& src) {
  const uint64_t bytes = src.bytes;
  refuseOverlap(env, dst, src);
  makeCopyContextCurrent(env, stream, dst, src);
  refuseCapturedJsBytes(env, stream, dst, src);
  std::optional<BlockingWait> blocking;  // a copy without a stream blocks this thread
  if (!stream) blocking.emplace(env, "a synchronous copy");
  CUstream s = stream ? stream->stream : nullptr;
  const bool unified = dst.kind == MemoryKind::Unified || src.kind == MemoryKind::Unified ||
                       (dst.kind == MemoryKind::Host && src.kind == MemoryKind::Host);
  if (unified) {
    if (stream) CU_CHECK(env, cuMemcpyAsync, dst.address(), src.address(), bytes, s);
    else CU_CHECK(env, cuMemcpy, dst.address(), src.address(), bytes);
  } else if (dst.kind == MemoryKind::Device && src.kind == MemoryKind::Host) {
    if (stream) CU_CHECK(env, cuMemcpyHtoDAsync, dst.device, src.host, bytes, s);
    else CU_CHECK(env, cuMemcpyHtoD, dst.device, src.host, bytes);
  } else if (dst.kind == MemoryKind::Host && src.kind == MemoryKind::Device) {
    if (stream) CU_CHECK(env, cuMemcpyDtoHAsync, dst.host, src.device, bytes, s);
    else CU_CHECK(env, cuMemcpyDtoH, dst.host, src.device, bytes);
  } else if (dst.owner->context == src.owner->context) {
    if (stream) CU_CHECK(env, cuMemcpyDtoDAsync, dst.device, src.device, bytes, s);
    else CU_CHECK(env, cuMemcpyDtoD, dst.device, src.device, bytes);
  } else if (peerCallsRefused(stream)) {
    CU_CHECK(env, cuMemcpyAsync, dst.device, src.device, bytes, s);
  } else {
    CUcontext dc = dst.owner->context->context, sc = src.owner->context->context;
    if (stream) CU_CHECK(env, cuMemcpyPeerAsync, dst.device, dc, src.device, sc, bytes, s);
    else CU_CHECK(env, cuMemcpyPeer, dst.device, dc, src.device, sc, bytes);
  }
  finishSynchronous(env, stream, dst, src);
  if (blocking) blocking->done();
  keep(stream, dst, src);
}

}  // namespace

// memcpy(dst, dstOffset, src, srcOffset, bytes | undefined, stream | undefined):
// bytes defaults to the rest of src.
Napi::Value Memcpy(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Two JavaScript buffers: no handle has loaded the driver yet.
  requireDriver(env, Fn::cuMemcpy);
  Span src = spanOf(info[2], "src", u64Arg(info[3], "srcOffset"), info[4].IsUndefined() ? UINT64_MAX : u64Arg(info[4], "bytes"));
  Span dst = spanOf(info[0], "dst", u64Arg(info[1], "dstOffset"), src.bytes);
  StreamBox* stream = optionalStream(info[5]);
  if (src.bytes == 0) return env.Undefined();
  copySpans(env, stream, dst, src);
  return env.Undefined();
}

namespace {

// The operands of a hot copy between two memory handles: dst, dstOffset, src,
// srcOffset and bytes, every one a number (lib/ passes sizes as numbers;
// telling undefined or a bigint apart is a call of its own), bytes < 0
// meaning the rest of src.
struct SlotCopy {
  double n[5];
};

// Reads the operands; reading a number runs no JavaScript.
template <size_t N>
SlotCopy readSlotCopy(Napi::Env env, const HotArgs<N>& args) {
  static const char* const names[] = {"dst", "dstOffset", "src", "srcOffset", "bytes"};
  SlotCopy copy;
  for (int i = 0; i < 5; ++i) {
    if (!numberOf(Napi::Value(env, args[i]), &copy.n[i])) throwTypeError(env, std::string(names[i]) + " must be a number");
  }
  return copy;
}

// The copy, once every argument is read: the handles are looked up here, and
// nothing runs between the lookups and the driver.
void copySlots(Napi::Env env, const SlotTable& table, const SlotCopy& copy, StreamBox* stream) {
  const double* n = copy.n;
  const uint64_t dstOffset = sizeValue(env, n[1], "dstOffset");
  const uint64_t srcOffset = sizeValue(env, n[3], "srcOffset");
  const uint64_t bytes = n[4] < 0 ? UINT64_MAX : sizeValue(env, n[4], "bytes");
  const Span src = deviceSpanOf(env, table, n[2], "src", srcOffset, bytes);
  const Span dst = deviceSpanOf(env, table, n[0], "dst", dstOffset, src.bytes);
  if (src.bytes) copySpans(env, stream, dst, src);
}

}  // namespace

// memcpySync(dst, dstOffset, src, srcOffset, bytes): memcpy without a stream
// between two memory handles (SlotCopy), as a hot call.
napi_value MemcpySync(Napi::Env env, SlotTable& table, const HotArgs<5>& args) {
  copySlots(env, table, readSlotCopy(env, args), nullptr);
  return nullptr;
}

// memcpyAsync(dst, dstOffset, src, srcOffset, bytes, stream): the same queued
// on stream.
napi_value MemcpyAsync(Napi::Env env, SlotTable& table, const HotArgs<6>& args) {
  const SlotCopy copy = readSlotCopy(env, args);
  StreamBox& stream = *Stream::fromSlot(table, Napi::Value(env, args[5]), "stream");
  copySlots(env, table, copy, &stream);
  return nullptr;
}

namespace {

uint64_t field(const ObjectFields& params, const char* name) { return u64Arg(params[name], name); }

// The fields of a pitched copy's parameters, read before any operand is looked up.
ObjectFields copy2DFields(Napi::Object params) {
  return ObjectFields(params, {"dst", "dstOffset", "dstPitch", "src", "srcOffset", "srcPitch", "width", "height"});
}
ObjectFields copy3DFields(Napi::Object params) {
  return ObjectFields(params, {"dst", "dstOffset", "dstPitch", "dstHeight", "src", "srcOffset", "srcPitch", "srcHeight",
                               "width", "height", "depth"});
}

CUmemorytype memoryType(const Span& span) {
  switch (span.kind) {
    case MemoryKind::Device: return CU_MEMORYTYPE_DEVICE;
    case MemoryKind::Unified: return CU_MEMORYTYPE_UNIFIED;
    default: return CU_MEMORYTYPE_HOST;
  }
}

// The bytes a pitched region touches from its first byte: rows of `width`
// bytes, `pitch` apart, `rows` per slice, `depth` slices.
uint64_t pitchedExtent(Napi::Env env, const char* side, uint64_t width, uint64_t height, uint64_t depth,
                       uint64_t pitch, uint64_t rowsPerSlice) {
  if (width == 0 || height == 0 || depth == 0) return 0;
  if (pitch < width) throwRangeError(env, std::string(side) + "Pitch must be at least the width");
  if (rowsPerSlice < height) throwRangeError(env, std::string(side) + "Height must be at least the height");
  // Checked arithmetic: a huge pitch or depth must not wrap around.
  uint64_t rows = 0, bytes = 0;
  if (__builtin_mul_overflow(depth - 1, rowsPerSlice, &rows) || __builtin_add_overflow(rows, height - 1, &rows) ||
      __builtin_mul_overflow(rows, pitch, &bytes) || __builtin_add_overflow(bytes, width, &bytes)) {
    throwRangeError(env, std::string(side) + " region is too large");
  }
  return bytes;
}

template <typename Params>
void setSide(Params& p, bool isDst, const Span& span, uint64_t pitch) {
  if (isDst) {
    p.dstMemoryType = memoryType(span);
    p.dstHost = span.host;
    p.dstDevice = span.device ? span.device : span.address();
    p.dstPitch = pitch;
  } else {
    p.srcMemoryType = memoryType(span);
    p.srcHost = span.host;
    p.srcDevice = span.device ? span.device : span.address();
    p.srcPitch = pitch;
  }
}

}  // namespace

// memcpy2D({dst, dstOffset, dstPitch, src, srcOffset, srcPitch, width, height}, stream | undefined, unaligned)
Napi::Value Memcpy2D(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemcpy2D);
  if (!info[0].IsObject()) throwTypeError(env, "params must be an object");
  const ObjectFields params = copy2DFields(info[0].As<Napi::Object>());
  uint64_t width = field(params, "width"), height = field(params, "height");
  uint64_t dstPitch = field(params, "dstPitch"), srcPitch = field(params, "srcPitch");
  Span dst = spanOf(params["dst"], "dst", field(params, "dstOffset"),
                    pitchedExtent(env, "dst", width, height, 1, dstPitch, height));
  Span src = spanOf(params["src"], "src", field(params, "srcOffset"),
                    pitchedExtent(env, "src", width, height, 1, srcPitch, height));
  StreamBox* stream = optionalStream(info[1]);
  bool unaligned = boolArg(info[2], "unaligned");
  if (width == 0 || height == 0) return env.Undefined();
  refuseOverlap(env, dst, src);
  CUDA_MEMCPY2D p;
  std::memset(&p, 0, sizeof(p));
  setSide(p, true, dst, dstPitch);
  setSide(p, false, src, srcPitch);
  p.WidthInBytes = width;
  p.Height = height;
  makeCopyContextCurrent(env, stream, dst, src);
  refuseCapturedJsBytes(env, stream, dst, src);
  std::optional<BlockingWait> blocking;  // a copy without a stream blocks this thread
  if (!stream) blocking.emplace(env, "a synchronous copy");
  if (stream) CU_CHECK(env, cuMemcpy2DAsync, &p, stream->stream);
  else if (unaligned) CU_CHECK(env, cuMemcpy2DUnaligned, &p);
  else CU_CHECK(env, cuMemcpy2D, &p);
  finishSynchronous(env, stream, dst, src);
  if (blocking) blocking->done();
  keep(stream, dst, src);
  return env.Undefined();
}

namespace {

// The fields CUDA_MEMCPY3D and CUDA_MEMCPY3D_PEER share.
template <typename P>
P copy3DParams(const Span& dst, uint64_t dstPitch, uint64_t dstRows, const Span& src, uint64_t srcPitch,
               uint64_t srcRows, uint64_t width, uint64_t height, uint64_t depth) {
  P p;
  std::memset(&p, 0, sizeof(p));
  setSide(p, true, dst, dstPitch);
  setSide(p, false, src, srcPitch);
  p.dstHeight = dstRows;
  p.srcHeight = srcRows;
  p.WidthInBytes = width;
  p.Height = height;
  p.Depth = depth;
  return p;
}

}  // namespace

// memcpy3D({dst, dstOffset, dstPitch, dstHeight, src, ..., width, height, depth}, stream | undefined).
// Operands of different contexts go through cuMemcpy3DPeer(Async), except on a capturing stream.
Napi::Value Memcpy3D(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemcpy3D);
  if (!info[0].IsObject()) throwTypeError(env, "params must be an object");
  const ObjectFields params = copy3DFields(info[0].As<Napi::Object>());
  uint64_t width = field(params, "width"), height = field(params, "height"), depth = field(params, "depth");
  uint64_t dstPitch = field(params, "dstPitch"), srcPitch = field(params, "srcPitch");
  uint64_t dstRows = field(params, "dstHeight"), srcRows = field(params, "srcHeight");
  Span dst = spanOf(params["dst"], "dst", field(params, "dstOffset"),
                    pitchedExtent(env, "dst", width, height, depth, dstPitch, dstRows));
  Span src = spanOf(params["src"], "src", field(params, "srcOffset"),
                    pitchedExtent(env, "src", width, height, depth, srcPitch, srcRows));
  StreamBox* stream = optionalStream(info[1]);
  if (width == 0 || height == 0 || depth == 0) return env.Undefined();
  refuseOverlap(env, dst, src);
  makeCopyContextCurrent(env, stream, dst, src);
  refuseCapturedJsBytes(env, stream, dst, src);
  std::optional<BlockingWait> blocking;  // a copy without a stream blocks this thread
  if (!stream) blocking.emplace(env, "a synchronous copy");
  const bool peer = dst.owner && src.owner && dst.kind == MemoryKind::Device && src.kind == MemoryKind::Device &&
                    dst.owner->context != src.owner->context && !peerCallsRefused(stream);
  if (peer) {
    auto p = copy3DParams<CUDA_MEMCPY3D_PEER>(dst, dstPitch, dstRows, src, srcPitch, srcRows, width, height, depth);
    p.dstContext = dst.owner->context->context;
    p.srcContext = src.owner->context->context;
    if (stream) CU_CHECK(env, cuMemcpy3DPeerAsync, &p, stream->stream);
    else CU_CHECK(env, cuMemcpy3DPeer, &p);
  } else {
    auto p = copy3DParams<CUDA_MEMCPY3D>(dst, dstPitch, dstRows, src, srcPitch, srcRows, width, height, depth);
    if (stream) CU_CHECK(env, cuMemcpy3DAsync, &p, stream->stream);
    else CU_CHECK(env, cuMemcpy3D, &p);
  }
  finishSynchronous(env, stream, dst, src);
  if (blocking) blocking->done();
  keep(stream, dst, src);
  return env.Undefined();
}

namespace {

// The copies of a batched copy: an array of 1 to 65536 entries.
Napi::Array batchCopies(Napi::Value value) { return arrayArg(value, "copies", 1, 65536, "must hold 1 to 65536 entries"); }

}  // namespace

// memcpyBatch([[dst, dstOffset, src, srcOffset, bytes], ...], stream): one
// cuMemcpyBatchAsync, sources read in stream order. Library memory only.
Napi::Value MemcpyBatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const BatchValues copies(batchCopies(info[0]), 5, "each copy must be an array");
  StreamBox& stream = streamArg(info[1]);
  size_t count = copies.size();
  std::vector<CUdeviceptr> dsts(count), srcs(count);
  std::vector<size_t> sizes(count);
  std::vector<Span> spans;
  spans.reserve(2 * count);
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t bytes = u64Arg(copies(i, 4), "bytes");
    if (bytes == 0) throwRangeError(env, "a batched copy must move at least one byte");
    spans.push_back(deviceSpanOf(copies(i, 0), "dst", u64Arg(copies(i, 1), "dstOffset"), bytes));
    spans.push_back(deviceSpanOf(copies(i, 2), "src", u64Arg(copies(i, 3), "srcOffset"), bytes));
    refuseOverlap(env, spans[2 * i], spans[2 * i + 1]);
    dsts[i] = spans[2 * i].address();
    srcs[i] = spans[2 * i + 1].address();
    sizes[i] = bytes;
  }
  CUmemcpyAttributes attributes;
  std::memset(&attributes, 0, sizeof(attributes));
  attributes.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t attributeIndex = 0;
  makeCurrent(env, stream.context);
  CU_CHECK(env, cuMemcpyBatchAsync, dsts.data(), srcs.data(), sizes.data(), count, &attributes, &attributeIndex, 1,
           stream.stream);
  for (const Span& span : spans) stream.keepUntilIdle(span.owner);
  return env.Undefined();
}

// memcpy3DBatch([{dst, dstOffset, dstPitch, dstHeight, src, ..., width, height, depth}, ...], stream)
// through cuMemcpy3DBatchAsync. Pitches and extents in bytes. Library memory only.
Napi::Value Memcpy3DBatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array list = batchCopies(info[0]);
  std::vector<ObjectFields> copies;
  copies.reserve(list.Length());
  for (uint32_t i = 0; i < list.Length(); ++i) {
    Napi::Value entry = list[i];
    if (!entry.IsObject()) throwTypeError(env, "each copy must be an object");
    copies.push_back(copy3DFields(entry.As<Napi::Object>()));
  }
  StreamBox& stream = streamArg(info[1]);
  size_t count = copies.size();
  std::vector<CUDA_MEMCPY3D_BATCH_OP> ops(count);
  std::vector<Span> spans;
  spans.reserve(2 * count);
  for (uint32_t i = 0; i < count; ++i) {
    const ObjectFields& params = copies[i];
    uint64_t width = field(params, "width"), height = field(params, "height"), depth = field(params, "depth");
    if (width == 0 || height == 0 || depth == 0) throwRangeError(env, "width, height and depth must not be 0");
    uint64_t dstPitch = field(params, "dstPitch"), srcPitch = field(params, "srcPitch");
    uint64_t dstRows = field(params, "dstHeight"), srcRows = field(params, "srcHeight");
    spans.push_back(deviceSpanOf(params["dst"], "dst", field(params, "dstOffset"),
                                 pitchedExtent(env, "dst", width, height, depth, dstPitch, dstRows)));
    spans.push_back(deviceSpanOf(params["src"], "src", field(params, "srcOffset"),
                                 pitchedExtent(env, "src", width, height, depth, srcPitch, srcRows)));
    const Span& dst = spans[2 * i];
    const Span& src = spans[2 * i + 1];
    refuseOverlap(env, dst, src);
    CUDA_MEMCPY3D_BATCH_OP& op = ops[i];
    std::memset(&op, 0, sizeof(op));
    op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.dst.op.ptr.ptr = dst.address();
    op.dst.op.ptr.rowLength = dstPitch;
    op.dst.op.ptr.layerHeight = dstRows;
    op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
    op.src.op.ptr.ptr = src.address();
    op.src.op.ptr.rowLength = srcPitch;
    op.src.op.ptr.layerHeight = srcRows;
    op.extent = {width, height, depth};
    op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  }
  makeCurrent(env, stream.context);
  CU_CHECK(env, cuMemcpy3DBatchAsync, count, ops.data(), 0, stream.stream);
  for (const Span& span : spans) stream.keepUntilIdle(span.owner);
  return env.Undefined();
}

}  // namespace cudrv
