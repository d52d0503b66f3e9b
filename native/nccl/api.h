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

// ncclConfig_t up to the fields of NCCL 2.27. The struct grows with releases
// and says how long it is: NCCL copies at most its own length of it, and takes
// a field only from a caller whose version has it, so a library older or newer
// than this prefix reads it correctly. Fields left unset are kConfigUnset
// (NCCL_CONFIG_UNDEF_INT), names null (NCCL_CONFIG_UNDEF_PTR).
constexpr int kConfigUnset = -2147483647 - 1;
struct Config {
  size_t size = sizeof(Config);
  unsigned int magic = 0xcafebeef;  // NCCL_API_MAGIC
  unsigned int version = 0;         // the loaded library's NCCL_VERSION_CODE
  int blocking = kConfigUnset;
  int cgaClusterSize = kConfigUnset;
  int minCTAs = kConfigUnset;
  int maxCTAs = kConfigUnset;
  const char* netName = nullptr;
  int splitShare = kConfigUnset;
  int trafficClass = kConfigUnset;
  const char* commName = nullptr;
  int collnetEnable = kConfigUnset;
  int ctaPolicy = kConfigUnset;
  int shrinkShare = kConfigUnset;
  int nvlsCTAs = kConfigUnset;
};

// ncclCommShrink's flags.
constexpr int kShrinkDefault = 0;  // NCCL_SHRINK_DEFAULT
constexpr int kShrinkAbort = 1;    // NCCL_SHRINK_ABORT: ends the parent's pending work first

// Every entry point the addon needs; X(name, return type, parameter types).
#define CUDRV_NCCL_FUNCTIONS(X)                                                                    \
  X(ncclGetVersion, Result, int*)                                                                  \
  X(ncclGetErrorString, const char*, Result)                                                       \
  X(ncclGetLastError, const char*, Comm)                                                           \
  X(ncclGetUniqueId, Result, UniqueId*)                                                            \
  X(ncclCommInitRankConfig, Result, Comm*, int, UniqueId, int, Config*)                            \
  X(ncclCommSplit, Result, Comm, int, int, Comm*, Config*)                                         \
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
#define CUDRV_NCCL_OPTIONAL_FUNCTIONS(X)                                        \
  X(ncclAlltoAll, Result, const void*, void*, size_t, DataType, Comm, CUstream) \
  X(ncclCommShrink, Result, Comm, int*, int, Comm*, Config*, int)

struct Api {
#define CUDRV_NCCL_MEMBER(name, ret, ...) ret (*name)(__VA_ARGS__) = nullptr;
  CUDRV_NCCL_FUNCTIONS(CUDRV_NCCL_MEMBER)
  CUDRV_NCCL_OPTIONAL_FUNCTIONS(CUDRV_NCCL_MEMBER)
#undef CUDRV_NCCL_MEMBER
};

}  // namespace cudrv::nccl
