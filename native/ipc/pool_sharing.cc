// Sharing memory pools between processes: a pool is exported as a POSIX file
// descriptor (or a fabric handle) and imported on the other side; allocations
// from it are then shared as 64-byte export data naming one allocation.

#include "core/args.h"
#include "generated/entries.h"
#include "ipc/driver_fd.h"
#include "ipc/fd_channel.h"
#include "ipc/imported_memory.h"
#include "ipc/shareable_fd.h"
#include "memory/device_buffer.h"
#include "memory/pool.h"

namespace cudrv {

namespace {

CUmemAllocationHandleType shareableTypeArg(Napi::Value value) {
  auto type = static_cast<CUmemAllocationHandleType>(uintArg(value, "handleType"));
  if (type != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR && type != CU_MEM_HANDLE_TYPE_FABRIC) {
    throwRangeError(value.Env(), "handleType must be posixFileDescriptor or fabric");
  }
  return type;
}

}  // namespace

// exportPool(poolOrMemory, handleType) -> ReceivedFd | Uint8Array(64): the pool
// given, or the pool a stream-ordered allocation came from.
Napi::Value ExportPool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUmemAllocationHandleType type = shareableTypeArg(info[1]);
  CUmemoryPool pool = nullptr;
  const SlotTable& table = slotTable(env);
  const SlotTable::Entry* entry = table.find(slotArg(info[0]));
  if (entry && entry->kind == &MemoryPool::slotClass()) {
    const PoolRef& box = MemoryPool::fromSlot(table, info[0], "pool");
    pool = box->pool;
    makeCurrent(env, box->context);
  } else if (MemoryRef memory = memoryOfEntry(env, entry)) {
    if (!memory->device) throwTypeError(env, "memory must be device memory");
    makeCurrent(env, memory->context);
    CU_CHECK(env, cuPointerGetAttribute, &pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, memory->device);
    if (!pool) throwTypeError(env, "memory was not allocated from a memory pool");
  } else {
    throwTypeError(env, "pool must be a MemoryPool or memory allocated from one");
  }
  if (type == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
    int fd = -1;
    CUresult result = makeDriverFd(&fd, [&] { return CU_CALL(cuMemPoolExportToShareableHandle, &fd, pool, type, 0); });
    if (result != CUDA_SUCCESS) throwCudaError(env, result, Fn::cuMemPoolExportToShareableHandle);
    return newOwnedFdSlot(env, fd);
  }
  CUmemFabricHandle fabric;
  CU_CHECK(env, cuMemPoolExportToShareableHandle, &fabric, pool, type, 0);
  return bytesValue(env, fabric);
}

// importPool(ordinal, handle, handleType, identity) -> MemoryPool: handle is a
// descriptor number (the caller keeps and closes it; refused before the driver
// sees it unless it could be an export) or a fabric handle's 64 bytes.
// identity names the exporter's pool: a pool this process already imported
// under it (and still holds) is returned instead of importing it twice.
// The pool is destroyed when its last holder (its imported pointers included) lets go.
Napi::Value ImportPool(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  requireDriver(env, Fn::cuMemPoolImportFromShareableHandle);
  ContextRef context = primaryContext(env, intArg(info[0], "ordinal"));
  CUmemAllocationHandleType type = shareableTypeArg(info[2]);
  std::string identity = stringArg(info[3], "identity");
  int fd = -1;
  CUmemFabricHandle fabric;
  if (type == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
    fd = shareableFdArg(info[1], "handle");
  } else {
    fabric = bytesArg<CUmemFabricHandle>(info[1], "handle");
  }
  makeCurrent(env, context);
  auto pool = std::static_pointer_cast<PoolBox>(
      findOrMake(openingKey("pool", context, identity.data(), identity.size()), [&] {
        CUmemoryPool imported = nullptr;
        if (type == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) {
          CU_CHECK(env, cuMemPoolImportFromShareableHandle, &imported,
                   reinterpret_cast<void*>(static_cast<uintptr_t>(fd)), type, 0);
        } else {
          CU_CHECK(env, cuMemPoolImportFromShareableHandle, &imported, &fabric, type, 0);
        }
        // A pool this process imported already (under another identity) comes
        // back as the same handle, which the driver destroys once: one box.
        return findOrMake(openingKey("pool@", context, &imported, sizeof imported), [&] {
          auto box = std::make_shared<PoolBox>();
          box->context = context;
          box->pool = imported;
          return box;
        });
      }));
  return MemoryPool::newSlot(env, pool);
}

// exportPoolPointer(memory) -> Uint8Array(64) naming the allocation. The
// allocation must have happened before another process touches it, so a
// stream-ordered buffer's stream is synchronized first.
Napi::Value ExportPoolPointer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const auto* buffer = DeviceBuffer::boxAt(slotTable(env), slotArg(info[0]));
  if (!buffer || (*buffer)->allocation != DeviceMemoryBox::Allocation::StreamOrdered) {
    throwTypeError(env, "memory must be a stream-ordered DeviceBuffer");
  }
  const DeviceMemoryBox& box = **buffer;
  makeCurrent(env, box.context);
  CU_CHECK(env, cuStreamSynchronize, box.releaseStream->stream);
  CUmemPoolPtrExportData data;
  CU_CHECK(env, cuMemPoolExportPointer, &data, box.device);
  return bytesValue(env, data);
}

// importPoolPointer(pool, data, offset, bytes) -> ImportedMemory: a view of the
// allocation data names, imported once per context, pool and export data.
// Keyed by the pool too: data of another pool's allocation, given with this
// pool, reaches the driver, which refuses it (programs try export data against
// each pool they hold until one accepts it, as NVIDIA's IPC sample does). The
// opening holds its pool, so the pool's handle is not reused while its key lives.
Napi::Value ImportPoolPointer(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CUmemPoolPtrExportData data = bytesArg<CUmemPoolPtrExportData>(info[1], "data");
  uint64_t offset = u64Arg(info[2], "offset");
  uint64_t bytes = u64Arg(info[3], "bytes");
  const PoolRef& pool = MemoryPool::fromSlot(info[0], "pool");
  ContextRef context = pool->context;
  makeCurrent(env, context);
  std::string kind = "pointer@" + std::to_string(reinterpret_cast<uintptr_t>(pool->pool));
  std::string key = openingKey(kind.c_str(), context, data.reserved, sizeof(data.reserved));
  auto opened = std::static_pointer_cast<OpenedBox>(findOrMake(key, [&] {
    CUdeviceptr ptr = 0;
    CU_CHECK(env, cuMemPoolImportPointer, &ptr, pool->pool, &data);
    auto box = std::make_shared<OpenedBox>();
    box->kind = OpenedBox::Kind::PoolPointer;
    box->base = ptr;
    box->context = context;
    box->pool = pool;
    box->size = bytesToAllocationEnd(ptr);
    return box;
  }));
  return ImportedMemory::newRangeSlot(env, opened, context, opened->base, opened->size, offset, bytes, "pool");
}

}  // namespace cudrv
