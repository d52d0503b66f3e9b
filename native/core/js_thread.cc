#include "core/js_thread.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "core/addon_data.h"
#include "core/errors.h"
#include "core/reaper.h"
#include "core/release.h"
#include "core/spin.h"

namespace cudrv {

// Where a thread of CUDA's waits for a host callback to have run.
struct HostCallWait {
  std::mutex mutex;
  std::condition_variable ran;
  bool over = false;

  void release() {
    std::lock_guard<std::mutex> lock(mutex);
    over = true;
    ran.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(mutex);
    ran.wait(lock, [this] { return over; });
  }
};

struct JsThreadChannel {
  std::mutex mutex;
  // The deadlock guard (js_thread.h BlockingWait), under the mutex.
  int waitingHostCalls = 0;          // pending host callbacks CUDA waits for
  bool blocked = false;              // the JavaScript thread is in a guarded wait
  bool dueWhileBlocked = false;      // ... and a host node was reached meanwhile
  std::vector<std::shared_ptr<HostCallWait>> hostCallWaits;  // released by teardown
  napi_threadsafe_function function = nullptr;
  // While the JavaScript thread polls for completions (core/completion_poll.h),
  // deliveries that may be polled wait here for it, under the mutex, instead
  // of waking the thread through the threadsafe function.
  bool polling = false;
  std::vector<void*> polled;
  std::atomic<size_t> polledCount{0};  // polled.size(), read without the mutex by the poll
  // Polled deliveries that have run, let go of (their hold on the event loop,
  // what they captured) by the poll's next turn, after what they resumed has
  // run. JavaScript thread only.
  std::vector<Delivery*> spent;
  bool open = true;  // changed only by the JavaScript thread, under the mutex
  // A host callback may wait for the JavaScript thread: one was queued here, or
  // a port for host nodes opened. Until then no guard has anything to guard.
  // JavaScript thread only.
  bool hostCallsSeen = false;
  std::thread::id thread = std::this_thread::get_id();  // made on the JavaScript thread
  std::atomic<bool> tornDown{false};

  // Queues a delivery unless the environment has closed the channel; the lock
  // keeps teardown from finishing while a call is under way.
  bool send(void* delivery, bool pollable = false) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!open) return false;
    if (pollable && polling) {
      polled.push_back(delivery);
      polledCount.store(polled.size(), std::memory_order_release);
      return true;
    }
    return napi_call_threadsafe_function(function, delivery, napi_tsfn_nonblocking) == napi_ok;
  }
};

// A ticket's hold on the event loop; touched on the JavaScript thread only.
struct JsThreadTicket::State {
  std::shared_ptr<JsThreadChannel> channel;
  bool counted = true;  // in pendingDeliveries
};

struct Delivery {
  std::function<void(Napi::Env)> work;
  std::shared_ptr<JsThreadTicket::State> ticket;  // null for a port's posts
  bool reapable = false;                          // see JsThreadTicket::prepare
  // A host callback's: what its CUDA thread waits on, and whether it counts
  // in waitingHostCalls until it has run.
  std::shared_ptr<HostCallWait> hostCallWait{};
  std::shared_ptr<JsThreadChannel> counted{};
};

