// Matrix products through oneDNN (multi-threaded by the library): in fp32 through dnnl_sgemm
// (row-major), except a·bᵀ of more than a few columns through the fp32 matmul primitive, or in bf16
// precision through the matmul primitive on bf16 copies of the inputs (matmul_primitive.cc); and the
// bias + activation epilogue of a fused matrix product.
#include "gemm.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "common.h"
#include "matmul_primitive.h"
#include "precision.h"

namespace mia {

Napi::Value Gemm(const Napi::CallbackInfo& info) {
  Args a(info, "gemm");
  const bool ta = a.boolean(0, "transposeA"), tb = a.boolean(1, "transposeB");
  const int64_t m = a.integer(2, "m", 0), n = a.integer(3, "n", 0), k = a.integer(4, "k", 0);
  const int64_t batch = a.integer(8, "batch", 1);
  const int64_t strideA = a.integer(9, "strideA", 0), strideB = a.integer(10, "strideB", 0);
  if (strideA != 0 && strideA != m * k) a.rangeError("strideA: expected 0 or m·k = " + std::to_string(m * k) + ", got " + std::to_string(strideA));
  if (strideB != 0 && strideB != k * n) a.rangeError("strideB: expected 0 or k·n = " + std::to_string(k * n) + ", got " + std::to_string(strideB));
  const float* pa = a.f32(5, "a", a.elements({strideA, batch - 1}, "a") + a.elements({m, k}, "a"));
  const float* pb = a.f32(6, "b", a.elements({strideB, batch - 1}, "b") + a.elements({k, n}, "b"));
  float* pc = a.f32(7, "c", a.elements({batch, m, n}, "c"));
  const std::string what = "[" + std::to_string(batch) + "] " + std::to_string(m) + "×" + std::to_string(k) + " · " + std::to_string(k) + "×" +
                           std::to_string(n) + (ta ? " (a transposed)" : "") + (tb ? " (b transposed)" : "");
  return guarded(a, what, [&] { matmul(ta, tb, m, n, k, pa, pb, pc, batch, strideA, strideB); });
}

namespace {
// Whether an fp32 product goes to the matmul primitive rather than dnnl_sgemm: a·bᵀ (b transposed, a
// not), the input gradient of every dense layer, which dnnl_sgemm 2.6 splits poorly over threads (the
// Purchase MLP's 128×1024 · (512×1024)ᵀ: 1.27 ms on 2 threads, hardly faster than its 1.49 ms on 1;
// the primitive 0.68 ms, 1.26 on 1 thread; decision 0064). Products of a short contraction (k < 64)
// or of fewer than 2¹⁸ multiply-adds stay on dnnl_sgemm, whose call costs less there. A fixed rule of
// the shape: the same product always takes the same path, so results stay reproducible.
bool fp32Primitive(bool ta, bool tb, int64_t m, int64_t n, int64_t k) { return tb && !ta && k >= 64 && m * n * k >= (int64_t{1} << 18); }

// Products of fewer multiply-adds run on the calling thread alone: splitting them costs more than it
// saves (on 2 cores, 128×100 · 100×64: 15.8 µs on one thread, 20.3 on two; the gain starts between
// 1 and 4 million; decision 0064). They then give the same bits at every thread count.
constexpr int64_t kSmallProduct = int64_t{1} << 20;

// Sets the calling thread's OpenMP team size to 1 for its lifetime (oneDNN reads omp_get_max_threads()).
class OneThread {
 public:
  explicit OneThread(bool active) : previous_(active ? omp_get_max_threads() : 0) {
    if (active) omp_set_num_threads(1);
  }
  ~OneThread() {
    if (previous_ > 0) omp_set_num_threads(previous_);
  }
  OneThread(const OneThread&) = delete;
  OneThread& operator=(const OneThread&) = delete;

 private:
  int previous_;
};
}  // namespace

void matmul(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* pa, const float* pb, float* pc, int64_t batch, int64_t strideA,
            int64_t strideB) {
  if (m == 0 || n == 0 || batch == 0) return;
  const OneThread small(m * n * k * batch < kSmallProduct && omp_get_max_threads() > 1);
  if (k > 0 && precision() == Precision::kBf16) return matmulPrimitive(true, ta, tb, m, n, k, pa, pb, pc, batch, strideA, strideB);
  if (fp32Primitive(ta, tb, m, n, k)) return matmulPrimitive(false, ta, tb, m, n, k, pa, pb, pc, batch, strideA, strideB);
  for (int64_t i = 0; i < batch; i++) {
    float* c = pc + i * m * n;
    if (k == 0) {
      for (int64_t j = 0; j < m * n; j++) c[j] = 0.f;
      continue;
    }
    dnnl_status_t s =
        dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, pa + i * strideA, ta ? m : k, pb + i * strideB, tb ? k : n, 0.0f, c, n);
    if (s != dnnl_success) throw std::runtime_error("oneDNN: dnnl_sgemm failed with status " + std::to_string(static_cast<int>(s)));
  }
}

namespace {
enum class Act { kLinear, kRelu, kRelu6, kElu, kSigmoid, kLeaky };

template <Act A>
inline float apply(float v, float alpha) {
  if constexpr (A == Act::kLinear) return v;
  if constexpr (A == Act::kRelu) return v < 0.f ? 0.f : v;
  if constexpr (A == Act::kRelu6) return v < 0.f ? 0.f : (v > 6.f ? 6.f : v);
  if constexpr (A == Act::kElu) return v < 0.f ? std::expm1(v) : v;
  if constexpr (A == Act::kSigmoid) return 1.f / (1.f + std::exp(-v));
  if constexpr (A == Act::kLeaky) return v < 0.f ? alpha * v : v;
  return v;
}

template <Act A>
void epilogue(float* y, int64_t rows, int64_t cols, const float* bias, float alpha) {
#pragma omp parallel for schedule(static) if (rows * cols >= kParallelMin)
  for (int64_t r = 0; r < rows; r++) {
    float* row = y + r * cols;
    if (bias != nullptr) {
      for (int64_t c = 0; c < cols; c++) row[c] = apply<A>(row[c] + bias[c], alpha);
    } else {
      for (int64_t c = 0; c < cols; c++) row[c] = apply<A>(row[c], alpha);
    }
  }
}
}  // namespace

Napi::Value BiasActivation(const Napi::CallbackInfo& info) {
  Args a(info, "biasActivation");
  const int64_t rows = a.integer(1, "rows", 0), cols = a.integer(2, "cols", 0);
  float* y = a.f32(0, "y", rows * cols);
  const bool hasBias = !info[3].IsNull() && !info[3].IsUndefined();
  const float* bias = hasBias ? a.f32(3, "bias", cols) : nullptr;
  const std::string act = a.string(4, "activation");
  const float alpha = static_cast<float>(a.number(5, "alpha"));
  if (act == "linear") epilogue<Act::kLinear>(y, rows, cols, bias, alpha);
  else if (act == "relu") epilogue<Act::kRelu>(y, rows, cols, bias, alpha);
  else if (act == "relu6") epilogue<Act::kRelu6>(y, rows, cols, bias, alpha);
  else if (act == "elu") epilogue<Act::kElu>(y, rows, cols, bias, alpha);
  else if (act == "sigmoid") epilogue<Act::kSigmoid>(y, rows, cols, bias, alpha);
  else if (act == "leakyrelu") epilogue<Act::kLeaky>(y, rows, cols, bias, alpha);
  else a.rangeError("activation: expected linear, relu, relu6, elu, sigmoid or leakyrelu, got '" + act + "'");
  return info.Env().Undefined();
}

}  // namespace mia
