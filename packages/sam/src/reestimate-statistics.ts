import * as tf from '@tensorflow/tfjs-core';
import { checkPositiveInteger, type Classifier, type LabeledData } from '@mia/core';

/** Options of {@link reestimateStatistics}. */
export interface ReestimateStatisticsOptions {
  /** Examples per forward pass. @default 128 */
  readonly batchSize?: number;
}

/**
 * Recomputes the classifier's running statistics (`stateVariables`, e.g. BN mean/variance) as the
 * equal-weight average of the per-batch statistics over one pass of `data`, like PyTorch's
 * `torch.optim.swa_utils.update_bn` (momentum = None). Works through the `Classifier` interface
 * only: it assumes each training-mode forward updates every state element as
 * `r ← (1 − m)·r + m·s_batch` (PyTorch and tfjs-layers BN) and recovers `m` per element from two
 * forwards of the first batch (state set to 0, then to 1). Elements that no forward changes keep
 * their value. Trainable weights are untouched.
 *
 * @throws InvalidArgumentError on a bad batch size.
 * @see SAM-privacy §3.2 (SWA); docs/protocol.md §2.4.
 */
export function reestimateStatistics(model: Classifier, data: LabeledData, options: ReestimateStatisticsOptions = {}): void {
  const batchSize = options.batchSize ?? 128;
  checkPositiveInteger('reestimateStatistics', 'batchSize', batchSize);
  const state = model.stateVariables;
  if (state.length === 0 || data.size === 0) return;
  const original = state.map((v) => tf.clone(v));
  const forwardFrom = (fill: 0 | 1, indices: Int32Array): tf.Tensor[] =>
    tf.tidy(() => {
      state.forEach((v) => v.assign(fill === 0 ? tf.zerosLike(v) : tf.onesLike(v)));
      const x = data.gather(indices);
      model.forward(x, { training: true, updateStatistics: true });
      return state.map((v) => tf.clone(v));
    });
  const batches: Int32Array[] = [];
  for (let s = 0; s < data.size; s += batchSize) batches.push(Int32Array.from({ length: Math.min(batchSize, data.size - s) }, (_, i) => s + i));
  const fromZero = forwardFrom(0, batches[0]!);
  const fromOne = forwardFrom(1, batches[0]!);
  // r(0) = m·s and r(1) = (1 − m) + m·s, so m = 1 − (r(1) − r(0)).
  const momentum = fromZero.map((r0, k) => tf.tidy(() => tf.sub(1, tf.sub(fromOne[k]!, r0))));
  tf.dispose(fromOne);
  const sums = fromZero.map((r0) => tf.mul(r0, batches[0]!.length));
  tf.dispose(fromZero);
  for (const batch of batches.slice(1)) {
    const r = forwardFrom(0, batch);
    sums.forEach((s, k) => {
      sums[k] = tf.tidy(() => tf.add(s, tf.mul(r[k]!, batch.length)));
      s.dispose();
    });
    tf.dispose(r);
  }
  tf.tidy(() => {
    state.forEach((v, k) => {
      const m = momentum[k]!;
      const valid = tf.greater(tf.abs(m), 1e-6);
      const mean = tf.div(sums[k]!, tf.mul(tf.where(valid, m, tf.onesLike(m)), data.size));
      v.assign(tf.where(valid, mean, original[k]!));
    });
  });
  tf.dispose([...original, ...momentum, ...sums]);
}