namespace {

// A host callback has run (or thrown): its CUDA thread goes on, and it no
// longer counts, nor holds releases (which may then run here: after the CUDA
// thread is let go, since one may synchronize the device). Teardown let go of
// what a closed channel counted.
void hostCallRan(Delivery& delivery) {
  if (delivery.hostCallWait) delivery.hostCallWait->release();
  if (!delivery.counted) return;
  {
    std::lock_guard<std::mutex> lock(delivery.counted->mutex);
    if (!delivery.counted->open) return;
    --delivery.counted->waitingHostCalls;
  }
  letReleasesGo();
}

// Sends a host callback's delivery from a thread of CUDA's and waits until it
// has run. counted: it counts as pending already (queued on a stream);
// otherwise it counts from now. Not waited for when the JavaScript thread is
// blocked in a guarded wait (its wait then throws), nor once the environment
// is gone (the delivery is dropped then, as others are).
void sendAndWait(JsThreadChannel& channel, const std::shared_ptr<JsThreadChannel>& owner, Delivery* delivery,
                 bool counted) {
  std::shared_ptr<HostCallWait> wait;
  {
    std::lock_guard<std::mutex> lock(channel.mutex);
    if (!channel.open) return;
    const bool waits = !channel.blocked;
    if (!waits) channel.dueWhileBlocked = true;
    if (waits || counted) delivery->counted = owner;
    if (waits) {
      wait = std::make_shared<HostCallWait>();
      delivery->hostCallWait = wait;
    }
    if (napi_call_threadsafe_function(channel.function, delivery, napi_tsfn_nonblocking) != napi_ok) return;
    if (!waits) return;
    if (!counted) {
      ++channel.waitingHostCalls;
      holdReleases();
    }
    channel.hostCallWaits.push_back(wait);
  }
  wait->wait();
  std::lock_guard<std::mutex> lock(channel.mutex);
  auto& waits = channel.hostCallWaits;
  waits.erase(std::remove(waits.begin(), waits.end(), wait), waits.end());
}

void reap(Delivery* delivery) {
  reapAfter(JsThreadHome::of(delivery->ticket->channel), nullptr, nullptr, [work = std::move(delivery->work)](bool) {});
  delete delivery;
}

void settled(Napi::Env env, JsThreadTicket::State& ticket) {
  if (!ticket.counted) return;
  ticket.counted = false;
  AddonData& addon = addonData(env);
  // A closed channel's function is being released: it is not touched again.
  if (--addon.pendingDeliveries == 0 && addon.jsThread && addon.jsThread->open) {
    napi_unref_threadsafe_function(env, addon.jsThread->function);
  }
}

// A delivery the environment will not run (it is being torn down): leaked
// rather than destroyed here, unless the reaper may let go of it.
void drop(Delivery* delivery) {
  if (delivery->reapable) reap(delivery);
}

// Runs a delivery on the JavaScript thread, in the caller's handle scope. What
// its work throws is returned, not thrown: the caller decides how it surfaces.
napi_value runWork(Napi::Env env, Delivery& delivery) {
  try {
    delivery.work(env);
  } catch (const Napi::Error& e) {
    return e.Value();
  }
  return nullptr;
}

// What follows a delivery's work: its hold on the event loop and what it
// captured let go.
void finishDelivery(Napi::Env env, Delivery* delivery) {
  if (delivery->ticket) settled(env, *delivery->ticket);
  hostCallRan(*delivery);
  delete delivery;
}

napi_value runDelivery(Napi::Env env, Delivery* delivery) {
  if (delivery->ticket) settled(env, *delivery->ticket);
  napi_value thrown = runWork(env, *delivery);
  finishDelivery(env, delivery);
  return thrown;
}

void runOnJsThread(napi_env rawEnv, napi_value, void*, void* data) {
  auto* delivery = static_cast<Delivery*>(data);
  if (!rawEnv) return drop(delivery);  // finalizing
  Napi::Env env(rawEnv);
  Napi::HandleScope scope(env);
  // Surfaces as an uncaught exception, not a crash. Raw napi_throw: an
  // environment being torn down (a worker ending) refuses the throw, and
  // node-addon-api would answer that with a C++ throw out of this callback.
  if (napi_value thrown = runDelivery(env, delivery)) napi_throw(rawEnv, thrown);
}

// The channel of the environment whose JavaScript thread this is, if any. A
// plain pointer, made with the channel and dropped when it closes: a
// thread_local with a destructor needs __cxa_thread_atexit_impl, which the
// oldest glibc the shipped binaries support lacks.
thread_local std::weak_ptr<JsThreadChannel>* threadChannel = nullptr;
// The same channel, read without taking a reference: valid while threadChannel is set.
thread_local JsThreadChannel* threadChannelRaw = nullptr;

// The environment's channel, made on first use.
const std::shared_ptr<JsThreadChannel>& channelOf(Napi::Env env) {
  AddonData& addon = addonData(env);
  if (!addon.jsThread) {
    auto channel = std::make_shared<JsThreadChannel>();
    napi_value name = Napi::String::New(env, "cuda-driver");
    if (napi_create_threadsafe_function(env, nullptr, nullptr, name, 0, 1, nullptr, nullptr, nullptr, runOnJsThread,
                                        &channel->function) != napi_ok) {
      throw Napi::Error::New(env, "could not create the channel back to the JavaScript thread");
    }
    napi_unref_threadsafe_function(env, channel->function);
    delete threadChannel;
    threadChannel = new std::weak_ptr<JsThreadChannel>(channel);
    threadChannelRaw = channel.get();
    addon.jsThread = std::move(channel);
  }
  return addon.jsThread;
}

const std::shared_ptr<JsThreadChannel>& openChannelOf(Napi::Env env) {
  const std::shared_ptr<JsThreadChannel>& channel = channelOf(env);
  if (!channel->open) throw Napi::Error::New(env, "the environment is shutting down");
  return channel;
}

}  // namespace

JsThreadTicket JsThreadTicket::take(Napi::Env env) {
  const std::shared_ptr<JsThreadChannel>& channel = openChannelOf(env);
  AddonData& addon = addonData(env);
  if (addon.pendingDeliveries++ == 0) napi_ref_threadsafe_function(env, channel->function);
  return JsThreadTicket(std::make_shared<State>(State{channel}));
}

