// Softmax cross-entropy from logits and int32 labels in one call, and its gradient in one call: the
// kernels of @mia/core's crossEntropyPerExample (reduction 'none') and crossEntropy ('mean'). Both
// are bit-equal to the separate kernels tfjs runs for `logSumExp(z) − Σ oneHot·z` (and its mean) on
// this backend, and to the gradient tfjs's tape assembles from them (see softmax_cross_entropy.cc).
#pragma once

#include <napi.h>

namespace mia {

// softmaxCrossEntropy(logits, labels, loss, rows, classes, reduction): loss[i] = logSumExp(z_i) − z_i[label_i]
// (a label outside [0, classes) selects nothing: the loss is logSumExp), or their mean in loss[0].
Napi::Value SoftmaxCrossEntropy(const Napi::CallbackInfo& info);
// softmaxCrossEntropyGrad(dy, logits, labels, dlogits, rows, classes, reduction): the gradient of the
// loss above with respect to the logits, given dy ([rows], or one value for 'mean').
Napi::Value SoftmaxCrossEntropyGrad(const Napi::CallbackInfo& info);

}  // namespace mia
