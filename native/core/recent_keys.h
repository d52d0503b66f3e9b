// A few keys met lately, each with a stamp, found without a hash lookup: the
// standard unordered containers hash a pointer with a division, and a launch
// or a node update names the same few resources again and again. Searched
// whole (a key's place does not depend on its address, so two resources
// never evict each other by where they were allocated); the oldest goes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudrv {

class RecentKeys {
 public:
  // Whether key was noted with this stamp (and not pushed out since).
  bool has(const void* key, uint64_t stamp) const {
    for (const Entry& e : entries_) {
      if (e.key == key) return e.stamp == stamp;
    }
    return false;
  }
  void note(const void* key, uint64_t stamp) {
    for (Entry& e : entries_) {
      if (e.key == key) {
        e.stamp = stamp;
        return;
      }
    }
    entries_[next_] = {key, stamp};
    next_ = (next_ + 1) % kSize;
  }

 private:
  static constexpr size_t kSize = 8;
  struct Entry {
    const void* key = nullptr;
    uint64_t stamp = 0;
  };
  Entry entries_[kSize];
  size_t next_ = 0;
};

}  // namespace cudrv
