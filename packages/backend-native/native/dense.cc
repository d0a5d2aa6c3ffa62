// The dense layer of @mia/core's denseBias in one call per pass (dense.h). Each kernel repeats, in
// one call, what the separate kernels compute, operation for operation, so the results are bit-equal:
// - the products are gemm.cc's matmul calls of the same BatchMatMul (same transposes and leading
//   dimensions, in the same precision);
// - the epilogue and the activation gradients are the expressions of elementwise.cc (Add then Relu
//   or Tanh; MiaReluGrad, MiaTanhGrad), with -ffp-contract=off (no fused multiply-add);
// - the bias gradient sums over the rows as reduce.cc's Sum does (column sums per thread over a static
//   slice of rows, added in thread order; one double sum for a single column).
#include "dense.h"

#include <omp.h>

#include <cmath>
#include <string>
#include <vector>

#include "batch_norm_loops.h"
#include "common.h"
#include "elementwise-inl.h"
#include "gemm.h"
#include "scratch.h"

namespace mia {
namespace {

using elementwise::chunks;
using elementwise::fastTanh;
// The ReLU's step on its output y: the step of its input (y > 0 exactly where the input is, NaN where it is NaN).
inline float step(float v) { return elementwise::stepOf(v, 0.f); }

// Scratch slot of the activation gradient g (conv.cc and the matrix products use the low slots).
constexpr int kGradientSlot = 8;

enum class Act { kLinear, kRelu, kTanh };

Act parseActivation(const Args& a, size_t i) {
  const std::string name = a.string(i, "activation");
  if (name == "linear") return Act::kLinear;
  if (name == "relu") return Act::kRelu;
  if (name == "tanh") return Act::kTanh;
  a.rangeError("activation: expected linear, relu or tanh, got '" + name + "'");
}

// The one matrix product of these kernels: row-major c (m×n) = op(a)·op(b) through gemm.cc's matmul,
// the function BatchMatMul computes with, so that dense layers follow the precision of the matrix
// products (fp32: dnnl_sgemm; bf16: bf16 inputs, fp32 accumulation) and stay bit-equal to matMul.
void product(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  matmul(ta, tb, m, n, k, a, b, c, 1, 0, 0);
}

// g = dy·act'(y) as MiaReluGrad / MiaTanhGrad compute it, into the scratch buffer; dy itself for linear.
const float* activationGradient(Act act, const float* dy, const float* y, int64_t n) {
  if (act == Act::kLinear) return dy;
  float* g = static_cast<float*>(scratch(kGradientSlot, static_cast<size_t>(n) * sizeof(float)));
  if (act == Act::kRelu) {
    chunks(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; i++) g[i] = dy[i] * step(y[i]);
    });
  } else {
    chunks(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; i++) g[i] = (1.f - y[i] * y[i]) * dy[i];
    });
  }
  return g;
}

// Σ over rows of g [rows, cols] as reduce.cc's Sum over axis 0 computes it.
void sumRows(const float* g, int64_t rows, int64_t cols, float* out) {
  if (cols == 1) {
    double s = 0;
    for (int64_t r = 0; r < rows; r++) s += g[r];
    out[0] = static_cast<float>(s);
    return;
  }
  const int nt = rows * cols >= kParallelMin ? omp_get_max_threads() : 1;
  std::vector<double> partial(static_cast<size_t>(nt) * cols);
  std::vector<float> buffer(static_cast<size_t>(nt) * cols);
#pragma omp parallel num_threads(nt) if (nt > 1)
  {
    const int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
    bn::loops().columnSums(g, rows * t / n, rows * (t + 1) / n, cols, partial.data() + t * cols, buffer.data() + t * cols);
  }
  for (int64_t c = 0; c < cols; c++) {
    double s = 0;
    for (int t = 0; t < nt; t++) s += partial[static_cast<size_t>(t) * cols + c];
    out[c] = static_cast<float>(s);
  }
}

// y = act(y + bias) over rows; compiled for AVX-512, AVX2 and the baseline, chosen at load by the CPU
// (GCC's target_clones). Element-wise, exact operations without contraction: the same bits at every
// width (the tests compare with the Tanh and Add kernels).
template <Act A>
inline __attribute__((always_inline)) void epilogueRows(float* y, const float* bias, int64_t lo, int64_t hi, int64_t cols) {
  for (int64_t r = lo; r < hi; r++) {
    float* __restrict row = y + r * cols;
    for (int64_t c = 0; c < cols; c++) {
      const float v = row[c] + bias[c];
      if constexpr (A == Act::kLinear) row[c] = v;
      if constexpr (A == Act::kRelu) row[c] = v < 0.f ? 0.f : v;
      if constexpr (A == Act::kTanh) row[c] = fastTanh(v);
    }
  }
}

