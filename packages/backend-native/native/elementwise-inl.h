// Element-wise helpers shared by elementwise.cc and dense.cc: the fused dense kernels must give the
// separate kernels' bits, so both use these exact definitions (the native tests compare them bit
// for bit).
#ifndef MIA_NATIVE_ELEMENTWISE_INL_H_
#define MIA_NATIVE_ELEMENTWISE_INL_H_

#include <omp.h>

#include <cmath>
#include <cstdint>

#include "common.h"

namespace mia {
namespace elementwise {

// 1 for v > 0, alpha otherwise, NaN for NaN (tfjs's step), written without nested branches so that
// the loops vectorise (random signs made the branchy form 7× slower).
inline float stepOf(float v, float alpha) {
  const float r = v > 0.f ? 1.f : alpha;
  return v == v ? r : v;
}

// tanh as Eigen's rational approximation (generic_fast_tanh_float: a 13/6-degree rational function
// on [-7.9, 7.9], a few float ulps from std::tanh), which vectorises; std::tanh is ~15 ns per value.
inline __attribute__((always_inline)) float fastTanh(float v) {
  const float c = 7.90531110763549805f;
  float x = v > c ? c : v;
  x = x < -c ? -c : x;
  const float x2 = x * x;
  float p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
  p = x2 * p + -8.60467152213735e-11f;
  p = x2 * p + 5.12229709037114e-08f;
  p = x2 * p + 1.48572235717979e-05f;
  p = x2 * p + 6.37261928875436e-04f;
  p = x2 * p + 4.89352455891786e-03f;
  p = x * p;
  float q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
  q = x2 * q + 2.26843463243900e-03f;
  q = x2 * q + 4.89352518554385e-03f;
  const float t = p / q;
  const float r = std::fabs(x) < 0.0004f ? x : t;
  return v == v ? r : v;
}

// Runs f(lo, hi) on equal static chunks of [0, n) (element-wise results do not depend on the split).
template <typename F>
void chunks(int64_t n, F f) {
#pragma omp parallel if (n >= kParallelMin)
  {
    const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    f(n * t / nt, n * (t + 1) / nt);
  }
}

}  // namespace elementwise
}  // namespace mia

#endif  // MIA_NATIVE_ELEMENTWISE_INL_H_
