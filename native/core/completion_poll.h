// Awaiting the GPU without the wake-up. A wait thread hands a completion to
// the JavaScript thread through the threadsafe function, which must wake that
// thread from the event loop's sleep: the larger part of what an awaited wait
// costs above a blocking one. While waits that the driver spins on are
// pending, the event loop polls for their completions instead: an immediate
// that queues itself again (timers and I/O still run between its turns), for
// at most the polling window since a polled wait last began or completed.
// Then the loop sleeps, and completions wake it as before.
#pragma once

#include <napi.h>

#include <chrono>

namespace cudrv {

struct CompletionPoll {
  std::chrono::nanoseconds window{std::chrono::microseconds(1000)};  // 0: never poll
  int waits = 0;           // polled waits pending
  bool scheduled = false;  // the next poll is queued
  std::chrono::steady_clock::time_point lastProgress;
  Napi::FunctionReference poll;  // the immediate's function, made on first use
};

// A wait the driver spins on began (JavaScript thread). True when its
// completion is polled for (the window is not 0): it then counts until
// endPolledWait.
bool beginPolledWait(Napi::Env env);
void endPolledWait(Napi::Env env);

}  // namespace cudrv
