import * as tf from '@tensorflow/tfjs-core';
import type { ResolvedConv2d } from './per-example-tape';
import { convGeometry } from './conv-geometry';

/**
 * A convolution's input patches and output gradient, as the per-example norms use them: `views`
 * concatenated along their last axis are the im2col patches `[n, T', kh·kw·cin]` (kernel order,
 * like im2col), and `grads` `[n, T', cout]` is the output gradient over the same T'
 * positions, zero where a position is not an output. Every per-example quantity the norms need is
 * linear in the views: AᵢᵀGᵢ is the concatenation of each view's product, AᵢAᵢᵀ the sum of each
 * view's Gram matrix.
 * @internal
 */
export interface PatchViews {
  readonly views: readonly tf.Tensor3D[];
  readonly grads: tf.Tensor3D;
}

/**
 * {@link PatchViews} of a convolution input `x` and output gradient `g`, without forming the
 * patches. The padded input is split into its stride phases (the whole input at stride 1), each of
 * `H* × W*` positions. Kernel offset
 * (p, q) reads phase (p·dh mod sh, q·dw mod sw) shifted by (⌊p·dh/sh⌋, ⌊q·dw/sw⌋): with the phase
 * flattened per example that is one contiguous slice of `oh·W*` positions, one view per offset.
 * The `W* − ow` positions per output row that wrap into the next row meet zeros in `grads` (the
 * output gradient padded on the right), so they add nothing. Contiguous slices copy rows of
 * `oh·W*·cin` floats where im2col copies `cin` at a time, which is what makes the per-example norms
 * of wide layers cheap.
 * @internal
 */
export function patchViews(x: tf.Tensor4D, g: tf.Tensor4D, kernelShape: readonly [number, number, number, number], conv: ResolvedConv2d): PatchViews {
  return tf.tidy(() => {
    const [n, h, w, cin] = x.shape;
    const [, oh, ow, cout] = g.shape;
    const [kh, kw] = kernelShape;
    const [sh, sw] = conv.strides;
    const [dh, dw] = conv.dilations;
    const [top, bottom, left, right] = convGeometry(h, w, kh, kw, conv).padding;
    // Phase images of H* × W* positions: room for the largest shift plus one row for the wrap-around.
    const rows = oh + Math.floor(((kh - 1) * dh) / sh) + 1;
    const cols = ow + Math.floor(((kw - 1) * dw) / sw);
    const strided = sh > 1 || sw > 1;
    // The padded input: sh·H* rows (+1 when strided: the last phase's slice below runs past them) and sw·W* columns.
    const [needH, needW] = [sh * rows + (strided ? 1 : 0), sw * cols];
    const [extraH, extraW] = [needH - top - h, needW - left - w];
    const padded = tf.pad(x, [
      [0, 0],
      [top, Math.max(bottom, extraH)],
      [left, Math.max(right, extraW)],
      [0, 0],
    ]);
    const fitted = padded.shape[1] === needH && padded.shape[2] === needW ? padded : tf.slice(padded, [0, 0, 0, 0], [n, needH, needW, cin]);
    const flat = tf.reshape(fitted, [n, needH * needW * cin]) as tf.Tensor2D;
    // Phase (a, b): the input shifted by (a, b) (a contiguous slice of the flattened rows), subsampled
    // by a 1×1 max pool with the convolution's stride (a native kernel; a strided slice is slow here).
    const phases = new Map<number, tf.Tensor2D>();
    const phaseOf = (a: number, b: number): tf.Tensor2D => {
      if (!strided) return flat;
      const key = a * sw + b;
      let phase = phases.get(key);
      if (phase === undefined) {
        const span = (rows - 1) * sh + 1;
        const shifted = tf.reshape(tf.slice(flat, [0, (a * needW + b) * cin], [n, span * needW * cin]), [n, span, needW, cin]) as tf.Tensor4D;
        phase = tf.reshape(tf.maxPool(shifted, 1, [sh, sw], 'valid'), [n, rows * cols * cin]) as tf.Tensor2D;
        phases.set(key, phase);
      }
      return phase;
    };
    const views: tf.Tensor3D[] = [];
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const [shiftH, shiftW] = [Math.floor((p * dh) / sh), Math.floor((q * dw) / sw)];
        const view = tf.slice(phaseOf((p * dh) % sh, (q * dw) % sw), [0, (shiftH * cols + shiftW) * cin], [n, oh * cols * cin]);
        views.push(tf.reshape(view, [n, oh * cols, cin]) as tf.Tensor3D);
      }
    }
    const grads =
      cols === ow
        ? g
        : tf.pad(g, [
            [0, 0],
            [0, 0],
            [0, cols - ow],
            [0, 0],
          ]);
    return { views, grads: tf.reshape(grads, [n, oh * cols, cout]) as tf.Tensor3D };
  });
}
