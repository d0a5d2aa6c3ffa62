import * as tf from '@tensorflow/tfjs-core';

/**
 * Name of the optional kernel a backend registers to compute {@link crossEntropyPerExample} and
 * {@link crossEntropy} in one call: inputs `{logits, labels}` (float32 `[n, C]`, int32 `[n]`),
 * attribute `reduction` (`'none'`: the `[n]` losses; `'mean'`: their mean, a scalar), each loss
 * `logSumExp(z) − z[label]` (a label outside `[0, C)` picks nothing). A backend that registers it
 * registers {@link SOFTMAX_CROSS_ENTROPY_GRAD} too.
 */
export const SOFTMAX_CROSS_ENTROPY = 'MiaSoftmaxCrossEntropy';
/**
 * Gradient kernel of {@link SOFTMAX_CROSS_ENTROPY} for the logits: inputs `{dy, logits, labels}`,
 * attribute `reduction`, output `[n, C]`: `dy_i·(softmax(z_i) − onehot(y_i))` (`dy/n` per row for
 * `'mean'`), rounded as tfjs's gradient of the composition rounds it on that backend.
 */
export const SOFTMAX_CROSS_ENTROPY_GRAD = 'MiaSoftmaxCrossEntropyGrad';

let gradientRegistered = false;

function registerGradientOnce(): void {
  if (gradientRegistered) return;
  gradientRegistered = true;
  tf.registerGradient({
    kernelName: SOFTMAX_CROSS_ENTROPY,
    inputsToSave: ['logits', 'labels'],
    gradFunc: (dy, saved, attrs) => {
      const [logits, labels] = saved as [tf.Tensor, tf.Tensor];
      return {
        logits: () =>
          tf
            .engine()
            .runKernel(SOFTMAX_CROSS_ENTROPY_GRAD, { dy: dy as tf.Tensor, logits, labels }, { reduction: attrs['reduction'] } as tf.NamedAttrMap) as tf.Tensor,
        // Labels are indices (as tfjs's OneHot, whose indices get a zero gradient).
        labels: () => tf.zeros(labels.shape),
      };
    },
  });
}

/**
 * The {@link SOFTMAX_CROSS_ENTROPY} kernel when the active backend registers it and its gradient and
 * the inputs fit it (float32 `[n, C]` logits, int32 `[n]` labels, n, C ≥ 1); undefined otherwise (the
 * caller then runs the tfjs ops).
 * @internal
 */
export function fusedCrossEntropy(logits: tf.Tensor, labels: tf.Tensor, reduction: 'none' | 'mean'): tf.Tensor | undefined {
  const backend = tf.getBackend();
  if (tf.getKernel(SOFTMAX_CROSS_ENTROPY, backend) === undefined || tf.getKernel(SOFTMAX_CROSS_ENTROPY_GRAD, backend) === undefined) return undefined;
  const fits =
    logits.dtype === 'float32' &&
    logits.rank === 2 &&
    logits.shape[1]! >= 2 &&
    logits.shape[0]! >= 1 &&
    labels.dtype === 'int32' &&
    labels.rank === 1 &&
    labels.shape[0] === logits.shape[0];
  if (!fits) return undefined;
  registerGradientOnce();
  return tf.engine().runKernel(SOFTMAX_CROSS_ENTROPY, { logits, labels }, { reduction } as tf.NamedAttrMap) as tf.Tensor;
}
