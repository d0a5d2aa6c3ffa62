#pragma once

#include <napi.h>

namespace mia {

// gemm(transA, transB, m, n, k, a, b, c, batch, strideA, strideB):
// c[i] (m×n) = op(a + i·strideA) · op(b + i·strideB) for i < batch, row-major; a stride of 0 reuses
// the one matrix for every batch entry (broadcast).
Napi::Value Gemm(const Napi::CallbackInfo& info);
// biasActivation(y, rows, cols, bias | null, activation, alpha): y = act(y + bias) in place, bias over
// the last axis; activation 'linear' | 'relu' | 'relu6' | 'elu' | 'sigmoid' | 'leakyrelu'.
Napi::Value BiasActivation(const Napi::CallbackInfo& info);

}  // namespace mia
