import * as tf from '@tensorflow/tfjs-core';
import type { ResolvedConv2d } from './per-example-tape';

/** Output size and zero padding of a convolution, by tfjs' rules (`'same'`: the smaller half before). @internal */
export interface ConvGeometry {
  readonly outH: number;
  readonly outW: number;
  /** `[top, bottom, left, right]`. */
  readonly padding: readonly [number, number, number, number];
}

/** {@link ConvGeometry} of a convolution of an `h × w` input with a `kh × kw` kernel. @internal */
export function convGeometry(h: number, w: number, kh: number, kw: number, o: ResolvedConv2d): ConvGeometry {
  const [sh, sw] = o.strides;
  const [dh, dw] = o.dilations;
  const spanH = (kh - 1) * dh + 1;
  const spanW = (kw - 1) * dw + 1;
  if (o.pad === 'same') {
    const outH = Math.ceil(h / sh);
    const outW = Math.ceil(w / sw);
    const padH = Math.max((outH - 1) * sh + spanH - h, 0);
    const padW = Math.max((outW - 1) * sw + spanW - w, 0);
    return { outH, outW, padding: [Math.floor(padH / 2), padH - Math.floor(padH / 2), Math.floor(padW / 2), padW - Math.floor(padW / 2)] };
  }
  const [top, bottom, left, right] =
    o.pad === 'valid' ? [0, 0, 0, 0] : typeof o.pad === 'number' ? [o.pad, o.pad, o.pad, o.pad] : [o.pad[1][0], o.pad[1][1], o.pad[2][0], o.pad[2][1]];
  return {
    outH: Math.floor((h + top + bottom - spanH) / sh) + 1,
    outW: Math.floor((w + left + right - spanW) / sw) + 1,
    padding: [top, bottom, left, right],
  };
}

/**
 * The im2col patches `[n, T, kh·kw·cin]` of a convolution's input, ordered like the flattened
 * kernel `[kh, kw, cin]`, for the layer's own stride, padding and dilation: one strided slice per
 * kernel offset, concatenated along channels. Equal to a convolution with a one-hot kernel
 * `[kh, kw, cin, kh·kw·cin]`, without its K² multiply-adds.
 * @internal
 */
export function unfold(x: tf.Tensor4D, kernelShape: readonly [number, number, number, number], o: ResolvedConv2d): tf.Tensor3D {
  return tf.tidy(() => {
    const [n, h, w, cin] = x.shape;
    const [kh, kw] = kernelShape;
    const [sh, sw] = o.strides;
    const [dh, dw] = o.dilations;
    const { outH, outW, padding } = convGeometry(h, w, kh, kw, o);
    const [top, bottom, left, right] = padding;
    const padded =
      top + bottom + left + right === 0
        ? x
        : tf.pad(x, [
            [0, 0],
            [top, bottom],
            [left, right],
            [0, 0],
          ]);
    const slices: tf.Tensor4D[] = [];
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const begin = [0, p * dh, q * dw, 0];
        const end = [n, p * dh + (outH - 1) * sh + 1, q * dw + (outW - 1) * sw + 1, cin];
        slices.push(tf.stridedSlice(padded, begin, end, [1, sh, sw, 1]) as tf.Tensor4D);
      }
    }
    return tf.reshape(slices.length === 1 ? slices[0]! : tf.concat(slices, 3), [n, outH * outW, kh * kw * cin]) as tf.Tensor3D;
  });
}
