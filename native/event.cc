#include "event.h"

#include "core/args.h"
#include "generated/entries.h"
#include "core/hot_call.h"
#include "core/release.h"
#include "stream.h"

namespace cudrv {

EventBox::~EventBox() {
  if (!event) return;
  CUevent e = event;
  releaseWhenSafe([e] { CU_CALL(cuEventDestroy, e); });
}

namespace {

// The event has completed: so has the work queued on its stream before the
// record, unless a record the library did not make may have followed.
void recordCompleted(const EventBox& box) {
  if (box.recordedElsewhere || (box.flags & CU_EVENT_INTERPROCESS) != 0) return;
  if (StreamRef stream = box.recordedOn.lock()) stream->completedThrough(box.recordedThrough);
}

}  // namespace

Napi::Value CreateEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int ordinal = intArg(info[0], "ordinal");
  const unsigned int flags = uintArg(info[1], "flags");
  auto box = std::make_shared<EventBox>();
  box->context = info[2].IsUndefined() ? primaryContext(env, ordinal) : Context::fromSlot(info[2], "context");
  box->flags = flags;
  makeCurrent(env, box->context);
  CU_CHECK_DETAIL(env, "flags=" + std::to_string(box->flags), cuEventCreate, &box->event, box->flags);
  return Event::newSlot(env, std::move(box));
}

namespace {

// Where a record was made: once the event completes, so has the work queued on
// stream before it. A record captured into a graph completes nothing on the
// stream until the graph runs. The same stream as last time keeps its weak
// reference (each new one is two atomic operations).
void noteRecord(EventBox& event, const StreamRef& stream) {
  ++event.records;
  if (stream->isCapturing()) {
    event.recordedOn.reset();
    event.recordedElsewhere = true;  // each launch of the capture's graph records it
    return;
  }
  if (event.recordedOn.owner_before(stream) || stream.owner_before(event.recordedOn)) event.recordedOn = stream;
  event.recordedThrough = stream->markWait();
}

}  // namespace

// cuEventRecord. Its own entry, apart from the one with flags: telling a
// missing argument from a number costs a third of the call's own time.
napi_value EventRecord(Napi::Env env, SlotTable& table, const HotArgs<2>& args) {
  EventBox& event = *Event::fromSlot(table, Napi::Value(env, args[0]), "event");
  const StreamRef& stream = Stream::fromSlot(table, Napi::Value(env, args[1]), "stream");
  stream->makeContextCurrent(env);
  CU_CHECK(env, cuEventRecord, event.event, stream->stream);
  noteRecord(event, stream);
  return nullptr;
}

// cuEventRecordWithFlags.
Napi::Value EventRecordWithFlags(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const unsigned int flags = uintArg(info[2], "flags");
  const SlotTable& table = slotTable(env);
  EventBox& event = *Event::fromSlot(table, info[0], "event");
  const StreamRef& stream = Stream::fromSlot(table, info[1], "stream");
  stream->makeContextCurrent(env);
  CU_CHECK(env, cuEventRecordWithFlags, event.event, stream->stream, flags);
  noteRecord(event, stream);
  return env.Undefined();
}

// True when the work before the last record has completed (or nothing was recorded).
napi_value EventQuery(Napi::Env env, SlotTable& table, const HotArgs<1>& args) {
  const EventBox& event = *Event::fromSlot(table, Napi::Value(env, args[0]), "event");
  CUresult r = CU_CALL(cuEventQuery, event.event);
  if (r == CUDA_ERROR_NOT_READY) return Napi::Boolean::New(env, false);
  if (r != CUDA_SUCCESS) throwCudaError(env, r, Fn::cuEventQuery);
  recordCompleted(event);
  return Napi::Boolean::New(env, true);
}

Napi::Value EventHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), Event::fromSlot(info[0], "event")->event);
}

Napi::Value EventFlags(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), Event::fromSlot(info[0], "event")->flags);
}

Napi::Value EventSynchronize(const Napi::CallbackInfo& info) {
  EventBox& box = *Event::fromSlot(info[0], "event");
  BlockingWait blocking(info.Env(), "Event.synchronizeSync()");
  CUresult r = CU_CALL(cuEventSynchronize, box.event);
  blocking.done();
  if (r != CUDA_SUCCESS) throwCudaError(info.Env(), r, Fn::cuEventSynchronize);
  recordCompleted(box);
  return info.Env().Undefined();
}

void Event::disposing(EventBox& box) { box.waits.abandonAll(kName); }

// The wait thread holds the event until its driver call returns, however the
// promise is settled: an event must not be destroyed under a wait on it.
namespace {

std::shared_ptr<GpuWait> awaitRecorded(Napi::Env env, Napi::Value slot) {
  EventRef box = Event::fromSlot(slot, "event");
  // What was recorded when the wait began is what its success covers, unless
  // the event was recorded again before the driver call: it may then have seen
  // the later record complete, which says nothing of the stream of the first.
  auto onSuccess = [box, records = box->records] {
    if (box->records == records) recordCompleted(*box);
  };
  // A blocking-sync event's wait sleeps in the driver: nothing is gained by polling for it.
  const bool spins = (box->flags & CU_EVENT_BLOCKING_SYNC) == 0;
  std::shared_ptr<GpuWait> wait = GpuWait::start(env, [box] { return CU_CALL(cuEventSynchronize, box->event); },
                                                 Fn::cuEventSynchronize, onSuccess, spins);
  box->waits.add(env, wait);
  return wait;
}

}  // namespace

Napi::Value EventSynchronizeAsync(const Napi::CallbackInfo& info) { return awaitRecorded(info.Env(), info[0])->promise(); }

// The same as { promise, id }, for lib/ to abandon (an abort, a timeout).
Napi::Value EventSynchronizeAbandonable(const Napi::CallbackInfo& info) {
  return awaitRecorded(info.Env(), info[0])->abandonable(info.Env());
}

// Milliseconds from start to end. The driver's error stands; lib/ explains the usual causes.
Napi::Value EventElapsedTime(const Napi::CallbackInfo& info) {
  const SlotTable& table = slotTable(info.Env());
  EventBox& box = *Event::fromSlot(table, info[0], "start");
  const EventRef& end = Event::fromSlot(table, info[1], "end");
  float ms = 0;
  CU_CHECK(info.Env(), cuEventElapsedTime, &ms, box.event, end->event);
  return Napi::Number::New(info.Env(), ms);
}

}  // namespace cudrv
