#include "stream.h"

#include <atomic>
#include <cstring>
#include <vector>

#include "core/args.h"
#include "event.h"
#include "graph/graph.h"
#include "core/hot_call.h"
#include "generated/entries.h"
#include "memory/memory.h"
#include "core/reaper.h"
#include "core/release.h"
#include "core/teardown_wait.h"

namespace cudrv {

namespace {

// What work in flight on a stream still uses, once the stream has handed it
// off: released when the last holder lets go, if the work is over by then (a
// failed wait may leave it running: then everything is leaked). Off the
// environment's thread (the reaper, after the environment is gone) what holds
// a JavaScript value is leaked instead.
struct HandedOff : HeldWork {
  std::unordered_map<const void*, StreamBox::Pending> resources;
  JsThreadHome home;
  std::atomic<bool> workOver{false};
  std::atomic<bool> waited{false};  // the thread watching the work has seen it end, or fail to

  HandedOff(std::unordered_map<const void*, StreamBox::Pending> kept, JsThreadHome owner)
      : resources(std::move(kept)), home(std::move(owner)) {}
  HandedOff(const HandedOff&) = delete;
  HandedOff& operator=(const HandedOff&) = delete;
  bool holdsJavaScript() const {
    for (const auto& [key, entry] : resources) {
      if (entry.resource && entry.holdsJavaScript(entry.resource.get())) return true;
    }
    return false;
  }
  bool settled() const override { return waited.load(std::memory_order_acquire); }
  // Nothing else touches resources until the teardown is over: the watching
  // thread only sets the flags, and its functions are let go after.
  void releaseHere() override {
    if (!workOver.load(std::memory_order_acquire)) return;
    auto released = std::move(resources);
    resources.clear();
  }
  ~HandedOff() override {
    if (!workOver.load(std::memory_order_acquire)) {
      new auto(std::move(resources));
      return;
    }
    if (home.onItsThread()) return;
    for (auto& [key, entry] : resources) {
      if (entry.resource && entry.holdsJavaScript(entry.resource.get())) new auto(std::move(entry.resource));
    }
  }
};

// Whether the work behind marker is over, asked as the environment is torn
// down on its thread: work that holds JavaScript values is waited for
// (core/teardown_wait.h), other work is only asked.
bool workOverAtTeardown(CUevent marker, const HandedOff& held) {
  CUresult result = CU_CALL(cuEventQuery, marker);
  if (result == CUDA_ERROR_NOT_READY && held.holdsJavaScript()) {
    waitDuringTeardown([&result, marker] { return (result = CU_CALL(cuEventQuery, marker)) != CUDA_ERROR_NOT_READY; });
  }
  return result == CUDA_SUCCESS;
}

}  // namespace

StreamBox::~StreamBox() {
  if (processExiting()) {
    // Releases are skipped from here on; the driver reclaims everything. What
    // work in flight uses is kept, not freed: the driver's threads may still
    // reach it (a host node calls its callback) until the process is gone.
    if (pendingCount() != 0) new auto(std::move(pending));
    return;
  }
  endAbandonedCapture();
  if (pendingCount() != 0) handOffPending();
  if (owned && stream) {
    CUstream s = stream;
    releaseWhenSafe([s] { CU_CALL(cuStreamDestroy, s); });
  }
}

bool StreamBox::isCapturing() const {
  if (!anyCaptureActive()) return false;
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return CU_CALL(cuStreamIsCapturing, stream, &status) != CUDA_SUCCESS || status != CU_STREAM_CAPTURE_STATUS_NONE;
}

void StreamBox::endAbandonedCapture() {
  if (!capturing) return;
  CUgraph graph = nullptr;
  CU_CALL(cuStreamEndCapture, stream, &graph);
  if (graph) CU_CALL(cuGraphDestroy, graph);
  capturing = false;
  if (captureGraph && captureGraph->capturing) captureGraph->retireCapture();
  captureGraph.reset();
  ResourceBag used = takeCaptured(captureId);  // no graph runs the captured work: released below
  captureFinished();
}

void Stream::disposing(StreamBox& box) {
  box.waits.abandonAll(kName);
  if (!processExiting()) box.endAbandonedCapture();
  collecting(box);
}

void Stream::collecting(StreamBox& box) {
  box.disposed = true;
  if (!processExiting() && box.pendingCount() != 0) box.handOffPending();
}

// The stream is going away with work in flight: record an event behind that
// work, and let go of what it uses only once the event has completed: seen by
// a wait thread, which hands the release back to the JavaScript thread, or,
// when that thread is not this one or is being torn down (a worker ending), by
// the reaper (unless it has completed already, or, holding JavaScript values,
// completes within the teardown's wait: workOverAtTeardown). If anything fails, the
// resources are leaked rather than freed under the GPU (a HandedOff whose work
// is not known to be over).
void StreamBox::handOffPending() {
  auto held = std::make_shared<HandedOff>(std::move(pending), home);
  pending.clear();
  ++epoch;  // what `recent` names went with the rest
  CUevent marker = nullptr;
  if (setCurrent(context->context) != CUDA_SUCCESS ||
      CU_CALL(cuEventCreate, &marker, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    return;
  }
  if (CU_CALL(cuEventRecord, marker, stream) != CUDA_SUCCESS) {
    CU_CALL(cuEventDestroy, marker);
    return;
  }
  if (home.isCurrent()) {
    // The process need not stay for these releases: at exit they are skipped anyway.
    OffThreadOptions handOff;
    handOff.reapable = true;
    handOff.keepAlive = false;
    try {
      runOffThread(
          Napi::Env(env),
          [marker, held] {
            held->workOver = CU_CALL(cuEventSynchronize, marker) == CUDA_SUCCESS;
            held->waited.store(true, std::memory_order_release);
            CU_CALL(cuEventDestroy, marker);
          },
          [held](Napi::Env) {}, handOff);  // held is let go with the functions, on this thread
      if (held->holdsJavaScript()) waitForAtTeardown(Napi::Env(env), held);
      return;
    } catch (const Napi::Error&) {
      // No channel back to this thread could be made: the reaper watches instead.
    }
  } else if (home.onItsThread() && workOverAtTeardown(marker, *held)) {
    // The environment is being torn down, and the work is over: released here.
    CU_CALL(cuEventDestroy, marker);
    held->workOver = true;
    return;
  }
  reapAfter(home, context->context, marker, [held](bool workOver) { held->workOver = workOver; });
}

// While the stream is part of an active capture (begun on it or on a stream
// it joined), what the captured work uses belongs to the capture's graph.
bool StreamBox::keptForCapture(const std::shared_ptr<void>& resource) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  if (CU_CALL(cuStreamGetCaptureInfo, stream, &status, &id, nullptr, nullptr, nullptr, nullptr) != CUDA_SUCCESS ||
      status != CU_STREAM_CAPTURE_STATUS_ACTIVE) {
    return false;
  }
  keepForCapture(id, resource);
  return true;
}

StreamRef newStreamBox(Napi::Env env, ContextRef context) {
  auto box = std::make_shared<StreamBox>();
  box->context = std::move(context);
  box->env = env;
  box->home = JsThreadHome::of(env);
  return box;
}

namespace {

StreamRef newStreamBox(Napi::Env env, int ordinal) { return newStreamBox(env, primaryContext(env, ordinal)); }

// The memory-operation target: a 4- or 8-byte word of device-reachable memory.
Span wordOf(Napi::Env env, Napi::Value target, Napi::Value offset, size_t width) {
  Span span = deviceSpanOf(target, "target", u64Arg(offset, "offset"), width);
  if (span.device == 0) throwTypeError(env, "target must be memory the device can reach (device, managed or mapped host memory)");
  if (span.device % width != 0) {
    throwRangeError(env, "target address must be " + std::to_string(width) + "-byte aligned");
  }
  return span;
}

}  // namespace

// createStream(ordinal, flags, priority | undefined, context | undefined)
napi_value CreateStream(Napi::Env env, SlotTable& table, const HotArgs<4>& args) {
  int ordinal = intArg(Napi::Value(env, args[0]), "ordinal");
  unsigned int flags = uintArg(Napi::Value(env, args[1]), "flags");
  const Napi::Value priorityArg(env, args[2]);
  const bool withPriority = !priorityArg.IsUndefined();
  const int priority = withPriority ? intArg(priorityArg, "priority") : 0;
  const Napi::Value contextArg(env, args[3]);
  StreamRef box = contextArg.IsUndefined() ? newStreamBox(env, ordinal)
                                           : newStreamBox(env, Context::fromSlot(table, contextArg, "context"));
  makeCurrent(env, box->context);
  if (!withPriority) {
    CU_CHECK(env, cuStreamCreate, &box->stream, flags);
  } else {
    CU_CHECK_DETAIL(env, "priority=" + std::to_string(priority), cuStreamCreateWithPriority, &box->stream, flags,
                    priority);
  }
  return Stream::newSlot(env, std::move(box));
}

// specialStream(ordinal, perThread): the legacy or the calling thread's
// per-thread default stream of the device's primary context. Nobody owns it.
Napi::Value SpecialStream(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  StreamRef box = newStreamBox(env, intArg(info[0], "ordinal"));
  box->stream = boolArg(info[1], "perThread") ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
  box->owned = false;
  return Stream::newSlot(env, std::move(box));
}

Napi::Value StreamHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), Stream::fromSlot(info[0], "stream")->stream);
}

