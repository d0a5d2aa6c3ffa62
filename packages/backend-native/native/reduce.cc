// Reductions over one contiguous group of axes: x is viewed as [outer, mid, inner] and reduced over
// mid. Sums and means accumulate in double (column sums: in float over blocks of 32 rows first, the
// vectorised loop of batch_norm_loops-inl.h). Column reductions (inner > 1, e.g. the per-channel sums of
// batch norm over [N·H·W, C]) give each thread a static slice of mid and add the per-thread partial
// sums in thread order, so a fixed thread count gives the same bits every run.
#include "reduce.h"

#include <omp.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "batch_norm_loops.h"
#include "common.h"

namespace mia {
namespace {

enum class Op { kSum, kMean, kMax, kMin };

// Row reductions (inner == 1): one thread per block of rows.
void rows(Op op, const float* x, int64_t outer, int64_t mid, float* out) {
#pragma omp parallel for schedule(static) if (outer * mid >= kParallelMin)
  for (int64_t o = 0; o < outer; o++) {
    const float* r = x + o * mid;
    if (op == Op::kSum || op == Op::kMean) {
      double s = 0;
      for (int64_t m = 0; m < mid; m++) s += r[m];
      out[o] = static_cast<float>(op == Op::kMean ? s / static_cast<double>(mid) : s);
    } else {
      float v = r[0];
      for (int64_t m = 1; m < mid; m++) {
        const float e = r[m];
        if (e != e || v != v) v = NAN;
        else if (op == Op::kMax ? e > v : e < v) v = e;
      }
      out[o] = v;
    }
  }
}

// Column reductions (inner > 1): for each outer block, reduce [mid, inner] over mid.
void columns(Op op, const float* x, int64_t outer, int64_t mid, int64_t inner, float* out) {
  const bool sum = op == Op::kSum || op == Op::kMean;
  const int nt = (outer * mid * inner >= kParallelMin) ? omp_get_max_threads() : 1;
  std::vector<double> partial(sum ? static_cast<size_t>(nt) * inner : 0);
  std::vector<float> partialF(sum ? 0 : static_cast<size_t>(nt) * inner);
  std::vector<float> scratch(sum ? static_cast<size_t>(nt) * inner : 0);
  for (int64_t o = 0; o < outer; o++) {
    const float* base = x + o * mid * inner;
#pragma omp parallel num_threads(nt) if (nt > 1)
    {
      const int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
      const int64_t lo = mid * t / n, hi = mid * (t + 1) / n;
      if (sum) {
        double* acc = partial.data() + t * inner;
        for (int64_t i = 0; i < inner; i++) acc[i] = 0;
        bn::loops().columnSums(base, lo, hi, inner, acc, scratch.data() + t * inner);
      } else {
        float* acc = partialF.data() + t * inner;
        const float init = op == Op::kMax ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
        for (int64_t i = 0; i < inner; i++) acc[i] = lo < hi ? base[lo * inner + i] : init;
        for (int64_t m = lo + 1; m < hi; m++) {
          const float* r = base + m * inner;
          for (int64_t i = 0; i < inner; i++) {
            const float e = r[i], v = acc[i];
            acc[i] = (e != e || v != v) ? NAN : ((op == Op::kMax ? e > v : e < v) ? e : v);
          }
        }
      }
      // Threads beyond `mid` rows leave their partial at the identity.
      (void)n;
    }
    float* dst = out + o * inner;
    for (int64_t i = 0; i < inner; i++) {
      if (sum) {
        double s = 0;
        for (int t = 0; t < nt; t++) s += partial[static_cast<size_t>(t) * inner + i];
        dst[i] = static_cast<float>(op == Op::kMean ? s / static_cast<double>(mid) : s);
      } else {
        float v = partialF[i];
        for (int t = 1; t < nt; t++) {
          const float e = partialF[static_cast<size_t>(t) * inner + i];
          v = (e != e || v != v) ? NAN : ((op == Op::kMax ? e > v : e < v) ? e : v);
        }
        dst[i] = v;
      }
    }
  }
}

}  // namespace

Napi::Value Reduce(const Napi::CallbackInfo& info) {
  Args args(info, "reduce");
  const std::string name = args.string(0, "op");
  Op op;
  if (name == "sum") op = Op::kSum;
  else if (name == "mean") op = Op::kMean;
  else if (name == "max") op = Op::kMax;
  else if (name == "min") op = Op::kMin;
  else args.rangeError("op: expected sum, mean, max or min, got '" + name + "'");
  const int64_t outer = args.integer(2, "outer", 1), mid = args.integer(3, "mid", 1), inner = args.integer(4, "inner", 1);
  const float* x = args.f32(1, "x", args.elements({outer, mid, inner}, "x"));
  float* out = args.f32(5, "out", args.elements({outer, inner}, "out"));
  if (inner == 1) rows(op, x, outer, mid, out);
  else columns(op, x, outer, mid, inner, out);
  return info.Env().Undefined();
}

}  // namespace mia
