// Making, querying and ending NCCL communicators. The calls that wait for the
// other ranks (init, split, finalize) run on a wait thread (native/core/wait_thread.h)
// and settle a promise; the JavaScript thread never blocks on another process.

#include "nccl/communicator.h"

#include <cstring>
#include <utility>
#include <vector>

#include "core/args.h"
#include "core/errors.h"
#include "core/release.h"
#include "core/wait_thread.h"
#include "generated/entries.h"
#include "nccl/loader.h"
#include "stream.h"

namespace cudrv {

using nccl::api;

NcclCommBox::~NcclCommBox() {
  if (!comm) return;
  releaseWhenSafe([comm = comm, finalized = finalized, context = std::move(context)] {
    if (finalized) {
      api.ncclCommDestroy(comm);
    } else {
      api.ncclCommAbort(comm);
    }
  });
}

bool holdsJavaScript(const NcclCommBox&) { return false; }

namespace {

struct Outcome {
  nccl::Result result = nccl::kSuccess;
  std::string message;
  NcclCommRef made;
};

// The failed call's text, read on the thread that made it (NCCL keeps it per thread).
std::string lastError(nccl::Result result) {
  if (result == nccl::kSuccess) return {};
  const char* last = api.ncclGetLastError(nullptr);
  return last && *last ? last : nccl::resultText(result);
}

void requireNccl(Napi::Env env) {
  const nccl::State& state = nccl::load();
  if (!state.loaded) throwTypeError(env, "NCCL is not loaded (" + state.detail + ")");
}

// The primary context of the communicator's device, current on this (wait) thread for f.
template <typename F>
void withContext(const ContextRef& context, F f) {
  CUcontext previous = nullptr;
  CU_CALL(cuCtxGetCurrent, &previous);
  setCurrent(context->context);
  f();
  setCurrent(previous);
}

// A box for a communicator NCCL made, with what it says of itself.
NcclCommRef boxFor(nccl::Comm comm, ContextRef context, NcclConfigRef config) {
  auto box = std::make_shared<NcclCommBox>();
  box->comm = comm;
  box->context = std::move(context);
  box->config = std::move(config);
  box->ordinal = box->context->ordinal;
  api.ncclCommUserRank(comm, &box->rank);
  api.ncclCommCount(comm, &box->size);
  return box;
}

Napi::Object toJs(Napi::Env env, const Outcome& outcome) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("result", outcome.result);
  out.Set("message", outcome.message);
  if (outcome.made) out.Set("communicator", Communicator::newSlotNumber(env, outcome.made));
  return out;
}

// Runs call on a wait thread and resolves with its Outcome.
Napi::Promise runNcclCall(Napi::Env env, std::function<void(Outcome&)> call) {
  auto outcome = std::make_shared<Outcome>();
  return runOnWaitThread(
      env, [call = std::move(call), outcome] { call(*outcome); },
      [outcome](Napi::Env env, Napi::Promise::Deferred& deferred) { deferred.Resolve(toJs(env, *outcome)); });
}

// The box of a live communicator not ended by abort().
const NcclCommRef& liveComm(Napi::Value value) {
  const NcclCommRef& box = Communicator::fromSlot(value, "communicator");
  if (!box->comm) throwTypeError(value.Env(), "the communicator was aborted");
  return box;
}

// A blocking call on a wait thread; abort() is refused until it returns.
Napi::Promise runBlocking(Napi::Env env, const NcclCommRef& box, const char* name,
                          std::function<void(NcclCommBox&, Outcome&)> call) {
  if (box->blockingCall) throwTypeError(env, std::string(box->blockingCall) + "() is still running on this communicator");
  box->blockingCall = name;
  auto outcome = std::make_shared<Outcome>();
  return runOnWaitThread(
      env, [box, call = std::move(call), outcome] { withContext(box->context, [&] { call(*box, *outcome); }); },
      [box, outcome](Napi::Env env, Napi::Promise::Deferred& deferred) {
        box->blockingCall = nullptr;
        deferred.Resolve(toJs(env, *outcome));
      });
}

}  // namespace

