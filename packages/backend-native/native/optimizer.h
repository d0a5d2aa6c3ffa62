#pragma once

#include <napi.h>

namespace mia {

// sgdUpdate(variable, gradient, momentum | null, newVariable, newMomentum | null, size, lr, mu,
// dampening, nesterov, weightDecay): one step of @mia/core's `sgd` (PyTorch semantics) for one
// variable, in one pass. momentum null = the first step (the buffer starts as the gradient);
// newMomentum is written when mu > 0. Every operation is a float32 multiply or add in the order of
// the JS path's tfjs ops, so the results are bit-equal to it.
Napi::Value SgdUpdate(const Napi::CallbackInfo& info);
// adamUpdate(variable, gradient, m, v, newVariable, newM, newV, size, lr, beta1, beta2, epsilon,
// weightDecay, biasCorrection1, biasCorrection2): one step of @mia/core's `adam` (PyTorch
// semantics, coupled weight decay) for one variable, in one pass; biasCorrectionK = 1 − betaK^t as
// the JS path computes it (in double). Bit-equal to the JS path.
Napi::Value AdamUpdate(const Napi::CallbackInfo& info);

}  // namespace mia
