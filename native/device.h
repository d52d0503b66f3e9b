// Devices: enumeration and queries by ordinal.
#pragma once

#include <napi.h>

namespace cudrv {
void initDevice(Napi::Env env, Napi::Object exports);
}
