// The table that owns every handle's box, and names it by number.
//
// A handle is a slot here: its class and its box (the driver handle and what
// its release needs). JavaScript receives the slot's number from the call that
// made the handle; the library's object adopts it and names the handle by it
// in every call, and once the object is collected, a FinalizationRegistry of
// lib/disposable.ts frees the slot. Adoptions and collections are entries of
// the handle queue (a Float64Array shared with JavaScript, below), not calls:
// a call costs more than the rest of a handle's adoption. JavaScript holds
// numbers, never native objects: a wrapped object per handle costs more than
// the driver call that makes a stream (bench/handle-cost.js measures both).
//
// Graph nodes' slots are owned from the start and freed with their graph's
// object (graph/graph.h NodeBox).
//
// A slot is freed once its owner is collected (or at its dispose, when its
// object was never registered for its collection) and reused with a new
// generation, so an old number names nothing; the table also says each slot's
// class, so no number names a handle of another class.
#pragma once

#include <napi.h>

#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace cudrv {

struct MemoryBox;
using MemoryRef = std::shared_ptr<MemoryBox>;

// What the table knows of a handle class (Handle<Self, Box>::slotClass()).
struct SlotClass {
  const char* name;                                 // Self::kName
  void (*beforeDispose)(void* box);                 // Self::disposing, before dispose() lets go of the box
  void (*beforeCollect)(void* box);                 // Self::collecting, before a slot that still holds its box is freed
  std::shared_ptr<void> (*take)(void* box);         // moves the box out of its storage, and ends the storage
  MemoryRef (*memory)(const void* box);             // memory classes: the box as memory; others: null
  const MemoryBox* (*memoryBox)(const void* box);   // ... the same by address, no reference taken
  bool (*permanent)(const void* box);               // Self::permanent: dispose() leaves the box alone
};

class SlotTable {
 public:
  struct Entry {
    // The class's std::shared_ptr<Box>, made in place while hasBox (every
    // shared_ptr has this size and alignment; core/handle.h checks).
    alignas(std::shared_ptr<void>) unsigned char box[sizeof(std::shared_ptr<void>)];
    const SlotClass* kind = nullptr;  // null: the slot is free
    uint32_t generation = 0;
    bool hasBox = false;              // false once disposed
    bool owned = false;               // an object owns the slot; its collection will free it
    bool disposedStandIn = false;     // its class's disposed slot (disposedSlotOf): never freed
    // The box is one no dispose() or collection may end (Handle::permanent: the legacy streams).
    bool permanent() const { return hasBox && kind->permanent(box); }
  };

  // A slot holding box; the number JavaScript sees, or -1 when 2^24 handles are live.
  template <typename Box>
  double add(const SlotClass& kind, std::shared_ptr<Box> box) {
    const double id = reserve(kind);
    if (id >= 0) new (entryAt(id).box) std::shared_ptr<Box>(std::move(box));
    return id;
  }
  // Lets go of the slot's box (dispose(): the class's hook first). The slot stays, disposed.
  void dispose(double id);
  // Frees the slot (its owner is gone, or never came); a number of an earlier
  // generation is ignored. A box never disposed gets its class's collecting
  // hook first.
  void remove(double id);
  // Marks the slot owned; false when it names no live slot or one already owned.
  bool own(double id);
  // A slot of kind that is disposed for good, for objects whose own slot was
  // freed at their dispose (lib/disposable.ts): calls naming it throw the
  // disposed error as their own slot did. Made on first use; -1 when the
  // table is full.
  double disposedSlotOf(const SlotClass& kind);

