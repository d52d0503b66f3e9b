// Coredump attributes (cuCoredump*): of one context (made current) or of the
// process. A value is plain bytes here; TypeScript knows which attribute is a
// bool, a flag word or a path. The driver gets exactly the bytes given, copied
// with a NUL after them so that a path it reads as a C string ends inside the copy.
#include <vector>

#include "context.h"
#include "core/args.h"
#include "generated/entries.h"

namespace cudrv {

namespace {

// The longest value the driver documents: a path of 1023 characters and its NUL.
constexpr size_t kMaxSetBytes = 1024;
// The most a value read back may take, whatever size the driver reports.
constexpr size_t kMaxGetBytes = 1 << 16;

// The context to act in, made current, or null for the process-wide setting.
bool inContext(Napi::Env env, Napi::Value context, Fn global) {
  if (context.IsUndefined()) {
    requireDriver(env, global);  // no context or device to load the driver on the way
    return false;
  }
  makeCurrent(env, Context::fromSlot(context, "context"));
  return true;
}

}  // namespace

// (context | undefined, attribute) -> Buffer
Napi::Value CoredumpGetAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto attribute = static_cast<CUcoredumpSettings>(intArg(info[1], "attribute"));
  const bool local = inContext(env, info[0], Fn::cuCoredumpGetAttributeGlobal);
  const Fn fn = local ? Fn::cuCoredumpGetAttribute : Fn::cuCoredumpGetAttributeGlobal;
  const std::string detail = "attribute=" + std::to_string(attribute);
  auto get = [local, attribute](void* value, size_t* size) {
    return local ? CU_CALL(cuCoredumpGetAttribute, attribute, value, size)
                 : CU_CALL(cuCoredumpGetAttributeGlobal, attribute, value, size);
  };
  size_t size = 0;
  CUresult result = get(nullptr, &size);  // asks for the value's size
  if (result != CUDA_SUCCESS) throwCudaError(env, result, fn, detail);
  if (size == 0 || size > kMaxGetBytes) {
    throwCudaError(env, CUDA_ERROR_INVALID_VALUE, fn, detail + ": the driver reported a value of " + std::to_string(size) + " bytes");
  }
  std::vector<char> value(size + 1, '\0');
  result = get(value.data(), &size);
  if (result != CUDA_SUCCESS) throwCudaError(env, result, fn, detail);
  return Napi::Buffer<char>::Copy(env, value.data(), size < value.size() - 1 ? size : value.size() - 1);
}

// (context | undefined, attribute, value bytes). The driver says first how many
// bytes it reads for the attribute: a value longer is refused, a shorter one (a
// path) is padded with NULs to that size, so that the driver reads only the copy.
Napi::Value CoredumpSetAttribute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto attribute = static_cast<CUcoredumpSettings>(intArg(info[1], "attribute"));
  size_t length = 0;
  const uint8_t* bytes = typedArrayArg<uint8_t>(info[2], napi_uint8_array, "value", "a Uint8Array", &length);
  if (length == 0 || length > kMaxSetBytes) rangeError(env, "value", "must be 1 to 1024 bytes");
  std::vector<char> value(bytes, bytes + length);
  const bool local = inContext(env, info[0], Fn::cuCoredumpSetAttributeGlobal);
  const Fn fn = local ? Fn::cuCoredumpSetAttribute : Fn::cuCoredumpSetAttributeGlobal;
  const std::string detail = "attribute=" + std::to_string(attribute);
  auto set = [local, attribute](void* data, size_t* size) {
    return local ? CU_CALL(cuCoredumpSetAttribute, attribute, data, size)
                 : CU_CALL(cuCoredumpSetAttributeGlobal, attribute, data, size);
  };
  size_t size = 0;
  CUresult result = set(nullptr, &size);  // asks for the size it reads
  if (result != CUDA_SUCCESS) throwCudaError(env, result, fn, detail);
  if (size == 0 || size > kMaxGetBytes) {
    throwCudaError(env, CUDA_ERROR_INVALID_VALUE, fn, detail + ": the driver reported a value of " + std::to_string(size) + " bytes");
  }
  if (length > size) rangeError(env, "value", "must be at most " + std::to_string(size) + " bytes for this attribute");
  value.resize(size + 1, '\0');  // and a NUL past what the driver is told, for a path it reads to its end
  result = set(value.data(), &size);
  if (result != CUDA_SUCCESS) throwCudaError(env, result, fn, detail);
  return env.Undefined();
}

}  // namespace cudrv
