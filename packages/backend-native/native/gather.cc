// GatherV2 as row copies (gather.h). tfjs-wasm's kernel walks every element through generic index
// arithmetic (about 0.4 ms for a batch of 128 rows of 100 floats here, more than a training step of
// the small attack networks spends computing); this is a memcpy per row.
#include "gather.h"

#include <cstring>
#include <string>

#include "common.h"

namespace mia {

Napi::Value Gather(const Napi::CallbackInfo& info) {
  Args a(info, "gather");
  const int64_t outer = a.integer(3, "outer", 1), dim = a.integer(4, "dim", 1), slice = a.integer(5, "slice", 1);
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) a.typeError("indices: expected an Int32Array");
  const int64_t count = static_cast<int64_t>(info[1].As<Napi::Int32Array>().ElementLength());
  const float* x = a.f32(0, "x", a.elements({outer, dim, slice}, "x"));
  const int32_t* indices = a.i32(1, "indices", count);
  float* out = a.f32(2, "out", a.elements({outer, count, slice}, "out"));
  for (int64_t i = 0; i < count; i++) {
    if (indices[i] < 0 || indices[i] >= dim) return Napi::Boolean::New(info.Env(), false);
  }
  const size_t bytes = static_cast<size_t>(slice) * sizeof(float);
#pragma omp parallel for schedule(static) if (outer * count * slice >= kParallelMin)
  for (int64_t r = 0; r < outer * count; r++) {
    const int64_t o = r / count, i = r % count;
    std::memcpy(out + r * slice, x + (o * dim + indices[i]) * slice, bytes);
  }
  return Napi::Boolean::New(info.Env(), true);
}

}  // namespace mia
