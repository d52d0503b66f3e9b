#include "nccl/config.h"

#include "core/args.h"
#include "nccl/loader.h"

namespace cudrv {

nccl::Config NcclConfigArgs::toConfig() const {
  nccl::Config config;
  config.version = static_cast<unsigned int>(nccl::load().version);
  config.cgaClusterSize = fields.cgaClusterSize;
  config.minCTAs = fields.minCTAs;
  config.maxCTAs = fields.maxCTAs;
  config.netName = netName.empty() ? nullptr : netName.c_str();
  config.splitShare = fields.splitShare;
  config.trafficClass = fields.trafficClass;
  config.commName = commName.empty() ? nullptr : commName.c_str();
  config.collnetEnable = fields.collnetEnable;
  config.ctaPolicy = fields.ctaPolicy;
  config.shrinkShare = fields.shrinkShare;
  return config;
}

NcclConfigRef configArg(Napi::Value fields, Napi::Value netName, Napi::Value commName) {
  auto args = std::make_shared<NcclConfigArgs>();
  args->fields = bytesArg<NcclConfigFields>(fields, "config");
  args->netName = stringArg(netName, "netName");
  args->commName = stringArg(commName, "commName");
  return args;
}

}  // namespace cudrv