Napi::Value NcclStatus(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const nccl::State& state = nccl::load();
  Napi::Object out = Napi::Object::New(env);
  out.Set("available", state.loaded);
  out.Set("libraryPath", state.libraryPath);
  out.Set("detail", state.detail);
  out.Set("version", state.version);
  std::vector<std::string> searched = nccl::searchPaths();
  Napi::Array paths = Napi::Array::New(env, searched.size());
  for (size_t i = 0; i < searched.size(); ++i) paths.Set(static_cast<uint32_t>(i), searched[i]);
  out.Set("searched", paths);
  return out;
}

Napi::Value NcclResultText(const Napi::CallbackInfo& info) {
  const int result = intArg(info[0], "result");
  requireNccl(info.Env());
  return Napi::String::New(info.Env(), nccl::resultText(result));
}

Napi::Value NcclLastError(const Napi::CallbackInfo& info) {
  requireNccl(info.Env());
  const char* last = api.ncclGetLastError(nullptr);
  return Napi::String::New(info.Env(), last ? last : "");
}

Napi::Value NcclGetUniqueId(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t length = 0;
  uint8_t* out = typedArrayArg<uint8_t>(info[0], napi_uint8_array, "out", "a Uint8Array", &length);
  if (length != sizeof(nccl::UniqueId)) throwRangeError(env, "out must be 128 bytes");
  requireNccl(env);
  nccl::UniqueId id{};
  const nccl::Result result = api.ncclGetUniqueId(&id);
  if (result == nccl::kSuccess) std::memcpy(out, &id, sizeof id);
  return Napi::Number::New(env, result);
}

Napi::Value NcclCommInit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const nccl::UniqueId id = bytesArg<nccl::UniqueId>(info[0], "id");
  const int size = intArg(info[1], "size");
  const int rank = intArg(info[2], "rank");
  const int ordinal = intArg(info[3], "ordinal");
  NcclConfigRef config = configArg(info[4], info[5], info[6]);
  if (size < 1 || rank < 0 || rank >= size) throwRangeError(env, "rank must lie in [0, size)");
  requireNccl(env);
  requireDriver(env, Fn::cuCtxSetCurrent);
  ContextRef context = primaryContext(env, ordinal);
  return runNcclCall(env, [id, size, rank, context, config](Outcome& out) {
    withContext(context, [&] {
      nccl::Comm comm = nullptr;
      nccl::Config settings = config->toConfig();
      out.result = api.ncclCommInitRankConfig(&comm, size, id, rank, &settings);
      out.message = lastError(out.result);
      if (comm) out.made = boxFor(comm, context, config);
    });
  });
}

Napi::Value NcclCommSplit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int color = intArg(info[1], "color");
  const int key = intArg(info[2], "key");
  NcclConfigRef config = configArg(info[3], info[4], info[5]);
  const NcclCommRef& box = liveComm(info[0]);
  return runBlocking(env, box, "split", [color, key, config](NcclCommBox& parent, Outcome& out) {
    nccl::Comm comm = nullptr;
    nccl::Config settings = config->toConfig();
    out.result = api.ncclCommSplit(parent.comm, color, key, &comm, &settings);
    out.message = lastError(out.result);
    if (comm) out.made = boxFor(comm, parent.context, config);
  });
}

Napi::Value NcclCommShrink(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  size_t count = 0;
  const int32_t* excluded = typedArrayArg<int32_t>(info[1], napi_int32_array, "exclude", "an Int32Array", &count);
  std::vector<int> exclude(excluded, excluded + count);
  const bool abortFirst = boolArg(info[2], "abort");
  NcclConfigRef config = configArg(info[3], info[4], info[5]);
  const NcclCommRef& box = liveComm(info[0]);
  if (!api.ncclCommShrink) throwTypeError(env, "this NCCL has no ncclCommShrink (NCCL 2.27 or newer has it)");
  const int flags = abortFirst ? nccl::kShrinkAbort : nccl::kShrinkDefault;
  return runBlocking(env, box, "shrink", [exclude = std::move(exclude), flags, config](NcclCommBox& parent, Outcome& out) mutable {
    nccl::Comm comm = nullptr;
    nccl::Config settings = config->toConfig();
    out.result = api.ncclCommShrink(parent.comm, exclude.data(), static_cast<int>(exclude.size()), &comm, &settings, flags);
    out.message = lastError(out.result);
    if (comm) out.made = boxFor(comm, parent.context, config);
  });
}

