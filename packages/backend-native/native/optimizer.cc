// One optimizer step per variable in one pass over memory: @mia/core's `sgd` and `adam`. The JS
// path runs each step as a chain of tfjs ops (multiply, add, sub, …), each rounding to float32; these
// loops perform the same float32 operations in the same order (no fused multiply-add: the addon is
// compiled with -ffp-contract=off), so their results are bit-equal to the JS path's. They write new
// buffers rather than overwriting the variable: tfjs-wasm's XNNPACK kernels cache packed weights by
// tensor id, which an in-place write would leave stale.
#include "optimizer.h"

#include <omp.h>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "common.h"

namespace mia {
namespace {

// Runs f(lo, hi) on equal static chunks of [0, n) (the same chunks for the same thread count).
template <typename F>
void chunks(int64_t n, F f) {
#pragma omp parallel if (n >= kParallelMin)
  {
    const int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    f(n * t / nt, n * (t + 1) / nt);
  }
}

struct SgdHyper {
  float lr, mu, dampened, wd;
};

// The JS path, per element: d = g + v·wd; b = d (first step) or b = buf·mu + d·(1 − dampening) (the
// product only when dampening ≠ 0); d = d + b·mu (Nesterov; d + d·mu on the first step) or d = b;
// v = v − d·lr.
template <bool kDecay, bool kMomentum, bool kFirst, bool kDampen, bool kNesterov>
void sgdLoop(const float* __restrict w, const float* __restrict g, const float* __restrict buf, float* __restrict wOut,
             float* __restrict bufOut, int64_t lo, int64_t hi, SgdHyper h) {
  for (int64_t i = lo; i < hi; i++) {
    float d = g[i];
    if (kDecay) {
      const float decay = w[i] * h.wd;
      d = d + decay;
    }
    if (kMomentum) {
      float b;
      if (kFirst) {
        b = d;
      } else {
        const float kept = buf[i] * h.mu;
        const float added = kDampen ? d * h.dampened : d;
        b = kept + added;
      }
      bufOut[i] = b;
      if (kNesterov) {
        const float look = (kFirst ? d : b) * h.mu;
        d = d + look;
      } else {
        d = b;
      }
    }
    const float step = d * h.lr;
    wOut[i] = w[i] - step;
  }
}

using SgdLoop = void (*)(const float*, const float*, const float*, float*, float*, int64_t, int64_t, SgdHyper);

template <bool kDecay>
SgdLoop pickSgd(bool momentum, bool first, bool dampen, bool nesterov) {
  if (!momentum) return sgdLoop<kDecay, false, false, false, false>;
  if (first) return nesterov ? sgdLoop<kDecay, true, true, false, true> : sgdLoop<kDecay, true, true, false, false>;
  if (nesterov) return sgdLoop<kDecay, true, false, false, true>;  // Nesterov needs dampening 0
  return dampen ? sgdLoop<kDecay, true, false, true, false> : sgdLoop<kDecay, true, false, false, false>;
}

struct AdamHyper {
  float lr, beta1, beta2, oneMinusBeta1, oneMinusBeta2, epsilon, wd, bc1, bc2;
};

// The JS path, per element: g = g + v·wd; m = m·β1 + g·(1 − β1); s = s·β2 + (g·g)·(1 − β2);
// v = v − ((m / bc1) / (√(s / bc2) + ε))·lr.
template <bool kDecay>
void adamLoop(const float* __restrict w, const float* __restrict g, const float* __restrict m, const float* __restrict s, float* __restrict wOut,
              float* __restrict mOut, float* __restrict sOut, int64_t lo, int64_t hi, AdamHyper h) {
  for (int64_t i = lo; i < hi; i++) {
    float gi = g[i];
    if (kDecay) {
      const float decay = w[i] * h.wd;
      gi = gi + decay;
    }
    const float mKept = m[i] * h.beta1;
    const float mAdded = gi * h.oneMinusBeta1;
    const float m1 = mKept + mAdded;
    const float sKept = s[i] * h.beta2;
    const float g2 = gi * gi;
    const float sAdded = g2 * h.oneMinusBeta2;
    const float s1 = sKept + sAdded;
    mOut[i] = m1;
    sOut[i] = s1;
    const float mHat = m1 / h.bc1;
    const float sHat = s1 / h.bc2;
    const float root = std::sqrt(sHat);
    const float denom = root + h.epsilon;
    const float ratio = mHat / denom;
    const float step = ratio * h.lr;
    wOut[i] = w[i] - step;
  }
}

bool isAbsent(const Napi::CallbackInfo& info, size_t i) { return i >= info.Length() || info[i].IsNull() || info[i].IsUndefined(); }

std::string str(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// A finite number ≥ 0.
double nonNegative(const Args& a, size_t i, const char* name) {
  const double v = a.number(i, name);
  if (v < 0) a.rangeError(std::string(name) + ": expected a number ≥ 0, got " + str(v));
  return v;
}

}  // namespace

Napi::Value SgdUpdate(const Napi::CallbackInfo& info) {
  Args a(info, "sgdUpdate");
  const int64_t n = a.integer(5, "size", 0);
  const double muD = a.number(7, "momentum");
  const double dampening = a.number(8, "dampening");
  if (muD < 0 || muD >= 1) a.rangeError("momentum: expected a number in [0, 1), got " + str(muD));
  if (dampening < 0 || dampening > 1) a.rangeError("dampening: expected a number in [0, 1], got " + str(dampening));
  const bool nesterov = a.boolean(9, "nesterov");
  if (nesterov && (muD == 0 || dampening != 0)) a.rangeError("nesterov: needs momentum > 0 and dampening 0");
  const double wd = nonNegative(a, 10, "weightDecay");
  // 1 − dampening in double, then float32: as the JS path's tf.mul(d, 1 - dampening).
  const SgdHyper h{static_cast<float>(nonNegative(a, 6, "lr")), static_cast<float>(muD), static_cast<float>(1.0 - dampening), static_cast<float>(wd)};
  const float* w = a.f32(0, "variable", n);
  const float* g = a.f32(1, "gradient", n);
  const bool momentum = muD != 0;
  const bool first = isAbsent(info, 2);
  const float* buf = first ? nullptr : a.f32(2, "momentumBuffer", n);
  float* wOut = a.f32(3, "newVariable", n);
  float* bufOut = nullptr;
  if (momentum) bufOut = a.f32(4, "newMomentumBuffer", n);
  else if (!isAbsent(info, 4)) a.typeError("newMomentumBuffer: expected null without momentum");
  // The JS path adds the decay term whenever weightDecay ≠ 0 (even when it rounds to 0 in float32).
  const SgdLoop loop = wd != 0 ? pickSgd<true>(momentum, first, dampening != 0, nesterov) : pickSgd<false>(momentum, first, dampening != 0, nesterov);
  chunks(n, [&](int64_t lo, int64_t hi) { loop(w, g, buf, wOut, bufOut, lo, hi, h); });
  return info.Env().Undefined();
}

Napi::Value AdamUpdate(const Napi::CallbackInfo& info) {
  Args a(info, "adamUpdate");
  const int64_t n = a.integer(7, "size", 0);
  const double beta1 = a.number(9, "beta1"), beta2 = a.number(10, "beta2");
  if (beta1 < 0 || beta1 >= 1) a.rangeError("beta1: expected a number in [0, 1), got " + str(beta1));
  if (beta2 < 0 || beta2 >= 1) a.rangeError("beta2: expected a number in [0, 1), got " + str(beta2));
  const double bc1 = nonNegative(a, 13, "biasCorrection1"), bc2 = nonNegative(a, 14, "biasCorrection2");
  if (bc1 == 0 || bc2 == 0) a.rangeError("biasCorrection1, biasCorrection2: expected numbers > 0 (1 − beta^t with t ≥ 1)");
  const double wd = nonNegative(a, 12, "weightDecay");
  // 1 − β in double, then float32: as the JS path's tf.mul(g, 1 - beta1).
  const AdamHyper h{static_cast<float>(nonNegative(a, 8, "lr")),
                    static_cast<float>(beta1),
                    static_cast<float>(beta2),
                    static_cast<float>(1.0 - beta1),
                    static_cast<float>(1.0 - beta2),
                    static_cast<float>(nonNegative(a, 11, "epsilon")),
                    static_cast<float>(wd),
                    static_cast<float>(bc1),
                    static_cast<float>(bc2)};
  const float* w = a.f32(0, "variable", n);
  const float* g = a.f32(1, "gradient", n);
  const float* m = a.f32(2, "m", n);
  const float* s = a.f32(3, "v", n);
  float* wOut = a.f32(4, "newVariable", n);
  float* mOut = a.f32(5, "newM", n);
  float* sOut = a.f32(6, "newV", n);
  chunks(n, [&](int64_t lo, int64_t hi) {
    if (wd != 0) adamLoop<true>(w, g, m, s, wOut, mOut, sOut, lo, hi, h);
    else adamLoop<false>(w, g, m, s, wOut, mOut, sOut, lo, hi, h);
  });
  return info.Env().Undefined();
}

}  // namespace mia
