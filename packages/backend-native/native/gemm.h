#pragma once

#include <napi.h>

#include <cstdint>

namespace mia {

// gemm(transA, transB, m, n, k, a, b, c, batch, strideA, strideB):
// c[i] (m×n) = op(a + i·strideA) · op(b + i·strideB) for i < batch, row-major; a stride of 0 reuses
// the one matrix for every batch entry (broadcast).
Napi::Value Gemm(const Napi::CallbackInfo& info);
// The same product for C++ callers (arguments already checked), in the active precision
// (precision.h): fp32 through dnnl_sgemm, or bf16 inputs with fp32 accumulation.
void matmul(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c, int64_t batch, int64_t strideA,
            int64_t strideB);
// biasActivation(y, rows, cols, bias | null, activation, alpha): y = act(y + bias) in place, bias over
// the last axis; activation 'linear' | 'relu' | 'relu6' | 'elu' | 'sigmoid' | 'leakyrelu'.
Napi::Value BiasActivation(const Napi::CallbackInfo& info);

}  // namespace mia
