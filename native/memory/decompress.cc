// Hardware decompression (cuMemBatchDecompressAsync): a batch of compressed
// buffers decompressed on a stream. It needs a decompression engine (Blackwell);
// elsewhere the driver says it is not supported.
#include <cstring>
#include <vector>

#include "core/args.h"
#include "generated/entries.h"
#include "memory/memory.h"
#include "stream.h"

namespace cudrv {

// decompressBatch([[src, srcOffset, srcBytes, dst, dstOffset, dstBytes, actual, actualOffset, algorithm], ...], stream)
// -> undefined; on failure the error's detail names the failing entry.
Napi::Value DecompressBatch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const BatchValues entries(arrayArg(info[0], "entries", 0, 65536, "must hold at most 65536 entries"), 9,
                            "each entry must be an array");
  StreamBox& stream = streamArg(info[1]);
  std::vector<CUmemDecompressParams> params(entries.size());
  std::vector<MemoryRef> owners;
  for (uint32_t i = 0; i < entries.size(); ++i) {
    uint64_t srcBytes = u64Arg(entries(i, 2), "srcBytes"), dstBytes = u64Arg(entries(i, 5), "dstBytes");
    Span src = deviceSpanOf(entries(i, 0), "src", u64Arg(entries(i, 1), "srcOffset"), srcBytes);
    Span dst = deviceSpanOf(entries(i, 3), "dst", u64Arg(entries(i, 4), "dstOffset"), dstBytes);
    Span actual = deviceSpanOf(entries(i, 6), "actualBytes", u64Arg(entries(i, 7), "actualBytesOffset"), 4);
    CUmemDecompressParams& p = params[i];
    std::memset(&p, 0, sizeof(p));
    p.src = reinterpret_cast<const void*>(src.address());
    p.srcNumBytes = srcBytes;
    p.dst = reinterpret_cast<void*>(dst.address());
    p.dstNumBytes = dstBytes;
    p.dstActBytes = reinterpret_cast<cuuint32_t*>(actual.address());
    p.algo = static_cast<CUmemDecompressAlgorithm>(uintArg(entries(i, 8), "algorithm"));
    owners.insert(owners.end(), {src.owner, dst.owner, actual.owner});
  }
  makeCurrent(env, stream.context);
  size_t failed = 0;
  CUresult r = CU_CALL(cuMemBatchDecompressAsync, params.empty() ? nullptr : params.data(), params.size(), 0, &failed,
                       stream.stream);
  if (r != CUDA_SUCCESS) {
    throwCudaError(env, r, Fn::cuMemBatchDecompressAsync, params.empty() ? "" : "entry " + std::to_string(failed));
  }
  for (auto& owner : owners) stream.keepUntilIdle(owner);
  return env.Undefined();
}

}  // namespace cudrv
