import * as tf from '@tensorflow/tfjs-core';
import { convGeometry } from '../ghost/conv-geometry';
import type { ResolvedConv2d } from '../ghost/per-example-tape';

/**
 * The im2col patches `[n, T, kh·kw·cin]` of a convolution's input, ordered like the flattened
 * kernel `[kh, kw, cin]`, for the layer's own stride, padding and dilation: one strided slice per
 * kernel offset, concatenated along channels. Equal to a convolution with a one-hot kernel
 * `[kh, kw, cin, kh·kw·cin]`, without its K² multiply-adds.
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