#define MIA_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
MIA_CLONES void epilogueLinear(float* y, const float* bias, int64_t lo, int64_t hi, int64_t cols) { epilogueRows<Act::kLinear>(y, bias, lo, hi, cols); }
MIA_CLONES void epilogueRelu(float* y, const float* bias, int64_t lo, int64_t hi, int64_t cols) { epilogueRows<Act::kRelu>(y, bias, lo, hi, cols); }
MIA_CLONES void epilogueTanh(float* y, const float* bias, int64_t lo, int64_t hi, int64_t cols) { epilogueRows<Act::kTanh>(y, bias, lo, hi, cols); }
#undef MIA_CLONES

void epilogue(Act act, float* y, const float* bias, int64_t rows, int64_t cols) {
  auto run = act == Act::kLinear ? epilogueLinear : act == Act::kRelu ? epilogueRelu : epilogueTanh;
#pragma omp parallel if (rows * cols >= kParallelMin)
  {
    const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    run(y, bias, rows * t / nt, rows * (t + 1) / nt, cols);
  }
}

// The optional y (the layer's output): required unless the activation is linear.
const float* outputOf(const Args& a, const Napi::CallbackInfo& info, size_t i, Act act, int64_t n) {
  if (act == Act::kLinear && (info[i].IsNull() || info[i].IsUndefined())) return nullptr;
  return a.f32(i, "y", n);
}

std::string shapes(int64_t rows, int64_t in, int64_t out) {
  return "[" + std::to_string(rows) + "," + std::to_string(in) + "] · [" + std::to_string(in) + "," + std::to_string(out) + "]";
}

}  // namespace

Napi::Value DenseForward(const Napi::CallbackInfo& info) {
  Args a(info, "denseForward");
  const int64_t rows = a.integer(4, "rows", 1), in = a.integer(5, "inFeatures", 1), out = a.integer(6, "outFeatures", 1);
  const Act act = parseActivation(a, 7);
  const float* x = a.f32(0, "x", a.elements({rows, in}, "x"));
  const float* w = a.f32(1, "weight", a.elements({in, out}, "weight"));
  const float* bias = a.f32(2, "bias", out);
  float* y = a.f32(3, "y", a.elements({rows, out}, "y"));
  return guarded(a, shapes(rows, in, out), [&] {
    product(false, false, rows, out, in, x, w, y);
    epilogue(act, y, bias, rows, out);
  });
}

Napi::Value DenseGradInput(const Napi::CallbackInfo& info) {
  Args a(info, "denseGradInput");
  const int64_t rows = a.integer(4, "rows", 1), in = a.integer(5, "inFeatures", 1), out = a.integer(6, "outFeatures", 1);
  const Act act = parseActivation(a, 7);
  const int64_t n = a.elements({rows, out}, "dy");
  const float* dy = a.f32(0, "dy", n);
  const float* y = outputOf(a, info, 1, act, n);
  const float* w = a.f32(2, "weight", a.elements({in, out}, "weight"));
  float* dx = a.f32(3, "dx", a.elements({rows, in}, "dx"));
  return guarded(a, shapes(rows, in, out), [&] { product(false, true, rows, in, out, activationGradient(act, dy, y, n), w, dx); });
}

Napi::Value DenseGradWeight(const Napi::CallbackInfo& info) {
  Args a(info, "denseGradWeight");
  const int64_t rows = a.integer(4, "rows", 1), in = a.integer(5, "inFeatures", 1), out = a.integer(6, "outFeatures", 1);
  const Act act = parseActivation(a, 7);
  const int64_t n = a.elements({rows, out}, "dy");
  const float* x = a.f32(0, "x", a.elements({rows, in}, "x"));
  const float* dy = a.f32(1, "dy", n);
  const float* y = outputOf(a, info, 2, act, n);
  float* dw = a.f32(3, "dw", a.elements({in, out}, "dw"));
  return guarded(a, shapes(rows, in, out), [&] { product(true, false, in, out, rows, x, activationGradient(act, dy, y, n), dw); });
}

Napi::Value DenseGradBias(const Napi::CallbackInfo& info) {
  Args a(info, "denseGradBias");
  const int64_t rows = a.integer(3, "rows", 1), out = a.integer(4, "outFeatures", 1);
  const Act act = parseActivation(a, 5);
  const int64_t n = a.elements({rows, out}, "dy");
  const float* dy = a.f32(0, "dy", n);
  const float* y = outputOf(a, info, 1, act, n);
  float* db = a.f32(2, "db", out);
  return guarded(a, "[" + std::to_string(rows) + "," + std::to_string(out) + "]", [&] { sumRows(activationGradient(act, dy, y, n), rows, out, db); });
}

}  // namespace mia
