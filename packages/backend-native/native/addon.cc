// @mia/backend-native: oneDNN and OpenMP kernels for tfjs tensors, called through N-API on the
// memory behind Float32Array views (the tfjs-wasm heap, in the package's use). Every entry point
// checks its arguments before any pointer is used and turns C++ exceptions into JS errors.
#include <napi.h>
#include <malloc.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <string>

#include "batch_norm.h"
#include "batch_norm_loops.h"
#include "common.h"
#include "conv.h"
#include "dense.h"
#include "elementwise.h"
#include "gather.h"
#include "gemm.h"
#include "matmul_primitive.h"
#include "optimizer.h"
#include "pool.h"
#include "precision.h"
#include "reduce.h"
#include "scratch.h"
#include "softmax_cross_entropy.h"

namespace mia {
namespace {

const char* isaName(dnnl::cpu_isa isa) {
  switch (isa) {
    case dnnl::cpu_isa::sse41: return "sse41";
    case dnnl::cpu_isa::avx: return "avx";
    case dnnl::cpu_isa::avx2: return "avx2";
    case dnnl::cpu_isa::avx512_core: return "avx512_core";
    case dnnl::cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case dnnl::cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case dnnl::cpu_isa::avx512_core_amx: return "avx512_core_amx";
    case dnnl::cpu_isa::avx2_vnni: return "avx2_vnni";
#if DNNL_VERSION_MAJOR >= 3
    // ISAs that 3.x added (each at least AVX2); 2.x reports their CPUs as one of the above.
    case dnnl::cpu_isa::avx2_vnni_2: return "avx2_vnni_2";
    case dnnl::cpu_isa::avx512_core_fp16: return "avx512_core_fp16";
    case dnnl::cpu_isa::avx512_core_amx_fp16: return "avx512_core_amx_fp16";
#endif
    default: return "other";
  }
}

Napi::Value Info(const Napi::CallbackInfo& info) {
  auto env = info.Env();
  auto o = Napi::Object::New(env);
  const dnnl_version_t* v = dnnl_version();
  o.Set("onednn", std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch));
  o.Set("cpuRuntime", v->cpu_runtime == DNNL_RUNTIME_OMP ? "omp" : v->cpu_runtime == DNNL_RUNTIME_TBB ? "tbb" : "other");
  o.Set("isa", isaName(dnnl::get_effective_cpu_isa()));
  o.Set("threads", omp_get_max_threads());
  o.Set("procs", omp_get_num_procs());
  o.Set("convLayout", convLayoutName());
  o.Set("convAlgorithm", convAlgorithmName());
  o.Set("precision", precisionName());
  o.Set("bf16", cpuHasBf16());
  o.Set("primitives", ConvPrimitives(env));
  o.Set("scratchBytes", static_cast<double>(scratchBytes()));
  o.Set("simd", bn::simdName());
  return o;
}

Napi::Value SetNumThreads(const Napi::CallbackInfo& info) {
  Args a(info, "setNumThreads");
  omp_set_num_threads(static_cast<int>(a.integer(0, "threads", 1, 1024)));
  holdSignalsInWorkers();
  return info.Env().Undefined();
}

// setSimd(name): the instruction set of the hand-written batch norm loops ("avx512", "avx2",
// "baseline", or "auto" for the widest the CPU runs); a RangeError when the CPU cannot run it.
Napi::Value SetSimd(const Napi::CallbackInfo& info) {
  Args a(info, "setSimd");
  const std::string name = a.string(0, "name");
  const bool known = name == "avx512" || name == "avx2" || name == "baseline" || name == "auto";
  if (!known) a.rangeError("name: expected avx512, avx2, baseline or auto, got '" + name + "'");
  if (!bn::setSimd(name.c_str())) a.rangeError("name: this CPU cannot run '" + name + "'");
  return info.Env().Undefined();
}

Napi::Value GetNumThreads(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), omp_get_max_threads()); }

