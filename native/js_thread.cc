#include "js_thread.h"

#include "addon_data.h"

namespace cudrv {

namespace {

struct Delivery {
  std::function<void(Napi::Env)> work;
};

void settled(Napi::Env env) {
  AddonData& addon = addonData(env);
  if (--addon.pendingDeliveries == 0 && addon.jsThreadChannel) {
    napi_unref_threadsafe_function(env, addon.jsThreadChannel);
  }
}

void runOnJsThread(napi_env rawEnv, napi_value, void*, void* data) {
  auto* delivery = static_cast<Delivery*>(data);
  if (!rawEnv) return;  // finalizing: leak rather than destroy captures here
  Napi::Env env(rawEnv);
  settled(env);
  Napi::HandleScope scope(env);
  try {
    delivery->work(env);
  } catch (const Napi::Error& e) {
    e.ThrowAsJavaScriptException();  // surfaces as an uncaught exception, not a crash
  }
  delete delivery;
}

}  // namespace

JsThreadTicket JsThreadTicket::take(Napi::Env env) {
  AddonData& addon = addonData(env);
  if (!addon.jsThreadChannel) {
    napi_value name = Napi::String::New(env, "cuda-driver");
    if (napi_create_threadsafe_function(env, nullptr, nullptr, name, 0, 1, nullptr, nullptr, nullptr, runOnJsThread,
                                        &addon.jsThreadChannel) != napi_ok) {
      throw Napi::Error::New(env, "could not create the channel back to the JavaScript thread");
    }
    napi_unref_threadsafe_function(env, addon.jsThreadChannel);
  }
  if (napi_acquire_threadsafe_function(addon.jsThreadChannel) != napi_ok) {
    throw Napi::Error::New(env, "the environment is shutting down");
  }
  if (addon.pendingDeliveries++ == 0) napi_ref_threadsafe_function(env, addon.jsThreadChannel);
  return JsThreadTicket(addon.jsThreadChannel);
}

void JsThreadTicket::deliver(std::function<void(Napi::Env)> work) {
  auto* delivery = new Delivery{std::move(work)};
  // The queue is unbounded, so a non-blocking call never fails for lack of room.
  napi_call_threadsafe_function(channel_, delivery, napi_tsfn_nonblocking);
  napi_release_threadsafe_function(channel_, napi_tsfn_release);
}

void JsThreadTicket::cancel(Napi::Env env) {
  settled(env);
  napi_release_threadsafe_function(channel_, napi_tsfn_release);
}

void closeJsThreadChannel(Napi::Env env) {
  AddonData& addon = addonData(env);
  if (addon.jsThreadChannel) napi_release_threadsafe_function(addon.jsThreadChannel, napi_tsfn_abort);
  addon.jsThreadChannel = nullptr;
}

}  // namespace cudrv
