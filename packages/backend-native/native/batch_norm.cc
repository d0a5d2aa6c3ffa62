// Batch normalisation over the last axis of x viewed as [rows, channels] (NHWC activations, or
// [batch, features]). Per-channel sums run on static row slices per thread (the row loops are in
// batch_norm_loops-inl.h, built per instruction set), accumulated in double and combined in thread
// order (reproducible for a fixed thread count).
#include "batch_norm.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "batch_norm_loops.h"
#include "common.h"

namespace mia {
namespace {

// The threads of a loop over [rows, channels]: all of them, or one below kParallelMin elements.
int threadsFor(int64_t rows, int64_t channels) { return rows * channels >= kParallelMin ? omp_get_max_threads() : 1; }

// Runs body(lo, hi, t) on one static slice of rows per thread t < nt; callers size per-thread
// partials by nt before and combine them in thread order after (reproducible for a fixed thread count).
template <typename Body>
void slices(int64_t rows, int nt, Body body) {
#pragma omp parallel num_threads(nt) if (nt > 1)
  {
    const int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
    body(rows * t / n, rows * (t + 1) / n, t);
  }
}

// Adds per-thread partials [nt][count] in thread order into out[count].
std::vector<double> combine(const std::vector<double>& partial, int nt, int64_t count) {
  std::vector<double> out(static_cast<size_t>(count), 0.0);
  for (int t = 0; t < nt; t++) {
    for (int64_t i = 0; i < count; i++) out[i] += partial[static_cast<size_t>(t) * count + i];
  }
  return out;
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
  const bn::Loops& loops = bn::loops();
  slices(rows, threadsFor(rows, channels), [&](int64_t lo, int64_t hi, int64_t) { loops.normalise(x, y, lo, hi, channels, mul.data(), add.data(), false); });
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
  // One pass for the statistics: sums of x − shift and of its square (shift = the first row, close to
  // the mean, so the variance Q/n − (S/n)² does not cancel), then one pass to normalise.
  const bn::Loops& loops = bn::loops();
  const int nt = threadsFor(rows, channels);
  std::vector<double> partial(static_cast<size_t>(nt) * 2 * channels, 0.0);
  std::vector<float> scratch(static_cast<size_t>(nt) * 2 * channels);
  const float* shift = x;
  slices(rows, nt, [&](int64_t lo, int64_t hi, int64_t t) {
    double* acc = partial.data() + t * 2 * channels;
    loops.stats(x, lo, hi, channels, shift, acc, acc + channels, scratch.data() + t * 2 * channels);
  });
  const std::vector<double> sums = combine(partial, nt, 2 * channels);
  std::vector<float> mul(channels), add(channels);
  const double n = static_cast<double>(rows);
  for (int64_t c = 0; c < channels; c++) {
    const double d = sums[c] / n;
    const double mean = shift[c] + d;
    const double v = std::max(sums[channels + c] / n - d * d, 0.0);
    meanOut[c] = static_cast<float>(mean);
    varOut[c] = static_cast<float>(v);
    const double k = (scale == nullptr ? 1.0 : scale[c]) / std::sqrt(v + eps);
    mul[c] = static_cast<float>(k);
    add[c] = static_cast<float>((offset == nullptr ? 0.0 : offset[c]) - mean * k);
  }
  // With relu, the same value then max(·, 0) as the Relu kernel (v < 0 ? 0 : v): bit-equal to the two
  // kernels one after the other, in one pass.
  slices(rows, nt, [&](int64_t lo, int64_t hi, int64_t) { loops.normalise(x, y, lo, hi, channels, mul.data(), add.data(), relu); });
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
  const bn::Loops& loops = bn::loops();
  // S1 = Σ dy, S2 = Σ dy·(x − mean).
  const int nt = threadsFor(rows, channels);
  std::vector<double> partial(static_cast<size_t>(nt) * 2 * channels, 0.0);
  std::vector<float> scratch(static_cast<size_t>(nt) * 2 * channels);
  slices(rows, nt, [&](int64_t lo, int64_t hi, int64_t t) {
    double* acc = partial.data() + t * 2 * channels;
    loops.gradSums(dy, y, x, mean, lo, hi, channels, acc, acc + channels, scratch.data() + t * 2 * channels);
  });
  const std::vector<double> s = combine(partial, nt, 2 * channels);
  // dx = k·(dy − S1/N − (x − mean)·S2/(N·(var + eps))), k = scale/√(var + eps).
  std::vector<float> k(channels), c1(channels), c2(channels);
  const double n = static_cast<double>(rows);
  for (int64_t c = 0; c < channels; c++) {
    const double inv = 1.0 / std::sqrt(static_cast<double>(variance[c]) + eps);
    const double sc = scale == nullptr ? 1.0 : scale[c];
    dOffset[c] = static_cast<float>(s[c]);
    dScale[c] = static_cast<float>(s[channels + c] * inv);
    k[c] = static_cast<float>(sc * inv);
    c1[c] = static_cast<float>(s[c] / n);
    c2[c] = static_cast<float>(s[channels + c] * inv * inv / n);
  }
  slices(rows, nt, [&](int64_t lo, int64_t hi, int64_t) { loops.gradInput(dy, y, x, mean, lo, hi, channels, k.data(), c1.data(), c2.data(), dx); });
  return info.Env().Undefined();
}

}  // namespace mia
