import * as tf from '@tensorflow/tfjs-core';
import type { Classifier } from '@mia/core';

let instances = 0;

/**
 * `z = (x·W1)·W2`, no biases, no activation: a model whose gradients can be derived by hand.
 * Weights are `[in, out]` like tinyMlp.
 */
export function linearTwoLayer(w1: number[][], w2: number[][]): Classifier {
  const uid = instances++;
  const fc1 = tf.variable(tf.tensor2d(w1), true, `linear2_${uid}/fc1.weight`);
  const fc2 = tf.variable(tf.tensor2d(w2), true, `linear2_${uid}/fc2.weight`);
  return {
    numClasses: w2[0]!.length,
    inputShape: [w1.length],
    featureDim: w2.length,
    trainableVariables: [fc1, fc2],
    stateVariables: [],
    parameterGroups: [
      { name: 'fc1', kind: 'dense', weight: fc1 },
      { name: 'fc2', kind: 'dense', weight: fc2 },
    ],
    forward(x) {
      return tf.tidy(() => {
        const h = tf.matMul(x as tf.Tensor2D, fc1) as tf.Tensor2D;
        return { logits: tf.matMul(h, fc2) as tf.Tensor2D, features: h as tf.Tensor2D };
      });
    },
    dispose() {
      fc1.dispose();
      fc2.dispose();
    },
  };
}

/** Copies of every trainable variable's values. */
export function weightsOf(model: Classifier): Float32Array[] {
  return model.trainableVariables.map((v) => new Float32Array(v.dataSync()));
}
