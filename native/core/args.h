// Reading arguments from JavaScript. The TypeScript layer validates first and
// names parameters the way users see them; these checks are the native layer's
// own guard, so that nothing that reaches it can misread memory.
#pragma once

#include <napi.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"

namespace cudrv {

[[noreturn]] inline void typeError(Napi::Env env, const char* name, const char* what) {
  throwTypeError(env, std::string(name) + " must be " + what);
}
[[noreturn]] inline void rangeError(Napi::Env env, const char* name, const std::string& what) {
  throwRangeError(env, std::string(name) + " " + what);
}

// The number v holds, in one call: napi_get_value_double fails for anything
// else (a type check first would be a second call on every argument).
inline bool numberOf(Napi::Value v, double* d) { return napi_get_value_double(v.Env(), v, d) == napi_ok; }

// d as an integer in [lo, hi]: a TypeError when it is none, a RangeError outside.
inline int64_t checkedInteger(Napi::Env env, double d, const char* name, int64_t lo, int64_t hi) {
  if (!std::isfinite(d) || std::trunc(d) != d) typeError(env, name, "an integer");
  if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) {
    rangeError(env, name, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
  }
  return static_cast<int64_t>(d);
}

// An integer in [lo, hi], given as a number (or a bigint, where allowed).
inline int64_t integerArg(Napi::Value v, const char* name, int64_t lo, int64_t hi) {
  double d = 0;
  if (numberOf(v, &d)) return checkedInteger(v.Env(), d, name, lo, hi);
  if (v.IsBigInt()) {
    bool lossless = false;
    int64_t i = v.As<Napi::BigInt>().Int64Value(&lossless);
    if (!lossless || i < lo || i > hi) {
      rangeError(v.Env(), name, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    }
    return i;
  }
  typeError(v.Env(), name, "an integer");
}

inline int32_t intArg(Napi::Value v, const char* name) {
  return static_cast<int32_t>(integerArg(v, name, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
}
inline uint32_t uintArg(Napi::Value v, const char* name) {
  return static_cast<uint32_t>(integerArg(v, name, 0, std::numeric_limits<uint32_t>::max()));
}

// d as a size: a non-negative safe integer. The usual case is inline (NaN
// fails the first test); checkedInteger says what is wrong with the rest.
inline uint64_t sizeValue(Napi::Env env, double d, const char* name) {
  constexpr double kMaxSafe = static_cast<double>((int64_t{1} << 53) - 1);
  if (d >= 0 && d <= kMaxSafe && static_cast<double>(static_cast<uint64_t>(d)) == d) return static_cast<uint64_t>(d);
  return static_cast<uint64_t>(checkedInteger(env, d, name, 0, (int64_t{1} << 53) - 1));
}

// A size or 64-bit unsigned value: a non-negative safe-integer number, or any
// bigint in [0, 2^64).
inline uint64_t u64Arg(Napi::Value v, const char* name) {
  double d = 0;
  if (numberOf(v, &d)) return sizeValue(v.Env(), d, name);
  if (v.IsBigInt()) {
    bool lossless = false;
    uint64_t u = v.As<Napi::BigInt>().Uint64Value(&lossless);
    if (!lossless) rangeError(v.Env(), name, "must be between 0 and 2^64-1");
    return u;
  }
  typeError(v.Env(), name, "an integer");
}

inline bool boolArg(Napi::Value v, const char* name) {
  bool b = false;
  if (napi_get_value_bool(v.Env(), v, &b) != napi_ok) typeError(v.Env(), name, "a boolean");
  return b;
}

inline std::string stringArg(Napi::Value v, const char* name) {
  if (!v.IsString()) typeError(v.Env(), name, "a string");
  return v.As<Napi::String>().Utf8Value();
}

// An array argument of min to max entries: a TypeError ("<name> must be an
// array") or a RangeError ("<name> <count>") otherwise.
inline Napi::Array arrayArg(Napi::Value v, const char* name, uint32_t min, uint32_t max, const char* count) {
  if (!v.IsArray()) typeError(v.Env(), name, "an array");
  Napi::Array list = v.As<Napi::Array>();
  if (list.Length() < min || list.Length() > max) rangeError(v.Env(), name, count);
  return list;
}

// Entry i of a batch argument ([[...], ...]: memory operations, ranges,
// segments, ...), itself an array (of `length` elements, where length is not 0);
// a TypeError with the caller's message otherwise. Batch readers share it with
// arrayArg so that every one checks its entries the same way.
inline Napi::Array arrayEntry(Napi::Array list, uint32_t i, const char* message, uint32_t length = 0) {
  Napi::Value entry = list[i];
  if (!entry.IsArray() || (length != 0 && entry.As<Napi::Array>().Length() != length)) {
    throwTypeError(list.Env(), message);
  }
  return entry.As<Napi::Array>();
}

// Reading a property or an array element may run JavaScript (a getter, a Proxy
// trap) that disposes a handle or detaches a buffer. So an entry reads every
// one of them first, with the two classes below, and only then looks up
// handles and takes pointers.

// The named properties of a parameter object, each read once.
class ObjectFields {
 public:
  ObjectFields(Napi::Object object, std::initializer_list<const char*> names) : env_(object.Env()) {
    values_.reserve(names.size());
    for (const char* name : names) values_.emplace_back(name, object.Get(name));
  }
  // A property read above (undefined for a name that was not).
  Napi::Value operator[](const char* name) const {
    for (const auto& [key, value] : values_) {
      if (std::strcmp(key, name) == 0) return value;
    }
    return env_.Undefined();
  }

 private:
  Napi::Env env_;
  std::vector<std::pair<const char*, Napi::Value>> values_;
};

// The entries of a batch argument ([[...], ...]: copies, ranges, segments,
// memory operations), each an array (of exactly `length` elements, where
// length is not 0; a TypeError with the caller's message otherwise), whose
// first `width` elements are read.
class BatchValues {
 public:
  BatchValues(Napi::Array list, uint32_t width, const char* message, uint32_t length = 0)
      : env_(list.Env()), width_(width), count_(list.Length()) {
    values_.reserve(static_cast<size_t>(count_) * width);
    for (uint32_t i = 0; i < count_; ++i) {
      Napi::Array entry = arrayEntry(list, i, message, length);
      for (uint32_t j = 0; j < width; ++j) {
        Napi::Value element = entry[j];
        values_.push_back(element);
      }
    }
  }
  uint32_t size() const { return count_; }
  // Element j of entry i.
  Napi::Value operator()(uint32_t i, uint32_t j) const { return Napi::Value(env_, values_[size_t{i} * width_ + j]); }

 private:
  Napi::Env env_;
  uint32_t width_;
  uint32_t count_;
  std::vector<napi_value> values_;
};

// The elements of a typed array of one kind (napi_int32_array, ...) and their
// count, with one N-API call (launches read their configuration this way).
template <typename T>
inline T* typedArrayArg(Napi::Value v, napi_typedarray_type kind, const char* name, const char* what, size_t* length) {
  napi_typedarray_type type;
  void* data = nullptr;
  if (napi_get_typedarray_info(v.Env(), v, &type, length, &data, nullptr, nullptr) != napi_ok || type != kind) {
    typeError(v.Env(), name, what);
  }
  return static_cast<T*>(data);
}

// A plain driver struct (an IPC handle, an attribute union, ...) passed as a
// Uint8Array of exactly its size.
template <typename T>
inline T bytesArg(Napi::Value v, const char* name) {
  size_t length = 0;
  const uint8_t* data = typedArrayArg<uint8_t>(v, napi_uint8_array, name, "a Uint8Array", &length);
  if (length != sizeof(T)) {
    throwRangeError(v.Env(), std::string(name) + " must be " + std::to_string(sizeof(T)) + " bytes");
  }
  T out;
  std::memcpy(&out, data, sizeof(T));
  return out;
}

// The bytes of a plain driver struct, as a new Uint8Array (a Node Buffer).
template <typename T>
inline Napi::Value bytesValue(Napi::Env env, const T& value) {
  return Napi::Buffer<unsigned char>::Copy(env, reinterpret_cast<const unsigned char*>(&value), sizeof(T));
}

inline Napi::Value bigint(Napi::Env env, uint64_t value) { return Napi::BigInt::New(env, value); }

// A pointer-sized handle shown to JavaScript (for logs and comparisons only).
template <typename T>
inline Napi::Value handleValue(Napi::Env env, T handle) {
  return Napi::BigInt::New(env, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle)));
}

}  // namespace cudrv
