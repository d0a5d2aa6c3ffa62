// 2-D max and average pooling, forward and backward, NHWC. Parallel over images (each image's
// windows only write to that image), vectorised over channels.
#include "pool.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common.h"

namespace mia {
namespace {

struct PoolDims {
  int64_t n, h, w, c, kh, kw, sh, sw, pt, pl, oh, ow;
};

PoolDims readDims(const Args& a, size_t i) {
  auto d = a.integers(i, "dims", 12, 0);
  PoolDims p{d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11]};
  const char* names[] = {"n", "h", "w", "c", "kh", "kw", "sh", "sw"};
  for (int k = 0; k < 8; k++) {
    if (d[k] < 1) a.rangeError(std::string("dims.") + names[k] + " must be ≥ 1, got " + std::to_string(d[k]));
  }
  if (p.oh < 1 || p.ow < 1) a.rangeError("dims: output size must be ≥ 1, got " + std::to_string(p.oh) + "×" + std::to_string(p.ow));
  return p;
}

// Window rows [r0, r1) and columns [c0, c1) of output (y, x), clipped to the input.
struct Window {
  int64_t r0, r1, c0, c1;
};
// best[ch] = max(best[ch], px[ch]); at[ch] = off + ch where px[ch] is strictly greater (first maximum).
inline void firstMax(const float* __restrict px, float* __restrict best, int32_t* __restrict at, int32_t off, int32_t c) {
  for (int32_t ch = 0; ch < c; ch++) {
    const float v = px[ch];
    const float b = best[ch];
    const int32_t greater = -static_cast<int32_t>(v > b);  // all ones where v > b: a mask, so GCC vectorises
    best[ch] = v > b ? v : b;
    at[ch] = (at[ch] & ~greater) | ((off + ch) & greater);
  }
}

inline Window window(const PoolDims& p, int64_t y, int64_t x) {
  const int64_t rs = y * p.sh - p.pt, cs = x * p.sw - p.pl;
  return {std::max<int64_t>(rs, 0), std::min(rs + p.kh, p.h), std::max<int64_t>(cs, 0), std::min(cs + p.kw, p.w)};
}

void maxForward(const PoolDims& p, const float* x, float* y) {
#pragma omp parallel for schedule(static) if (p.n * p.h * p.w * p.c >= kParallelMin)
  for (int64_t b = 0; b < p.n; b++) {
    const float* img = x + b * p.h * p.w * p.c;
    for (int64_t oy = 0; oy < p.oh; oy++) {
      for (int64_t ox = 0; ox < p.ow; ox++) {
        const Window wdw = window(p, oy, ox);
        float* out = y + ((b * p.oh + oy) * p.ow + ox) * p.c;
        for (int64_t ch = 0; ch < p.c; ch++) out[ch] = -std::numeric_limits<float>::infinity();
        for (int64_t r = wdw.r0; r < wdw.r1; r++) {
          for (int64_t cc = wdw.c0; cc < wdw.c1; cc++) {
            const float* px = img + (r * p.w + cc) * p.c;
            for (int64_t ch = 0; ch < p.c; ch++) out[ch] = px[ch] > out[ch] ? px[ch] : out[ch];
          }
        }
      }
    }
  }
}

void avgForward(const PoolDims& p, const float* x, float* y) {
#pragma omp parallel for schedule(static) if (p.n * p.h * p.w * p.c >= kParallelMin)
  for (int64_t b = 0; b < p.n; b++) {
    const float* img = x + b * p.h * p.w * p.c;
    std::vector<float> acc(p.c);
    for (int64_t oy = 0; oy < p.oh; oy++) {
      for (int64_t ox = 0; ox < p.ow; ox++) {
        const Window wdw = window(p, oy, ox);
        std::fill(acc.begin(), acc.end(), 0.f);
        for (int64_t r = wdw.r0; r < wdw.r1; r++) {
          for (int64_t cc = wdw.c0; cc < wdw.c1; cc++) {
            const float* px = img + (r * p.w + cc) * p.c;
            for (int64_t ch = 0; ch < p.c; ch++) acc[ch] += px[ch];
          }
        }
        // A window entirely in the padding (ceil rounding) has no values: 0/0 = NaN, as tfjs's cpu backend.
        const int64_t count = std::max<int64_t>(wdw.r1 - wdw.r0, 0) * std::max<int64_t>(wdw.c1 - wdw.c0, 0);
        float* out = y + ((b * p.oh + oy) * p.ow + ox) * p.c;
        for (int64_t ch = 0; ch < p.c; ch++) out[ch] = acc[ch] / static_cast<float>(count);
      }
    }
  }
}

}  // namespace