Napi::Value StreamCapturing(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), Stream::fromSlot(info[0], "stream")->isCapturing());
}

Napi::Value StreamOrdinal(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), Stream::fromSlot(info[0], "stream")->context->ordinal);
}

// True when all work queued so far has completed.
napi_value StreamQuery(Napi::Env env, SlotTable& table, const HotArgs<1>& args) {
  StreamBox& box = *Stream::fromSlot(table, Napi::Value(env, args[0]), "stream");
  box.makeContextCurrent(env);
  uint64_t covered = box.markWait();
  CUresult r = CU_CALL(cuStreamQuery, box.stream);
  if (r == CUDA_ERROR_NOT_READY) return Napi::Boolean::New(env, false);
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuStreamQuery);
  box.completedThrough(covered);
  return Napi::Boolean::New(env, true);
}

// Blocks the JavaScript thread until the stream's work is done.
napi_value StreamSynchronize(Napi::Env env, SlotTable& table, const HotArgs<1>& args) {
  StreamBox& box = *Stream::fromSlot(table, Napi::Value(env, args[0]), "stream");
  box.makeContextCurrent(env);
  uint64_t covered = box.markWait();
  BlockingWait blocking(env, "Stream.synchronizeSync()");
  CUresult r = CU_CALL(cuStreamSynchronize, box.stream);
  blocking.done();
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuStreamSynchronize);
  box.completedThrough(covered);
  return nullptr;
}

