import * as tf from '@tensorflow/tfjs-core';
import { ShapeMismatchError } from '@mia/core';

/**
 * Machine epsilon of float32, `2^-23` (PyTorch `torch.finfo(torch.float32).eps`): the floor of the
 * per-module mean in {@link privacySensitivity}.
 */
export const FLOAT32_EPSILON = 1.1920929e-7;

/**
 * PAST's normalised privacy sensitivity of one module's weight tensor:
 * `γ = |g_m − g_n| / max(mean(|g_m − g_n|), eps_f32)`, elementwise, where `g_m` and `g_n` are the
 * gradients of the mean member and non-member cross-entropy. `|g_m − g_n| = |∇(L_m − L_n)|` is the
 * paper's `|∇G|`, and dividing by the module mean equals the paper's `|M|·g_i / Σ_j g_j`.
 * The result has mean 1 over the module (unless every entry is 0, then it is all 0).
 *
 * @param memberGradient - `∂L_m/∂W` for one module weight.
 * @param nonMemberGradient - `∂L_n/∂W`, same shape.
 * @returns γ, a new tensor of the same shape (the caller disposes it).
 * @throws ShapeMismatchError when the shapes differ.
 * @see docs/protocol.md §4.1 steps 4–5; PAST §3.2 (γ_i, before Eq. 4); PASTr `pruner.py::GradGapPruner.compute_grad_gap`.
 */
export function privacySensitivity(memberGradient: tf.Tensor, nonMemberGradient: tf.Tensor): tf.Tensor {
  if (memberGradient.shape.join(',') !== nonMemberGradient.shape.join(',')) {
    throw new ShapeMismatchError(
      `privacySensitivity: nonMemberGradient must have the shape of memberGradient [${memberGradient.shape.join(', ')}], got [${nonMemberGradient.shape.join(', ')}]`,
    );
  }
  return tf.tidy(() => {
    const gap = tf.abs(tf.sub(memberGradient, nonMemberGradient));
    return tf.div(gap, tf.maximum(tf.mean(gap), FLOAT32_EPSILON));
  });
}