Napi::Value Pool2d(const Napi::CallbackInfo& info) {
  Args a(info, "pool2d");
  const std::string mode = a.string(0, "mode");
  PoolDims p = readDims(a, 3);
  const float* x = a.f32(1, "x", a.elements({p.n, p.h, p.w, p.c}, "x"));
  float* y = a.f32(2, "y", a.elements({p.n, p.oh, p.ow, p.c}, "y"));
  if (mode == "max") maxForward(p, x, y);
  else if (mode == "avg") avgForward(p, x, y);
  else a.rangeError("mode: expected 'max' or 'avg', got '" + mode + "'");
  return info.Env().Undefined();
}

Napi::Value MaxPoolGrad(const Napi::CallbackInfo& info) {
  Args a(info, "maxPoolGrad");
  PoolDims p = readDims(a, 3);
  const float* dy = a.f32(0, "dy", a.elements({p.n, p.oh, p.ow, p.c}, "dy"));
  const float* x = a.f32(1, "x", a.elements({p.n, p.h, p.w, p.c}, "x"));
  float* dx = a.f32(2, "dx", a.elements({p.n, p.h, p.w, p.c}, "dx"));
  const int64_t image = p.h * p.w * p.c;
#pragma omp parallel for schedule(static) if (p.n * image >= kParallelMin)
  for (int64_t b = 0; b < p.n; b++) {
    const float* img = x + b * image;
    float* dimg = dx + b * image;
    std::fill(dimg, dimg + image, 0.f);
    // Branch-free first-maximum search (a compare and two selects per value vectorise; the branchy
    // form mispredicted on random data and was 8× slower).
    std::vector<float> best(p.c);
    std::vector<int32_t> at(p.c);
    for (int64_t oy = 0; oy < p.oh; oy++) {
      for (int64_t ox = 0; ox < p.ow; ox++) {
        const Window wdw = window(p, oy, ox);
        std::fill(best.begin(), best.end(), -std::numeric_limits<float>::infinity());
        std::fill(at.begin(), at.end(), int32_t(-1));
        float* bp = best.data();
        int32_t* ap = at.data();
        for (int64_t r = wdw.r0; r < wdw.r1; r++) {
          for (int64_t cc = wdw.c0; cc < wdw.c1; cc++) {
            const int32_t off = static_cast<int32_t>((r * p.w + cc) * p.c);
            const float* px = img + off;
            firstMax(px, bp, ap, off, static_cast<int32_t>(p.c));
          }
        }
        const float* g = dy + ((b * p.oh + oy) * p.ow + ox) * p.c;
        for (int64_t ch = 0; ch < p.c; ch++) {
          if (at[ch] >= 0) dimg[at[ch]] += g[ch];
        }
      }
    }
  }
  return info.Env().Undefined();
}

Napi::Value AvgPoolGrad(const Napi::CallbackInfo& info) {
  Args a(info, "avgPoolGrad");
  PoolDims p = readDims(a, 2);
  const float* dy = a.f32(0, "dy", a.elements({p.n, p.oh, p.ow, p.c}, "dy"));
  float* dx = a.f32(1, "dx", a.elements({p.n, p.h, p.w, p.c}, "dx"));
  const int64_t image = p.h * p.w * p.c;
  const float scale = 1.f / static_cast<float>(p.kh * p.kw);
#pragma omp parallel for schedule(static) if (p.n * image >= kParallelMin)
  for (int64_t b = 0; b < p.n; b++) {
    float* dimg = dx + b * image;
    std::fill(dimg, dimg + image, 0.f);
    for (int64_t oy = 0; oy < p.oh; oy++) {
      for (int64_t ox = 0; ox < p.ow; ox++) {
        const Window wdw = window(p, oy, ox);
        const float* g = dy + ((b * p.oh + oy) * p.ow + ox) * p.c;
        for (int64_t r = wdw.r0; r < wdw.r1; r++) {
          for (int64_t cc = wdw.c0; cc < wdw.c1; cc++) {
            float* d = dimg + (r * p.w + cc) * p.c;
            for (int64_t ch = 0; ch < p.c; ch++) d[ch] += g[ch] * scale;
          }
        }
      }
    }
  }
  return info.Env().Undefined();
}

}  // namespace mia
