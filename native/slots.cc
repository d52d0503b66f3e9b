#include "slots.h"

#include "addon_data.h"
#include "errors.h"

namespace cudrv {

double SlotTable::add(const Entry& entry) {
  uint32_t index;
  if (!unused_.empty()) {
    index = unused_.back();
    unused_.pop_back();
  } else {
    if (entries_.size() >= kIndexSpan) return -1;  // 16M live handles: hot calls fall back to "not a handle"
    index = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  Entry& slot = entries_[index];
  const uint32_t generation = slot.generation;
  slot = entry;
  slot.generation = generation;
  return static_cast<double>((static_cast<uint64_t>(generation) << kIndexBits) | index);
}

void SlotTable::remove(double id) {
  if (!find(id)) return;
  const uint64_t index = static_cast<uint64_t>(id) & (kIndexSpan - 1);
  Entry& slot = entries_[index];
  const uint32_t next = (slot.generation + 1) & ((1u << (53 - kIndexBits)) - 1);
  slot = Entry{};
  slot.generation = next;
  unused_.push_back(static_cast<uint32_t>(index));
}

void SlotTable::WrapperMap::insert(const void* key, double value) {
  if (2 * (size_ + 1) > keys_.size()) grow();
  size_t i = indexOf(key);
  while (keys_[i] && keys_[i] != key) i = (i + 1) & mask();
  if (!keys_[i]) ++size_;
  keys_[i] = key;
  values_[i] = value;
}

// Removal by backward shift: the entries after the hole that would probe
// through it move into it, so no tombstones accumulate.
void SlotTable::WrapperMap::erase(const void* key) {
  if (keys_.empty()) return;
  size_t hole = indexOf(key);
  while (keys_[hole] != key) {
    if (!keys_[hole]) return;
    hole = (hole + 1) & mask();
  }
  --size_;
  for (size_t i = (hole + 1) & mask(); keys_[i]; i = (i + 1) & mask()) {
    const size_t home = indexOf(keys_[i]);
    // Entry i may fill the hole when its home is not in (hole, i], cyclically.
    if (((i - home) & mask()) >= ((i - hole) & mask())) {
      keys_[hole] = keys_[i];
      values_[hole] = values_[i];
      hole = i;
    }
  }
  keys_[hole] = nullptr;
}

void SlotTable::WrapperMap::grow() {
  std::vector<const void*> keys = std::move(keys_);
  std::vector<double> values = std::move(values_);
  keys_.assign(keys.empty() ? 64 : 2 * keys.size(), nullptr);
  values_.assign(keys_.size(), 0);
  size_ = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i]) insert(keys[i], values[i]);
  }
}

const std::shared_ptr<SlotTable>& slotTable(Napi::Env env) {
  std::shared_ptr<SlotTable>& table = addonData(env).slots;
  if (!table) table = std::make_shared<SlotTable>();
  return table;
}

const SlotTable::Entry* entryOfObject(Napi::Value value) {
  void* wrapper = nullptr;
  if (!value.IsObject() || napi_unwrap(value.Env(), value, &wrapper) != napi_ok) return nullptr;
  return slotTable(value.Env())->entryOf(wrapper);
}

MemoryRef memoryOfEntry(Napi::Env env, const SlotTable::Entry* entry) {
  if (!entry || !entry->memory) return nullptr;
  MemoryRef memory = entry->memory(entry->object);
  if (!memory) throwDisposed(env, entry->name);
  return memory;
}

}  // namespace cudrv
