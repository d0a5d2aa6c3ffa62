import * as tf from '@tensorflow/tfjs-core';
import type { Classifier, TrainingPlugin } from '@mia/core';

/**
 * A classifier with one weight vector w [2] and a BN-like running mean [2]: a training-mode
 * forward updates `runningMean ← 0.9·runningMean + 0.1·mean(x, 0)` (when `updateStatistics` is
 * not false, or always when `ignoresFlag`). Logits are `x·diag(w)`.
 */
export function bnLikeClassifier(options: { ignoresFlag?: boolean; w?: number[] } = {}): Classifier & { runningMean: tf.Variable; untouched: tf.Variable } {
  const w = tf.variable(tf.tensor1d(options.w ?? [1, -1]), true, `bnlike_w_${counter++}`);
  const runningMean = tf.variable(tf.zeros([2]), false, `bnlike_rm_${counter++}`);
  const untouched = tf.variable(tf.fill([2], 7), false, `bnlike_untouched_${counter++}`);
  return {
    numClasses: 2,
    inputShape: [2],
    featureDim: 2,
    trainableVariables: [w],
    stateVariables: [runningMean, untouched],
    parameterGroups: [],
    runningMean,
    untouched,
    forward(x, opts) {
      const update = opts.training && (options.ignoresFlag === true || opts.updateStatistics !== false);
      if (update) tf.tidy(() => runningMean.assign(tf.add(tf.mul(runningMean, 0.9), tf.mul(tf.mean(x, 0), 0.1))));
      return tf.tidy(() => {
        const logits = tf.mul(x, w) as tf.Tensor2D;
        return { logits, features: tf.clone(logits) };
      });
    },
    dispose() {
      tf.dispose([w, runningMean, untouched]);
    },
  };
}
let counter = 0;

/** H = [[3, 1], [1, 2]]: the quadratic objective ½·wᵀHw of the model's only weight vector. */
export function quadraticLossPlugin(model: Classifier): TrainingPlugin {
  const h = [
    [3, 1],
    [1, 2],
  ];
  return {
    name: 'quadratic',
    loss: () =>
      tf.tidy(() => {
        const w = model.trainableVariables[0]!;
        return tf.mul(0.5, tf.sum(tf.mul(w, tf.reshape(tf.matMul(tf.tensor2d(h), tf.reshape(w, [2, 1])), [2])))) as tf.Scalar;
      }),
  };
}
