// A communicator's configuration (ncclConfig_t) as JavaScript gives it: read
// from the call's arguments first, kept alive as long as the communicator made
// with it (NCCL may keep the names' pointers), and turned into NCCL's struct
// on the thread that makes the communicator.
#pragma once

#include <memory>
#include <string>

#include <napi.h>

#include "generated/layouts.h"
#include "nccl/api.h"

namespace cudrv {

struct NcclConfigArgs {
  NcclConfigFields fields{};
  std::string netName;   // empty: NCCL's choice
  std::string commName;  // empty: none

  // NCCL's struct for these values, its version the loaded library's.
  nccl::Config toConfig() const;
};
using NcclConfigRef = std::shared_ptr<const NcclConfigArgs>;

// The configuration of an entry's arguments: the NcclConfigFields record and the two names.
NcclConfigRef configArg(Napi::Value fields, Napi::Value netName, Napi::Value commName);

}  // namespace cudrv