  // The handle queue: queue()[0] is the count of entries after it, each the
  // number of a slot an object adopted, or -1 - the number of a slot whose
  // owner was collected. JavaScript appends and calls drainQueue() when it is
  // full; the table drains it before it reads ownership. Anything JavaScript
  // writes there is checked as any slot number is.
  static constexpr size_t kQueueEntries = 255;
  const std::shared_ptr<double[]>& queue() const { return queue_; }
  void drainQueue();
  // A slot handed to JavaScript for an object to adopt: freed on the event
  // loop's next turn if none has (lib/ adopts in the same task; a caller of
  // the addon's functions that drops the number would leak the handle).
  void expectOwner(Napi::Env env, double id);
  void sweepUnowned();
  // Releases every handle still held: the environment is being torn down, and
  // its objects' collection will not come (core/addon.cc calls it while the rest of
  // the environment's state is still there).
  void releaseAll();

  // The entry a number names, or nullptr when it names no live slot.
  const Entry* find(double id) const {
    if (!(id >= 0) || id >= kLimit) return nullptr;
    const uint64_t n = static_cast<uint64_t>(id);
    const uint64_t index = n & (kIndexSpan - 1);
    if (static_cast<double>(n) != id || index >= size_) return nullptr;
    const Entry& entry = chunks_[index >> kChunkBits][index & (kChunkSpan - 1)];
    return entry.kind && entry.generation == (n >> kIndexBits) ? &entry : nullptr;
  }

  SlotTable() = default;
  SlotTable(const SlotTable&) = delete;
  SlotTable& operator=(const SlotTable&) = delete;
  ~SlotTable();

 private:
  double reserve(const SlotClass& kind);
  Entry& entryAt(double id) {
    const uint64_t index = static_cast<uint64_t>(id) & (kIndexSpan - 1);
    return chunks_[index >> kChunkBits][index & (kChunkSpan - 1)];
  }

  static constexpr int kIndexBits = 24;
  static constexpr uint64_t kIndexSpan = uint64_t{1} << kIndexBits;
  static constexpr double kLimit = 9007199254740992.0;  // 2^53: numbers stay exact
  // Entries sit in chunks that never move: a box is only ever made, moved out
  // and ended in place, and a call may hold a reference to one while it makes
  // another handle.
  static constexpr int kChunkBits = 10;
  static constexpr uint64_t kChunkSpan = uint64_t{1} << kChunkBits;
  std::vector<std::unique_ptr<Entry[]>> chunks_;
  uint64_t size_ = 0;
  std::vector<uint32_t> unused_;
  std::vector<double> unowned_;
  std::vector<std::pair<const SlotClass*, double>> disposedSlots_;
  bool sweepScheduled_ = false;
  std::shared_ptr<double[]> queue_{new double[kQueueEntries + 1]()};
};

// The table of env's handles.
SlotTable& slotTable(Napi::Env env);

// The number read from a slot argument (-1 when it is not a number).
inline double slotArg(Napi::Value value) {
  double id = -1;
  if (napi_get_value_double(value.Env(), value, &id) != napi_ok) return -1;
  return id;
}

// The memory an entry names (a DeviceBuffer, HostBuffer, ...); null when it is
// no memory handle's, the disposed error when it names a disposed one.
MemoryRef memoryOfEntry(Napi::Env env, const SlotTable::Entry* entry);

// The same for the handle a slot number names.
inline MemoryRef memoryOfSlot(Napi::Env env, const SlotTable& table, double id) { return memoryOfEntry(env, table.find(id)); }

// The memory a slot names, by address, for the hot calls: a reference to it is
// made (ref()) only where one is kept anew, as each shared_ptr copy and
// release is an atomic operation. Valid until JavaScript runs.
struct MemoryInSlot {
  const MemoryBox* box = nullptr;  // null: the slot names no memory handle
  const SlotTable::Entry* entry = nullptr;
  MemoryRef ref() const { return entry->kind->memory(entry->box); }
};
// As memoryOfEntry / memoryOfSlot: the disposed error when it names disposed memory.
MemoryInSlot memoryInEntry(Napi::Env env, const SlotTable::Entry* entry);
inline MemoryInSlot memoryInSlot(Napi::Env env, const SlotTable& table, double id) { return memoryInEntry(env, table.find(id)); }

}  // namespace cudrv
