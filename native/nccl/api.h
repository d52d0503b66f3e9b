// NCCL's C interface, declared here because nccl.h comes with NCCL itself (a
// wheel, a distribution package), which build machines rarely have. Only what
// the addon calls is declared: the types and values are NCCL's stable ABI,
// unchanged from 2.18 (the oldest release the loader accepts) to 2.28.
#pragma once

#include <cuda.h>

#include <cstddef>

namespace cudrv::nccl {

using Result = int;  // ncclResult_t
constexpr Result kSuccess = 0;
constexpr Result kInvalidArgument = 4;
constexpr Result kInvalidUsage = 5;
constexpr Result kInProgress = 7;

using Comm = struct CommOpaque*;  // ncclComm_t
struct UniqueId {                 // ncclUniqueId
  char internal[128];
};
using DataType = int;  // ncclDataType_t: ncclInt8 = 0 ... ncclFloat8e5m2 = 11
using RedOp = int;     // ncclRedOp_t: ncclSum = 0, ncclProd, ncclMax, ncclMin, ncclAvg = 4
constexpr int kSplitNoColor = -1;  // NCCL_SPLIT_NOCOLOR

// NCCL_VERSION(2, 18, 0): ncclCommSplit and ncclCommFinalize in blocking mode.
constexpr int kOldestVersion = 21800;

// Every entry point the addon needs; X(name, return type, parameter types).
// ncclConfig_t* parameters are always passed null (the defaults), so the
// struct, which grows with every release, is never declared.
#define CUDRV_NCCL_FUNCTIONS(X)                                                                    \
  X(ncclGetVersion, Result, int*)                                                                  \
  X(ncclGetErrorString, const char*, Result)                                                       \
  X(ncclGetLastError, const char*, Comm)                                                           \
  X(ncclGetUniqueId, Result, UniqueId*)                                                            \
  X(ncclCommInitRank, Result, Comm*, int, UniqueId, int)                                           \
  X(ncclCommSplit, Result, Comm, int, int, Comm*, void*)                                           \
  X(ncclCommFinalize, Result, Comm)                                                                \
  X(ncclCommDestroy, Result, Comm)                                                                 \
  X(ncclCommAbort, Result, Comm)                                                                   \
  X(ncclCommGetAsyncError, Result, Comm, Result*)                                                  \
  X(ncclCommCount, Result, Comm, int*)                                                             \
  X(ncclCommCuDevice, Result, Comm, int*)                                                          \
  X(ncclCommUserRank, Result, Comm, int*)                                                          \
  X(ncclAllReduce, Result, const void*, void*, size_t, DataType, RedOp, Comm, CUstream)            \
  X(ncclBroadcast, Result, const void*, void*, size_t, DataType, int, Comm, CUstream)              \
  X(ncclReduce, Result, const void*, void*, size_t, DataType, RedOp, int, Comm, CUstream)          \
  X(ncclAllGather, Result, const void*, void*, size_t, DataType, Comm, CUstream)                   \
  X(ncclReduceScatter, Result, const void*, void*, size_t, DataType, RedOp, Comm, CUstream)        \
  X(ncclSend, Result, const void*, size_t, DataType, int, Comm, CUstream)                          \
  X(ncclRecv, Result, void*, size_t, DataType, int, Comm, CUstream)                                \
  X(ncclGroupStart, Result)                                                                        \
  X(ncclGroupEnd, Result)

// Entry points of newer releases, null where the library lacks them.
#define CUDRV_NCCL_OPTIONAL_FUNCTIONS(X) \
  X(ncclAlltoAll, Result, const void*, void*, size_t, DataType, Comm, CUstream)

struct Api {
#define CUDRV_NCCL_MEMBER(name, ret, ...) ret (*name)(__VA_ARGS__) = nullptr;
  CUDRV_NCCL_FUNCTIONS(CUDRV_NCCL_MEMBER)
  CUDRV_NCCL_OPTIONAL_FUNCTIONS(CUDRV_NCCL_MEMBER)
#undef CUDRV_NCCL_MEMBER
};

}  // namespace cudrv::nccl