void JsThreadTicket::deliver(std::function<void(Napi::Env)> work) {
  // Not sent when the environment is gone: then leaked, with what it holds.
  state_->channel->send(new Delivery{std::move(work), state_});
}

PreparedDelivery JsThreadTicket::prepare(std::function<void(Napi::Env)> work, bool reapable) {
  return PreparedDelivery(new Delivery{std::move(work), state_, reapable});
}

void PreparedDelivery::send(bool pollable) {
  if (!delivery_->ticket->channel->send(delivery_, pollable)) drop(delivery_);
}

void JsThreadTicket::deliverAndWait(std::function<void(Napi::Env)> work) {
  auto* delivery = new Delivery{std::move(work), state_};
  sendAndWait(*state_->channel, state_->channel, delivery, true);
}

void JsThreadTicket::cancel(Napi::Env env) { settled(env, *state_); }

std::shared_ptr<JsThreadPort> JsThreadPort::open(Napi::Env env) {
  const std::shared_ptr<JsThreadChannel>& channel = openChannelOf(env);
  channel->hostCallsSeen = true;
  return std::shared_ptr<JsThreadPort>(new JsThreadPort(channel));
}

void JsThreadPort::post(std::function<void(Napi::Env)> work) { channel_->send(new Delivery{std::move(work), nullptr}); }

void JsThreadPort::postAndWait(std::function<void(Napi::Env)> work) {
  sendAndWait(*channel_, channel_, new Delivery{std::move(work), nullptr}, false);
}

void startPolledDeliveries(Napi::Env env) {
  const std::shared_ptr<JsThreadChannel>& channel = openChannelOf(env);
  std::lock_guard<std::mutex> lock(channel->mutex);
  channel->polling = true;
}

size_t runPolledDeliveries(Napi::Env env, napi_value* thrown) {
  JsThreadChannel* channel = addonData(env).jsThread.get();
  if (!channel || channel->polledCount.load(std::memory_order_acquire) == 0) return 0;
  std::vector<void*> ready;
  {
    std::lock_guard<std::mutex> lock(channel->mutex);
    if (!channel->open) return 0;
    ready.swap(channel->polled);
    channel->polledCount.store(0, std::memory_order_release);
  }
  for (void* delivery : ready) {
    napi_value error = runWork(env, *static_cast<Delivery*>(delivery));
    if (!*thrown) *thrown = error;
    channel->spent.push_back(static_cast<Delivery*>(delivery));
  }
  return ready.size();
}

void releaseSpentDeliveries(Napi::Env env) {
  JsThreadChannel* channel = addonData(env).jsThread.get();
  if (!channel || channel->spent.empty()) return;
  std::vector<Delivery*> spent;
  spent.swap(channel->spent);
  for (Delivery* delivery : spent) finishDelivery(env, delivery);
}

bool awaitPolledDelivery(Napi::Env env, std::chrono::nanoseconds limit) {
  JsThreadChannel* channel = addonData(env).jsThread.get();
  return channel && spinUntil([channel] { return channel->polledCount.load(std::memory_order_acquire) != 0; }, limit);
}

void stopPolledDeliveries(Napi::Env env) {
  releaseSpentDeliveries(env);
  JsThreadChannel* channel = addonData(env).jsThread.get();
  if (!channel) return;
  std::vector<void*> waiting;
  {
    std::lock_guard<std::mutex> lock(channel->mutex);
    if (!channel->open) return;
    channel->polling = false;
    // Those already here go the usual way, as the next ones will.
    for (void* delivery : channel->polled) {
      if (napi_call_threadsafe_function(channel->function, delivery, napi_tsfn_nonblocking) != napi_ok) {
        waiting.push_back(delivery);
      }
    }
    channel->polled.clear();
    channel->polledCount.store(0, std::memory_order_release);
  }
  // Not queued (the function is closing): the environment will not run them.
  for (void* delivery : waiting) drop(static_cast<Delivery*>(delivery));
}

void countWaitingHostCall(Napi::Env env) {
  const std::shared_ptr<JsThreadChannel>& channel = openChannelOf(env);
  channel->hostCallsSeen = true;
  std::lock_guard<std::mutex> lock(channel->mutex);
  ++channel->waitingHostCalls;
  holdReleases();
}

void uncountWaitingHostCall(Napi::Env env) {
  const std::shared_ptr<JsThreadChannel>& channel = channelOf(env);
  {
    std::lock_guard<std::mutex> lock(channel->mutex);
    --channel->waitingHostCalls;
  }
  letReleasesGo();
}

