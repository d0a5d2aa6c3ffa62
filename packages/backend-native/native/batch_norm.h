#pragma once

#include <napi.h>

namespace mia {

// batchNorm(x, mean, variance, offset | null, scale | null, y, rows, channels, eps):
// y = (x − mean)·scale/√(variance + eps) + offset over x viewed as [rows, channels]; each of mean,
// variance, offset, scale holds `channels` values or 1.
Napi::Value BatchNorm(const Napi::CallbackInfo& info);
// batchNormTrain(x, scale | null, offset | null, y, mean, variance, rows, channels, eps, relu?): the
// batch's per-channel mean and (biased) variance, and y normalised with them (then max(·, 0) when relu).
Napi::Value BatchNormTrain(const Napi::CallbackInfo& info);
// batchNormTrainGrad(dy, x, mean, variance, scale | null, dx, dScale, dOffset, rows, channels, eps,
// y | null): the gradient of batchNormTrain through the batch statistics; with y (the output of
// batchNormTrain with relu), dy is masked by ReLU's gradient first.
Napi::Value BatchNormTrainGrad(const Napi::CallbackInfo& info);

}  // namespace mia
