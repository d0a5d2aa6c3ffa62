#pragma once

#include <napi.h>

namespace mia {

// reduce(op, x, outer, mid, inner, out): x viewed as [outer, mid, inner], out[o, i] = op over mid;
// op 'sum' | 'mean' | 'max' | 'min'. Sums accumulate in double.
Napi::Value Reduce(const Napi::CallbackInfo& info);

}  // namespace mia