namespace {

[[noreturn]] void throwHostCallPending(Napi::Env env, const char* what, bool during) {
  std::string message = std::string(what) +
                        (during ? ": a host callback the GPU waits for became due during this blocking wait; it could "
                                  "not run while this thread was blocked, so the GPU went on without waiting for it"
                                : " would block the JavaScript thread while a host callback the GPU waits for is "
                                  "pending: the callback needs this thread, so the wait would never end") +
                        ". Await the promise form (stream.synchronize(), event.synchronize()) instead, or queue the "
                        "callback with { wait: false }";
  throwHostCallbackPending(env, what, message);
}

}  // namespace

// Marked like a guarded wait, without the refusal (a release cannot throw) or
// the error after it: a host node reached meanwhile is not waited for.
ReleaseBracket::ReleaseBracket() {
  if (!threadChannelRaw || !threadChannelRaw->hostCallsSeen) return;
  std::shared_ptr<JsThreadChannel> channel = threadChannel->lock();
  if (!channel) return;
  std::lock_guard<std::mutex> lock(channel->mutex);
  if (!channel->open || channel->blocked) return;
  channel->blocked = true;
  channel_ = std::move(channel);
}

ReleaseBracket::~ReleaseBracket() {
  if (!channel_) return;
  std::lock_guard<std::mutex> lock(channel_->mutex);
  channel_->blocked = false;
  channel_->dueWhileBlocked = false;
}

BlockingWait::BlockingWait(Napi::Env env, const char* what) : env_(env), what_(what) {
  const std::shared_ptr<JsThreadChannel>& channel = addonData(env).jsThread;
  if (!channel || !channel->hostCallsSeen) return;
  {
    std::lock_guard<std::mutex> lock(channel->mutex);
    // Nested in another guarded wait (a copy that waits for the legacy stream): that one guards.
    if (channel->blocked) return;
    if (channel->open && channel->waitingHostCalls == 0) {
      channel->blocked = true;
      channel->dueWhileBlocked = false;
      channel_ = channel;
      return;
    }
    if (!channel->open) return;  // teardown: no callback runs any more, none is waited for
  }
  throwHostCallPending(env, what, false);
}

bool BlockingWait::leave() {
  if (!channel_) return false;
  std::lock_guard<std::mutex> lock(channel_->mutex);
  channel_->blocked = false;
  bool due = channel_->dueWhileBlocked;
  channel_->dueWhileBlocked = false;
  channel_.reset();
  return due;
}

BlockingWait::~BlockingWait() { leave(); }

void BlockingWait::done() {
  if (leave()) throwHostCallPending(env_, what_, true);
}

JsThreadHome JsThreadHome::of(Napi::Env env) { return JsThreadHome(channelOf(env)); }

JsThreadHome JsThreadHome::of(const std::shared_ptr<JsThreadChannel>& channel) { return JsThreadHome(channel); }

// `open` is written only on the JavaScript thread: read here only there.
bool JsThreadHome::isCurrent() const {
  return channel_ && channel_->thread == std::this_thread::get_id() && channel_->open;
}

bool JsThreadHome::onItsThread() const {
  return channel_ && channel_->thread == std::this_thread::get_id() && !tornDown();
}

bool JsThreadHome::tornDown() const { return !channel_ || channel_->tornDown.load(std::memory_order_acquire); }

void closeJsThreadChannel(Napi::Env env) {
  delete threadChannel;  // this environment's thread: its channel takes no more work
  threadChannel = nullptr;
  threadChannelRaw = nullptr;
  AddonData& addon = addonData(env);
  if (!addon.jsThread) {
    // Finalizers of the teardown may still ask for a channel (a stream released
    // with work pending): they must find it closed, since a threadsafe function
    // made now is cleaned up after its isolate is gone (a crash).
    addon.jsThread = std::make_shared<JsThreadChannel>();
    addon.jsThread->open = false;
    return;
  }
  int held = 0;
  std::vector<void*> unrun;  // polled deliveries no poll will take now
  {
    std::lock_guard<std::mutex> lock(addon.jsThread->mutex);
    addon.jsThread->open = false;
    napi_release_threadsafe_function(addon.jsThread->function, napi_tsfn_abort);
    unrun.swap(addon.jsThread->polled);
    // Host callbacks CUDA's threads wait for will not run: those threads go
    // on, and the releases held for the callbacks are let go.
    for (const std::shared_ptr<HostCallWait>& wait : addon.jsThread->hostCallWaits) wait->release();
    held = addon.jsThread->waitingHostCalls;
    addon.jsThread->waitingHostCalls = 0;
  }
  for (void* delivery : unrun) drop(static_cast<Delivery*>(delivery));
  for (Delivery* delivery : addon.jsThread->spent) drop(delivery);
  addon.jsThread->spent.clear();
  while (held-- > 0) letReleasesGo();
}

void finishJsThreadTeardown(Napi::Env env) {
  AddonData& addon = addonData(env);
  if (addon.jsThread) addon.jsThread->tornDown.store(true, std::memory_order_release);
}

}  // namespace cudrv
