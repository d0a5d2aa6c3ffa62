// Softmax cross-entropy and its gradient, each in one call (softmax_cross_entropy.h). @mia/core's
// composition, `sub(logSumExp(z, 1), sum(mul(oneHot(y), z), 1))` (and `mean` of it), runs on this
// backend as Max, Sub, Exp, Sum, Log, Add, Cast, Multiply, Sum, Sub (Mean): the forward below repeats
// their float operations in their order (sums in double, as reduce.cc's row sums), so the loss is
// bit-equal. tfjs's tape differentiates the composition node by node; with q = dy / c (c = Σ e^(z−m))
// and S = Σ_j q·e_j, it accumulates the logits' gradient in reverse order of the nodes as
//   ((−dy)·onehot_j + q·e_j) + (dy − S)·[z_j = m],
// the last term being the gradient through the max (zero up to rounding, but not exactly zero), each
// product and sum rounded to float as its kernel does; the gradient below computes exactly that. A
// mean's gradient reaches each row as dy / rows (Mean's gradient, a float division).
#include "softmax_cross_entropy.h"

#include <cmath>
#include <string>
#include <vector>

#include "common.h"

namespace mia {
namespace {

// The row's maximum (reduce.cc's Max) and e_j = exp(z_j − max) into e; returns Σ e_j summed in double,
// rounded to float.
float expSum(const float* z, int64_t classes, float* e, float& max) {
  float m = z[0];
  for (int64_t j = 1; j < classes; j++) {
    const float v = z[j];
    if (v != v || m != m) m = NAN;
    else if (v > m) m = v;
  }
  double s = 0;
  for (int64_t j = 0; j < classes; j++) {
    e[j] = std::exp(z[j] - m);
    s += e[j];
  }
  max = m;
  return static_cast<float>(s);
}

float rowLoss(const float* z, int32_t label, int64_t classes, float* e) {
  float m;
  const float c = expSum(z, classes, e, m);
  const float lse = m + std::log(c);
  double picked = 0;
  for (int64_t j = 0; j < classes; j++) picked += (j == label ? 1.f : 0.f) * z[j];
  return lse - static_cast<float>(picked);
}

void rowGradient(const float* z, int32_t label, int64_t classes, float dy, float* dz, float* e) {
  float m;
  const float q = dy / expSum(z, classes, e, m);
  double s = 0;
  for (int64_t j = 0; j < classes; j++) s += q * e[j];
  const float throughMax = dy + -static_cast<float>(s);
  for (int64_t j = 0; j < classes; j++) {
    const float viaPick = -dy * (j == label ? 1.f : 0.f);
    const float viaMax = throughMax * (z[j] == m ? 1.f : 0.f);
    dz[j] = (viaPick + q * e[j]) + viaMax;
  }
}

// Runs f(i, e) for each row i on the OpenMP threads, e a per-thread buffer of `classes` floats.
template <typename F>
void eachRow(int64_t rows, int64_t classes, F f) {
#pragma omp parallel if (rows * classes >= kParallelMin)
  {
    std::vector<float> e(static_cast<size_t>(classes));
#pragma omp for schedule(static)
    for (int64_t i = 0; i < rows; i++) f(i, e.data());
  }
}

bool parseMean(const Args& a, size_t i) {
  const std::string reduction = a.string(i, "reduction");
  if (reduction != "none" && reduction != "mean") a.rangeError("reduction: expected none or mean, got '" + reduction + "'");
  return reduction == "mean";
}

}  // namespace

Napi::Value SoftmaxCrossEntropy(const Napi::CallbackInfo& info) {
  Args a(info, "softmaxCrossEntropy");
  const int64_t rows = a.integer(3, "rows", 1), classes = a.integer(4, "classes", 1);
  const bool mean = parseMean(a, 5);
  const float* z = a.f32(0, "logits", a.elements({rows, classes}, "logits"));
  const int32_t* labels = a.i32(1, "labels", rows);
  float* loss = a.f32(2, "loss", mean ? 1 : rows);
  std::vector<float> perRow(mean ? static_cast<size_t>(rows) : 0);
  float* out = mean ? perRow.data() : loss;
  eachRow(rows, classes, [&](int64_t i, float* e) { out[i] = rowLoss(z + i * classes, labels[i], classes, e); });
  if (mean) {
    double s = 0;
    for (int64_t i = 0; i < rows; i++) s += perRow[i];
    loss[0] = static_cast<float>(s / static_cast<double>(rows));
  }
  return info.Env().Undefined();
}

Napi::Value SoftmaxCrossEntropyGrad(const Napi::CallbackInfo& info) {
  Args a(info, "softmaxCrossEntropyGrad");
  const int64_t rows = a.integer(4, "rows", 1), classes = a.integer(5, "classes", 1);
  const bool mean = parseMean(a, 6);
  const float* dy = a.f32(0, "dy", mean ? 1 : rows);
  const int64_t size = a.elements({rows, classes}, "logits");
  const float* z = a.f32(1, "logits", size);
  const int32_t* labels = a.i32(2, "labels", rows);
  float* dz = a.f32(3, "dlogits", size);
  const float perRow = mean ? dy[0] / static_cast<float>(rows) : 0.f;
  eachRow(rows, classes, [&](int64_t i, float* e) { rowGradient(z + i * classes, labels[i], classes, mean ? perRow : dy[i], dz + i * classes, e); });
  return info.Env().Undefined();
}

}  // namespace mia
