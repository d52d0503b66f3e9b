// An NCCL communicator as a handle. The box holds the ncclComm_t and the
// primary context of its device; it is released when its last holder lets go
// (the slot, a stream whose queued collectives use it, a graph they were
// captured into, a wait): with ncclCommDestroy once finalized, else with
// ncclCommAbort, which needs no other rank (a destroy before finalize would
// wait for them, and a release must never block on another process).
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "context.h"
#include "core/handle.h"
#include "core/non_copyable.h"
#include "nccl/api.h"
#include "nccl/config.h"

namespace cudrv {

struct NcclCommBox : NonCopyable {
  // Held around every use of comm off the JavaScript thread (a wait polling
  // its asynchronous error) and by abort(), which ends comm.
  std::mutex mutex;
  nccl::Comm comm = nullptr;  // null once aborted
  ContextRef context;
  // The configuration it was made with: NCCL may keep pointers to its names.
  NcclConfigRef config;
  int rank = 0;
  int size = 0;
  int ordinal = 0;
  bool finalized = false;
  // The blocking call running on a wait thread ("finalize", "split", "shrink"), or
  // null. JavaScript thread only: abort() is refused meanwhile, since NCCL
  // does not allow ending a blocking communicator under a call that uses it.
  const char* blockingCall = nullptr;

  NcclCommBox() = default;
  ~NcclCommBox();
};
using NcclCommRef = std::shared_ptr<NcclCommBox>;

// A communicator holds no JavaScript value (stream.h asks of every kind it keeps).
bool holdsJavaScript(const NcclCommBox& comm);

class Communicator : public Handle<Communicator, NcclCommBox> {
 public:
  static constexpr const char* kName = "Communicator";
};

}  // namespace cudrv
