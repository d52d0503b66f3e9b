#include "js_thread.h"

#include <mutex>

#include "addon_data.h"

namespace cudrv {

struct JsThreadChannel {
  std::mutex mutex;
  napi_threadsafe_function function = nullptr;
  bool open = true;

  // Queues a delivery unless the environment has closed the channel; the lock
  // keeps teardown from finishing while a call is under way.
  void send(void* delivery) {
    std::lock_guard<std::mutex> lock(mutex);
    if (open) napi_call_threadsafe_function(function, delivery, napi_tsfn_nonblocking);
  }
};

namespace {

struct Delivery {
  std::function<void(Napi::Env)> work;
  bool fromTicket;  // counted in pendingDeliveries (a port's posts are not)
};

void settled(Napi::Env env) {
  AddonData& addon = addonData(env);
  if (--addon.pendingDeliveries == 0 && addon.jsThread) {
    napi_unref_threadsafe_function(env, addon.jsThread->function);
  }
}

void runOnJsThread(napi_env rawEnv, napi_value, void*, void* data) {
  auto* delivery = static_cast<Delivery*>(data);
  if (!rawEnv) return;  // finalizing: leak rather than destroy captures here
  Napi::Env env(rawEnv);
  if (delivery->fromTicket) settled(env);
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
  if (!addon.jsThread->open) throw Napi::Error::New(env, "the environment is shutting down");
  return addon.jsThread;
}

}  // namespace

JsThreadTicket JsThreadTicket::take(Napi::Env env) {
  const std::shared_ptr<JsThreadChannel>& channel = channelOf(env);
  AddonData& addon = addonData(env);
  if (addon.pendingDeliveries++ == 0) napi_ref_threadsafe_function(env, channel->function);
  return JsThreadTicket(channel);
}

void JsThreadTicket::deliver(std::function<void(Napi::Env)> work) {
  channel_->send(new Delivery{std::move(work), true});
}

void JsThreadTicket::cancel(Napi::Env env) { settled(env); }

std::shared_ptr<JsThreadPort> JsThreadPort::open(Napi::Env env) {
  return std::shared_ptr<JsThreadPort>(new JsThreadPort(channelOf(env)));
}

void JsThreadPort::post(std::function<void(Napi::Env)> work) { channel_->send(new Delivery{std::move(work), false}); }

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

}  // namespace cudrv