// glibc returns freed blocks above M_MMAP_THRESHOLD (and the heap top above M_TRIM_THRESHOLD) to the
// kernel at once; oneDNN's reorder and scratch buffers are then page-faulted in again every step, which
// is expensive on VMs. keepFreedMemory(true) raises both (mmap 32 MB as PyTorch users set through
// MALLOC_MMAP_THRESHOLD_, trim 1 GB: mallopt takes an int); false restores glibc's defaults.
Napi::Value KeepFreedMemory(const Napi::CallbackInfo& info) {
  auto env = info.Env();
  if (info.Length() < 1 || !info[0].IsBoolean()) throw Napi::TypeError::New(env, "keepFreedMemory: keep must be a boolean");
  const bool keep = info[0].As<Napi::Boolean>().Value();
  const int mmap = mallopt(M_MMAP_THRESHOLD, keep ? 32 * 1024 * 1024 : 128 * 1024);
  const int trim = mallopt(M_TRIM_THRESHOLD, keep ? 1 << 30 : 128 * 1024);
  return Napi::Boolean::New(env, mmap == 1 && trim == 1);
}

Napi::Value ClearCache(const Napi::CallbackInfo& info) {
  clearConvCache();
  clearMatmulCache();
  releaseScratch();
  return info.Env().Undefined();
}

// An entry point that runs oneDNN code, with the asynchronous signals held on the calling thread
// while it runs (SignalsHeld, common.h).
template <Napi::Value (*F)(const Napi::CallbackInfo&)>
Napi::Value Held(const Napi::CallbackInfo& info) {
  SignalsHeld held;
  return F(info);
}

}  // namespace

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  holdSignalsInWorkers();
  exports.Set("info", Napi::Function::New(env, Info));
  exports.Set("setNumThreads", Napi::Function::New(env, SetNumThreads));
  exports.Set("getNumThreads", Napi::Function::New(env, GetNumThreads));
  exports.Set("setSimd", Napi::Function::New(env, SetSimd));
  exports.Set("clearCache", Napi::Function::New(env, ClearCache));
  exports.Set("keepFreedMemory", Napi::Function::New(env, KeepFreedMemory));
  exports.Set("setConvLayout", Napi::Function::New(env, SetConvLayout));
  exports.Set("setConvAlgorithm", Napi::Function::New(env, SetConvAlgorithm));
  exports.Set("setPrecision", Napi::Function::New(env, SetPrecision));
  exports.Set("conv2dForward", Napi::Function::New(env, Held<Conv2dForward>));
  exports.Set("conv2dBackwardData", Napi::Function::New(env, Held<Conv2dBackwardData>));
  exports.Set("conv2dBackwardWeights", Napi::Function::New(env, Held<Conv2dBackwardWeights>));
  exports.Set("gemm", Napi::Function::New(env, Held<Gemm>));
  exports.Set("biasActivation", Napi::Function::New(env, BiasActivation));
  exports.Set("denseForward", Napi::Function::New(env, Held<DenseForward>));
  exports.Set("denseGradInput", Napi::Function::New(env, Held<DenseGradInput>));
  exports.Set("denseGradWeight", Napi::Function::New(env, Held<DenseGradWeight>));
  exports.Set("denseGradBias", Napi::Function::New(env, DenseGradBias));
  exports.Set("softmaxCrossEntropy", Napi::Function::New(env, SoftmaxCrossEntropy));
  exports.Set("softmaxCrossEntropyGrad", Napi::Function::New(env, SoftmaxCrossEntropyGrad));
  exports.Set("gather", Napi::Function::New(env, Gather));
  exports.Set("binary", Napi::Function::New(env, Binary));
  exports.Set("unary", Napi::Function::New(env, Unary));
  exports.Set("addN", Napi::Function::New(env, AddN));
  exports.Set("reluGrad", Napi::Function::New(env, ReluGrad));
  exports.Set("tanhGrad", Napi::Function::New(env, TanhGrad));
  exports.Set("reduce", Napi::Function::New(env, Reduce));
  exports.Set("pool2d", Napi::Function::New(env, Pool2d));
  exports.Set("maxPoolGrad", Napi::Function::New(env, MaxPoolGrad));
  exports.Set("avgPoolGrad", Napi::Function::New(env, AvgPoolGrad));
  exports.Set("batchNorm", Napi::Function::New(env, BatchNorm));
  exports.Set("batchNormTrain", Napi::Function::New(env, BatchNormTrain));
  exports.Set("batchNormTrainGrad", Napi::Function::New(env, BatchNormTrainGrad));
  exports.Set("sgdUpdate", Napi::Function::New(env, SgdUpdate));
  exports.Set("adamUpdate", Napi::Function::New(env, AdamUpdate));
  return exports;
}

}  // namespace mia

static Napi::Object InitModule(Napi::Env env, Napi::Object exports) { return mia::Init(env, exports); }

NODE_API_MODULE(mia_native, InitModule)
