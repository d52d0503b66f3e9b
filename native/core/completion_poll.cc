#include "core/completion_poll.h"

#include "core/addon_data.h"
#include "core/args.h"
#include "core/immediate.h"
#include "core/js_thread.h"

namespace cudrv {

namespace {

// How long one turn of the poll waits for a completion before it lets the
// event loop go round (timers, I/O): a turn of the loop costs more than a
// completion's hand-over, and this bounds what the loop's other work waits.
constexpr std::chrono::microseconds kTurnSpin{20};

void schedule(Napi::Env env, CompletionPoll& poll);

// One turn of the poll: runs the completions that arrived (waiting for one
// for a moment), then queues the next turn, or stops polling when no polled
// wait is pending or the window has passed without progress. A turn that ran
// completions always queues the next: what the completions resume runs once
// this turn returns, and a loop of requests begins its next wait there. While
// polled waits are pending and the window is open, the next turn is queued
// before this one waits: queueing it is a call into JavaScript, which would
// otherwise stand between a completion and the code it resumes. What a
// completion leaves to let go of waits for that next turn, so that the code
// it resumes does not wait for it either.
void pollTurn(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CompletionPoll& poll = addonData(env).completionPoll;
  poll.scheduled = false;
  // Those of the last turn: what they resumed has run.
  releaseSpentDeliveries(env);
  if (poll.waits > 0 && std::chrono::steady_clock::now() - poll.lastProgress < poll.window) schedule(env, poll);
  napi_value thrown = nullptr;
  if (poll.waits > 0) awaitPolledDelivery(env, kTurnSpin);
  const bool ran = runPolledDeliveries(env, &thrown) > 0;
  const auto now = std::chrono::steady_clock::now();
  if (ran) poll.lastProgress = now;
  // A turn queued already decides for itself whether polling goes on.
  if (!poll.scheduled) {
    if (ran || (poll.waits > 0 && now - poll.lastProgress < poll.window)) {
      schedule(env, poll);
    } else {
      stopPolledDeliveries(env);
    }
  }
  if (thrown) throw Napi::Error(env, thrown);
}

void schedule(Napi::Env env, CompletionPoll& poll) {
  if (poll.poll.IsEmpty()) poll.poll = Napi::Persistent(Napi::Function::New(env, pollTurn, "pollGpuCompletions"));
  poll.scheduled = queueImmediate(env, poll.poll);
  // A closing environment: its completions go the usual way, or nowhere.
  if (!poll.scheduled) stopPolledDeliveries(env);
}

}  // namespace

bool beginPolledWait(Napi::Env env) {
  CompletionPoll& poll = addonData(env).completionPoll;
  if (poll.window.count() <= 0) return false;
  ++poll.waits;
  poll.lastProgress = std::chrono::steady_clock::now();
  if (!poll.scheduled) {
    startPolledDeliveries(env);
    schedule(env, poll);
  }
  return true;
}

void endPolledWait(Napi::Env env) { --addonData(env).completionPoll.waits; }

// setCompletionPolling(microseconds): the polling window of this environment.
Napi::Value SetCompletionPolling(const Napi::CallbackInfo& info) {
  addonData(info.Env()).completionPoll.window = std::chrono::microseconds(uintArg(info[0], "microseconds"));
  return info.Env().Undefined();
}

Napi::Value CompletionPolling(const Napi::CallbackInfo& info) {
  auto window = std::chrono::duration_cast<std::chrono::microseconds>(addonData(info.Env()).completionPoll.window);
  return Napi::Number::New(info.Env(), static_cast<double>(window.count()));
}

}  // namespace cudrv
