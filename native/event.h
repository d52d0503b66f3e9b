// Events: markers recorded into streams, for ordering, waiting and timing.
#pragma once

#include <napi.h>

#include "core/non_copyable.h"
#include "context.h"
#include "core/handle.h"
#include "core/waiter.h"

namespace cudrv {

struct StreamBox;

struct EventBox : NonCopyable {
  CUevent event = nullptr;
  ContextRef context;
  unsigned int flags = 0;
  // The stream of the last record (outside captures), and the stream's wait
  // mark then: once the event has completed, what that stream keeps for work
  // queued before the record can go (streams keep resources until seen idle).
  std::weak_ptr<StreamBox> recordedOn;
  uint64_t recordedThrough = 0;
  // Records made through the library so far: a wait begun before the last of
  // them cannot tell which record its driver call saw complete.
  uint64_t records = 0;
  // Records the library does not make may come (a graph's record node, a
  // captured record that its graph replays; for an interprocess event, the
  // other process): the event completing then says nothing of recordedOn's work.
  bool recordedElsewhere = false;
  WaitsInFlight waits;  // promises for it, rejected by dispose()

  EventBox() = default;
  ~EventBox();
};
using EventRef = std::shared_ptr<EventBox>;

class Event : public Handle<Event, EventBox> {
 public:
  static constexpr const char* kName = "Event";
  // dispose() rejects the promises for the event; their waits go on, holding
  // the event until the driver returns.
  static void disposing(EventBox& box);
};

}  // namespace cudrv
