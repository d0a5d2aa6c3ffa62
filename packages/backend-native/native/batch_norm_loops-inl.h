// The bodies of the loops declared in batch_norm_loops.h, included once per instruction set by
// batch_norm_loops.cc inside namespace MIA_BN_ISA (no include guard on purpose). The compiler
// vectorises them; channel counts of the bench's networks (16…512) are template constants, so the
// channel loop unrolls into whole vectors. Sums run in float over blocks of kBlock rows and are then
// added in double: a float sum of kBlock terms loses at most ~kBlock·2⁻²⁴ relative, far below the
// tolerance of the gradient checks, and lets the sums use full-width float vectors.
namespace MIA_BN_ISA {

constexpr int64_t kBlock = 32;

// ReLU's gradient mask of an output y = relu(z): 1 where y > 0, 0 where y = 0, NaN for NaN, as the
// unfused ReLU gradient's step(z). Branch-free, so loops vectorise.
inline float reluMask(float y) {
  const float r = y > 0.f ? 1.f : 0.f;
  return y == y ? r : y;
}

template <int64_t CT>
void statsT(const float* __restrict x, int64_t lo, int64_t hi, int64_t channels, const float* __restrict shift, double* __restrict sum,
            double* __restrict sq, float* __restrict scratch) {
  const int64_t C = CT > 0 ? CT : channels;
  float* __restrict s = scratch;
  float* __restrict q = scratch + C;
  for (int64_t b = lo; b < hi; b += kBlock) {
    const int64_t e = b + kBlock < hi ? b + kBlock : hi;
    for (int64_t c = 0; c < C; c++) s[c] = q[c] = 0.f;
    for (int64_t r = b; r < e; r++) {
      const float* __restrict in = x + r * C;
      for (int64_t c = 0; c < C; c++) {
        const float d = in[c] - shift[c];
        s[c] += d;
        q[c] += d * d;
      }
    }
    for (int64_t c = 0; c < C; c++) {
      sum[c] += s[c];
      sq[c] += q[c];
    }
  }
}

template <int64_t CT>
void columnSumsT(const float* __restrict x, int64_t lo, int64_t hi, int64_t channels, double* __restrict sum, float* __restrict scratch) {
  const int64_t C = CT > 0 ? CT : channels;
  float* __restrict s = scratch;
  for (int64_t b = lo; b < hi; b += kBlock) {
    const int64_t e = b + kBlock < hi ? b + kBlock : hi;
    for (int64_t c = 0; c < C; c++) s[c] = 0.f;
    for (int64_t r = b; r < e; r++) {
      const float* __restrict in = x + r * C;
      for (int64_t c = 0; c < C; c++) s[c] += in[c];
    }
    for (int64_t c = 0; c < C; c++) sum[c] += s[c];
  }
}

template <int64_t CT>
void normaliseT(const float* __restrict x, float* __restrict y, int64_t lo, int64_t hi, int64_t channels, const float* __restrict mul,
                const float* __restrict add, bool relu) {
  const int64_t C = CT > 0 ? CT : channels;
  if (relu) {
    for (int64_t r = lo; r < hi; r++) {
      const float* __restrict in = x + r * C;
      float* __restrict out = y + r * C;
      for (int64_t c = 0; c < C; c++) {
        const float v = in[c] * mul[c] + add[c];
        out[c] = v < 0.f ? 0.f : v;
      }
    }
  } else {
    for (int64_t r = lo; r < hi; r++) {
      const float* __restrict in = x + r * C;
      float* __restrict out = y + r * C;
      for (int64_t c = 0; c < C; c++) out[c] = in[c] * mul[c] + add[c];
    }
  }
}

template <int64_t CT, bool kMask>
void gradSumsT(const float* __restrict dy, const float* __restrict y, const float* __restrict x, const float* __restrict mean, int64_t lo,
               int64_t hi, int64_t channels, double* __restrict s1, double* __restrict s2, float* __restrict scratch) {
  const int64_t C = CT > 0 ? CT : channels;
  float* __restrict a = scratch;
  float* __restrict b2 = scratch + C;
  for (int64_t b = lo; b < hi; b += kBlock) {
    const int64_t e = b + kBlock < hi ? b + kBlock : hi;
    for (int64_t c = 0; c < C; c++) a[c] = b2[c] = 0.f;
    for (int64_t r = b; r < e; r++) {
      const float* __restrict gr = dy + r * C;
      const float* __restrict yr = kMask ? y + r * C : nullptr;
      const float* __restrict in = x + r * C;
      for (int64_t c = 0; c < C; c++) {
        const float g = kMask ? gr[c] * reluMask(yr[c]) : gr[c];
        a[c] += g;
        b2[c] += g * (in[c] - mean[c]);
      }
    }
    for (int64_t c = 0; c < C; c++) {
      s1[c] += a[c];
      s2[c] += b2[c];
    }
  }
}

template <int64_t CT, bool kMask>
void gradInputT(const float* __restrict dy, const float* __restrict y, const float* __restrict x, const float* __restrict mean, int64_t lo,
                int64_t hi, int64_t channels, const float* __restrict k, const float* __restrict c1, const float* __restrict c2,
                float* __restrict dx) {
  const int64_t C = CT > 0 ? CT : channels;
  for (int64_t r = lo; r < hi; r++) {
    const float* __restrict gr = dy + r * C;
    const float* __restrict yr = kMask ? y + r * C : nullptr;
    const float* __restrict in = x + r * C;
    float* __restrict out = dx + r * C;
    for (int64_t c = 0; c < C; c++) {
      const float g = kMask ? gr[c] * reluMask(yr[c]) : gr[c];
      out[c] = k[c] * (g - c1[c] - (in[c] - mean[c]) * c2[c]);
    }
  }
}

// Calls f.template operator()<CT>() with CT the channel count when it is one of the unrolled sizes,
// else 0 (runtime channel count).
#define MIA_BN_DISPATCH(channels, CALL) \
  switch (channels) {                   \
    case 16: CALL(16); break;           \
    case 32: CALL(32); break;           \
    case 64: CALL(64); break;           \
    case 128: CALL(128); break;         \
    case 256: CALL(256); break;         \
    case 512: CALL(512); break;         \
    default: CALL(0); break;            \
  }

void stats(const float* x, int64_t lo, int64_t hi, int64_t channels, const float* shift, double* sum, double* sq, float* scratch) {
#define MIA_CALL(CT) statsT<CT>(x, lo, hi, channels, shift, sum, sq, scratch)
  MIA_BN_DISPATCH(channels, MIA_CALL)
#undef MIA_CALL
}

void columnSums(const float* x, int64_t lo, int64_t hi, int64_t channels, double* sum, float* scratch) {
#define MIA_CALL(CT) columnSumsT<CT>(x, lo, hi, channels, sum, scratch)
  MIA_BN_DISPATCH(channels, MIA_CALL)
#undef MIA_CALL
}

void normalise(const float* x, float* y, int64_t lo, int64_t hi, int64_t channels, const float* mul, const float* add, bool relu) {
#define MIA_CALL(CT) normaliseT<CT>(x, y, lo, hi, channels, mul, add, relu)
  MIA_BN_DISPATCH(channels, MIA_CALL)
#undef MIA_CALL
}

void gradSums(const float* dy, const float* y, const float* x, const float* mean, int64_t lo, int64_t hi, int64_t channels, double* s1,
              double* s2, float* scratch) {
#define MIA_CALL(CT)                                                                   \
  if (y != nullptr) gradSumsT<CT, true>(dy, y, x, mean, lo, hi, channels, s1, s2, scratch); \
  else gradSumsT<CT, false>(dy, y, x, mean, lo, hi, channels, s1, s2, scratch)
  MIA_BN_DISPATCH(channels, MIA_CALL)
#undef MIA_CALL
}

void gradInput(const float* dy, const float* y, const float* x, const float* mean, int64_t lo, int64_t hi, int64_t channels, const float* k,
               const float* c1, const float* c2, float* dx) {
#define MIA_CALL(CT)                                                                    \
  if (y != nullptr) gradInputT<CT, true>(dy, y, x, mean, lo, hi, channels, k, c1, c2, dx); \
  else gradInputT<CT, false>(dy, y, x, mean, lo, hi, channels, k, c1, c2, dx)
  MIA_BN_DISPATCH(channels, MIA_CALL)
#undef MIA_CALL
}

#undef MIA_BN_DISPATCH

const Loops kLoops = {stats, normalise, gradSums, columnSums, gradInput};

}  // namespace MIA_BN_ISA
