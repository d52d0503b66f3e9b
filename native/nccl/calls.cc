// NCCL's collectives and point-to-point calls on a Stream, with library memory.
// The checks here protect memory only (each span lies within its buffer);
// lib/nccl/ checks devices, types and counts and says what is wrong.

#include <array>

#include "core/args.h"
#include "core/errors.h"
#include "generated/entries.h"
#include "memory/memory.h"
#include "nccl/communicator.h"
#include "nccl/loader.h"
#include "stream.h"

namespace cudrv {

using nccl::api;

namespace {

enum class Op { AllReduce, Broadcast, Reduce, AllGather, ReduceScatter, Send, Recv, AllToAll, Count };

// Bytes per element of each ncclDataType_t (ncclInt8 ... ncclFloat8e5m2).
constexpr std::array<size_t, 12> kElementBytes{1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
constexpr int kReduceOps = 5;  // ncclSum ... ncclAvg

// How many `count`s of elements each side spans: the gathered or scattered side of
// allGather, reduceScatter and allToAll holds one count per rank.
struct Extent {
  size_t send;
  size_t recv;
};
Extent extentOf(Op op, size_t ranks) {
  switch (op) {
    case Op::AllGather: return {1, ranks};
    case Op::ReduceScatter: return {ranks, 1};
    case Op::AllToAll: return {ranks, ranks};
    case Op::Send: return {1, 0};
    case Op::Recv: return {0, 1};
    default: return {1, 1};
  }
}

// The span [offset, offset + bytes) of value's memory, or nothing for undefined.
Span spanOrNone(Napi::Value value, const char* param, uint64_t offset, uint64_t bytes) {
  if (value.IsUndefined()) return {};
  return deviceSpanOf(value, param, offset, bytes);
}

uint64_t checkedBytes(Napi::Env env, uint64_t count, size_t element, size_t times) {
  const uint64_t limit = UINT64_MAX / element / (times ? times : 1);
  if (count > limit) throwRangeError(env, "count is too large");
  return count * element * times;
}

}  // namespace

Napi::Value NcclCall(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const int opNumber = intArg(info[0], "op");
  const uint64_t sendOffset = u64Arg(info[4], "sendOffset");
  const uint64_t recvOffset = u64Arg(info[6], "recvOffset");
  const uint64_t count = u64Arg(info[7], "count");
  const int type = intArg(info[8], "type");
  const int reduceOp = intArg(info[9], "reduceOp");
  const int peer = intArg(info[10], "peer");
  if (opNumber < 0 || opNumber >= static_cast<int>(Op::Count)) throwRangeError(env, "op is not an NCCL call");
  if (type < 0 || type >= static_cast<int>(kElementBytes.size())) throwRangeError(env, "type is not an NCCL type");
  if (reduceOp < 0 || reduceOp >= kReduceOps) throwRangeError(env, "reduceOp is not an NCCL operation");
  const Op op = static_cast<Op>(opNumber);
  if (op == Op::AllToAll && !api.ncclAlltoAll) throwTypeError(env, "this NCCL has no ncclAlltoAll");

  // Every argument is read; now the handles and the spans.
  const SlotTable& table = slotTable(env);
  const NcclCommRef& comm = Communicator::fromSlot(table, info[1], "communicator");
  if (!comm->comm) throwTypeError(env, "the communicator was aborted");
  StreamBox& stream = streamArg(info[2]);
  const Extent extent = extentOf(op, static_cast<size_t>(comm->size));
  const size_t element = kElementBytes[static_cast<size_t>(type)];
  const Span send = spanOrNone(info[3], "send", sendOffset, checkedBytes(env, count, element, extent.send));
  const Span recv = spanOrNone(info[5], "recv", recvOffset, checkedBytes(env, count, element, extent.recv));
  // Where the call reads or writes a buffer, it must be there (reduce's recv
  // only at the root, broadcast's send only at the root: NCCL ignores them elsewhere).
  const bool root = peer == comm->rank;
  const bool needsSend = op != Op::Recv && !(op == Op::Broadcast && !root);
  const bool needsRecv = op != Op::Send && !(op == Op::Reduce && !root);
  if (needsSend && !send.owner) throwTypeError(env, "send must be library memory");
  if (needsRecv && !recv.owner) throwTypeError(env, "recv must be library memory");

  const void* s = reinterpret_cast<const void*>(send.device);
  void* r = reinterpret_cast<void*>(recv.device);
  CUstream cs = stream.stream;
  nccl::Comm c = comm->comm;
  makeCurrent(env, comm->context);
  nccl::Result result = nccl::kInvalidArgument;
  switch (op) {
    case Op::AllReduce: result = api.ncclAllReduce(s, r, count, type, reduceOp, c, cs); break;
    case Op::Broadcast: result = api.ncclBroadcast(s, r, count, type, peer, c, cs); break;
    case Op::Reduce: result = api.ncclReduce(s, r, count, type, reduceOp, peer, c, cs); break;
    case Op::AllGather: result = api.ncclAllGather(s, r, count, type, c, cs); break;
    case Op::ReduceScatter: result = api.ncclReduceScatter(s, r, count, type, reduceOp, c, cs); break;
    case Op::Send: result = api.ncclSend(s, count, type, peer, c, cs); break;
    case Op::Recv: result = api.ncclRecv(r, count, type, peer, c, cs); break;
    case Op::AllToAll: result = api.ncclAlltoAll(s, r, count, type, c, cs); break;
    case Op::Count: break;
  }
  if (result == nccl::kSuccess || result == nccl::kInProgress) {
    // Queued (or, inside a group, to be queued at its end): the stream, or the
    // graph being captured, keeps the communicator and the buffers.
    stream.keepUntilIdle(comm);
    if (send.owner) stream.keepUntilIdle(send.owner);
    if (recv.owner) stream.keepUntilIdle(recv.owner);
  }
  return Napi::Number::New(env, result);
}

Napi::Value NcclGroupStart(const Napi::CallbackInfo& info) {
  if (!nccl::load().loaded) throwTypeError(info.Env(), "NCCL is not loaded");
  return Napi::Number::New(info.Env(), api.ncclGroupStart());
}

Napi::Value NcclGroupEnd(const Napi::CallbackInfo& info) {
  if (!nccl::load().loaded) throwTypeError(info.Env(), "NCCL is not loaded");
  return Napi::Number::New(info.Env(), api.ncclGroupEnd());
}

}  // namespace cudrv
