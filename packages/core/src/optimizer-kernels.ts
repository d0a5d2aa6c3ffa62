import * as tf from '@tensorflow/tfjs-core';

/**
 * Name of the optional kernel a backend registers to run one {@link sgd} step of one variable in one
 * pass: inputs `{variable, gradient, momentum?}` (no `momentum` on the first step, which starts the
 * buffer), attributes `{lr, momentum, dampening, nesterov, weightDecay}`, outputs `[variable]`, or
 * `[variable, momentum]` when `momentum > 0`: the new values, bit-equal to the JS path's tfjs ops.
 */
export const SGD_UPDATE = 'MiaSgdUpdate';

/**
 * Name of the optional kernel a backend registers to run one {@link adam} step of one variable in one
 * pass: inputs `{variable, gradient, m, v}`, attributes `{lr, beta1, beta2, epsilon, weightDecay,
 * biasCorrection1, biasCorrection2}` (`1 − β^t`), outputs `[variable, m, v]`: the new values, bit-equal
 * to the JS path's tfjs ops.
 */
export const ADAM_UPDATE = 'MiaAdamUpdate';

/** True when the active backend registers `kernelName`. @internal */
export function hasFusedUpdate(kernelName: string): boolean {
  return tf.getKernel(kernelName, tf.getBackend()) !== undefined;
}

/** True when every tensor is float32, non-empty, with the shape of the first (what the fused update kernels take). @internal */
export function fusable(...tensors: (tf.Tensor | undefined)[]): boolean {
  const first = tensors[0];
  if (first === undefined || first.size === 0) return false;
  return tensors.every((t) => t === undefined || (t.dtype === 'float32' && tf.util.arraysEqual(t.shape, first.shape)));
}

/** Runs a fused update kernel; its outputs are tracked by the caller's `tf.tidy`. @internal */
export function runUpdate(kernelName: string, inputs: tf.NamedTensorMap, attrs: Record<string, number | boolean>): tf.Tensor[] {
  const out = tf.engine().runKernel(kernelName, inputs, attrs as unknown as tf.NamedAttrMap);
  return Array.isArray(out) ? (out as tf.Tensor[]) : [out as tf.Tensor];
}
