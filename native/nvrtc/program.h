// Compiling CUDA C++ with NVRTC, on the JavaScript thread or off it. A compile
// never throws for NVRTC's own failures: it returns what happened (the stage
// that failed, NVRTC's result and the full log), and the TypeScript layer
// turns a failure into a CompileError or NvrtcUnavailableError.
#pragma once

#include <napi.h>

namespace cudrv {
void initNvrtc(Napi::Env env, Napi::Object exports);
}
