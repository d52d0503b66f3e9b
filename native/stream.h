// Streams. A StreamBox owns a CUstream (or names the legacy or per-thread
// default stream, which nobody owns) and the context it lives in. It also keeps
// alive the resources that work queued on it still uses (pinned buffers of an
// async copy, a module whose kernel was launched, ...) until the library knows
// the stream is idle: after a synchronize, a query that finds it idle, or an
// awaited completion.
#pragma once

#include <napi.h>

#include <memory>
#include <type_traits>
#include <unordered_map>

#include "core/non_copyable.h"
#include "context.h"
#include "core/handle.h"
#include "core/js_thread.h"
#include "core/recent_keys.h"
#include "core/release.h"
#include "core/waiter.h"

namespace cudrv {

struct MemoryBox;
struct KernelBox;
struct PreparedLaunchBox;
struct GraphExecBox;
struct GraphBox;

// Whether a resource that work in flight uses holds a JavaScript value (a
// registered buffer, a view, a graph's host callback), which only its
// environment's thread may let go of. Asked when the resource is let go on
// another thread, after its environment is gone (native/core/reaper.h): one that
// holds a JavaScript value is leaked instead. Every kind a stream keeps says.
bool holdsJavaScript(const MemoryBox& memory);
bool holdsJavaScript(const KernelBox& kernel);
bool holdsJavaScript(const PreparedLaunchBox& launch);
bool holdsJavaScript(const GraphExecBox& exec);

struct StreamBox : NonCopyable {
  CUstream stream = nullptr;
  ContextRef context;
  bool owned = true;      // false for CU_STREAM_LEGACY / CU_STREAM_PER_THREAD
  bool capturing = false; // a capture the library began is open on it
  uint64_t captureId = 0; // ... and its id
  // ... and the graph it builds, as JavaScript has seen it: the graph captured
  // into, or the box of a new capture graph (GraphBox::capturing), made when
  // first asked for (native/graph/capture.cc).
  std::shared_ptr<GraphBox> captureGraph;
  // Its handle was disposed: what still holds the box (a prepared launch)
  // queues nothing more on it, as nothing would let go of what that work uses.
  bool disposed = false;
  napi_env env = nullptr; // the environment whose thread uses it
  JsThreadHome home;      // ... as other threads may ask after it
  WaitsInFlight waits;    // promises for its work, rejected by dispose()

  StreamBox() = default;
  ~StreamBox();

  // The legacy and per-thread streams name a stream of whichever context is
  // current: before the driver is given one, its context is made current. A
  // stream the library created carries its context, and needs no switch.
  void makeContextCurrent(Napi::Env env) const {
    if (!owned) makeCurrent(env, context);
  }

  // Whether work queued on the stream now goes into a graph: a capture is open
  // on it, begun through the library or joined by waiting on a capturing
  // stream's event. The driver is asked only while some capture is open; an
  // answer it cannot give counts as capturing.
  bool isCapturing() const;

  // Ends a capture begun on this stream and never ended (its stream disposed or
  // collected): the partial graph is destroyed once, and what its work would
  // have used is let go. Until then every release in the process is deferred.
  void endAbandonedCapture();

  // Keeps resource alive until work queued from now on is known to be done.
  // JS thread only; a resource already kept is only re-stamped. While the
  // stream is capturing, the work goes into a graph instead, and the resource
  // with it (native/graph/graph.h). Taken by reference and copied only when
  // new: a launch re-stamps the same few resources, and each shared_ptr copy
  // and release is an atomic operation (a third of a launch's native time).
  template <typename T>
  void keepUntilIdle(const std::shared_ptr<T>& resource) {
    keepUntilIdle(resource.get(), [&resource] { return resource; });
  }
  // The same by address: own() makes the reference, only when it is new. A
  // resource stamped already in this epoch is found in `recent`, without a
  // lookup in pending.
  template <typename Own>
  void keepUntilIdle(const void* key, Own own) {
    if (!key) return;
    if (anyCaptureActive() && keptForCapture(own())) return;
    if (recent.has(key, epoch)) return;
    Pending& entry = pending[key];
    entry.epoch = epoch;
    if (!entry.resource) {
      using Kept = typename std::decay_t<decltype(own())>::element_type;
      entry.resource = own();
      entry.holdsJavaScript = [](const void* resource) { return cudrv::holdsJavaScript(*static_cast<const Kept*>(resource)); };
    }
    recent.note(key, epoch);
  }
  // Starts a wait: work queued before this point is what the wait covers.
  uint64_t markWait() { return epoch++; }
  // Work queued up to `covered` (a markWait() result) has completed: what it
  // used is let go. The entry stays, empty, through one more wait, so that a
  // loop of launch and wait stamps the same resources again without an
  // allocation (a map node per resource per launch); an entry still empty at
  // the next wait goes.
  void completedThrough(uint64_t covered) {
    for (auto it = pending.begin(); it != pending.end();) {
      Pending& entry = it->second;
      if (entry.epoch > covered) {
        ++it;
      } else if (entry.resource) {
        entry.resource.reset();
        ++it;
      } else {
        it = pending.erase(it);
      }
    }
  }
  // How many resources work in flight keeps alive (empty entries aside).
  size_t pendingCount() const {
    size_t n = 0;
    for (const auto& [key, entry] : pending) n += entry.resource != nullptr;
    return n;
  }

  struct Pending {
    std::shared_ptr<void> resource;
    uint64_t epoch = 0;
    bool (*holdsJavaScript)(const void* resource) = nullptr;  // holdsJavaScript above, for its kind
  };
  std::unordered_map<const void*, Pending> pending;
  uint64_t epoch = 0;
  // Resources stamped lately, with their epoch: one noted with the current
  // epoch is in pending with that stamp (pending only loses entries of
  // earlier epochs: a wait takes them, and a hand-off moves to a new epoch).
  RecentKeys recent;

  // Releases what pending holds once the work queued so far is done, and
  // empties pending now: a wait thread watches an event recorded behind the
  // work, or the reaper (native/core/reaper.h) when the environment's thread is not
  // this one or is being torn down.
  void handOffPending();

 private:
  bool keptForCapture(const std::shared_ptr<void>& resource);
};
using StreamRef = std::shared_ptr<StreamBox>;

class Stream : public Handle<Stream, StreamBox> {
 public:
  static constexpr const char* kName = "Stream";
  // dispose() ends a capture left open, rejects the promises for its work
  // (their waits go on), and hands what queued work still uses to a wait for
  // that work: other holders of the box (buffers freed on this stream, a
  // prepared launch kept by its own launches, releases deferred by the capture,
  // a wait in flight) would otherwise keep both, and the stream, for good.
  static void disposing(StreamBox& box);
  // A stream collected undisposed hands its queued work's resources off the
  // same way (a buffer freed on it holds the box, and the box the buffer);
  // its promises stay pending until their waits end.
  static void collecting(StreamBox& box);
  // The legacy and per-thread streams belong to the driver: lib's objects for
  // them ignore dispose(), and so does their slot, asked by any path.
  static bool permanent(const StreamBox& box) { return !box.owned; }
};

// A box for a stream of context, to be given its CUstream, for the calling
// environment's thread.
StreamRef newStreamBox(Napi::Env env, ContextRef context);

// The stream argument of an async operation: a live Stream's slot number. Its
// context is made current when it is a special stream.
inline StreamBox& streamArg(Napi::Value value, const char* param = "stream") {
  StreamBox& box = *Stream::fromSlot(value, param);
  box.makeContextCurrent(value.Env());
  return box;
}

}  // namespace cudrv
