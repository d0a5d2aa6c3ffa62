import { div, engine, reshape, tile, type NamedAttrMap, type Tensor } from '@tensorflow/tfjs-core';
import { normalizeAxes } from '../kernels/prefix-reduce';

/**
 * The gradient of `Mean` over a proper prefix of the axes (batch-norm statistics over N,H,W) as one
 * `Tile` of dy/n (a heap copy, see the `Tile` kernel), where tfjs-core multiplies the broadcast dy
 * by a new tensor of ones and divides the result (three full-size passes). Applies on the `wasm`
 * backend to float32 inputs; returns undefined otherwise (tfjs-core's gradient then runs).
 */
export function meanGradient(dy: Tensor, saved: Tensor[], attrs: NamedAttrMap): Record<string, () => Tensor> | undefined {
  const [x] = saved as [Tensor];
  const axes = normalizeAxes(attrs['axis'] as number | number[] | null | undefined, x.rank);
  const isPrefix = axes.length > 0 && axes.length < x.rank && axes.every((a, i) => a === i);
  if (engine().backendName !== 'wasm' || x.dtype !== 'float32' || !isPrefix) return undefined;
  const count = x.shape.slice(0, axes.length).reduce((p, d) => p * d, 1);
  const kept = x.shape.map((d, i) => (i < axes.length ? 1 : d));
  const reps = x.shape.map((d, i) => (i < axes.length ? d : 1));
  return { x: () => tile(reshape(div(dy, count), kept), reps) };
}
