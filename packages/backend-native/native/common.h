// Shared helpers of the @mia/backend-native addon: argument checks that throw JS errors naming the
// kernel and the argument, and the thread policy of the hand-written loops.
#pragma once

#include <napi.h>
#include <signal.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace mia {

// Reads and checks the arguments of one addon call. Every check happens before any pointer is used;
// a failed check throws a Napi::TypeError / RangeError whose message starts with the kernel name.
class Args {
 public:
  Args(const Napi::CallbackInfo& info, const char* kernel) : info_(info), kernel_(kernel) {}

  Napi::Env env() const { return info_.Env(); }
  const char* kernel() const { return kernel_; }

  // A Float32Array with at least `need` elements (need ≥ 0); returns its data pointer.
  float* f32(size_t i, const char* name, int64_t need) const;
  // An Int32Array with at least `need` elements.
  int32_t* i32(size_t i, const char* name, int64_t need) const;
  // A finite integer number in [min, max].
  int64_t integer(size_t i, const char* name, int64_t min, int64_t max = 2147483647) const;
  // The product of `factors` (each ≥ 0), or a RangeError naming `what` when it exceeds 2^40 elements.
  int64_t elements(std::initializer_list<int64_t> factors, const char* what) const;
  // A finite number.
  double number(size_t i, const char* name) const;
  bool boolean(size_t i, const char* name) const;
  std::string string(size_t i, const char* name) const;
  // An array of finite integers in [min, 2^31), of length `count` (or any length in [0, 8] when count is 0).
  std::vector<int64_t> integers(size_t i, const char* name, size_t count, int64_t min) const;

  [[noreturn]] void typeError(const std::string& message) const;
  [[noreturn]] void rangeError(const std::string& message) const;

 private:
  Napi::Value at(size_t i, const char* name) const;
  const Napi::CallbackInfo& info_;
  const char* kernel_;
};

// Runs `body`; C++ exceptions (oneDNN errors, bad_alloc, …) become JS errors prefixed with `kernel`
// and `what`, never a crash. Napi errors pass through unchanged.
template <typename F>
Napi::Value guarded(const Args& args, const std::string& what, F body);

// Asynchronous signals held back on the calling thread while it runs oneDNN code. oneDNN 2.x's JIT
// f32 GEMM kernels (jit_avx512_common_gemm_f32, also behind gemm-based convolutions) point the stack
// pointer into a heap buffer while they run; a signal handled on that thread then writes its frame
// below it and corrupts the heap ("corrupted size vs. prev_size" at a later free: any profiler's
// SIGPROF, a child's SIGCHLD, SIGINT). oneDNN fixed it in 2026 (its issue 4845); Debian's 2.6 has
// it. Signals raised meanwhile stay pending and are handled when the object goes out of scope;
// those a fault raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT) are never held.
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_;
};
// Holds the asynchronous signals in the calling thread's OpenMP worker threads for good (they run
// oneDNN's kernels too and never run JS); the calling thread keeps its mask. Call it when the team
// may have grown (at load, after setNumThreads): threads created later inherit the creator's mask.
void holdSignalsInWorkers();

std::string shapeString(const std::vector<int64_t>& shape);
int64_t product(const std::vector<int64_t>& shape);

// Below this many elements a loop runs on the calling thread only (a parallel region costs ~µs).
constexpr int64_t kParallelMin = 1 << 15;

}  // namespace mia

#include "common-inl.h"
