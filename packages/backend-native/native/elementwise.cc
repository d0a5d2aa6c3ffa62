// Element-wise kernels: broadcasting binary ops, unary ops, AddN and the fused ReLU / tanh gradients.
// Loops are split into static, equal chunks over threads (the same chunks for the same thread count,
// so results are reproducible) and vectorised by the compiler.
#include "elementwise.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common.h"
#include "elementwise-inl.h"

namespace mia {
namespace {

using elementwise::chunks;
using elementwise::fastTanh;
using elementwise::stepOf;

struct Add { float operator()(float a, float b) const { return a + b; } };
struct Sub { float operator()(float a, float b) const { return a - b; } };
struct Mul { float operator()(float a, float b) const { return a * b; } };
struct Div { float operator()(float a, float b) const { return a / b; } };
struct SqDiff { float operator()(float a, float b) const { const float d = a - b; return d * d; } };
// tfjs's cpu backend: Math.max / Math.min, which return NaN when either side is NaN.
struct Max { float operator()(float a, float b) const { return (a != a || b != b) ? NAN : (a > b ? a : b); } };
struct Min { float operator()(float a, float b) const { return (a != a || b != b) ? NAN : (a < b ? a : b); } };

// The number of elements of `shape`, or a RangeError naming `what` (an overflowing product of up to
// eight dims below 2^31 must not wrap around to a small size that passes the view-length checks).
int64_t checkedSize(const Args& args, const std::vector<int64_t>& shape, const char* what) {
  int64_t p = 1;
  for (int64_t d : shape) p = args.elements({p, d}, what);
  return p;
}

// Broadcast layout after merging dimensions: shape[i] with per-operand element strides (0 = broadcast).
struct Plan {
  std::vector<int64_t> shape, sa, sb;
};

Plan plan(const Args& args, const std::vector<int64_t>& aShape, const std::vector<int64_t>& bShape, const std::vector<int64_t>& outShape) {
  const size_t r = outShape.size();
  if (aShape.size() > r || bShape.size() > r) args.rangeError("outShape " + shapeString(outShape) + " has fewer axes than an input");
  std::vector<int64_t> a(r, 1), b(r, 1);
  std::copy(aShape.begin(), aShape.end(), a.begin() + (r - aShape.size()));
  std::copy(bShape.begin(), bShape.end(), b.begin() + (r - bShape.size()));
  for (size_t i = 0; i < r; i++) {
    const int64_t want = std::max(a[i], b[i]);
    const bool ok = (a[i] == b[i] || a[i] == 1 || b[i] == 1) && outShape[i] == (a[i] == 0 || b[i] == 0 ? 0 : want);
    if (!ok) {
      args.rangeError("shapes " + shapeString(aShape) + " and " + shapeString(bShape) + " do not broadcast to outShape " + shapeString(outShape));
    }
  }
  // Element strides of each operand, 0 on broadcast axes.
  std::vector<int64_t> sa(r), sb(r);
  int64_t pa = 1, pb = 1;
  for (size_t i = r; i-- > 0;) {
    sa[i] = a[i] == 1 ? 0 : pa;
    sb[i] = b[i] == 1 ? 0 : pb;
    pa *= a[i];
    pb *= b[i];
  }
  Plan p;
  for (size_t i = 0; i < r; i++) {
    if (outShape[i] == 1) continue;
    if (!p.shape.empty()) {
      const int64_t n = outShape[i];
      int64_t& ls = p.shape.back();
      // Merge axis i into the previous kept axis when both operands step through them contiguously.
      if (p.sa.back() == sa[i] * n && p.sb.back() == sb[i] * n) {
        ls *= n;
        p.sa.back() = sa[i];
        p.sb.back() = sb[i];
        continue;
      }
    }
    p.shape.push_back(outShape[i]);
    p.sa.push_back(sa[i]);
    p.sb.push_back(sb[i]);
  }
  if (p.shape.empty()) {
    p.shape.push_back(1);
    p.sa.push_back(0);
    p.sb.push_back(0);
  }
  return p;
}

template <typename Op, int SA, int SB>
inline void row(const float* a, const float* b, float* out, int64_t n) {
  Op op;
  for (int64_t i = 0; i < n; i++) out[i] = op(a[SA * i], b[SB * i]);
}

template <typename Op>
void rowDispatch(const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n) {
  if (sa == 1 && sb == 1) row<Op, 1, 1>(a, b, out, n);
  else if (sa == 1) row<Op, 1, 0>(a, b, out, n);
  else if (sb == 1) row<Op, 0, 1>(a, b, out, n);
  else row<Op, 0, 0>(a, b, out, n);
}

template <typename Op>
void runBinary(const Plan& p, const float* a, const float* b, float* out) {
  const size_t r = p.shape.size();
  const int64_t inner = p.shape[r - 1];
  int64_t outer = 1;
  for (size_t i = 0; i + 1 < r; i++) outer *= p.shape[i];
  const int64_t total = outer * inner;
  if (outer == 1) {
    // One contiguous run: split it into chunks.
#pragma omp parallel if (total >= kParallelMin)
    {
      const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
      const int64_t lo = total * t / nt, hi = total * (t + 1) / nt;
      rowDispatch<Op>(a + p.sa[0] * lo, p.sa[0], b + p.sb[0] * lo, p.sb[0], out + lo, hi - lo);
    }
    return;
  }
#pragma omp parallel if (total >= kParallelMin)
  {
    const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int64_t lo = outer * t / nt, hi = outer * (t + 1) / nt;
    // Multi-index of row `lo` over the outer axes, then an odometer.
    std::vector<int64_t> idx(r - 1, 0);
    int64_t offA = 0, offB = 0;
    for (int64_t rem = lo, i = static_cast<int64_t>(r) - 2; i >= 0; i--) {
      idx[i] = rem % p.shape[i];
      rem /= p.shape[i];
      offA += idx[i] * p.sa[i];
      offB += idx[i] * p.sb[i];
    }
    for (int64_t o = lo; o < hi; o++) {
      rowDispatch<Op>(a + offA, p.sa[r - 1], b + offB, p.sb[r - 1], out + o * inner, inner);
      for (int64_t i = static_cast<int64_t>(r) - 2; i >= 0; i--) {
        offA += p.sa[i];
        offB += p.sb[i];
        if (++idx[i] < p.shape[i]) break;
        offA -= p.sa[i] * p.shape[i];
        offB -= p.sb[i] * p.shape[i];
        idx[i] = 0;
      }
    }
  }
}

template <typename F>
void map(const float* x, float* y, int64_t n, F f) {
  chunks(n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; i++) y[i] = f(x[i]);
  });
}

}  // namespace

