#include "ipc/imported_memory.h"

#include <mutex>
#include <unordered_map>

#include "core/args.h"
#include "core/release.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

// Openings by key, process-wide (driver state is; worker threads share it).
// Recursive: a make() may look up another key (an imported pool by its handle).
std::recursive_mutex registryMutex;
std::unordered_map<std::string, std::weak_ptr<void>>& registry() {
  static auto* map = new std::unordered_map<std::string, std::weak_ptr<void>>();  // never destroyed: boxes may outlive statics
  return *map;
}

}  // namespace

OpenedBox::~OpenedBox() {
  if (!base) return;
  CUdeviceptr ptr = base;
  ContextRef ctx = context;
  std::shared_ptr<void> keptPool = pool;
  Kind k = kind;
  releaseWhenSafe([ptr, ctx, keptPool, k] {
    // Work the library queued on this memory is done: streams held the view until then.
    if (setCurrent(ctx->context) != CUDA_SUCCESS) return;
    if (k == Kind::LegacyIpc) {
      CU_CALL(cuIpcCloseMemHandle, ptr);
    } else {
      CU_CALL(cuMemFree, ptr);
    }
  });
}

std::shared_ptr<void> findOrMake(const std::string& key, const std::function<std::shared_ptr<void>()>& make) {
  std::lock_guard<std::recursive_mutex> lock(registryMutex);
  auto& map = registry();
  auto it = map.find(key);
  if (it != map.end()) {
    if (std::shared_ptr<void> live = it->second.lock()) return live;
  }
  std::shared_ptr<void> made = make();
  for (auto e = map.begin(); e != map.end();) e = e->second.expired() ? map.erase(e) : std::next(e);
  map[key] = made;
  return made;
}

std::string openingKey(const char* kind, const ContextRef& context, const void* bytes, size_t size) {
  return std::string(kind) + ":" + std::to_string(reinterpret_cast<uintptr_t>(context->context)) + ":" +
         std::string(static_cast<const char*>(bytes), size);
}

size_t bytesToAllocationEnd(CUdeviceptr ptr) {
  CUdeviceptr base = 0;
  size_t size = 0;
  if (CU_CALL(cuMemGetAddressRange, &base, &size, ptr) != CUDA_SUCCESS || ptr < base || ptr - base > size) return 0;
  return size - (ptr - base);
}

Napi::Value ImportedMemory::newRangeSlot(Napi::Env env, std::shared_ptr<void> source, ContextRef context, CUdeviceptr base,
                                  size_t available, uint64_t offset, uint64_t bytes, const char* path) {
  if (offset > available || bytes > available - offset) {
    throwRangeError(env, "the shared range [" + std::to_string(offset) + ", " + std::to_string(offset) + "+" +
                             std::to_string(bytes) + ") does not fit the " + std::to_string(available) +
                             " bytes the opened memory has in this process");
  }
  auto box = std::make_shared<ImportedMemoryBox>();
  box->device = base + offset;
  box->size = bytes;
  box->context = std::move(context);
  box->source = std::move(source);
  box->path = path;
  return newSlot(env, std::move(box));
}

// A view of library memory (an alias in the exporting process, or virtual
// memory mapped from imported allocations).
Napi::Value MemoryView(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint64_t offset = u64Arg(info[1], "offset");
  uint64_t bytes = u64Arg(info[2], "bytes");
  std::string path = stringArg(info[3], "path");
  MemoryRef memory = memoryOf(info[0]);
  if (!memory || !memory->device) throwTypeError(env, "memory must be device memory of this library");
  const char* name = path == "vmm" ? "vmm" : "alias";
  return ImportedMemory::newRangeSlot(env, memory, memory->context, memory->device, memory->size, offset, bytes, name);
}

Napi::Value ImportedMemoryPath(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), ImportedMemory::fromSlot(info[0], "memory")->path);
}

}  // namespace cudrv
