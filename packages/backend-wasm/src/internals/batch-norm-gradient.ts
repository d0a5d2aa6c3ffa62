import { add, engine, mul, neg, reshape, rsqrt, square, sub, sum, tidy, type NamedAttrMap, type Tensor } from '@tensorflow/tfjs-core';

/**
 * The gradient of `FusedBatchNorm` (`tf.batchNorm`) in 5 full-size passes instead of tfjs-core's ~15.
 *
 * With r = 1/√(variance + ε), s = scale·r, S₁ = Σ dy and S₂ = Σ (x − mean)·dy over all axes but the
 * last (the channels): dx = dy·s, dmean = −s·S₁, dvariance = −½·s·r²·S₂, dscale = r·S₂, doffset = S₁
 * — the same formulas as tfjs-core's gradient, which builds each product separately (a tile, ~10
 * full-size multiplies and 4 sums per layer). Applies on the `wasm` backend when mean, variance and
 * scale are vectors over the last axis of x (how `tf.moments` + `tf.batchNorm` normalise NHWC or
 * [batch, features]); returns undefined otherwise (tfjs-core's gradient then runs).
 */
export function fusedBatchNormGradient(dy: Tensor, saved: Tensor[], attrs: NamedAttrMap): Record<string, () => Tensor> | undefined {
  const [x, mean, variance, scale] = saved as [Tensor, Tensor, Tensor, Tensor | undefined];
  const channels = x.shape[x.rank - 1] as number;
  const vector = (t: Tensor | undefined): boolean => t === undefined || (t.rank === 1 && t.shape[0] === channels);
  if (engine().backendName !== 'wasm' || x.rank < 2 || x.dtype !== 'float32' || !vector(mean) || !vector(variance) || !vector(scale)) {
    return undefined;
  }
  const epsilon = attrs['varianceEpsilon'] as number;
  const axes = [...Array(x.rank - 1).keys()];
  // Eager per-channel vectors (the full-size intermediate of S₂ is freed by the tidy).
  const { r, s, s1, s2 } = tidy(() => {
    const r = rsqrt(add(variance, epsilon));
    return { r, s: scale === undefined ? r : mul(scale, r), s1: sum(dy, axes), s2: sum(mul(sub(x, mean), dy), axes) };
  });
  return {
    x: () => mul(dy, s),
    mean: () => neg(mul(s, s1)),
    variance: () => mul(mul(s, square(r)), mul(s2, -0.5)),
    scale: () => mul(r, s2),
    offset: () => reshape(s1, [channels]),
  };
}
