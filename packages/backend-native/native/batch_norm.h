#pragma once

#include <napi.h>

namespace mia {

// batchNorm(x, mean, variance, offset | null, scale | null, y, rows, channels, eps):
// y = (x − mean)·scale/√(variance + eps) + offset over x viewed as [rows, channels]; each of mean,
// variance, offset, scale holds `channels` values or 1.
Napi::Value BatchNorm(const Napi::CallbackInfo& info);
// batchNormTrain(x, scale | null, offset | null, y, mean, variance, rows, channels, eps): the batch's
// per-channel mean and (biased) variance, and y normalised with them.
Napi::Value BatchNormTrain(const Napi::CallbackInfo& info);
// batchNormTrainGrad(dy, x, mean, variance, scale | null, dx, dScale, dOffset, rows, channels, eps):
// the gradient of batchNormTrain through the batch statistics.
Napi::Value BatchNormTrainGrad(const Napi::CallbackInfo& info);

}  // namespace mia
