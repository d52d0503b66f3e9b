// Handles named by number, for the hot calls (graph and kernel launches, event
// records). Finding the native object behind a JavaScript object costs a V8
// private-property lookup (its wrap; with the type tag once used to prove it
// ours, 800 instructions each under callgrind); a call that takes an
// executable and a stream paid three of them before reaching the driver. Every
// handle gets a slot in its environment's table when it is wrapped, and its
// object reads its number through a `slot` getter; hot calls take those numbers and index the
// table, which also says the slot's class, so no number names a handle of
// another class. A slot is freed when its object is finalized and reused with a
// new generation, so an old number names nothing.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace cudrv {

struct MemoryBox;
using MemoryRef = std::shared_ptr<MemoryBox>;

class SlotTable {
 public:
  struct Entry {
    void* object = nullptr;                // the Handle<Self, Box> wrapper (Self*)
    const void* classId = nullptr;         // Handle<Self, Box>::token()
    const char* name = nullptr;            // Self::kName
    MemoryRef (*memory)(void*) = nullptr;  // memory classes: the wrapper's box (null once disposed)
    uint32_t generation = 0;
  };

  // A slot for object; the number JavaScript sees, or -1 when 2^24 handles are live.
  double add(const Entry& entry);
  void remove(double id);

  // The wrappers (the pointers napi_wrap holds) of this environment's live
  // handles, with their slots: what proves an object to be a handle (of the
  // class its entry says). A foreign object unwraps to nothing or to a pointer
  // not listed here, and nothing JavaScript can do (prototypes, another addon's
  // wrap) adds one.
  void addWrapper(const void* wrapper, double id) { wrappers_.insert(wrapper, id); }
  void removeWrapper(const void* wrapper) { wrappers_.erase(wrapper); }
  // The entry of the handle whose wrapper this is, or nullptr.
  const Entry* entryOf(const void* wrapper) const {
    const double* id = wrappers_.find(wrapper);
    return id ? find(*id) : nullptr;
  }
  // The entry a number names, or nullptr when it names no live slot.
  const Entry* find(double id) const {
    if (!(id >= 0) || id >= kLimit) return nullptr;
    const uint64_t n = static_cast<uint64_t>(id);
    const uint64_t index = n & (kIndexSpan - 1);
    if (static_cast<double>(n) != id || index >= entries_.size()) return nullptr;
    const Entry& entry = entries_[index];
    return entry.object && entry.generation == (n >> kIndexBits) ? &entry : nullptr;
  }

 private:
  static constexpr int kIndexBits = 24;
  static constexpr uint64_t kIndexSpan = uint64_t{1} << kIndexBits;
  static constexpr double kLimit = 9007199254740992.0;  // 2^53: numbers stay exact
  std::vector<Entry> entries_;
  std::vector<uint32_t> unused_;
  // Wrapper pointer -> slot, open addressing with linear probing: a handle's
  // creation and release touch it, and std::unordered_map's node per entry cost
  // an allocation and a free each time (a tenth of a graph node's creation).
  class WrapperMap {
   public:
    void insert(const void* key, double value);
    void erase(const void* key);
    const double* find(const void* key) const {
      if (keys_.empty()) return nullptr;
      for (size_t i = indexOf(key);; i = (i + 1) & mask()) {
        if (keys_[i] == key) return &values_[i];
        if (!keys_[i]) return nullptr;
      }
    }

   private:
    size_t mask() const { return keys_.size() - 1; }
    size_t indexOf(const void* key) const {
      return static_cast<size_t>((reinterpret_cast<uintptr_t>(key) >> 3) * 0x9E3779B97F4A7C15ull) & mask();
    }
    void grow();
    std::vector<const void*> keys_;  // nullptr: empty
    std::vector<double> values_;
    size_t size_ = 0;
  };
  WrapperMap wrappers_;
};

// The table of env's handles (held by each handle too, so that a handle
// finalized during teardown can still free its slot).
const std::shared_ptr<SlotTable>& slotTable(Napi::Env env);

// The number read from a slot argument (NaN when it is not a number).
inline double slotArg(Napi::Value value) {
  double id = -1;
  if (napi_get_value_double(value.Env(), value, &id) != napi_ok) return -1;
  return id;
}

// The entry of the handle value is, or nullptr when it is none (one unwrap).
const SlotTable::Entry* entryOfObject(Napi::Value value);

// The memory an entry names (a DeviceBuffer, HostBuffer, ...); null when it is
// no memory handle's, the disposed error when it names a disposed one.
MemoryRef memoryOfEntry(Napi::Env env, const SlotTable::Entry* entry);

// The same for the handle a slot number names.
inline MemoryRef memoryOfSlot(Napi::Env env, const SlotTable& table, double id) { return memoryOfEntry(env, table.find(id)); }

}  // namespace cudrv
