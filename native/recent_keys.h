// A few keys met lately, each with a stamp, found without a hash lookup: the
// standard unordered containers hash a pointer with a division, and a launch
// or a node update names the same few resources again and again.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudrv {

class RecentKeys {
 public:
  // Whether key was noted with this stamp (and not pushed out since).
  bool has(const void* key, uint64_t stamp) const {
    const Entry& e = entries_[at(key)];
    return e.key == key && e.stamp == stamp;
  }
  void note(const void* key, uint64_t stamp) { entries_[at(key)] = {key, stamp}; }

 private:
  static constexpr size_t kSize = 4;
  static size_t at(const void* key) { return (reinterpret_cast<uintptr_t>(key) >> 4) % kSize; }
  struct Entry {
    const void* key = nullptr;
    uint64_t stamp = 0;
  };
  Entry entries_[kSize];
};

}  // namespace cudrv
