#include "kernel/launch_config.h"

#include <cstring>

#include "core/args.h"

namespace cudrv {

LaunchPlan& LaunchPlan::operator=(const LaunchPlan& other) {
  config = other.config;
  for (unsigned i = 0; i < other.config.numAttrs; ++i) attributes[i] = other.attributes[i];
  config.attrs = config.numAttrs ? attributes : nullptr;
  call = other.call;
  return *this;
}

LaunchPlan readLaunchPlan(Napi::Value encoded, const char* name) {
  size_t length = 0;
  const int32_t* slots = typedArrayArg<int32_t>(encoded, napi_int32_array, name, "an Int32Array", &length);
  if (length != kLaunchConfigSlots) rangeError(encoded.Env(), name, "must have " + std::to_string(kLaunchConfigSlots) + " slots");
  LaunchPlan plan;
  decodeLaunchPlan(encoded.Env(), slots, name, plan);
  return plan;
}

void decodeLaunchPlan(Napi::Env env, const int32_t* slots, const char* name, LaunchPlan& plan) {
  int32_t s[kLaunchConfigSlots];
  std::memcpy(s, slots, sizeof(s));  // the slots may sit at any byte of a caller's buffer
  for (int i : {kGridX, kGridY, kGridZ, kBlockX, kBlockY, kBlockZ}) {
    if (s[i] < 1) rangeError(env, name, "grid and block dimensions must be at least 1");
  }
  if (s[kSharedMemoryBytes] < 0) rangeError(env, name, "shared memory bytes must not be negative");
  for (int i : {kClusterX, kClusterY, kClusterZ}) {
    if (s[i] < 0) rangeError(env, name, "cluster dimensions must not be negative");
  }

  CUlaunchConfig& c = plan.config;
  c.gridDimX = static_cast<unsigned>(s[kGridX]);
  c.gridDimY = static_cast<unsigned>(s[kGridY]);
  c.gridDimZ = static_cast<unsigned>(s[kGridZ]);
  c.blockDimX = static_cast<unsigned>(s[kBlockX]);
  c.blockDimY = static_cast<unsigned>(s[kBlockY]);
  c.blockDimZ = static_cast<unsigned>(s[kBlockZ]);
  c.sharedMemBytes = static_cast<unsigned>(s[kSharedMemoryBytes]);
  c.hStream = nullptr;
  unsigned n = 0;
  if (s[kCooperative]) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    plan.attributes[n++].value.cooperative = 1;
  }
  if (s[kClusterX] || s[kClusterY] || s[kClusterZ]) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    plan.attributes[n].value.clusterDim.x = static_cast<unsigned>(s[kClusterX] ? s[kClusterX] : 1);
    plan.attributes[n].value.clusterDim.y = static_cast<unsigned>(s[kClusterY] ? s[kClusterY] : 1);
    plan.attributes[n++].value.clusterDim.z = static_cast<unsigned>(s[kClusterZ] ? s[kClusterZ] : 1);
  }
  if (s[kHasPriority]) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    plan.attributes[n++].value.priority = s[kPriority];
  }
  if (s[kProgrammaticStreamSerialization]) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    plan.attributes[n++].value.programmaticStreamSerializationAllowed = 1;
  }
  c.numAttrs = n;
  c.attrs = n ? plan.attributes : nullptr;
  plan.call = n == 0 ? LaunchCall::Plain
              : (n == 1 && s[kCooperative]) ? LaunchCall::Cooperative
                                             : LaunchCall::Extended;
}

CUresult launchWithPlan(const LaunchPlan& plan, CUfunction f, CUstream stream, void** kernelParams, void** extra) {
  const CUlaunchConfig& c = plan.config;
  switch (plan.call) {
    case LaunchCall::Plain:
      return CU_CALL(cuLaunchKernel, f, c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX, c.blockDimY, c.blockDimZ,
                     c.sharedMemBytes, stream, kernelParams, extra);
    case LaunchCall::Cooperative:
      // cuLaunchCooperativeKernel takes no extra: a packed buffer goes through cuLaunchKernelEx.
      if (!extra) {
        return CU_CALL(cuLaunchCooperativeKernel, f, c.gridDimX, c.gridDimY, c.gridDimZ, c.blockDimX, c.blockDimY,
                       c.blockDimZ, c.sharedMemBytes, stream, kernelParams);
      }
      [[fallthrough]];
    case LaunchCall::Extended: {
      CUlaunchConfig config = c;
      config.hStream = stream;
      return CU_CALL(cuLaunchKernelEx, &config, f, kernelParams, extra);
    }
  }
  return CUDA_ERROR_INVALID_VALUE;
}

Fn launchFunction(const LaunchPlan& plan, bool packed) {
  switch (plan.call) {
    case LaunchCall::Plain: return Fn::cuLaunchKernel;
    case LaunchCall::Cooperative: return packed ? Fn::cuLaunchKernelEx : Fn::cuLaunchCooperativeKernel;
    default: return Fn::cuLaunchKernelEx;
  }
}

}  // namespace cudrv