namespace {

// A promise for the completion of the work queued so far. The wait thread holds
// the stream until its driver call returns, even if the promise is settled
// earlier (abandoned, or the stream disposed): the stream must not be destroyed
// under a call that waits on it. Streams nobody owns (legacy, per-thread) are
// waited through an event recorded here: the per-thread stream is this
// thread's, and wait threads never touch the legacy stream.
std::shared_ptr<GpuWait> awaitQueued(Napi::Env env, Napi::Value slot) {
  StreamRef box = Stream::fromSlot(slot, "stream");
  uint64_t covered = box->markWait();
  auto onSuccess = [box, covered] { box->completedThrough(covered); };
  std::shared_ptr<GpuWait> wait;
  if (box->owned) {
    wait = GpuWait::start(env, [box] { return CU_CALL(cuStreamSynchronize, box->stream); }, Fn::cuStreamSynchronize,
                          onSuccess, true);
  } else {
    makeCurrent(env, box->context);
    CUevent marker = nullptr;
    CU_CHECK(env, cuEventCreate, &marker, CU_EVENT_DISABLE_TIMING);
    CUresult recorded = CU_CALL(cuEventRecord, marker, box->stream);
    if (recorded != CUDA_SUCCESS) {
      CU_CALL(cuEventDestroy, marker);
      throwCudaError(env, recorded, Fn::cuEventRecord);
    }
    wait = GpuWait::start(env,
                          [marker] {
                            CUresult r = CU_CALL(cuEventSynchronize, marker);
                            CU_CALL(cuEventDestroy, marker);
                            return r;
                          },
                          Fn::cuEventSynchronize, onSuccess, true);
  }
  box->waits.add(env, wait);
  return wait;
}

// One 32- or 64-bit stream memory operation on a word of device-reachable memory.
Napi::Value memoryOperation(const Napi::CallbackInfo& info, bool wait) {
  Napi::Env env = info.Env();
  bool wide = boolArg(info[5], "is64");
  Span word = wordOf(env, info[1], info[2], wide ? 8 : 4);
  unsigned int flags = uintArg(info[4], "flags");
  uint64_t value = wide ? u64Arg(info[3], "value") : uintArg(info[3], "value");
  StreamBox& box = streamArg(info[0]);
  if (wait && wide) CU_CHECK(env, cuStreamWaitValue64, box.stream, word.device, value, flags);
  else if (wait) CU_CHECK(env, cuStreamWaitValue32, box.stream, word.device, static_cast<cuuint32_t>(value), flags);
  else if (wide) CU_CHECK(env, cuStreamWriteValue64, box.stream, word.device, value, flags);
  else CU_CHECK(env, cuStreamWriteValue32, box.stream, word.device, static_cast<cuuint32_t>(value), flags);
  box.keepUntilIdle(word.owner);
  return env.Undefined();
}

}  // namespace

