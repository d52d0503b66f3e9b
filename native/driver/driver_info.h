// What JavaScript can learn about the driver without needing it: load status,
// versions, the function table and the call counters.
#pragma once

#include <napi.h>

namespace cudrv {
void initDriverInfo(Napi::Env env, Napi::Object exports);
}