Napi::Value NcclCommFinalize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NcclCommRef& box = liveComm(info[0]);
  return runBlocking(env, box, "finalize", [](NcclCommBox& comm, Outcome& out) {
    out.result = api.ncclCommFinalize(comm.comm);
    out.message = lastError(out.result);
    std::lock_guard<std::mutex> lock(comm.mutex);
    if (out.result == nccl::kSuccess) comm.finalized = true;
  });
}

Napi::Value NcclCommAbort(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NcclCommRef& box = Communicator::fromSlot(info[0], "communicator");
  if (box->blockingCall) {
    throwTypeError(env, "abort() cannot end a communicator while its " + std::string(box->blockingCall) + "() runs");
  }
  nccl::Comm comm = nullptr;
  {
    std::lock_guard<std::mutex> lock(box->mutex);
    std::swap(comm, box->comm);
  }
  if (!comm) return Napi::Number::New(env, nccl::kSuccess);
  return Napi::Number::New(env, api.ncclCommAbort(comm));
}

Napi::Value NcclCommInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NcclCommRef& box = Communicator::fromSlot(info[0], "communicator");
  Napi::Array out = Napi::Array::New(env, 5);
  out.Set(0u, box->rank);
  out.Set(1u, box->size);
  out.Set(2u, box->ordinal);
  out.Set(3u, box->finalized ? 1 : 0);
  out.Set(4u, box->comm ? 0 : 1);
  return out;
}

Napi::Value NcclCommHandle(const Napi::CallbackInfo& info) {
  return handleValue(info.Env(), Communicator::fromSlot(info[0], "communicator")->comm);
}

Napi::Value NcclCommAsyncError(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const NcclCommRef& box = liveComm(info[0]);
  nccl::Result error = nccl::kSuccess;
  std::lock_guard<std::mutex> lock(box->mutex);
  const nccl::Result result = api.ncclCommGetAsyncError(box->comm, &error);
  return Napi::Number::New(env, result != nccl::kSuccess ? result : error);
}

Napi::Value NcclCommWait(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  NcclCommRef box = liveComm(info[0]);
  StreamRef stream = Stream::fromSlot(info[1], "stream");
  std::shared_ptr<CancelSignal> teardown = teardownSignal(env);
  const uint64_t covered = stream->markWait();
  auto outcome = std::make_shared<Outcome>();
  return runOnWaitThread(
      env,
      [box, stream, teardown, outcome] {
        withContext(box->context, [&] {
          // Short naps while the work is young, longer ones for a long wait.
          for (int napUs = 20;; napUs = std::min(napUs * 2, 2000)) {
            {
              std::lock_guard<std::mutex> lock(box->mutex);
              if (!box->comm) {
                outcome->result = -1;
                return;
              }
              nccl::Result error = nccl::kSuccess;
              nccl::Result r = api.ncclCommGetAsyncError(box->comm, &error);
              if (r == nccl::kSuccess) r = error;
              if (r != nccl::kSuccess && r != nccl::kInProgress) {
                outcome->result = r;
                outcome->message = lastError(r);
                return;
              }
            }
            const CUresult q = CU_CALL(cuStreamQuery, stream->stream);
            if (q == CUDA_SUCCESS) return;
            if (q != CUDA_ERROR_NOT_READY) {
              outcome->result = nccl::kInvalidUsage;
              outcome->message = "cuStreamQuery failed with CUresult " + std::to_string(q);
              return;
            }
            int err = 0;
            if (waitFor(-1, 0, Deadline(0), nullptr, *teardown, &err) == WaitResult::Cancelled) return;
            struct timespec nap{0, napUs * 1000L};
            nanosleep(&nap, nullptr);
          }
        });
      },
      [stream, covered, outcome](Napi::Env env, Napi::Promise::Deferred& deferred) {
        if (outcome->result == nccl::kSuccess) stream->completedThrough(covered);
        deferred.Resolve(toJs(env, *outcome));
      });
}

}  // namespace cudrv
