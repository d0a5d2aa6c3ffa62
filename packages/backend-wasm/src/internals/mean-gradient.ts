import { div, engine, reshape, tile, type NamedAttrMap, type Tensor } from '@tensorflow/tfjs-core';
import { normalizeAxes } from '../kernels/prefix-reduce';

/**
 * The gradient of `Mean` as one `Tile` of dy/n (a heap copy when the reduced axes are one contiguous
 * run, see the `Tile` kernel): the batch-norm statistics over N,H,W, and global average pooling over
 * H,W. tfjs-core multiplies the broadcast dy by a new tensor of ones, made in JS and copied to the
 * heap, and divides the result (three full-size passes). The values are the same: dy·1/n is dy/n.
 * Applies on the `wasm` backend to float32 inputs; returns undefined otherwise (tfjs-core's gradient
 * then runs).
 */
export function meanGradient(dy: Tensor, saved: Tensor[], attrs: NamedAttrMap): Record<string, () => Tensor> | undefined {
  const [x] = saved as [Tensor];
  const axes = normalizeAxes(attrs['axis'] as number | number[] | null | undefined, x.rank);
  if (engine().backendName !== 'wasm' || x.dtype !== 'float32' || axes.length === 0) return undefined;
  const reduced = new Set(axes);
  const count = x.shape.reduce((p, d, i) => (reduced.has(i) ? p * d : p), 1);
  const kept = x.shape.map((d, i) => (reduced.has(i) ? 1 : d));
  const reps = x.shape.map((d, i) => (reduced.has(i) ? d : 1));
  return { x: () => tile(reshape(div(dy, count), kept), reps) };
}
