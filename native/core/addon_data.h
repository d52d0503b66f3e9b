// State that belongs to one JavaScript environment (the main thread or one
// worker_thread): its slot table, waits and the error factory. Driver
// state is process-wide and lives elsewhere.
#pragma once

#include <napi.h>

#include <memory>
#include <unordered_map>
#include <vector>

#include "core/completion_poll.h"
#include "core/slots.h"

namespace cudrv {

class CancelSignal;
class GpuWait;
struct HeldWork;
struct JsThreadChannel;

struct AddonData {
  Napi::FunctionReference errorFactory;
  // Work handed back to this environment's thread (native/core/js_thread.cc).
  std::shared_ptr<JsThreadChannel> jsThread;
  int pendingDeliveries = 0;
  // Polling for GPU completions from the event loop (native/core/completion_poll.h).
  CompletionPoll completionPoll;
  // Waits lib/ may abandon (an abort or a timeout), by number (native/core/waiter.h).
  std::unordered_map<double, std::shared_ptr<GpuWait>> abandonableWaits;
  double lastWaitId = 0;
  // Fired when this environment is torn down, ending its wait threads (core/wait_thread.h).
  std::shared_ptr<CancelSignal> teardown;
  // lib/'s cancel signals for single waits (core/wait_thread.h armWaitCancel): the
  // one the next wait takes, and each by number while its wait holds it.
  std::shared_ptr<CancelSignal> armedCancel;
  std::unordered_map<double, std::weak_ptr<CancelSignal>> waitCancels;
  double lastWaitCancel = 0;
  bool mainThreadMarked = false;
  // Handles by number (native/core/slots.h), and what frees the slots nobody adopted.
  std::unique_ptr<SlotTable> slots;
  Napi::FunctionReference setImmediate;
  Napi::FunctionReference sweepUnowned;
  // GPU work holding JavaScript values that other threads watch: the teardown waits for it (core/teardown_wait.h).
  std::vector<std::weak_ptr<HeldWork>> heldWork;
  // What HostBuffer registration takes buffers with (native/memory/host_buffer.cc).
  Napi::FunctionReference structuredClone;
  Napi::FunctionReference arrayBufferResizable;
};

inline AddonData& addonData(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }

}  // namespace cudrv
