import { checkPositiveInteger, type Classifier, type LabeledData } from '@mia/core';
import { inputGradientNorms } from './input-gradient-norms';
import { resolveIndices, transformedLogits, type QueryTransform } from './transformed-logits';
import type { ModelSignals } from './model-signals';
import { signalsFromLogits } from './signals-from-logits';

export type { QueryTransform };

/** Options of {@link computeSignals}. */
export interface ComputeSignalsOptions {
  /** Examples per forward pass. @default 256 */
  readonly batchSize?: number;
  /** Indices of `data` to use, in order. @default all */
  readonly indices?: ArrayLike<number>;
  /** Augmented queries; each gives one entry of `signals.queries`. @default none */
  readonly queries?: readonly QueryTransform[];
  /** Also compute the input-gradient norm (Grad-x, white-box): `'l2'`, `'l1'`, or false. @default false */
  readonly inputGradients?: false | 'l2' | 'l1';
}

/**
 * Computes the signals of a {@link Classifier} on `data` once (eval mode, no augmentation, batched),
 * so every attack of a suite reuses them: logits, posterior, loss, `p_y`, `max p`, entropy,
 * m-entropy, φ, correctness; optionally the signals of augmented queries and the input-gradient norm.
 *
 * @param classifier - The model (target, shadow or reference).
 * @param data - The examples and their labels.
 * @param options - {@link ComputeSignalsOptions}.
 * @returns The {@link ModelSignals} of the selected examples, in order. Leaves no tensor behind.
 * @throws InvalidArgumentError on a bad batch size or index.
 * @see docs/protocol.md §3.0 (signals, eval mode), §3.3–3.4 (queries), §3.6 (Grad-x).
 */
export function computeSignals(classifier: Classifier, data: LabeledData, options: ComputeSignalsOptions = {}): ModelSignals {
  const batchSize = options.batchSize ?? 256;
  checkPositiveInteger('computeSignals', 'batchSize', batchSize);
  const indices = resolveIndices(data, options.indices);
  const labels = Int32Array.from(indices, (i) => data.y[i]!);
  const signalsOf = (transform?: QueryTransform): ModelSignals =>
    signalsFromLogits(transformedLogits(classifier, data, indices, batchSize, transform), labels, classifier.numClasses);
  const base = signalsOf();
  const queries = options.queries?.map((transform) => signalsOf(transform));
  const gradientNorm =
    options.inputGradients === undefined || options.inputGradients === false
      ? undefined
      : inputGradientNorms(classifier, data, { batchSize, indices, norm: options.inputGradients });
  return { ...base, queries, gradientNorm };
}
