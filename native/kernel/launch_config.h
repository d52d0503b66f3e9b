// A launch's configuration as the TypeScript layer encodes it: one Int32Array
// (the LaunchConfig record of kernel/layouts.txt), read without property
// lookups, and turned into the driver's CUlaunchConfig with its attributes.
#pragma once

#include <napi.h>

#include "driver/call.h"
#include "generated/layouts.h"

namespace cudrv {

// How a launch reaches the driver: the plain call when it has no attributes,
// cuLaunchCooperativeKernel when cooperation is its only one, else cuLaunchKernelEx.
enum class LaunchCall { Plain, Cooperative, Extended };

struct LaunchPlan {
  CUlaunchConfig config{};  // hStream left null; attrs points into attributes
  CUlaunchAttribute attributes[4];  // the first config.numAttrs are set (not zeroed: a launch decodes a plan)
  LaunchCall call = LaunchCall::Plain;

  LaunchPlan() = default;
  // attrs points into the object itself: copying must repoint it.
  LaunchPlan(const LaunchPlan& other) { *this = other; }
  LaunchPlan& operator=(const LaunchPlan& other);
};

// Reads and checks an encoded configuration (an Int32Array over a LaunchConfig).
LaunchPlan readLaunchPlan(Napi::Value encoded, const char* name);
// The same from a LaunchConfig read out of a record, decoded into plan (in
// place: a launch's plan is not copied).
void decodeLaunchPlan(Napi::Env env, const LaunchConfig& s, const char* name, LaunchPlan& plan);

// Launches with the plan's call; kernelParams or extra as cuLaunchKernel takes them.
CUresult launchWithPlan(const LaunchPlan& plan, CUfunction f, CUstream stream, void** kernelParams, void** extra);

// The driver function launchWithPlan calls (for errors); packed: extra is given.
Fn launchFunction(const LaunchPlan& plan, bool packed);

}  // namespace cudrv
