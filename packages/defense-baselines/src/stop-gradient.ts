import * as tf from '@tensorflow/tfjs-core';

const identityWithoutGradient = tf.customGrad(((x: tf.Tensor) => ({
  value: tf.add(x, 0),
  gradFunc: (dy: tf.Tensor | tf.Tensor[]) => tf.zerosLike(dy as tf.Tensor),
})) as unknown as Parameters<typeof tf.customGrad>[0]);

/**
 * `x` with no gradient flowing back through it (PyTorch `detach()`, TF `stop_gradient`), which
 * `@tensorflow/tfjs-core` lacks. The result is a new tensor.
 * @internal
 */
export function stopGradient<T extends tf.Tensor>(x: T): T {
  return identityWithoutGradient(x) as T;
}
