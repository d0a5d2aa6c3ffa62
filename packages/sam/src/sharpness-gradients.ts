import * as tf from '@tensorflow/tfjs-core';
import { checkNumberInRange, type Gradients } from '@mia/core';

/** Options of {@link sharpnessGradients}. */
export interface SharpnessGradientOptions {
  /** Radius ρ of the L2 ball of the perturbation. */
  readonly rho: number;
  /** Weight a of the gradient at w. */
  readonly gradWeight: number;
  /** Weight b of the gradient at w + ε̂. */
  readonly advWeight: number;
}

/** What {@link sharpnessGradients} needs from its caller. */
export interface SharpnessPasses {
  /** The variables perturbed by ε̂ (the model weights). */
  readonly perturbed: readonly tf.Variable[];
  /** Gradients and loss at the current weights; `second` is true for the pass at w + ε̂. */
  compute(second: boolean): { loss: tf.Scalar; grads: Gradients };
  /** Called after the second pass, once the weights are restored (e.g. to restore BN statistics). */
  afterSecond?(): void;
}

/**
 * The first-order sharpness step shared by SAM, the sharp-minima loss and SharpReg:
 * `g = ∇L_B(w)`, `ε̂ = ρ·g/(‖g‖₂ + 1e-12)` with the **global** L2 norm over every perturbed
 * variable, `g_adv = ∇L_B(w + ε̂)` on the same batch, weights restored exactly, and the combined
 * direction `d = a·g + b·g_adv` for every gradient key (SAM: a = 0, b = 1; sharp minima:
 * a = 1 + λ, b = −λ; SharpReg: a = 1 + λ − ξ, b = −λ). Call it inside `tf.tidy`.
 *
 * @returns the loss at w and the combined gradients.
 * @see docs/protocol.md §4.4, A24; SAM-privacy Eq. 4, 6; Foret et al. (SAMr `sam.py`).
 */
export function sharpnessGradients(passes: SharpnessPasses, options: SharpnessGradientOptions): { loss: tf.Scalar; grads: Gradients } {
  checkNumberInRange('sharpnessGradients', 'rho', options.rho, 0);
  const { gradWeight: a, advWeight: b } = options;
  const first = passes.compute(false);
  const perturbed = passes.perturbed.filter((v) => first.grads[v.name] !== undefined);
  const squares = perturbed.map((v) => tf.sum(tf.square(first.grads[v.name]!)));
  const norm = squares.length === 0 ? tf.scalar(0) : tf.sqrt(tf.addN(squares));
  const scale = tf.div(options.rho, tf.add(norm, 1e-12));
  const saved = perturbed.map((v) => tf.clone(v));
  perturbed.forEach((v) => v.assign(tf.add(v, tf.mul(first.grads[v.name]!, scale))));
  let second: { loss: tf.Scalar; grads: Gradients };
  try {
    second = passes.compute(true);
  } finally {
    perturbed.forEach((v, k) => v.assign(saved[k]!));
    passes.afterSecond?.();
  }
  const grads: Gradients = {};
  for (const [name, g] of Object.entries(first.grads)) {
    const adv = second.grads[name];
    grads[name] = adv === undefined ? tf.mul(g, a) : tf.add(tf.mul(g, a), tf.mul(adv, b));
  }
  return { loss: first.loss, grads };
}