Napi::Value StreamSynchronizeAsync(const Napi::CallbackInfo& info) { return awaitQueued(info.Env(), info[0])->promise(); }

// The same as { promise, id }, for lib/ to abandon (an abort, a timeout).
Napi::Value StreamSynchronizeAbandonable(const Napi::CallbackInfo& info) {
  return awaitQueued(info.Env(), info[0])->abandonable(info.Env());
}

// streamWaitEvent(stream, event, flags): later work on the stream waits for the event.
Napi::Value StreamWaitEvent(const Napi::CallbackInfo& info) {
  unsigned int flags = uintArg(info[2], "flags");
  const SlotTable& table = slotTable(info.Env());
  StreamBox& box = *Stream::fromSlot(table, info[0], "stream");
  const EventBox& event = *Event::fromSlot(table, info[1], "event");
  box.makeContextCurrent(info.Env());
  CU_CHECK(info.Env(), cuStreamWaitEvent, box.stream, event.event, flags);
  return info.Env().Undefined();
}

Napi::Value StreamFlags(const Napi::CallbackInfo& info) {
  unsigned int flags = 0;
  CU_CHECK(info.Env(), cuStreamGetFlags, streamArg(info[0]).stream, &flags);
  return Napi::Number::New(info.Env(), flags);
}

Napi::Value StreamPriority(const Napi::CallbackInfo& info) {
  int priority = 0;
  CU_CHECK(info.Env(), cuStreamGetPriority, streamArg(info[0]).stream, &priority);
  return Napi::Number::New(info.Env(), priority);
}

Napi::Value StreamId(const Napi::CallbackInfo& info) {
  unsigned long long id = 0;
  CU_CHECK(info.Env(), cuStreamGetId, streamArg(info[0]).stream, &id);
  return bigint(info.Env(), id);
}

// streamContextHandle(stream, viaV2): the stream's context as the driver reports it, through
// cuStreamGetCtx or (viaV2) cuStreamGetCtx_v2, which also knows green contexts.
Napi::Value StreamContextHandle(const Napi::CallbackInfo& info) {
  const bool viaV2 = info.Length() > 1 && boolArg(info[1], "viaV2");
  StreamBox& box = *Stream::fromSlot(info[0], "stream");
  makeCurrent(info.Env(), box.context);
  CUcontext ctx = nullptr;
  if (viaV2) {
    CUgreenCtx green = nullptr;
    CU_CHECK(info.Env(), cuStreamGetCtx_v2, box.stream, &ctx, &green);
  } else {
    CU_CHECK(info.Env(), cuStreamGetCtx, box.stream, &ctx);
  }
  return handleValue(info.Env(), ctx);
}

Napi::Value StreamDevice(const Napi::CallbackInfo& info) {
  StreamBox& box = *Stream::fromSlot(info[0], "stream");
  makeCurrent(info.Env(), box.context);
  CUdevice device = 0;
  CU_CHECK(info.Env(), cuStreamGetDevice, box.stream, &device);
  return Napi::Number::New(info.Env(), device);
}

Napi::Value StreamGreenContextHandle(const Napi::CallbackInfo& info) {
  StreamBox& box = *Stream::fromSlot(info[0], "stream");
  makeCurrent(info.Env(), box.context);
  CUgreenCtx green = nullptr;
  CU_CHECK(info.Env(), cuStreamGetGreenCtx, box.stream, &green);
  return handleValue(info.Env(), green);
}

// streamGetAttribute(stream, id) -> the CUstreamAttrValue union's bytes; lib/ decodes them.
Napi::Value StreamGetAttribute(const Napi::CallbackInfo& info) {
  unsigned int id = uintArg(info[1], "attribute");
  StreamBox& box = streamArg(info[0]);
  CUstreamAttrValue value;
  std::memset(&value, 0, sizeof(value));
  CU_CHECK_DETAIL(info.Env(), "attribute=" + std::to_string(id), cuStreamGetAttribute, box.stream,
                  static_cast<CUstreamAttrID>(id), &value);
  return bytesValue(info.Env(), value);
}

