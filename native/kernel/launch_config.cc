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
  constexpr size_t kSlots = kLaunchConfigBytes / sizeof(int32_t);
  if (length != kSlots) rangeError(encoded.Env(), name, "must have " + std::to_string(kSlots) + " slots");
  LaunchConfig config;
  std::memcpy(&config, slots, sizeof(config));
  LaunchPlan plan;
  decodeLaunchPlan(encoded.Env(), config, name, plan);
  return plan;
}

void decodeLaunchPlan(Napi::Env env, const LaunchConfig& s, const char* name, LaunchPlan& plan) {
  for (int32_t d : {s.gridX, s.gridY, s.gridZ, s.blockX, s.blockY, s.blockZ}) {
    if (d < 1) rangeError(env, name, "grid and block dimensions must be at least 1");
  }
  if (s.sharedMemoryBytes < 0) rangeError(env, name, "shared memory bytes must not be negative");
  for (int32_t d : {s.clusterX, s.clusterY, s.clusterZ}) {
    if (d < 0) rangeError(env, name, "cluster dimensions must not be negative");
  }

  CUlaunchConfig& c = plan.config;
  c.gridDimX = static_cast<unsigned>(s.gridX);
  c.gridDimY = static_cast<unsigned>(s.gridY);
  c.gridDimZ = static_cast<unsigned>(s.gridZ);
  c.blockDimX = static_cast<unsigned>(s.blockX);
  c.blockDimY = static_cast<unsigned>(s.blockY);
  c.blockDimZ = static_cast<unsigned>(s.blockZ);
  c.sharedMemBytes = static_cast<unsigned>(s.sharedMemoryBytes);
  c.hStream = nullptr;
  unsigned n = 0;
  if (s.cooperative) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
    plan.attributes[n++].value.cooperative = 1;
  }
  if (s.clusterX || s.clusterY || s.clusterZ) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    plan.attributes[n].value.clusterDim.x = static_cast<unsigned>(s.clusterX ? s.clusterX : 1);
    plan.attributes[n].value.clusterDim.y = static_cast<unsigned>(s.clusterY ? s.clusterY : 1);
    plan.attributes[n++].value.clusterDim.z = static_cast<unsigned>(s.clusterZ ? s.clusterZ : 1);
  }
  if (s.hasPriority) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    plan.attributes[n++].value.priority = s.priority;
  }
  if (s.programmaticStreamSerialization) {
    plan.attributes[n].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    plan.attributes[n++].value.programmaticStreamSerializationAllowed = 1;
  }
  c.numAttrs = n;
  c.attrs = n ? plan.attributes : nullptr;
  plan.call = n == 0 ? LaunchCall::Plain
              : (n == 1 && s.cooperative) ? LaunchCall::Cooperative
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
