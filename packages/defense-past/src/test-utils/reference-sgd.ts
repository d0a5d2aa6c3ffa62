import * as tf from '@tensorflow/tfjs-core';

/**
 * An explicit PyTorch SGD step written out for tests: `d = g + wd·w`; `v = d` on the first step,
 * else `v = μ·v + d`; `w ← w − lr·v`. Buffers live in `state` (the caller disposes them).
 */
export function referenceSgdStep(
  variables: readonly tf.Variable[],
  grads: Record<string, tf.Tensor>,
  state: Map<string, tf.Tensor>,
  options: { lr: number; momentum: number; weightDecay: number },
): void {
  for (const v of variables) {
    const g = grads[v.name]!;
    const dNew = tf.add(g, tf.mul(v, options.weightDecay));
    const old = state.get(v.name);
    const buf = old === undefined ? dNew : tf.add(tf.mul(old, options.momentum), dNew);
    if (old !== undefined) {
      old.dispose();
      dNew.dispose();
    }
    state.set(v.name, buf);
    const next = tf.sub(v, tf.mul(buf, options.lr));
    v.assign(next);
    next.dispose();
  }
}
