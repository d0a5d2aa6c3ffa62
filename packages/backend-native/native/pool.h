#pragma once

#include <napi.h>

namespace mia {

// Pool dims: [n, h, w, c, kh, kw, sh, sw, padTop, padLeft, oh, ow] (NHWC, dilation 1).
// pool2d(mode, x, y, dims): mode 'max' | 'avg'; avg divides by the in-bounds count (tfjs's cpu backend).
Napi::Value Pool2d(const Napi::CallbackInfo& info);
// maxPoolGrad(dy, x, dx, dims): dx gets each window's dy at the first maximum of x in the window
// (row-major order; NaN and padding never win; a window without a maximum adds nothing).
Napi::Value MaxPoolGrad(const Napi::CallbackInfo& info);
// avgPoolGrad(dy, dx, dims): dx gets dy / (kh·kw) over each window's in-bounds positions (tfjs's cpu backend).
Napi::Value AvgPoolGrad(const Napi::CallbackInfo& info);

}  // namespace mia
