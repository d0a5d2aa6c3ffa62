import * as tf from '@tensorflow/tfjs-core';
import { randomValues } from './random-values';

/** A small model built with tf ops: named parameter shapes and a loss over them. */
export interface SmallModel {
  shapes: Record<string, number[]>;
  loss(params: Record<string, tf.Tensor>, x: tf.Tensor, labels: tf.Tensor): tf.Scalar;
}

function batchNorm(x: tf.Tensor4D, gamma: tf.Tensor, beta: tf.Tensor): tf.Tensor4D {
  const { mean, variance } = tf.moments(x, [0, 1, 2]);
  return tf.batchNorm4d(x, mean as tf.Tensor1D, variance as tf.Tensor1D, beta as tf.Tensor1D, gamma as tf.Tensor1D, 1e-5);
}

/** conv3×3(s1)-BN-relu → conv3×3(s2)-BN-relu + conv1×1(s2) shortcut → maxpool → conv3×3 valid → GAP → dense. */
export const convNetWithBn: SmallModel = {
  shapes: { w1: [3, 3, 3, 4], g1: [4], b1: [4], w2: [3, 3, 4, 6], g2: [6], b2: [6], ws: [1, 1, 4, 6], w3: [3, 3, 6, 5], wd: [5, 3], bd: [3] },
  loss(p, x, labels) {
    const h1 = tf.relu(batchNorm(tf.conv2d(x as tf.Tensor4D, p['w1'] as tf.Tensor4D, 1, 'same'), p['g1']!, p['b1']!));
    const h2 = tf.relu(batchNorm(tf.conv2d(h1, p['w2'] as tf.Tensor4D, 2, 'same'), p['g2']!, p['b2']!));
    const h = tf.add(h2, tf.conv2d(h1, p['ws'] as tf.Tensor4D, 2, 'same')) as tf.Tensor4D;
    const pooled = tf.maxPool(h, 2, 1, 'valid');
    const h3 = tf.relu(tf.conv2d(pooled, p['w3'] as tf.Tensor4D, 1, 'valid'));
    const logits = tf.add(tf.matMul(tf.mean(h3, [1, 2]), p['wd'] as tf.Tensor2D), p['bd']!);
    return tf.losses.softmaxCrossEntropy(labels, logits) as tf.Scalar;
  },
};

/** A tanh MLP 7-9-6-3 (odd sizes). */
export const tanhMlp: SmallModel = {
  shapes: { w1: [7, 9], b1: [9], w2: [9, 6], b2: [6], w3: [6, 3], b3: [3] },
  loss(p, x, labels) {
    let h = tf.tanh(tf.add(tf.matMul(x as tf.Tensor2D, p['w1'] as tf.Tensor2D), p['b1']!));
    h = tf.tanh(tf.add(tf.matMul(h, p['w2'] as tf.Tensor2D), p['b2']!));
    const logits = tf.add(tf.matMul(h, p['w3'] as tf.Tensor2D), p['b3']!);
    return tf.losses.softmaxCrossEntropy(labels, logits) as tf.Scalar;
  },
};

/** Deterministic initial parameter values of a model (scaled uniform). */
export function initialValues(model: SmallModel, seed: number): Record<string, Float32Array> {
  return Object.fromEntries(
    Object.entries(model.shapes).map(([name, shape], i) => {
      const size = tf.util.sizeFromShape(shape);
      const fanIn = shape.length > 1 ? size / (shape[shape.length - 1] as number) : 1;
      const values = randomValues(size, seed + i).map((v) => (name.startsWith('g') ? 1 + 0.1 * v : v / Math.sqrt(fanIn)));
      return [name, values];
    }),
  );
}
