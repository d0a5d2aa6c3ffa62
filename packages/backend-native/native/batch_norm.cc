// Batch normalisation over the last axis of x viewed as [rows, channels] (NHWC activations, or
// [batch, features]). Per-channel sums run on static row slices per thread, accumulated in double and
// combined in thread order (reproducible for a fixed thread count).
#include "batch_norm.h"

#include <omp.h>

#include <cmath>
#include <string>
#include <vector>

#include "common.h"

namespace mia {
namespace {

// Per-channel sums over rows of term(row pointer, k, c), one static row slice per thread.
template <typename Term>
void channelSums(int64_t rows, int64_t channels, int count, std::vector<double>& out, Term term) {
  const int nt = rows * channels >= kParallelMin ? omp_get_max_threads() : 1;
  std::vector<double> partial(static_cast<size_t>(nt) * count * channels, 0.0);
#pragma omp parallel num_threads(nt) if (nt > 1)
  {
    const int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
    const int64_t lo = rows * t / n, hi = rows * (t + 1) / n;
    double* acc = partial.data() + t * count * channels;
    for (int64_t r = lo; r < hi; r++) term(r, acc);
  }
  out.assign(static_cast<size_t>(count) * channels, 0.0);
  for (int t = 0; t < nt; t++) {
    for (int64_t i = 0; i < count * channels; i++) out[i] += partial[static_cast<size_t>(t) * count * channels + i];
  }
}

// ReLU's gradient mask of an output y = relu(z): 1 where y > 0, 0 where y = 0 (z ≤ 0), NaN for NaN,
// as the unfused ReLU gradient's step(z) (y > 0 exactly where z > 0). Branch-free, so loops vectorise.
inline float reluMask(float y) {
  const float r = y > 0.f ? 1.f : 0.f;
  return y == y ? r : y;
}

bool present(const Napi::CallbackInfo& info, size_t i) { return i < info.Length() && !info[i].IsNull() && !info[i].IsUndefined(); }

}  // namespace

Napi::Value BatchNorm(const Napi::CallbackInfo& info) {
  Args a(info, "batchNorm");
  const int64_t rows = a.integer(6, "rows", 1), channels = a.integer(7, "channels", 1);
  const double eps = a.number(8, "eps");
  const float* x = a.f32(0, "x", a.elements({rows, channels}, "x"));
  auto param = [&](size_t i, const char* name) -> std::pair<const float*, int64_t> {
    if (info[i].IsNull() || info[i].IsUndefined()) return {nullptr, 0};
    const int64_t len = info[i].IsTypedArray() ? static_cast<int64_t>(info[i].As<Napi::TypedArray>().ElementLength()) : 0;
    const float* p = a.f32(i, name, 1);
    if (len != 1 && len != channels) a.rangeError(std::string(name) + ": expected 1 or " + std::to_string(channels) + " values, got " + std::to_string(len));
    return {p, len};
  };
  auto [mean, meanLen] = param(1, "mean");
  auto [variance, varLen] = param(2, "variance");
  if (mean == nullptr || variance == nullptr) a.typeError("mean and variance are required");
  auto [offset, offLen] = param(3, "offset");
  auto [scale, scaleLen] = param(4, "scale");
  float* y = a.f32(5, "y", rows * channels);
  std::vector<float> mul(channels), add(channels);
  for (int64_t c = 0; c < channels; c++) {
    const double m = mean[meanLen == 1 ? 0 : c], v = variance[varLen == 1 ? 0 : c];
    const double s = scale == nullptr ? 1.0 : scale[scaleLen == 1 ? 0 : c], o = offset == nullptr ? 0.0 : offset[offLen == 1 ? 0 : c];
    const double k = s / std::sqrt(v + eps);
    mul[c] = static_cast<float>(k);
    add[c] = static_cast<float>(o - m * k);
  }
#pragma omp parallel for schedule(static) if (rows * channels >= kParallelMin)
  for (int64_t r = 0; r < rows; r++) {
    const float* in = x + r * channels;
    float* out = y + r * channels;
    for (int64_t c = 0; c < channels; c++) out[c] = in[c] * mul[c] + add[c];
  }
  return info.Env().Undefined();
}

Napi::Value BatchNormTrain(const Napi::CallbackInfo& info) {
  Args a(info, "batchNormTrain");
  const int64_t rows = a.integer(6, "rows", 1), channels = a.integer(7, "channels", 1);
  const double eps = a.number(8, "eps");
  const int64_t size = a.elements({rows, channels}, "x");
  const float* x = a.f32(0, "x", size);
  const float* scale = info[1].IsNull() || info[1].IsUndefined() ? nullptr : a.f32(1, "scale", channels);
  const float* offset = info[2].IsNull() || info[2].IsUndefined() ? nullptr : a.f32(2, "offset", channels);
  float* y = a.f32(3, "y", size);
  float* meanOut = a.f32(4, "mean", channels);
  float* varOut = a.f32(5, "variance", channels);
  const bool relu = present(info, 9) && a.boolean(9, "relu");
  std::vector<double> sums;
  channelSums(rows, channels, 1, sums, [&](int64_t r, double* acc) {
    const float* in = x + r * channels;
    for (int64_t c = 0; c < channels; c++) acc[c] += in[c];
  });
  std::vector<double> mean(channels);
  std::vector<float> meanF(channels);
  for (int64_t c = 0; c < channels; c++) {
    mean[c] = sums[c] / static_cast<double>(rows);
    meanF[c] = static_cast<float>(mean[c]);
  }
  std::vector<double> sq;
  channelSums(rows, channels, 1, sq, [&](int64_t r, double* acc) {
    const float* in = x + r * channels;
    for (int64_t c = 0; c < channels; c++) {
      const double d = static_cast<double>(in[c]) - mean[c];
      acc[c] += d * d;
    }
  });
  std::vector<float> mul(channels), add(channels);
  for (int64_t c = 0; c < channels; c++) {
    const double v = sq[c] / static_cast<double>(rows);
    meanOut[c] = meanF[c];
    varOut[c] = static_cast<float>(v);
    const double k = (scale == nullptr ? 1.0 : scale[c]) / std::sqrt(v + eps);
    mul[c] = static_cast<float>(k);
    add[c] = static_cast<float>((offset == nullptr ? 0.0 : offset[c]) - mean[c] * k);
  }
  // With relu, the same value then max(·, 0) as the Relu kernel (v < 0 ? 0 : v): bit-equal to the two
  // kernels one after the other, in one pass.
#pragma omp parallel for schedule(static) if (size >= kParallelMin)
  for (int64_t r = 0; r < rows; r++) {
    const float* in = x + r * channels;
    float* out = y + r * channels;
    if (relu) {
      for (int64_t c = 0; c < channels; c++) {
        const float v = in[c] * mul[c] + add[c];
        out[c] = v < 0.f ? 0.f : v;
      }
    } else {
      for (int64_t c = 0; c < channels; c++) out[c] = in[c] * mul[c] + add[c];
    }
  }
  return info.Env().Undefined();
}

Napi::Value BatchNormTrainGrad(const Napi::CallbackInfo& info) {
  Args a(info, "batchNormTrainGrad");
  const int64_t rows = a.integer(8, "rows", 1), channels = a.integer(9, "channels", 1);
  const double eps = a.number(10, "eps");
  const int64_t size = a.elements({rows, channels}, "x");
  const float* dy = a.f32(0, "dy", size);
  const float* x = a.f32(1, "x", size);
  const float* mean = a.f32(2, "mean", channels);
  const float* variance = a.f32(3, "variance", channels);
  const float* scale = info[4].IsNull() || info[4].IsUndefined() ? nullptr : a.f32(4, "scale", channels);
  float* dx = a.f32(5, "dx", size);
  float* dScale = a.f32(6, "dScale", channels);
  float* dOffset = a.f32(7, "dOffset", channels);
  // With y (the output of batchNormTrain with relu), dy is first masked by ReLU's gradient, dy·step(y),
  // on the fly: the same float32 values the unfused ReLU gradient kernel would have written.
  const float* y = present(info, 11) ? a.f32(11, "y", size) : nullptr;
    auto masked = [&](int64_t r, float* tmp) -> const float* {
    const float* g = dy + r * channels;
    if (y == nullptr) return g;
    const float* yr = y + r * channels;
    for (int64_t c = 0; c < channels; c++) tmp[c] = g[c] * reluMask(yr[c]);
    return tmp;
  };
  // S1 = Σ dy, S2 = Σ dy·(x − mean).
  std::vector<double> s;
  const int threads = omp_get_max_threads();
  std::vector<float> tmps(y == nullptr ? 0 : static_cast<size_t>(threads) * channels);
  channelSums(rows, channels, 2, s, [&](int64_t r, double* acc) {
    const float* g = masked(r, y == nullptr ? nullptr : tmps.data() + static_cast<size_t>(omp_get_thread_num()) * channels);
    const float* in = x + r * channels;
    for (int64_t c = 0; c < channels; c++) {
      acc[c] += g[c];
      acc[channels + c] += static_cast<double>(g[c]) * (static_cast<double>(in[c]) - mean[c]);
    }
  });
  // dx = k·(dy − S1/N − (x − mean)·S2/(N·(var + eps))), k = scale/√(var + eps).
  std::vector<float> k(channels), c1(channels), c2(channels), m(channels);
  const double n = static_cast<double>(rows);
  for (int64_t c = 0; c < channels; c++) {
    const double inv = 1.0 / std::sqrt(static_cast<double>(variance[c]) + eps);
    const double sc = scale == nullptr ? 1.0 : scale[c];
    dOffset[c] = static_cast<float>(s[c]);
    dScale[c] = static_cast<float>(s[channels + c] * inv);
    k[c] = static_cast<float>(sc * inv);
    c1[c] = static_cast<float>(s[c] / n);
    c2[c] = static_cast<float>(s[channels + c] * inv * inv / n);
    m[c] = mean[c];
  }
#pragma omp parallel for schedule(static) if (size >= kParallelMin)
  for (int64_t r = 0; r < rows; r++) {
    const float* g = masked(r, y == nullptr ? nullptr : tmps.data() + static_cast<size_t>(omp_get_thread_num()) * channels);
    const float* in = x + r * channels;
    float* out = dx + r * channels;
    for (int64_t c = 0; c < channels; c++) out[c] = k[c] * (g[c] - c1[c] - (in[c] - m[c]) * c2[c]);
  }
  return info.Env().Undefined();
}

}  // namespace mia
