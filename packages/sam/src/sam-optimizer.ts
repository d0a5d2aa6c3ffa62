import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, checkNumberInRange } from '@mia/core';
import { sharpnessGradients } from './sharpness-gradients';

/** Options of {@link samOptimizer}. */
export interface SamOptimizerOptions {
  /** Radius ρ of the L2 ball. @default 0.1 */
  readonly rho?: number;
  /** SharpReg/sharp-minima weight λ; omit for plain SAM. */
  readonly lambda?: number;
  /** SharpReg ξ (with `lambda`). @default 0 (= the sharp-minima loss, Eq. 4) */
  readonly xi?: number;
  /**
   * Non-trainable state to snapshot before the second pass and restore after it (e.g. the
   * moving mean/variance of BatchNormalization layers), so only the first pass updates it.
   * @default []
   */
  readonly statistics?: readonly tf.Variable[];
}

/** A tfjs optimizer wrapped by {@link samOptimizer}. */
export interface SamOptimizer {
  /**
   * One SAM (or SharpReg) update of `varList` (default: every trainable variable `f` touches,
   * as `tf.variableGrads` finds them) for the loss `f`, which must compute the loss of one fixed
   * batch (it is called twice). Returns the loss at the unperturbed weights (caller disposes).
   */
  minimize(f: () => tf.Scalar, varList?: tf.Variable[]): tf.Scalar;
}

/**
 * Wraps any `tf.Optimizer` (`tf.train.sgd`, `tf.train.momentum`, `tf.train.adam`...) so that each
 * `minimize` call takes a first-order SAM step (`λ` omitted), the sharp-minima step (`λ`, ξ = 0),
 * or a SharpReg step (`λ`, `ξ`) — for plain tfjs training loops without `@mia/core`'s `train`.
 *
 * @example
 * const opt = samOptimizer(tf.train.momentum(0.1, 0.9), { rho: 0.05 });
 * const loss = opt.minimize(() => tf.losses.softmaxCrossEntropy(yBatch, model.predict(xBatch) as tf.Tensor));
 * @throws InvalidArgumentError on a non-positive ρ or negative λ/ξ.
 * @see docs/protocol.md §4.4; SAM-privacy Eq. 4, 6.
 */
export function samOptimizer(base: tf.Optimizer, options: SamOptimizerOptions = {}): SamOptimizer {
  const fn = 'samOptimizer';
  const rho = options.rho ?? 0.1;
  checkNumberInRange(fn, 'rho', rho, 0);
  if (rho === 0) throw new InvalidArgumentError(`${fn}: rho must be a positive number, got 0`);
  let a = 0;
  let b = 1;
  if (options.lambda !== undefined) {
    const xi = options.xi ?? 0;
    checkNumberInRange(fn, 'lambda', options.lambda, 0);
    checkNumberInRange(fn, 'xi', xi, 0);
    a = 1 + options.lambda - xi;
    b = -options.lambda;
  } else if (options.xi !== undefined) {
    throw new InvalidArgumentError(`${fn}: xi needs lambda, got xi = ${options.xi} without lambda`);
  }
  const statistics = options.statistics ?? [];
  return {
    minimize(f, varList) {
      return tf.tidy(() => {
        let snapshot: tf.Tensor[] = [];
        let perturbed: tf.Variable[] = varList ?? [];
        const { loss, grads } = sharpnessGradients(
          {
            get perturbed() {
              return perturbed;
            },
            compute: (second) => {
              if (second) snapshot = statistics.map((v) => tf.clone(v));
              const { value, grads: g } = tf.variableGrads(f, varList);
              if (varList === undefined) perturbed = Object.keys(g).map((name) => tf.engine().registeredVariables[name]!);
              return { loss: value, grads: g };
            },
            afterSecond: () => statistics.forEach((v, k) => v.assign(snapshot[k]!)),
          },
          { rho, gradWeight: a, advWeight: b },
        );
        base.applyGradients(grads);
        return loss;
      });
    },
  };
}