Napi::Value Binary(const Napi::CallbackInfo& info) {
  Args args(info, "binary");
  const std::string op = args.string(0, "op");
  const auto aShape = args.integers(2, "aShape", 0, 0);
  const auto bShape = args.integers(4, "bShape", 0, 0);
  const auto outShape = args.integers(6, "outShape", 0, 0);
  // Sizes checked (no int64 overflow, at most 2^40 elements) before anything multiplies the dims.
  const int64_t aSize = checkedSize(args, aShape, "aShape"), bSize = checkedSize(args, bShape, "bShape");
  const int64_t outSize = checkedSize(args, outShape, "outShape");
  const Plan p = plan(args, aShape, bShape, outShape);
  const float* a = args.f32(1, "a", aSize);
  const float* b = args.f32(3, "b", bSize);
  float* out = args.f32(5, "out", outSize);
  if (outSize == 0) return info.Env().Undefined();
  if (op == "add") runBinary<Add>(p, a, b, out);
  else if (op == "sub") runBinary<Sub>(p, a, b, out);
  else if (op == "mul") runBinary<Mul>(p, a, b, out);
  else if (op == "div") runBinary<Div>(p, a, b, out);
  else if (op == "squaredDifference") runBinary<SqDiff>(p, a, b, out);
  else if (op == "maximum") runBinary<Max>(p, a, b, out);
  else if (op == "minimum") runBinary<Min>(p, a, b, out);
  else args.rangeError("op: expected add, sub, mul, div, squaredDifference, maximum or minimum, got '" + op + "'");
  return info.Env().Undefined();
}

