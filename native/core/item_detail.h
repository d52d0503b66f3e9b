// The detail of a driver error about one item of a batch (stream.submit).
#pragma once

#include <cstdint>
#include <string>

namespace cudrv {

// "items[3], name", or "items[3]" for an empty name; name alone when item is
// -1 (a call of one item, not a batch). Built only for an error.
inline std::string itemDetail(int64_t item, const std::string& name) {
  if (item < 0) return name;
  std::string detail = "items[" + std::to_string(item) + "]";
  return name.empty() ? detail : detail + ", " + name;
}

}  // namespace cudrv
