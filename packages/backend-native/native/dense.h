// A dense layer y = act(x·W + b) (x [rows, in], W [in, out], b [out], act linear | relu | tanh) in one
// call, and its three gradients, each in one call: the kernels of @mia/core's denseBias. Every
// result is bit-equal to what the separate kernels compute (BatchMatMul, Add, Relu / Tanh; their
// gradients MiaReluGrad / MiaTanhGrad, Sum over the batch, and the two products of BatchMatMul's
// gradient): the same matrix products (gemm.cc's matmul, in the active precision), the same
// element-wise expressions, the same summation order.
#pragma once

#include <napi.h>

namespace mia {

// denseForward(x, weight, bias, y, rows, inFeatures, outFeatures, activation): y = act(x·W + b).
Napi::Value DenseForward(const Napi::CallbackInfo& info);
// denseGradInput(dy, y | null, weight, dx, rows, inFeatures, outFeatures, activation): dx = g·Wᵀ with
// g = dy·act'(y) (y may be null for 'linear').
Napi::Value DenseGradInput(const Napi::CallbackInfo& info);
// denseGradWeight(x, dy, y | null, dw, rows, inFeatures, outFeatures, activation): dW = xᵀ·g.
Napi::Value DenseGradWeight(const Napi::CallbackInfo& info);
// denseGradBias(dy, y | null, db, rows, outFeatures, activation): db = Σ over rows of g.
Napi::Value DenseGradBias(const Napi::CallbackInfo& info);

}  // namespace mia
