// Process checkpoint: the driver's calls that lock another CUDA process, move
// its device memory to host memory and back, and unlock it. Each call talks to
// the other process and may wait for it (a lock waits for its queued work, a
// checkpoint or restore copies all its device memory), so each runs on a wait
// thread; no call holds anything of this process's but its own arguments.
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/args.h"
#include "core/errors.h"
#include "core/wait_thread.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

struct Outcome {
  CUresult result = CUDA_SUCCESS;
  DriverLogLines log;
  int value = -1;  // what the call reports (a state, a thread id), where it reports one
};

// Runs call on a wait thread. The promise resolves with the value call wrote
// (when reports) or undefined, or rejects with the driver's error for fn.
Napi::Promise runCheckpointCall(Napi::Env env, Fn fn, int pid, bool reports, std::function<CUresult(int*)> call) {
  requireDriver(env, fn);
  auto outcome = std::make_shared<Outcome>();
  return runOnWaitThread(
      env,
      [outcome, call = std::move(call)] {
        outcome->result = call(&outcome->value);
        if (outcome->result != CUDA_SUCCESS) outcome->log = takeDriverLog();
      },
      [outcome, fn, pid, reports](Napi::Env env, Napi::Promise::Deferred& deferred) {
        if (outcome->result != CUDA_SUCCESS) {
          deferred.Reject(makeCudaError(env, outcome->result, fn, "pid " + std::to_string(pid), &outcome->log));
        } else {
          deferred.Resolve(reports ? Napi::Number::New(env, outcome->value) : env.Undefined());
        }
      });
}

}  // namespace

Napi::Value CheckpointState(const Napi::CallbackInfo& info) {
  const int pid = intArg(info[0], "pid");
  return runCheckpointCall(info.Env(), Fn::cuCheckpointProcessGetState, pid, true, [pid](int* value) {
    // A value outside the enum (the call failed, or a newer driver's state) reaches lib/ as it is.
    CUprocessState state = static_cast<CUprocessState>(-1);
    CUresult r = CU_CALL(cuCheckpointProcessGetState, pid, &state);
    *value = static_cast<int>(state);
    return r;
  });
}

Napi::Value CheckpointRestoreThreadId(const Napi::CallbackInfo& info) {
  const int pid = intArg(info[0], "pid");
  return runCheckpointCall(info.Env(), Fn::cuCheckpointProcessGetRestoreThreadId, pid, true,
                           [pid](int* value) { return CU_CALL(cuCheckpointProcessGetRestoreThreadId, pid, value); });
}

Napi::Value CheckpointLock(const Napi::CallbackInfo& info) {
  const int pid = intArg(info[0], "pid");
  const unsigned int timeoutMs = uintArg(info[1], "timeoutMs");
  return runCheckpointCall(info.Env(), Fn::cuCheckpointProcessLock, pid, false, [pid, timeoutMs](int*) {
    CUcheckpointLockArgs args;
    std::memset(&args, 0, sizeof args);  // the reserved fields must be zero
    args.timeoutMs = timeoutMs;
    return CU_CALL(cuCheckpointProcessLock, pid, &args);
  });
}

Napi::Value CheckpointCheckpoint(const Napi::CallbackInfo& info) {
  const int pid = intArg(info[0], "pid");
  return runCheckpointCall(info.Env(), Fn::cuCheckpointProcessCheckpoint, pid, false,
                           [pid](int*) { return CU_CALL(cuCheckpointProcessCheckpoint, pid, nullptr); });
}

Napi::Value CheckpointRestore(const Napi::CallbackInfo& info) {
  const int pid = intArg(info[0], "pid");
  size_t fromBytes = 0;
  size_t toBytes = 0;
  const uint8_t* from = typedArrayArg<uint8_t>(info[1], napi_uint8_array, "from", "a Uint8Array", &fromBytes);
  const uint8_t* to = typedArrayArg<uint8_t>(info[2], napi_uint8_array, "to", "a Uint8Array", &toBytes);
  constexpr size_t kUuid = sizeof(CUuuid);
  if (fromBytes != toBytes || fromBytes % kUuid != 0) {
    rangeError(info.Env(), "from and to", "must hold as many UUIDs of " + std::to_string(kUuid) + " bytes, got " +
                                              std::to_string(fromBytes) + " and " + std::to_string(toBytes) + " bytes");
  }
  // Copied now: the wait thread must not read buffers JavaScript may change meanwhile.
  std::vector<CUcheckpointGpuPair> pairs(fromBytes / kUuid);
  for (size_t i = 0; i < pairs.size(); ++i) {
    std::memcpy(pairs[i].oldUuid.bytes, from + i * kUuid, kUuid);
    std::memcpy(pairs[i].newUuid.bytes, to + i * kUuid, kUuid);
  }
  return runCheckpointCall(info.Env(), Fn::cuCheckpointProcessRestore, pid, false,
                           [pid, pairs = std::move(pairs)](int*) mutable {
                             if (pairs.empty()) return CU_CALL(cuCheckpointProcessRestore, pid, nullptr);
                             CUcheckpointRestoreArgs args;
                             std::memset(&args, 0, sizeof args);  // the reserved fields must be zero
                             args.gpuPairs = pairs.data();
                             args.gpuPairsCount = static_cast<unsigned int>(pairs.size());
                             return CU_CALL(cuCheckpointProcessRestore, pid, &args);
                           });
}

Napi::Value CheckpointUnlock(const Napi::CallbackInfo& info) {
  const int pid = intArg(info[0], "pid");
  return runCheckpointCall(info.Env(), Fn::cuCheckpointProcessUnlock, pid, false,
                           [pid](int*) { return CU_CALL(cuCheckpointProcessUnlock, pid, nullptr); });
}

}  // namespace cudrv
