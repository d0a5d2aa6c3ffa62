#include "precision.h"

#include <oneapi/dnnl/dnnl.hpp>

#include "common.h"

namespace mia {
namespace {
// Per thread, as the thread count: each worker thread of a process sets its own (useNativeTraining),
// so a thread never computes in a precision it did not ask for. OpenMP's threads inside oneDNN never
// read it (the calling thread chooses the primitives).
thread_local Precision gPrecision = Precision::kF32;
}  // namespace

Precision precision() { return gPrecision; }

std::string precisionName() { return gPrecision == Precision::kBf16 ? "bf16" : "fp32"; }

bool cpuHasBf16() {
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::avx512_core_bf16:
    case dnnl::cpu_isa::avx512_core_amx:
#if DNNL_VERSION_MAJOR >= 3
    case dnnl::cpu_isa::avx512_core_fp16:
    case dnnl::cpu_isa::avx512_core_amx_fp16:
#endif
      return true;
    default:
      return false;
  }
}

bool cpuHasAmx() {
  switch (dnnl::get_effective_cpu_isa()) {
    case dnnl::cpu_isa::avx512_core_amx:
#if DNNL_VERSION_MAJOR >= 3
    case dnnl::cpu_isa::avx512_core_amx_fp16:
#endif
      return true;
    default:
      return false;
  }
}

Napi::Value SetPrecision(const Napi::CallbackInfo& info) {
  Args a(info, "setPrecision");
  const std::string p = a.string(0, "precision");
  if (p == "fp32") {
    gPrecision = Precision::kF32;
  } else if (p == "bf16") {
    if (!cpuHasBf16()) a.rangeError("precision: 'bf16' needs a CPU with AVX-512 BF16 or AMX, and oneDNN reports none here");
    gPrecision = Precision::kBf16;
  } else {
    a.rangeError("precision: expected 'fp32' or 'bf16', got '" + p + "'");
  }
  return info.Env().Undefined();
}

}  // namespace mia
