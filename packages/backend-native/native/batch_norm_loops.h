// The row loops of batch normalisation (batch_norm.cc) and of column sums (reduce.cc), each over one
// thread's slice of rows [lo, hi) of x viewed as [rows, channels], compiled three times in
// batch_norm_loops.cc: for x86-64's baseline, AVX2 and AVX-512, picked once per process by what the
// CPU supports (setSimd overrides, for tests). Plain pointers only: no code here may be shared with
// the rest of the addon (no inline library code that the linker could take from the AVX-512 copy and
// run on another CPU).
#pragma once

#include <cstdint>

namespace mia {
namespace bn {

struct Loops {
  // Per-channel Σ(x − shift) and Σ(x − shift)² over the slice, added to sum and sq (double);
  // scratch: 2·channels floats.
  void (*stats)(const float* x, int64_t lo, int64_t hi, int64_t channels, const float* shift, double* sum, double* sq, float* scratch);
  // y = x·mul + add, then max(·, 0) when relu (bit-equal to a multiply-add followed by the Relu kernel).
  void (*normalise)(const float* x, float* y, int64_t lo, int64_t hi, int64_t channels, const float* mul, const float* add, bool relu);
  // With g = dy·step(y) (y may be null: g = dy): Σ g and Σ g·(x − mean), added to s1 and s2 (double);
  // scratch: 2·channels floats.
  void (*gradSums)(const float* dy, const float* y, const float* x, const float* mean, int64_t lo, int64_t hi, int64_t channels, double* s1,
                   double* s2, float* scratch);
  // Per-column Σ x over the slice, added to sum (double); scratch: channels floats. (Also the Sum
  // kernel's column reductions, reduce.cc.)
  void (*columnSums)(const float* x, int64_t lo, int64_t hi, int64_t channels, double* sum, float* scratch);
  // dx = k·(g − c1 − (x − mean)·c2).
  void (*gradInput)(const float* dy, const float* y, const float* x, const float* mean, int64_t lo, int64_t hi, int64_t channels,
                    const float* k, const float* c1, const float* c2, float* dx);
};

// The loops in use: the widest the CPU runs, unless setSimd chose others.
const Loops& loops();
// The name of the loops in use: "avx512", "avx2" or "baseline".
const char* simdName();
// Uses the named loops ("avx512", "avx2", "baseline" or "auto"); false when the CPU cannot run them.
bool setSimd(const char* name);

}  // namespace bn
}  // namespace mia
