// The arithmetic precision of the convolutions and matrix products: fp32 (the default), or bf16
// inputs with fp32 accumulation and fp32 outputs (mixed precision, as PyTorch's CPU autocast), only on
// CPUs whose instruction set has bf16 dot products (AVX-512 BF16, AMX).
#pragma once

#include <napi.h>

#include <string>

namespace mia {

enum class Precision { kF32, kBf16 };

// The precision of the calling thread's convolutions and matrix products.
Precision precision();
std::string precisionName();
// Whether oneDNN runs bf16 dot products in hardware here (its effective ISA is avx512_core_bf16,
// AMX or later); elsewhere it would emulate them, slower than fp32.
bool cpuHasBf16();
// Whether oneDNN runs bf16 on AMX tiles here (ISA avx512_core_amx or later).
bool cpuHasAmx();
// setPrecision('fp32' | 'bf16'): a RangeError for another name, or for 'bf16' where cpuHasBf16() is false.
Napi::Value SetPrecision(const Napi::CallbackInfo& info);

}  // namespace mia