// streamSetAttribute(stream, id, bytes): bytes is the encoded CUstreamAttrValue union.
Napi::Value StreamSetAttribute(const Napi::CallbackInfo& info) {
  unsigned int id = uintArg(info[1], "attribute");
  auto value = bytesArg<CUstreamAttrValue>(info[2], "value");
  StreamBox& box = streamArg(info[0]);
  CU_CHECK_DETAIL(info.Env(), "attribute=" + std::to_string(id), cuStreamSetAttribute, box.stream,
                  static_cast<CUstreamAttrID>(id), &value);
  return info.Env().Undefined();
}

Napi::Value StreamCopyAttributesFrom(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  StreamBox& box = *Stream::fromSlot(table, info[0], "stream");
  const StreamBox& source = *Stream::fromSlot(table, info[1], "source");
  box.makeContextCurrent(info.Env());
  CU_CHECK(info.Env(), cuStreamCopyAttributes, box.stream, source.stream);
  return info.Env().Undefined();
}

// streamAttachMemory(stream, managedBuffer, flags): cuStreamAttachMemAsync for the whole allocation.
Napi::Value StreamAttachMemory(const Napi::CallbackInfo& info) {
  MemoryRef memory = memoryOf(info[1]);
  if (!memory || memory->kind != MemoryKind::Unified) {
    throwTypeError(info.Env(), "buffer must be managed memory (DeviceBuffer.allocManaged)");
  }
  unsigned int flags = uintArg(info[2], "flags");
  StreamBox& box = streamArg(info[0]);
  CU_CHECK(info.Env(), cuStreamAttachMemAsync, box.stream, memory->device, 0, flags);
  box.keepUntilIdle(memory);
  return info.Env().Undefined();
}

// streamWaitValue / streamWriteValue(stream, target, offset, value, flags, is64).
Napi::Value StreamWaitValue(const Napi::CallbackInfo& info) { return memoryOperation(info, true); }
Napi::Value StreamWriteValue(const Napi::CallbackInfo& info) { return memoryOperation(info, false); }

// streamBatchMemoryOps(stream, ops, flags): ops is an array of [operation, target, offset, value, flags]
// (target/offset/value unused for barriers and remote-write flushes).
Napi::Value StreamBatchMemoryOps(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const BatchValues ops(arrayArg(info[1], "ops", 1, 256, "must hold 1 to 256 operations"), 5,
                        "each operation must be an array");
  const unsigned int batchFlags = uintArg(info[2], "flags");
  std::vector<CUstreamBatchMemOpParams> params(ops.size());
  std::vector<MemoryRef> owners;
  for (uint32_t i = 0; i < ops.size(); ++i) {
    CUstreamBatchMemOpParams& p = params[i];
    std::memset(&p, 0, sizeof(p));
    p.operation = static_cast<CUstreamBatchMemOpType>(uintArg(ops(i, 0), "operation"));
    unsigned int flags = uintArg(ops(i, 4), "flags");
    switch (p.operation) {
      case CU_STREAM_MEM_OP_WAIT_VALUE_32:
      case CU_STREAM_MEM_OP_WRITE_VALUE_32:
      case CU_STREAM_MEM_OP_WAIT_VALUE_64:
      case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
        bool wide = p.operation == CU_STREAM_MEM_OP_WAIT_VALUE_64 || p.operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
        Span word = wordOf(env, ops(i, 1), ops(i, 2), wide ? 8 : 4);
        // waitValue and writeValue share their layout.
        p.waitValue.address = word.device;
        if (wide) p.waitValue.value64 = u64Arg(ops(i, 3), "value");
        else p.waitValue.value = uintArg(ops(i, 3), "value");
        p.waitValue.flags = flags;
        owners.push_back(word.owner);
        break;
      }
      case CU_STREAM_MEM_OP_BARRIER:
        p.memoryBarrier.flags = flags;
        break;
      case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
        p.flushRemoteWrites.flags = flags;
        break;
      default:
        throwRangeError(env, "operation " + std::to_string(p.operation) + " is not a stream memory operation");
    }
  }
  StreamBox& box = streamArg(info[0]);
  CU_CHECK(env, cuStreamBatchMemOp, box.stream, static_cast<unsigned int>(params.size()), params.data(), batchFlags);
  for (auto& owner : owners) box.keepUntilIdle(owner);
  return env.Undefined();
}

// How many resources the stream keeps alive for work in flight (for tests and diagnostics).
Napi::Value StreamPendingResources(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), static_cast<double>(Stream::fromSlot(info[0], "stream")->pendingCount()));
}

}  // namespace cudrv
