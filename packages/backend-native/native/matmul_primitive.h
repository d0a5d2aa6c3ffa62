#pragma once

#include <cstdint>

namespace mia {

// c[i] (m×n, fp32) = op(a + i·strideA) · op(b + i·strideB) for i < batch, row-major, computed by
// oneDNN's matmul primitive (m, n, k ≥ 1; a stride of 0 broadcasts the one matrix):
// - `bf16`: on bf16 copies of a and b with fp32 accumulation (needs a CPU with bf16 dot products,
//   cpuHasBf16());
// - otherwise in fp32 on a and b themselves.
void matmulPrimitive(bool bf16, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c, int64_t batch,
                     int64_t strideA, int64_t strideB);
// Drops the calling thread's cached matmul primitives.
void clearMatmulCache();

}  // namespace mia
