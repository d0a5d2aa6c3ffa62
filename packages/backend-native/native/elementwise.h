#pragma once

#include <napi.h>

namespace mia {

// binary(op, a, aShape, b, bShape, out, outShape): out = a op b with NumPy broadcasting;
// op 'add' | 'sub' | 'mul' | 'div' | 'squaredDifference' | 'maximum' | 'minimum'.
Napi::Value Binary(const Napi::CallbackInfo& info);
// unary(op, x, y, size, alpha): y = op(x); op 'relu' | 'relu6' | 'step' | 'tanh' | 'sigmoid' | 'neg' |
// 'square' | 'sqrt' | 'rsqrt' | 'exp' | 'log' | 'abs' | 'elu' | 'leakyRelu' (alpha: step's value for
// x ≤ 0, leakyRelu's slope).
Napi::Value Unary(const Napi::CallbackInfo& info);
// addN(inputs[], out, size): out = Σ inputs.
Napi::Value AddN(const Napi::CallbackInfo& info);
// reluGrad(dy, x, dx, size): dx = x > 0 ? dy : 0 (NaN x gives NaN, as dy·step(x)).
Napi::Value ReluGrad(const Napi::CallbackInfo& info);
// tanhGrad(dy, y, dx, size): dx = dy · (1 − y²).
Napi::Value TanhGrad(const Napi::CallbackInfo& info);

}  // namespace mia
