import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from '../signals/model-signals';

/** Which per-example vector an NN attack reads (docs/protocol.md §3.2, §7 A2). */
export type AttackFeatureKind = 'logits' | 'posterior' | 'sortedLogits' | 'sortedPosterior' | 'queryCorrectness';

/** A feature choice: the kind, and whether the one-hot label is appended. */
export interface AttackFeatures {
  readonly kind: AttackFeatureKind;
  /** Append the one-hot true label (NN-SEL, NN-CRL). @default false */
  readonly withLabel?: boolean;
}

/** Width of the feature vector for `numClasses` classes and `numQueries` queries. */
export function featureDim(features: AttackFeatures, numClasses: number, numQueries: number): number {
  const base = features.kind === 'queryCorrectness' ? numQueries : numClasses;
  return base + (features.withLabel === true ? numClasses : 0);
}

/**
 * The feature matrix `[n, dim]` (row-major) of an NN attack: raw or ascending-sorted logits or
 * posteriors, or the correctness bits of the augmented queries, optionally followed by the one-hot label.
 *
 * @throws InvalidArgumentError when the signals lack logits/posteriors/queries.
 * @see docs/protocol.md §3.2 (feature column), §3.3 (correctness bits).
 */
export function attackFeatures(signals: ModelSignals, features: AttackFeatures): { values: Float32Array; dim: number } {
  const fn = 'attackFeatures';
  const c = signals.numClasses;
  const n = signals.size;
  let base: Float32Array;
  let width: number;
  if (features.kind === 'queryCorrectness') {
    const queries = signals.queries;
    if (queries === undefined || queries.length === 0) throw new InvalidArgumentError(`${fn}: queryCorrectness needs signals with queries, got none`);
    width = queries.length;
    base = new Float32Array(n * width);
    queries.forEach((q, a) => {
      if (q.correct === undefined) throw new InvalidArgumentError(`${fn}: queries[${a}] has no correctness; compute it from logits`);
      for (let i = 0; i < n; i++) base[i * width + a] = q.correct[i]!;
    });
  } else {
    const source = features.kind === 'logits' || features.kind === 'sortedLogits' ? signals.logits : signals.probabilities;
    if (source === undefined) throw new InvalidArgumentError(`${fn}: features '${features.kind}' need signals computed from logits, got loss-only signals`);
    width = c;
    base = Float32Array.from(source);
    if (features.kind === 'sortedLogits' || features.kind === 'sortedPosterior') {
      for (let i = 0; i < n; i++) base.subarray(i * c, (i + 1) * c).sort();
    }
  }
  if (features.withLabel !== true) return { values: base, dim: width };
  const dim = width + c;
  const values = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    values.set(base.subarray(i * width, (i + 1) * width), i * dim);
    values[i * dim + width + signals.labels[i]!] = 1;
  }
  return { values, dim };
}
