#pragma once

#include <napi.h>

namespace mia {

// conv2dForward(x, w, bias | null, y, dims, activation): y = act(conv(x, w) + bias), NHWC / HWIO.
Napi::Value Conv2dForward(const Napi::CallbackInfo& info);
// conv2dBackwardData(dy, w, dx, dims): dx = ∂L/∂x.
Napi::Value Conv2dBackwardData(const Napi::CallbackInfo& info);
// conv2dBackwardWeights(x, dy, dw, dims): dw = ∂L/∂w (HWIO).
Napi::Value Conv2dBackwardWeights(const Napi::CallbackInfo& info);
// setConvLayout('nhwc' | 'blocked').
Napi::Value SetConvLayout(const Napi::CallbackInfo& info);
// The cached primitives of the calling thread: key → implementation and reorders.
Napi::Object ConvPrimitives(Napi::Env env);
std::string convLayoutName();
// setConvAlgorithm('auto' | 'direct'): 'auto' uses Winograd on the layers where it is faster (conv.cc).
Napi::Value SetConvAlgorithm(const Napi::CallbackInfo& info);
std::string convAlgorithmName();
void clearConvCache();

}  // namespace mia
