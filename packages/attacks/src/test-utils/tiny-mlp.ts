import * as tf from '@tensorflow/tfjs-core';

/** A tiny one-hidden-layer MLP as a predict function (tests only). */
export interface TinyMlp {
  readonly predict: (x: tf.Tensor) => tf.Tensor;
  dispose(): void;
}

/** Seeded Gaussian features `[n, dim]` and uniform random labels in `[0, numClasses)` (tests only). */
export function randomTask(n: number, dim: number, numClasses: number, seed: number): { x: tf.Tensor2D; y: Int32Array } {
  const x = tf.randomNormal([n, dim], 0, 1, 'float32', seed) as tf.Tensor2D;
  const u = tf.randomUniform([n], 0, numClasses, 'float32', seed + 1);
  const y = Int32Array.from(u.dataSync(), (v) => Math.min(numClasses - 1, Math.floor(v)));
  u.dispose();
  return { x, y };
}

/**
 * An MLP `dim → hidden (relu) → numClasses`, trained full-batch with Adam for `steps` steps on
 * `(x, y)` (0 steps: a model that never saw the data). With random labels it memorises its
 * training set, the textbook leaking model (tests only).
 */
export function trainTinyMlp(x: tf.Tensor2D, y: Int32Array, numClasses: number, options: { hidden?: number; steps?: number; seed?: number } = {}): TinyMlp {
  const { hidden = 64, steps = 300, seed = 1 } = options;
  const dim = x.shape[1];
  const w1 = tf.variable(tf.randomNormal([dim, hidden], 0, Math.sqrt(2 / dim), 'float32', seed));
  const b1 = tf.variable(tf.zeros([hidden]));
  const w2 = tf.variable(tf.randomNormal([hidden, numClasses], 0, Math.sqrt(1 / hidden), 'float32', seed + 1));
  const b2 = tf.variable(tf.zeros([numClasses]));
  const predict = (input: tf.Tensor) => tf.tidy(() => tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(input as tf.Tensor2D, w1), b1)), w2), b2));
  if (steps > 0) {
    const optimizer = tf.train.adam(0.01);
    const onehot = tf.tidy(() => tf.oneHot(tf.tensor1d(y, 'int32'), numClasses));
    for (let s = 0; s < steps; s++) {
      optimizer.minimize(() => tf.losses.softmaxCrossEntropy(onehot, predict(x)) as tf.Scalar);
    }
    onehot.dispose();
    optimizer.dispose();
  }
  return { predict, dispose: () => [w1, b1, w2, b2].forEach((v) => v.dispose()) };
}
