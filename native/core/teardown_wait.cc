#include "core/teardown_wait.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/addon_data.h"
#include "core/release.h"

namespace cudrv {

namespace {

// How long a worker's teardown waits, in all.
constexpr std::chrono::seconds kTeardownWait{10};

}  // namespace

bool waitDuringTeardown(const std::function<bool()>& over) {
  // A teardown runs on its environment's own thread: the bound starts with its first wait.
  static thread_local const auto deadline = std::chrono::steady_clock::now() + kTeardownWait;
  bool done = over();
  // Once the process is exiting, its memory goes with it: nothing is waited for.
  while (!done && !processExiting() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    done = over();
  }
  return done;
}

void waitForAtTeardown(Napi::Env env, const std::shared_ptr<HeldWork>& work) {
  auto& held = addonData(env).heldWork;
  // What has settled since is forgotten here, so the list stays as long as what is in flight.
  held.erase(std::remove_if(held.begin(), held.end(), [](const std::weak_ptr<HeldWork>& weak) {
               auto w = weak.lock();
               return !w || w->settled();
             }),
             held.end());
  held.push_back(work);
}

void waitForHeldWork(Napi::Env env) {
  std::vector<std::weak_ptr<HeldWork>> held;
  held.swap(addonData(env).heldWork);
  // The main environment's teardown is the process exiting: nothing is released (core/release.h).
  if (processExiting()) return;
  for (const auto& weak : held) {
    auto work = weak.lock();
    if (work && waitDuringTeardown([&work] { return work->settled(); })) work->releaseHere();
  }
}

}  // namespace cudrv