Napi::Value Unary(const Napi::CallbackInfo& info) {
  Args args(info, "unary");
  const std::string op = args.string(0, "op");
  const int64_t n = args.integer(3, "size", 0);
  const float* x = args.f32(1, "x", n);
  float* y = args.f32(2, "y", n);
  const float alpha = static_cast<float>(args.number(4, "alpha"));
  if (op == "relu") map(x, y, n, [](float v) { return v < 0.f ? 0.f : v; });
  else if (op == "relu6") map(x, y, n, [](float v) { return v < 0.f ? 0.f : (v > 6.f ? 6.f : v); });
  else if (op == "step") map(x, y, n, [alpha](float v) { return stepOf(v, alpha); });
  else if (op == "tanh") map(x, y, n, [](float v) { return fastTanh(v); });
  else if (op == "sigmoid") map(x, y, n, [](float v) { return 1.f / (1.f + std::exp(-v)); });
  else if (op == "neg") map(x, y, n, [](float v) { return -v; });
  else if (op == "square") map(x, y, n, [](float v) { return v * v; });
  else if (op == "sqrt") map(x, y, n, [](float v) { return std::sqrt(v); });
  else if (op == "rsqrt") map(x, y, n, [](float v) { return 1.f / std::sqrt(v); });
  else if (op == "exp") map(x, y, n, [](float v) { return std::exp(v); });
  else if (op == "log") map(x, y, n, [](float v) { return std::log(v); });
  else if (op == "abs") map(x, y, n, [](float v) { return std::fabs(v); });
  else if (op == "elu") map(x, y, n, [](float v) { return v < 0.f ? std::expm1(v) : v; });
  else if (op == "leakyRelu") map(x, y, n, [alpha](float v) { return v < 0.f ? alpha * v : v; });
  else args.rangeError("op: unknown unary op '" + op + "'");
  return info.Env().Undefined();
}

Napi::Value AddN(const Napi::CallbackInfo& info) {
  Args args(info, "addN");
  const int64_t n = args.integer(2, "size", 0);
  if (!info[0].IsArray() || info[0].As<Napi::Array>().Length() == 0) args.typeError("inputs: expected a non-empty array of Float32Arrays");
  auto list = info[0].As<Napi::Array>();
  std::vector<const float*> inputs;
  for (uint32_t i = 0; i < list.Length(); i++) {
    Napi::Value v = list.Get(i);
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array || v.As<Napi::Float32Array>().ElementLength() < static_cast<size_t>(n)) {
      args.typeError("inputs[" + std::to_string(i) + "]: expected a Float32Array of at least " + std::to_string(n) + " elements");
    }
    inputs.push_back(v.As<Napi::Float32Array>().Data());
  }
  float* out = args.f32(1, "out", n);
  chunks(n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; i++) out[i] = inputs[0][i];
    for (size_t k = 1; k < inputs.size(); k++) {
      const float* in = inputs[k];
      for (int64_t i = lo; i < hi; i++) out[i] += in[i];
    }
  });
  return info.Env().Undefined();
}

Napi::Value ReluGrad(const Napi::CallbackInfo& info) {
  Args args(info, "reluGrad");
  const int64_t n = args.integer(3, "size", 0);
  const float* dy = args.f32(0, "dy", n);
  const float* x = args.f32(1, "x", n);
  float* dx = args.f32(2, "dx", n);
  chunks(n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; i++) {
      dx[i] = dy[i] * stepOf(x[i], 0.f);
    }
  });
  return info.Env().Undefined();
}

Napi::Value TanhGrad(const Napi::CallbackInfo& info) {
  Args args(info, "tanhGrad");
  const int64_t n = args.integer(3, "size", 0);
  const float* dy = args.f32(0, "dy", n);
  const float* y = args.f32(1, "y", n);
  float* dx = args.f32(2, "dx", n);
  chunks(n, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; i++) dx[i] = (1.f - y[i] * y[i]) * dy[i];
  });
  return info.Env().Undefined();
}

}  // namespace mia
