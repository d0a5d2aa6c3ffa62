// Matrix products through oneDNN's matmul primitive: in bf16 with fp32 accumulation (the bf16
// precision of gemm: a and b are converted to bf16 into scratch buffers by oneDNN reorders, same
// layout), or in fp32 on the inputs themselves (gemm.cc's choice for a·bᵀ, where dnnl_sgemm is slow).
// The primitive writes the fp32 product in place. Primitives are cached per thread by precision,
// shape, transposes, broadcast and thread count.
#include "matmul_primitive.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>

#include "onednn.h"
#include "scratch.h"

namespace mia {
namespace {

using dnnl::memory;
using dt = memory::data_type;

struct MatmulEntry {
  bool bf16;
  dnnl::primitive prim;
  memory::desc scratchpad;
  memory aUser, bUser, c;
  memory::desc aInner, bInner;
  dnnl::primitive aReorder, bReorder;
};

thread_local std::unordered_map<std::string, std::unique_ptr<MatmulEntry>> cache;

// A batch of row-major matrices as oneDNN sees op(x): rows × cols, stored transposed when `t`.
memory::desc matrices(int64_t batch, int64_t rows, int64_t cols, bool t, dt type) {
  const memory::dims strides = t ? memory::dims{rows * cols, 1, rows} : memory::dims{rows * cols, cols, 1};
  return memory::desc({batch, rows, cols}, type, strides);
}

std::unique_ptr<MatmulEntry> build(bool bf16, bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t batch, bool aBroadcast, bool bBroadcast) {
  auto e = std::make_unique<MatmulEntry>();
  e->bf16 = bf16;
  const int64_t batchA = aBroadcast ? 1 : batch, batchB = bBroadcast ? 1 : batch;
  const dt inputType = bf16 ? dt::bf16 : dt::f32;
  e->aInner = matrices(batchA, m, k, ta, inputType);
  e->bInner = matrices(batchB, k, n, tb, inputType);
  const memory::desc cDesc = matrices(batch, m, n, false, dt::f32);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
#if DNNL_VERSION_MAJOR >= 3
  dnnl::matmul::primitive_desc pd(cpuEngine(), e->aInner, e->bInner, cDesc, attr);
#else
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(e->aInner, e->bInner, cDesc), attr, cpuEngine());
#endif
  e->prim = dnnl::matmul(pd);
  e->scratchpad = pd.scratchpad_desc();
  e->aUser = memory(matrices(batchA, m, k, ta, dt::f32), cpuEngine(), DNNL_MEMORY_NONE);
  e->bUser = memory(matrices(batchB, k, n, tb, dt::f32), cpuEngine(), DNNL_MEMORY_NONE);
  e->c = memory(cDesc, cpuEngine(), DNNL_MEMORY_NONE);
  if (!bf16) return e;
  e->aReorder = dnnl::reorder(e->aUser, memory(e->aInner, cpuEngine(), DNNL_MEMORY_NONE));
  e->bReorder = dnnl::reorder(e->bUser, memory(e->bInner, cpuEngine(), DNNL_MEMORY_NONE));
  return e;
}

}  // namespace

void matmulPrimitive(bool bf16, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c, int64_t batch,
                     int64_t strideA, int64_t strideB) {
  const bool aBroadcast = strideA == 0 || batch == 1, bBroadcast = strideB == 0 || batch == 1;
  if (aBroadcast && bBroadcast && batch > 1) {
    // oneDNN's matmul broadcasts one side only: compute the one product, then copy it.
    matmulPrimitive(bf16, ta, tb, m, n, k, a, b, c, 1, 0, 0);
    for (int64_t i = 1; i < batch; i++) std::copy(c, c + m * n, c + i * m * n);
    return;
  }
  std::ostringstream key;
  key << bf16 << ta << tb << aBroadcast << bBroadcast << ',' << m << ',' << n << ',' << k << ',' << batch << ',' << omp_get_max_threads();
  auto it = cache.find(key.str());
  if (it == cache.end()) it = cache.emplace(key.str(), build(bf16, ta, tb, m, n, k, batch, aBroadcast, bBroadcast)).first;
  MatmulEntry& e = *it->second;
  auto& strm = cpuStream();
  // Scratch slot 0 is oneDNN's scratchpad; in bf16, 1 and 2 hold the bf16 copies of a and b.
  memory scratchpad(e.scratchpad, cpuEngine(), scratch(0, e.scratchpad.get_size() + 64));
  e.aUser.set_data_handle(const_cast<float*>(a));
  e.bUser.set_data_handle(const_cast<float*>(b));
  e.c.set_data_handle(c);
  if (!e.bf16) {
    e.prim.execute(strm, {{DNNL_ARG_SRC, e.aUser}, {DNNL_ARG_WEIGHTS, e.bUser}, {DNNL_ARG_DST, e.c}, {DNNL_ARG_SCRATCHPAD, scratchpad}});
    strm.wait();
    return;
  }
  memory aInner(e.aInner, cpuEngine(), scratch(1, e.aInner.get_size() + 64));
  memory bInner(e.bInner, cpuEngine(), scratch(2, e.bInner.get_size() + 64));
  e.aReorder.execute(strm, {{DNNL_ARG_FROM, e.aUser}, {DNNL_ARG_TO, aInner}});
  e.bReorder.execute(strm, {{DNNL_ARG_FROM, e.bUser}, {DNNL_ARG_TO, bInner}});
  e.prim.execute(strm, {{DNNL_ARG_SRC, aInner}, {DNNL_ARG_WEIGHTS, bInner}, {DNNL_ARG_DST, e.c}, {DNNL_ARG_SCRATCHPAD, scratchpad}});
  strm.wait();
}

void clearMatmulCache() { cache.clear(); }

}  // namespace mia
