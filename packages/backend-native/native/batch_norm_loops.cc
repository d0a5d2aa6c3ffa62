// batch_norm_loops-inl.h compiled for three instruction sets in one translation unit (GCC's
// `#pragma GCC target` per section), and the choice among them (batch_norm_loops.h). The addon needs
// AVX2 (load-native-addon.ts refuses other CPUs), but the choice is made at run time, so loading it on
// an older CPU still reaches that clear error instead of an illegal instruction.
#include "batch_norm_loops.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace mia {
namespace bn {

#define MIA_BN_ISA baseline
#include "batch_norm_loops-inl.h"
#undef MIA_BN_ISA

#pragma GCC push_options
#pragma GCC target("avx2,fma")
#define MIA_BN_ISA avx2
#include "batch_norm_loops-inl.h"
#undef MIA_BN_ISA
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512bw,avx512dq,avx2,fma,prefer-vector-width=512")
#define MIA_BN_ISA avx512
#include "batch_norm_loops-inl.h"
#undef MIA_BN_ISA
#pragma GCC pop_options

namespace {

bool supports(const char* name) {
  __builtin_cpu_init();
  if (std::strcmp(name, "avx512") == 0) {
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq");
  }
  if (std::strcmp(name, "avx2") == 0) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return std::strcmp(name, "baseline") == 0;
}

struct Choice {
  const Loops* loops;
  const char* name;
};

Choice widest() {
  if (supports("avx512")) return {&avx512::kLoops, "avx512"};
  if (supports("avx2")) return {&avx2::kLoops, "avx2"};
  return {&baseline::kLoops, "baseline"};
}

Choice& current() {
  static Choice choice = widest();
  return choice;
}

}  // namespace

const Loops& loops() { return *current().loops; }

const char* simdName() { return current().name; }

bool setSimd(const char* name) {
  if (std::strcmp(name, "auto") == 0) {
    current() = widest();
    return true;
  }
  if (!supports(name)) return false;
  if (std::strcmp(name, "avx512") == 0) current() = {&avx512::kLoops, "avx512"};
  else if (std::strcmp(name, "avx2") == 0) current() = {&avx2::kLoops, "avx2"};
  else current() = {&baseline::kLoops, "baseline"};
  return true;
}

}  // namespace bn
}  // namespace mia
