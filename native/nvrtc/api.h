// NVRTC's C interface. It is declared here rather than taken from nvrtc.h
// because the toolkit's NVRTC headers are a separate package that build
// machines often lack (only the driver headers are required to build); the
// declarations below are NVRTC's stable C ABI, unchanged since CUDA 11.2.
#pragma once

#include <cstddef>

namespace cudrv::nvrtc {

using Result = int;  // nvrtcResult
constexpr Result kSuccess = 0;
constexpr Result kErrorInvalidInput = 3;

using Program = struct ProgramOpaque*;  // nvrtcProgram

// Every entry point the addon uses; X(name, return type, parameter types).
#define CUDRV_NVRTC_FUNCTIONS(X)                                                                    \
  X(nvrtcGetErrorString, const char*, Result)                                                       \
  X(nvrtcVersion, Result, int*, int*)                                                               \
  X(nvrtcGetNumSupportedArchs, Result, int*)                                                        \
  X(nvrtcGetSupportedArchs, Result, int*)                                                           \
  X(nvrtcCreateProgram, Result, Program*, const char*, const char*, int, const char* const*,        \
    const char* const*)                                                                             \
  X(nvrtcDestroyProgram, Result, Program*)                                                          \
  X(nvrtcCompileProgram, Result, Program, int, const char* const*)                                 \
  X(nvrtcGetPTXSize, Result, Program, size_t*)                                                      \
  X(nvrtcGetPTX, Result, Program, char*)                                                            \
  X(nvrtcGetCUBINSize, Result, Program, size_t*)                                                    \
  X(nvrtcGetCUBIN, Result, Program, char*)                                                          \
  X(nvrtcGetProgramLogSize, Result, Program, size_t*)                                               \
  X(nvrtcGetProgramLog, Result, Program, char*)                                                     \
  X(nvrtcAddNameExpression, Result, Program, const char*)                                           \
  X(nvrtcGetLoweredName, Result, Program, const char*, const char**)

struct Api {
#define CUDRV_NVRTC_MEMBER(name, ret, ...) ret (*name)(__VA_ARGS__) = nullptr;
  CUDRV_NVRTC_FUNCTIONS(CUDRV_NVRTC_MEMBER)
#undef CUDRV_NVRTC_MEMBER
};

}  // namespace cudrv::nvrtc
