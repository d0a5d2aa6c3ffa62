import * as tf from '@tensorflow/tfjs-core';
import { check, crossEntropyPerExample, optionsSchema } from '@mia/core';
import type { DpSgdBatch, DpSgdGradientsOptions, DpSgdGradientsResult } from '../dp-sgd/dp-sgd-gradients';
import { dpSgdOptionsSchema } from '../dp-sgd/dp-sgd-options';
import { privatize } from '../dp-sgd/privatize';
import type { PerExampleTape } from './per-example-tape';
import { tapedClippedSum } from './taped-clipped-sum';

/** Options of {@link dpSgdTapedGradients}: those of `dpSgdGradients` plus the per-example loss. */
export interface DpSgdTapedGradientsOptions extends DpSgdGradientsOptions {
  /** Per-example loss `[n]` of the logits and the batch's targets. @default softmax cross-entropy of integer labels */
  readonly loss?: (logits: tf.Tensor2D, y: tf.Tensor) => tf.Tensor1D;
}

const schema = optionsSchema({
  clipNorm: dpSgdOptionsSchema.fields.clipNorm,
  noiseMultiplier: dpSgdOptionsSchema.fields.noiseMultiplier,
  expectedBatchSize: { ...dpSgdOptionsSchema.fields.clipNorm, description: 'q·N' },
});

/**
 * The DP-SGD gradient of `dpSgdGradients` (clip each example's gradient to C over all variables,
 * sum, add N(0, σ²C²), divide by q·N) in one backward pass instead of one per example, for a
 * model whose layers with weights run through a {@link PerExampleTape}: per-example norms come per
 * layer from the layer inputs and output gradients that pass records (‖aᵢ‖·‖gᵢ‖ for dense layers,
 * ghost clipping or the per-example gradient for convolutions), and so does each variable's clipped
 * sum (the layer's weight gradient with each example's output gradient scaled by its clip factor).
 * Same result as the per-example loop up to float32 rounding.
 *
 * @example
 * const forward = (x, tape) => tape.dense(tf.relu(tape.dense(x, w1, b1)), w2, b2);
 * const { grads } = dpSgdTapedGradients(forward, batch, { variables: [w1, b1, w2, b2], clipNorm: 1, noiseMultiplier: 1.1, expectedBatchSize: 256, random });
 * @param forward - the model: `(x, tape) ↦ logits [n, C]`, every trainable variable used once through `tape`.
 * @throws InvalidArgumentError on bad options, a variable outside the tape or used twice, a tape layer that does not reach the loss.
 * @see Goodfellow 2015 (arXiv:1510.01799); Li et al. 2022 (arXiv:2110.05679) §4; Bu et al. 2023 (arXiv:2210.00038); Abadi et al. 2016 (arXiv:1607.00133) Alg. 1; docs/protocol.md §4.16
 */
export function dpSgdTapedGradients(
  forward: (x: tf.Tensor, tape: PerExampleTape) => tf.Tensor2D,
  batch: DpSgdBatch,
  options: DpSgdTapedGradientsOptions,
): DpSgdGradientsResult {
  const fn = 'dpSgdTapedGradients';
  const o = schema.parse(options, fn, { allowUnknown: true });
  check(typeof forward === 'function', fn, 'forward', 'a function (x, tape) => logits', forward);
  check(Array.isArray(options.variables) && options.variables.length > 0, fn, 'variables', 'a non-empty array of tf.Variable', options.variables);
  check(typeof options.random?.uint32 === 'function', fn, 'random', 'a Random (seededRandom from @mia/core)', options.random);
  check(options.loss === undefined || typeof options.loss === 'function', fn, 'loss', 'a function (logits, y) => per-example losses', options.loss);
  const n = batch.x.shape[0] ?? 0;
  check(batch.y.shape[0] === n, fn, 'batch.y', `${n} rows (one per example of batch.x)`, `${batch.y.shape[0]} rows`);
  const lossOf = options.loss ?? ((logits: tf.Tensor2D, y: tf.Tensor) => crossEntropyPerExample(logits, y as tf.Tensor1D));
  const seed = options.random.uint32();
  const { sums, lossSum } = tapedClippedSum(fn, (x, tape) => lossOf(forward(x, tape), batch.y), batch.x, options.variables, o.clipNorm);
  const grads = privatize(sums, options.variables, { ...o, seed });
  const loss = tf.div(lossSum, Math.max(n, 1)) as tf.Scalar;
  tf.dispose([...sums, lossSum]);
  return { grads, loss, batchSize: n };
}
