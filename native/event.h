// Events: markers recorded into streams, for ordering, waiting and timing.
#pragma once

#include <napi.h>

#include "context.h"
#include "handle.h"

namespace cudrv {

struct StreamBox;

struct EventBox {
  CUevent event = nullptr;
  ContextRef context;
  unsigned int flags = 0;
  // The stream of the last record (outside captures), and the stream's wait
  // mark then: once the event has completed, what that stream keeps for work
  // queued before the record can go (streams keep resources until seen idle).
  std::weak_ptr<StreamBox> recordedOn;
  uint64_t recordedThrough = 0;

  EventBox() = default;
  EventBox(const EventBox&) = delete;
  EventBox& operator=(const EventBox&) = delete;
  ~EventBox();
};
using EventRef = std::shared_ptr<EventBox>;

class Event : public Handle<Event, EventBox> {
 public:
  static constexpr const char* kName = "Event";
  using Base::Base;
  static void init(Napi::Env env, Napi::Object exports);

 private:
  Napi::Value HandleValue(const Napi::CallbackInfo& info);
  Napi::Value Flags(const Napi::CallbackInfo& info);
  Napi::Value Synchronize(const Napi::CallbackInfo& info);
  Napi::Value SynchronizeAsync(const Napi::CallbackInfo& info);
  Napi::Value ElapsedTime(const Napi::CallbackInfo& info);
};

}  // namespace cudrv
