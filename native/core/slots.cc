#include "core/slots.h"

#include <algorithm>

#include "core/addon_data.h"
#include "core/errors.h"
#include "core/hot_call.h"
#include "core/immediate.h"
#include "memory/memory.h"
#include "generated/entries.h"

namespace cudrv {

SlotTable::~SlotTable() { releaseAll(); }

// size_ is read anew each time: a release may make or free other handles.
// Each handle is disposed as dispose() would, so that what it lets go of first
// (a host buffer's views, a stream's work in flight) goes while the
// environment is still there.
void SlotTable::releaseAll() {
  for (uint64_t index = 0; index < size_; ++index) {
    Entry& entry = chunks_[index >> kChunkBits][index & (kChunkSpan - 1)];
    if (!entry.kind || !entry.hasBox) continue;
    entry.kind->beforeDispose(entry.box);
    std::shared_ptr<void> box = entry.kind->take(entry.box);
    entry.hasBox = false;
  }
}

double SlotTable::reserve(const SlotClass& kind) {
  uint64_t index;
  if (!unused_.empty()) {
    index = unused_.back();
    unused_.pop_back();
  } else {
    if (size_ >= kIndexSpan) return -1;  // 16M live handles
    index = size_++;
    if ((index >> kChunkBits) == chunks_.size()) chunks_.push_back(std::make_unique<Entry[]>(kChunkSpan));
  }
  Entry& entry = chunks_[index >> kChunkBits][index & (kChunkSpan - 1)];
  entry.kind = &kind;
  entry.hasBox = true;
  entry.owned = false;
  return static_cast<double>((static_cast<uint64_t>(entry.generation) << kIndexBits) | index);
}

// The box leaves its storage before it ends: its release may run code (a
// stream's hand-off of pending work) that makes or frees other handles.
void SlotTable::dispose(double id) {
  if (!find(id)) return;
  Entry& entry = entryAt(id);
  if (!entry.hasBox || entry.permanent()) return;
  entry.kind->beforeDispose(entry.box);
  std::shared_ptr<void> box = entry.kind->take(entry.box);
  entry.hasBox = false;
}

void SlotTable::remove(double id) {
  if (!find(id)) return;
  Entry& entry = entryAt(id);
  if (entry.disposedStandIn) return;
  if (entry.hasBox) entry.kind->beforeCollect(entry.box);
  std::shared_ptr<void> box = entry.hasBox ? entry.kind->take(entry.box) : nullptr;
  entry.kind = nullptr;
  entry.hasBox = false;
  entry.owned = false;
  entry.generation = (entry.generation + 1) & ((1u << (53 - kIndexBits)) - 1);
  unused_.push_back(static_cast<uint32_t>(static_cast<uint64_t>(id) & (kIndexSpan - 1)));
}

void SlotTable::expectOwner(Napi::Env env, double id) {
  unowned_.push_back(id);
  if (sweepScheduled_) return;
  // A closing environment queues nothing: its teardown frees the slots.
  sweepScheduled_ = queueImmediate(env, addonData(env).sweepUnowned);
}

void SlotTable::sweepUnowned() {
  sweepScheduled_ = false;
  drainQueue();
  std::vector<double> ids;
  ids.swap(unowned_);
  for (double id : ids) {
    if (find(id) && !entryAt(id).owned) remove(id);
  }
}

// The entries are copied out first: a released box may run code that makes
// or frees handles, and JavaScript that appends again.
void SlotTable::drainQueue() {
  double* queue = queue_.get();
  const double count = queue[0];
  queue[0] = 0;
  const size_t n = count > 0 && count <= kQueueEntries ? static_cast<size_t>(count) : 0;
  double entries[kQueueEntries];
  std::copy(queue + 1, queue + 1 + n, entries);
  for (size_t i = 0; i < n; ++i) {
    const double entry = entries[i];
    if (entry >= 0) {
      own(entry);  // false for a number that names nothing or an owned slot: lib/ appends each slot once
    } else if (const Entry* collected = find(-1 - entry); collected && !collected->permanent()) {
      remove(-1 - entry);  // a permanent handle's (the legacy stream's) slot stays, whoever asks
    }
  }
}

bool SlotTable::own(double id) {
  if (!find(id) || entryAt(id).owned) return false;
  entryAt(id).owned = true;
  return true;
}

double SlotTable::disposedSlotOf(const SlotClass& kind) {
  for (const auto& [of, id] : disposedSlots_) {
    if (of == &kind) return id;
  }
  const double id = reserve(kind);
  if (id < 0) return id;
  Entry& entry = entryAt(id);
  entry.hasBox = false;  // reserve() made no box
  entry.owned = true;
  entry.disposedStandIn = true;
  disposedSlots_.emplace_back(&kind, id);
  return id;
}

SlotTable& slotTable(Napi::Env env) {
  std::unique_ptr<SlotTable>& table = addonData(env).slots;
  if (!table) table = std::make_unique<SlotTable>();
  return *table;
}

MemoryInSlot memoryInEntry(Napi::Env env, const SlotTable::Entry* entry) {
  if (!entry || !entry->kind->memoryBox) return {};
  if (!entry->hasBox) throwDisposed(env, entry->kind->name);
  const MemoryBox* box = entry->kind->memoryBox(entry->box);
  if (box->ended && box->ended(*box)) {
    throwTypeError(env, std::string(entry->kind->name) + " names memory that no longer exists (its graph or its allocation node was destroyed)");
  }
  return {box, entry};
}

MemoryRef memoryOfEntry(Napi::Env env, const SlotTable::Entry* entry) {
  const MemoryInSlot memory = memoryInEntry(env, entry);
  return memory.box ? memory.ref() : nullptr;
}

namespace {

// The slot numbers lib/ holds come back here, from its own objects; anything
// else JavaScript passes is refused with a TypeError, never trusted.
const SlotTable::Entry& liveSlot(Napi::Env env, const SlotTable& table, double id) {
  const SlotTable::Entry* entry = table.find(id);
  if (!entry) throwTypeError(env, "slot must name a live handle");
  return *entry;
}

}  // namespace

// disposeHandle(slot): dispose(); an unowned slot is freed.
napi_value DisposeHandle(Napi::Env env, SlotTable& table, const HotArgs<1>& args) {
  table.drainQueue();
  const double id = slotArg(Napi::Value(env, args[0]));
  // A slot nobody adopted (one lib/ only looked at) has no finalizer to free it later.
  if (liveSlot(env, table, id).owned) {
    table.dispose(id);
  } else {
    table.remove(id);
  }
  return nullptr;
}

// disposeUnregistered(slot): dispose() of a handle whose object was never
// registered for its collection (lib/disposable.ts): nothing would free the
// slot later, so it is freed now. The result is the number the object names
// from then on: its class's disposed slot, so that its calls still throw the
// disposed error. A slot the native side disposed already (an explicit free
// disposes its buffer) is freed the same way; a class's disposed slot, or one
// that dispose() leaves alone (the legacy streams), stays as it is, and its
// number is the result. The
// queue is not read first: the object's adoption may still wait there, and
// names nothing once the slot is freed (or adopts the slot that stays).
napi_value DisposeUnregistered(Napi::Env env, SlotTable& table, const HotArgs<1>& args) {
  const double id = slotArg(Napi::Value(env, args[0]));
  const SlotTable::Entry& entry = liveSlot(env, table, id);
  if (entry.disposedStandIn || entry.permanent()) return Napi::Number::New(env, id);
  const double standIn = table.disposedSlotOf(*entry.kind);
  table.dispose(id);
  // A full table leaves the slot disposed in place (freed with the environment).
  if (standIn < 0) return Napi::Number::New(env, id);
  table.remove(id);
  return Napi::Number::New(env, standIn);
}

// handleQueue(): the handle queue (SlotTable::queue) as a Float64Array. The
// ArrayBuffer holds the storage too: neither side can be left with freed memory.
Napi::Value HandleQueue(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto* hold = new std::shared_ptr<double[]>(slotTable(env).queue());
  Napi::ArrayBuffer buffer = Napi::ArrayBuffer::New(
      env, hold->get(), (SlotTable::kQueueEntries + 1) * sizeof(double),
      [](Napi::Env, void*, std::shared_ptr<double[]>* held) { delete held; }, hold);
  return Napi::Float64Array::New(env, SlotTable::kQueueEntries + 1, buffer, 0);
}

// handleAlive(slot): false once disposed.
Napi::Value HandleAlive(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return Napi::Boolean::New(env, liveSlot(env, slotTable(env), slotArg(info[0])).hasBox);
}

// Acts on the queue's entries and empties it.
Napi::Value DrainHandleQueue(const Napi::CallbackInfo& info) {
  slotTable(info.Env()).drainQueue();
  return info.Env().Undefined();
}

}  // namespace cudrv
