import * as tf from '@tensorflow/tfjs-core';
import { resolvePastOptions, type ResolvedPastOptions } from './past-options';

/** Form of the penalty gradient: `'l1'` adds `reg·sign(w)`, `'l2'` adds `reg·2w`. */
export type PastNorm = 'l1' | 'l2';

/** Options of {@link pastPenalty}. */
export interface PastPenaltyOptions {
  /** λ, the coefficient of the penalty (≥ 0). @default 1e-5 */
  readonly lambda?: number;
  /** α, the focusing power on γ (≥ 0; 0 gives plain L1/L2). @default 2.5 */
  readonly alpha?: number;
  /** Upper clamp of `γ^α` (PASTr `reg_clamp`). @default 10000 */
  readonly clamp?: number;
  /** @default 'l1' */
  readonly norm?: PastNorm;
}

/**
 * The gradient that PAST adds to a module weight's member gradient:
 * `λ·min(γ^α, clamp)·sign(w)` (L1, `sign(0) = 0`) or `λ·min(γ^α, clamp)·2w` (L2 ablation).
 * With `gamma = undefined` the weight is γ ≡ 1, i.e. plain L1 (`λ·sign(w)`) or L2 (`2λw`) tuning.
 * `γ^α` uses `0^0 = 1`, like `torch.pow`.
 *
 * @param weight - The module weight `W`.
 * @param gamma - Its sensitivity from {@link privacySensitivity} (detached), or undefined for γ ≡ 1.
 * @param options - {@link PastPenaltyOptions}.
 * @returns A new tensor shaped like `weight` (the caller disposes it).
 * @throws InvalidArgumentError on a negative or non-finite λ or α, a non-positive clamp, or an unknown norm.
 * @see docs/protocol.md §4.1 steps 6–7, §6 item 3; PAST Eq. 3–4; PASTr `pruner.py::GradGapPruner.regularize`.
 */
export function pastPenalty(weight: tf.Tensor, gamma: tf.Tensor | undefined, options: PastPenaltyOptions): tf.Tensor {
  return penaltyGradient(weight, gamma, resolvePastOptions('pastPenalty', options));
}

/** {@link pastPenalty} with options resolved once by {@link resolvePastOptions} (the plugin's per-step path). @internal */
export function penaltyGradient(
  weight: tf.Tensor,
  gamma: tf.Tensor | undefined,
  options: Pick<ResolvedPastOptions, 'lambda' | 'alpha' | 'clamp' | 'norm'>,
): tf.Tensor {
  const { lambda, alpha, clamp } = options;
  return tf.tidy(() => {
    const direction = options.norm === 'l2' ? tf.mul(weight, 2) : tf.sign(weight);
    if (gamma === undefined) return tf.mul(direction, lambda * Math.min(1, clamp));
    const reg = tf.mul(tf.minimum(tf.pow(gamma, alpha), clamp), lambda);
    return tf.mul(reg, direction);
  });
}
