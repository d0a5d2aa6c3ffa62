import { InvalidArgumentError } from '@mia/core';
import type { ModelSignals } from '../signals/model-signals';

/** Names of the built-in per-example statistics a threshold attack can use. */
export type StatisticName = 'correctness' | 'loss' | 'confidence' | 'maxConfidence' | 'entropy' | 'modifiedEntropy' | 'phi' | 'gradientNorm' | 'queryAccuracy';

/** A statistic: a built-in name or a function returning one signed score per example (higher = member). */
export type Statistic = StatisticName | ((signals: ModelSignals) => Float64Array);

function need<T>(fn: string, signals: ModelSignals, field: keyof ModelSignals, value: T | undefined): T {
  if (value === undefined) {
    throw new InvalidArgumentError(`${fn}: the signals have no ${String(field)}; compute them from logits (or with the matching option of computeSignals)`);
  }
  return value;
}

const negate = (values: Float64Array): Float64Array => values.map((v) => -v);

/**
 * The membership score of a statistic with the sign convention of docs/protocol.md §3.0: confidence,
 * max-confidence, φ, correctness and query accuracy as they are; loss, entropy, m-entropy and the
 * gradient norm negated (lower means member for those).
 *
 * @param signals - One model's signals.
 * @param statistic - A {@link Statistic}.
 * @returns One score per example, higher = more likely member.
 * @throws InvalidArgumentError when the signals lack the field the statistic needs.
 * @see docs/protocol.md §3.0 "Membership scores".
 */
export function signedStatistic(signals: ModelSignals, statistic: Statistic): Float64Array {
  const fn = 'signedStatistic';
  if (typeof statistic === 'function') return statistic(signals);
  switch (statistic) {
    case 'correctness':
      return Float64Array.from(need(fn, signals, 'correct', signals.correct));
    case 'loss':
      return negate(signals.loss);
    case 'confidence':
      return Float64Array.from(signals.trueProbability);
    case 'maxConfidence':
      return Float64Array.from(need(fn, signals, 'maxProbability', signals.maxProbability));
    case 'entropy':
      return negate(need(fn, signals, 'entropy', signals.entropy));
    case 'modifiedEntropy':
      return negate(need(fn, signals, 'modifiedEntropy', signals.modifiedEntropy));
    case 'phi':
      return Float64Array.from(signals.phi);
    case 'gradientNorm':
      return negate(need(fn, signals, 'gradientNorm', signals.gradientNorm));
    case 'queryAccuracy': {
      const queries = need(fn, signals, 'queries', signals.queries);
      if (queries.length === 0) throw new InvalidArgumentError(`${fn}: queryAccuracy needs at least one query, got 0`);
      const out = new Float64Array(signals.size);
      for (const q of queries) need(fn, q, 'correct', q.correct).forEach((bit, i) => (out[i]! += bit / queries.length));
      return out;
    }
    default:
      throw new InvalidArgumentError(
        `${fn}: statistic must be one of correctness, loss, confidence, maxConfidence, entropy, modifiedEntropy, phi, gradientNorm, queryAccuracy or a function, got ${JSON.stringify(statistic)}`,
      );
  }
}
