// Rows of a tensor picked by index (tfjs's GatherV2 without batch dimensions), as one copy per row.
#pragma once

#include <napi.h>

namespace mia {

// gather(x, indices, out, outer, dim, slice): x viewed as [outer, dim, slice] and out as
// [outer, count, slice] with count = indices.length; out[o, i, :] = x[o, indices[i], :]. Copies bits
// (any 4-byte dtype). Returns false, writing nothing, when an index is outside [0, dim).
Napi::Value Gather(const Napi::CallbackInfo& info);

}  // namespace mia
