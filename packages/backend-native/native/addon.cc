// @mia/backend-native: oneDNN and OpenMP kernels for tfjs tensors, called through N-API on the
// memory behind Float32Array views (the tfjs-wasm heap, in the package's use). Every entry point
// checks its arguments before any pointer is used and turns C++ exceptions into JS errors.
#include <napi.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <string>

#include "batch_norm.h"
#include "common.h"
#include "conv.h"
#include "elementwise.h"
#include "gemm.h"
#include "pool.h"
#include "reduce.h"
#include "scratch.h"

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
  o.Set("primitives", ConvPrimitives(env));
  o.Set("scratchBytes", static_cast<double>(scratchBytes()));
  return o;
}

Napi::Value SetNumThreads(const Napi::CallbackInfo& info) {
  Args a(info, "setNumThreads");
  omp_set_num_threads(static_cast<int>(a.integer(0, "threads", 1, 1024)));
  return info.Env().Undefined();
}

Napi::Value GetNumThreads(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), omp_get_max_threads()); }

Napi::Value ClearCache(const Napi::CallbackInfo& info) {
  clearConvCache();
  releaseScratch();
  return info.Env().Undefined();
}

}  // namespace

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("info", Napi::Function::New(env, Info));
  exports.Set("setNumThreads", Napi::Function::New(env, SetNumThreads));
  exports.Set("getNumThreads", Napi::Function::New(env, GetNumThreads));
  exports.Set("clearCache", Napi::Function::New(env, ClearCache));
  exports.Set("setConvLayout", Napi::Function::New(env, SetConvLayout));
  exports.Set("conv2dForward", Napi::Function::New(env, Conv2dForward));
  exports.Set("conv2dBackwardData", Napi::Function::New(env, Conv2dBackwardData));
  exports.Set("conv2dBackwardWeights", Napi::Function::New(env, Conv2dBackwardWeights));
  exports.Set("gemm", Napi::Function::New(env, Gemm));
  exports.Set("biasActivation", Napi::Function::New(env, BiasActivation));
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
  return exports;
}

}  // namespace mia

static Napi::Object InitModule(Napi::Env env, Napi::Object exports) { return mia::Init(env, exports); }

NODE_API_MODULE(mia_native, InitModule)
