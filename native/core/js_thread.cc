#include "core/js_thread.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "core/addon_data.h"
#include "core/reaper.h"

namespace cudrv {

struct JsThreadChannel {
  std::mutex mutex;
  napi_threadsafe_function function = nullptr;
  bool open = true;  // changed only by the JavaScript thread, under the mutex
  std::thread::id thread = std::this_thread::get_id();  // made on the JavaScript thread
  std::atomic<bool> tornDown{false};

  // Queues a delivery unless the environment has closed the channel; the lock
  // keeps teardown from finishing while a call is under way.
  bool send(void* delivery) {
    std::lock_guard<std::mutex> lock(mutex);
    return open && napi_call_threadsafe_function(function, delivery, napi_tsfn_nonblocking) == napi_ok;
  }
};

// A ticket's hold on the event loop; touched on the JavaScript thread only.
struct JsThreadTicket::State {
  std::shared_ptr<JsThreadChannel> channel;
  bool counted = true;  // in pendingDeliveries
};

namespace {

struct Delivery {
  std::function<void(Napi::Env)> work;
  std::shared_ptr<JsThreadTicket::State> ticket;  // null for a port's posts
  bool reapable = false;                          // see deliverOrReap
};

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

void runOnJsThread(napi_env rawEnv, napi_value, void*, void* data) {
  auto* delivery = static_cast<Delivery*>(data);
  if (!rawEnv) {
    // Finalizing: leak rather than destroy captures here, unless the reaper may.
    if (delivery->reapable) reap(delivery);
    return;
  }
  Napi::Env env(rawEnv);
  if (delivery->ticket) settled(env, *delivery->ticket);
  Napi::HandleScope scope(env);
  try {
    delivery->work(env);
  } catch (const Napi::Error& e) {
    // Surfaces as an uncaught exception, not a crash. Raw napi_throw: an
    // environment being torn down (a worker ending) refuses the throw, and
    // node-addon-api would answer that with a C++ throw out of this callback.
    napi_throw(rawEnv, e.Value());
  }
  delete delivery;
}

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

void JsThreadTicket::deliverOrReap(std::function<void(Napi::Env)> work) {
  auto* delivery = new Delivery{std::move(work), state_, true};
  if (!state_->channel->send(delivery)) reap(delivery);
}

void JsThreadTicket::cancel(Napi::Env env) { settled(env, *state_); }

std::shared_ptr<JsThreadPort> JsThreadPort::open(Napi::Env env) {
  return std::shared_ptr<JsThreadPort>(new JsThreadPort(openChannelOf(env)));
}

void JsThreadPort::post(std::function<void(Napi::Env)> work) { channel_->send(new Delivery{std::move(work), nullptr}); }

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
  AddonData& addon = addonData(env);
  if (!addon.jsThread) {
    // Finalizers of the teardown may still ask for a channel (a stream released
    // with work pending): they must find it closed, since a threadsafe function
    // made now is cleaned up after its isolate is gone (a crash).
    addon.jsThread = std::make_shared<JsThreadChannel>();
    addon.jsThread->open = false;
    return;
  }
  std::lock_guard<std::mutex> lock(addon.jsThread->mutex);
  addon.jsThread->open = false;
  napi_release_threadsafe_function(addon.jsThread->function, napi_tsfn_abort);
}

void finishJsThreadTeardown(Napi::Env env) {
  AddonData& addon = addonData(env);
  if (addon.jsThread) addon.jsThread->tornDown.store(true, std::memory_order_release);
}

}  // namespace cudrv
